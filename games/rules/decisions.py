"""A decision stack shared by games: "this seat must choose among these options, with this
default when its time runs out".

The stack lives in the game state as ``state["decisions"]``: a list of *frames*, the last
one on top. A frame holds the decisions asked at the same time (every player discarding
to a new hand limit, say); they are answered in any order, and the frame pops when the
last of them is answered. A nested effect pushes a new frame above the one it interrupts,
and only the top frame is open, so an effect waiting for an answer waits for everything
stacked above it first.

A decision is plain data::

    {"id": 7, "seat": 2, "kind": "discard", "prompt": "Discard down to 3 cards.",
     "public": "Seat 3 is choosing cards to discard.",
     "options": [{"value": "c12", "label": "The Black Knight"}, ...],
     "pick": [2, 2], "default": ["c12", "c40"], "data": {...}, "answer": None}

- ``prompt`` and ``options`` are shown only to the deciding seat; everyone else sees
  ``public`` (so a prompt may name hidden cards, ``public`` may not).
- ``pick`` is ``[least, most]`` values to choose; ``[1, 1]`` answers with one value, anything
  else with a list of distinct values.
- ``data`` is the engine's own note of what to do with the answer; it is never shown.

The engine answers with the move ``{"type": "decide", "id": ..., "choice": ...}``: it calls
``answer`` and, when that returns the finished frame, carries on with the effect that asked.
The shell sees each open decision as a ``Pending`` entry keyed by its id, so a seat's
deadline and stale-state guard follow its own decision, and a timeout answers the default.
"""
from __future__ import annotations

from itertools import combinations
from math import comb

from .base import IllegalMove, Pending
from .offered import same

DECIDE = "decide"
# A Pending made as base.Pending makes it -- a tuple of its three fields -- without its
# Python-level ``__new__`` (about half the cost of ``pending`` for a frame of judges):
# ``_new_record(Pending, (seat, kind, key))``, the same object of the same class
# (tests/rules/test_decisions.py compares them). The check fails at import if Pending's
# fields change.
_new_record = tuple.__new__
assert Pending._fields == ("seat", "kind", "key"), Pending._fields
# A multi-pick decision lists its combinations as moves only while they are this few;
# beyond that it lists its default, and any answer within its options and bounds is legal.
MAX_LISTED_COMBINATIONS = 64


def _frames(state: dict) -> list:
    return state.setdefault("decisions", [])


def ask(state: dict, *, seat: int, kind: str, prompt: str, options: list[dict], default,
        pick: tuple[int, int] = (1, 1), public: str = "", data: dict | None = None) -> dict:
    """Push a frame holding one decision and return it."""
    return push(state, [dict(seat=seat, kind=kind, prompt=prompt, options=options, default=default,
                             pick=pick, public=public, data=data)])[0]


def push(state: dict, specs: list[dict]) -> list[dict]:
    """Push a frame of decisions asked at the same time (``specs`` take ``ask``'s keywords).
    Returns the decisions. An empty list pushes nothing."""
    if not specs:
        return []
    frame = [_decision(state, **spec) for spec in specs]
    _frames(state).append(frame)
    return frame


def _decision(state: dict, *, seat: int, kind: str, prompt: str, options: list[dict], default,
              pick=(1, 1), public: str = "", data: dict | None = None) -> dict:
    least, most = pick
    values = [o["value"] for o in options]
    if not 0 <= least <= most or most > len(values) or _distinct_count(values) != len(values):
        raise ValueError(f"Bad decision: pick {pick} of {len(values)} distinct options.")
    state["decision_seq"] = seq = state.get("decision_seq", 0) + 1
    decision = {"id": seq, "seat": seat, "kind": kind, "prompt": prompt,
                "public": public or prompt, "options": options, "pick": [least, most],
                "default": default, "data": data or {}, "answer": None}
    _check_values(values, least, most, default)  # a default that is not a legal answer is the engine's bug
    return decision


def _distinct_count(values: list) -> int:
    """How many distinct values, lists and dicts told apart by ``_hashable``."""
    try:
        # No list or dict among them (nearly always: card ids, seats): _hashable would
        # leave every value as it is, so the plain set counts the same.
        return len(set(values))
    except TypeError:
        return len(set(map(_hashable, values)))


def top(state: dict) -> list[dict]:
    """The open frame (the decisions being asked now), or []."""
    frames = state.get("decisions")
    return frames[-1] if frames else []


def open_for(state: dict, seat: int) -> list[dict]:
    """The unanswered decisions of the open frame that ``seat`` owes."""
    return [d for d in top(state) if d["seat"] == seat and d["answer"] is None]


def waiting(state: dict) -> bool:
    """True while any decision is open: the game waits for answers before anything else."""
    return bool(state.get("decisions"))


def pending(state: dict) -> list[Pending]:
    """One ``Pending`` per seat owing an answer (its first open decision gives the key)."""
    out = []
    seen = set()
    for d in top(state):
        if d["answer"] is None:
            seat = d["seat"]
            if seat not in seen:
                seen.add(seat)
                out.append(_new_record(Pending, (seat, d["kind"], str(d["id"]))))
    return out


