"""Taking back moves: the states a player may return to, kept in the state itself.

A game that allows take-backs (``Game.takebacks``) gets, after every move, a ``"takeback"``
entry in its state: a ``mark`` that grows with every move and, when the move may be taken
back, its ``seat``, the ``move`` and the state ``before`` it (which carries its own entry,
so a player may step back through several moves of a turn). A move that may not be taken
back, by anyone, leaves no ``before``: the chain is cut there, so nobody ever steps back past
another player's move, a random draw or a card coming to light.

Taking back is itself a move, ``{"type": "takeback", "mark": N}``, recorded like any other,
so ``setup(seed)`` plus the log still replays the game exactly. The mark is what the player
saw: a take-back sent twice, or after anything changed, names an old mark and is refused
instead of stepping back one move too many.

Kept as plain data so it is stored and replayed with the rest of the state; earlier states
are shared, never changed, so the chain costs no copy in memory. Pure: no Django.
"""
from __future__ import annotations

KEY = "takeback"
MOVE = "takeback"
# A chain longer than a turn's moves has no use and only makes the stored state larger:
# a Camelot turn has at most a declaration, two movements and a few drops.
MAX_STEPS = 8


def without_chain(state: dict) -> dict:
    """``state`` without its take-back entry (a shallow copy; the state itself if none)."""
    if KEY not in state:
        return state
    return {k: v for k, v in state.items() if k != KEY}


def _closed(mark: int) -> dict:
    """An entry with nothing to take back."""
    return {"mark": mark, "seat": None, "move": None, "before": None}


def _entry(state: dict) -> dict:
    return state.get(KEY) or _closed(0)


def _depth(state: dict) -> int:
    steps = 0
    while (before := _entry(state)["before"]) is not None:
        steps, state = steps + 1, before
    return steps


def extend(previous: dict, new: dict, seat: int, move: dict | None) -> None:
    """Give ``new`` (made from ``previous`` by ``seat``'s ``move``) its entry: the move may be
    taken back when ``move`` is given, otherwise the chain ends here."""
    mark = _entry(previous)["mark"] + 1
    if move is None:
        new[KEY] = _closed(mark)
        return
    before = previous if _depth(previous) < MAX_STEPS else _cut(previous, MAX_STEPS - 1)
    new[KEY] = {"mark": mark, "seat": seat, "move": move, "before": before}


def _cut(state: dict, keep: int) -> dict:
    """``state`` with only its newest ``keep`` steps back (shallow copies along the chain:
    the states themselves are shared, never changed)."""
    entry = _entry(state)
    if entry["before"] is None:
        return state
    cut = dict(state)
    if keep == 0:
        cut[KEY] = _closed(entry["mark"])
    else:
        cut[KEY] = {**entry, "before": _cut(entry["before"], keep - 1)}
    return cut


def mark_for(state: dict, seat: int | None) -> int | None:
    """The mark ``seat`` must send to take back its last move now, or None."""
    entry = _entry(state)
    if seat is None or entry["before"] is None or entry["seat"] != seat:
        return None
    return entry["mark"]


def refusal(state: dict, seat: int, move: dict) -> str | None:
    """Why ``seat`` may not take back now with ``move``, in words; None when it may."""
    sent, mark = move.get("mark"), mark_for(state, seat)
    if type(sent) is int and 0 < sent < _entry(state)["mark"]:  # a doubled click lands here
        return "That take-back is out of date: the game has changed since you saw it. Look again."
    if mark is None:
        return ("You have no move to take back: a move can be taken back only until you or "
                "another player moves again, and never once it showed or drew anything.")
    if type(sent) is not int or sent != mark:
        return "A take-back names the mark the game offered it with."
    return None


def restore(state: dict) -> tuple[dict, dict, dict]:
    """The state before the last move, its entry renewed with the next mark (so a stale
    take-back can never match again), with the move taken back and the state it was made in.
    Call only when ``refusal`` said None."""
    entry = state[KEY]
    before = entry["before"]
    restored = dict(before)  # shallow: its parts are shared with ``before``, which nothing changes
    inner = _entry(before)
    restored[KEY] = {"mark": entry["mark"] + 1, "seat": inner["seat"], "move": inner["move"],
                     "before": inner["before"]}
    return restored, entry["move"], before
