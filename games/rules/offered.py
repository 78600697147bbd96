"""Whether a person's move is one the rules offer that seat now (``Game.offered``).

A person's move comes from a request, so it may be anything JSON can hold; ``apply`` alone
would take whatever it can make sense of (Camelot's ``{"type": "end_turn", "timed_out":
true}``, the clock's own move, sent by a player). The shell therefore applies a person's
move only when it is *offered*:

- it is one of the moves ``legal_moves`` lists for the seat, exactly: the same fields, and
  each value equal with the same JSON type (``1`` is not ``true``, ``1.0`` not ``1``); or
- its type is one whose fields no list can hold (free text, a chosen subset, an aim), which
  the game declares in ``Game.free_fields``: ``{move type: {field: check}}``. Such a move
  is offered when a listed move of its type has exactly its fields and the same value in
  every field but the free ones, and each free field passes its check (``Text``,
  ``Number``, ``SubsetOfListed`` here; ``decisions.Answer`` for a decision's answer); or
- it is one of the base contract's own moves: ``{"type": "resign"}``, and
  ``{"type": "takeback", "mark": <int>}`` where the game keeps take-backs. These are
  offered by shape; ``apply`` says whether the seat may make them now.

A move refused here is refused with words a person can read. A move offered may still be
refused by ``apply`` (a take-back's stale mark, a Fluxx quote in an older game that must
name the card): ``offered`` only closes the door on what no list holds.

The clock's and a computer's moves are the rules' own (``timeout_move``, a level choosing
among the listed moves): the shell applies them by its own path, which no request reaches.

Pure: nothing here imports the rest of the contract, so ``base`` and ``decisions`` may
import it.
"""
from __future__ import annotations

import math

SHAPE = "A move must be an object with a 'type'."
NOT_OPEN = "That move is not open to you now."
OVER = "The game is over."
RESIGN = "resign"
TAKEBACK = "takeback"  # takeback.MOVE, spelled here so this module imports nothing


def same(a, b) -> bool:
    """``a == b`` for JSON data, types included: ``True`` is not ``1``, ``1.0`` not ``1``,
    a tuple not a list (a move read from JSON holds no tuple)."""
    cls = type(a)
    if cls is not type(b):
        return False
    if cls is dict:
        return a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())
    if cls is list:
        return len(a) == len(b) and all(map(same, a, b))
    return a == b


# --- the checks a game declares for its free fields ------------------------------------

class Text:
    """Free text of at most ``max_chars`` characters (a question, a quote, a song)."""

    def __init__(self, max_chars: int) -> None:
        self.max_chars = max_chars

    def refusal(self, name, value, state, seat, move, listed) -> str | None:
        if type(value) is not str or len(value) > self.max_chars:
            return f"'{name}' must be text of at most {self.max_chars} characters."
        return None


class Number:
    """A finite number from ``low`` to ``high`` (a whole or a decimal one, never true/false)."""

    def __init__(self, low: float, high: float) -> None:
        self.low, self.high = low, high

    def refusal(self, name, value, state, seat, move, listed) -> str | None:
        if type(value) not in (int, float) or not math.isfinite(value) or not self.low <= value <= self.high:
            return f"'{name}' must be a number from {self.low:g} to {self.high:g}."
        return None


class SubsetOfListed:
    """A list of at least ``least`` different values, each one the listed moves carry in
    this field (the listing names each value alone, and perhaps all of them together)."""

    def __init__(self, least: int = 1) -> None:
        self.least = least

    def refusal(self, name, value, state, seat, move, listed) -> str | None:
        if type(value) is not list or len(value) < self.least:
            return f"'{name}' must list at least {self.least} of the choices offered."
        offered = [v for m in listed for v in m[name]]
        for i, v in enumerate(value):
            if not any(same(v, o) for o in offered):
                return f"'{name}' may only name choices offered to you."
            if any(same(v, w) for w in value[:i]):
                return f"'{name}' names a choice twice."
        return None


# --- the rule ------------------------------------------------------------------------------

def refusal(game, state, seat, move) -> str | None:
    """Why ``move`` is not offered to ``seat`` in ``state``, in words; None when it is.
    See the module's docstring; ``game.offered_candidates`` gives the listed moves."""
    if type(move) is not dict or type(move.get("type")) is not str:
        return SHAPE
    if game.outcome(state) is not None:
        return OVER
    kind = move["type"]
    if kind == RESIGN:
        return None if len(move) == 1 else _extra_fields(move, ({"type": RESIGN},))
    if kind == TAKEBACK and game.allows_takebacks(state):
        return _takeback_refusal(move)
    listed = game.offered_candidates(state, seat, move)
    if move in listed:  # equality in C first; the types are compared for the equal ones only
        for m in listed:
            if m == move and same(m, move):
                return None
    free = game.free_fields.get(kind)
    if free is None:
        return _not_open(move, listed)
    keys = move.keys()
    matching = [m for m in listed if m["type"] == kind and m.keys() == keys
                and all(same(v, move[k]) for k, v in m.items() if k not in free)]
    if not matching:
        return _not_open(move, listed)
    for name, check in free.items():
        if name in move:
            why = check.refusal(name, move[name], state, seat, move, matching)
            if why is not None:
                return why
    return None


def _takeback_refusal(move: dict) -> str | None:
    if move.keys() != {"type", "mark"}:
        return _extra_fields(move, ({"type": TAKEBACK, "mark": 0},)) or "A take-back names the mark it was offered with."
    if type(move["mark"]) is not int:
        return "A take-back names the mark it was offered with."
    return None


def _not_open(move: dict, listed: list[dict]) -> str:
    """The refusal of a move no listed move matches: naming the fields no listed move of
    its type has, when that is what is wrong (``timed_out`` on an end of turn)."""
    kind = move["type"]
    return _extra_fields(move, [m for m in listed if m["type"] == kind]) or NOT_OPEN


def _extra_fields(move: dict, same_type) -> str | None:
    if not same_type:
        return None
    known = set().union(*(m.keys() for m in same_type))
    extra = sorted(str(k) for k in move if k not in known)
    if not extra:
        return None
    return f"That move has {'a field' if len(extra) == 1 else 'fields'} the rules do not take: {', '.join(extra)}."