def answer(state: dict, seat: int, move: dict) -> list[dict] | None:
    """Record ``seat``'s answer (a ``decide`` move). Returns the frame's decisions, answers
    filled in, when this answer finished it (the frame is popped), else None."""
    decision_id = move.get("id")
    frame = top(state)
    # The first of open_for(state, seat) with this id, found in one pass over the frame.
    for decision in frame:
        if decision["seat"] == seat and decision["answer"] is None and decision["id"] == decision_id:
            break
    else:
        raise IllegalMove("There is no such choice waiting for you.")
    choice = move.get("choice")
    _check_choice(decision, choice)
    decision["answer"] = choice
    for d in frame:
        if d["answer"] is None:
            return None
    frames = state["decisions"]
    frames.pop()
    if not frames:
        del state["decisions"]
    return frame


def _check_choice(decision: dict, choice) -> None:
    least, most = decision["pick"]
    _check_values([o["value"] for o in decision["options"]], least, most, choice)


def _check_values(values: list, least: int, most: int, choice) -> None:
    """Refuse ``choice`` unless it answers a decision offering ``values``, ``least`` to
    ``most`` of them."""
    if least == most == 1:
        if choice not in values:
            raise IllegalMove("That is not one of the choices offered.")
        return
    if not isinstance(choice, list) or len(choice) > len(values):
        raise IllegalMove("Answer with a list of the choices offered.")
    if not least <= len(choice) <= most:
        raise IllegalMove(f"Choose {least} to {most}." if least != most else f"Choose exactly {least}.")
    for c in choice:
        if c not in values:
            raise IllegalMove("That is not one of the choices offered.")
    if _distinct_count(choice) != len(choice):
        raise IllegalMove("Choose each one at most once.")


def _hashable(value):
    return repr(value) if isinstance(value, (list, dict)) else value


def moves(state: dict, seat: int) -> list[dict]:
    """The ``decide`` moves ``seat`` may make now: every option of a single choice, every
    combination of a small multi-pick, else its default (see MAX_LISTED_COMBINATIONS)."""
    out = []
    for d in open_for(state, seat):
        least, most = d["pick"]
        values = [o["value"] for o in d["options"]]
        if least == most == 1:
            # a list comprehension, not a generator: no frame resumed for every option
            decision_id = d["id"]
            out += [{"type": DECIDE, "id": decision_id, "choice": v} for v in values]
            continue
        combos = [list(c) for n in range(least, most + 1) for c in combinations(values, n)
                  ] if _combinations_at_most(len(values), least, most, MAX_LISTED_COMBINATIONS) else None
        out.extend({"type": DECIDE, "id": d["id"], "choice": c} for c in (combos or [d["default"]]))
    return out


def _combinations_at_most(n: int, least: int, most: int, limit: int) -> bool:
    return sum(comb(n, k) for k in range(least, most + 1)) <= limit


def default_move(state: dict, seat: int) -> dict | None:
    """The answer given for ``seat`` when its time runs out: its first open decision's default."""
    mine = open_for(state, seat)
    return {"type": DECIDE, "id": mine[0]["id"], "choice": mine[0]["default"]} if mine else None


def view(state: dict, seat: int | None) -> list[dict]:
    """The open frame as ``seat`` may see it: its own decisions whole (but ``data``), the
    others' only as who is deciding what, in ``public`` words."""
    out = []
    for d in top(state):
        if d["answer"] is not None:
            out.append({"id": d["id"], "seat": d["seat"], "kind": d["kind"], "done": True, "public": d["public"]})
        elif d["seat"] == seat:
            out.append({"id": d["id"], "seat": d["seat"], "kind": d["kind"], "done": False, "mine": True,
                        "prompt": d["prompt"], "options": d["options"], "pick": d["pick"], "default": d["default"]})
        else:
            out.append({"id": d["id"], "seat": d["seat"], "kind": d["kind"], "done": False, "mine": False,
                        "public": d["public"]})
    return out


class Answer:
    """The free-field check of a ``decide`` move's ``choice`` (``Game.free_fields``): a
    multi-pick decision lists only some of its answers (``moves``), and any answer within
    its options and bounds is offered; a single pick must be one of its options. Types
    count as in ``offered.same``. ``frame`` gives the open decisions (``top``; Camelot's
    asks keep a frame of their own)."""

    def __init__(self, frame=top) -> None:
        self.frame = frame

    def refusal(self, name, choice, state, seat, move, listed) -> str | None:
        decision_id = move.get("id")
        for d in self.frame(state):
            if d["seat"] == seat and d["answer"] is None and same(d["id"], decision_id):
                break
        else:
            return "There is no such choice waiting for you."
        values = [o["value"] for o in d["options"]]
        least, most = d["pick"]
        if least == most == 1:
            return None if any(same(choice, v) for v in values) else "That is not one of the choices offered."
        if type(choice) is not list or not least <= len(choice) <= most:
            return f"Choose {least} to {most}." if least != most else f"Choose exactly {least}."
        for i, c in enumerate(choice):
            if not any(same(c, v) for v in values):
                return "That is not one of the choices offered."
            if any(same(c, earlier) for earlier in choice[:i]):
                return "Choose each one at most once."
        return None
