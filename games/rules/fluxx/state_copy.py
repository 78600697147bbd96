"""A fast private copy of a Fluxx state for ``apply``.

The state is plain JSON data whose shape is known: most of it is flat lists of card ids
(immutable strings, safely shared). Copying the containers and not the strings is several
times faster than ``copy.deepcopy`` or a marshal round trip, which matters because every
move copies the state. Any key this module does not know is copied generically, so a new
key is never shared by mistake. Shared on purpose: the frozen payload of an open decision,
and the keys of ``SHARED`` (with the turn's ``used``), which most moves leave alone and the
engine changes only through ``zones.own`` (a copy first) or by replacing them whole
(tests/rules/fluxx/test_fx_contract.py checks all three, and that ``apply`` never changes
the state it was given).
"""
from __future__ import annotations

from operator import itemgetter

# Keys copied by hand below, or shared (SHARED); any other key is copied generically (``clone``).
_HANDLED = frozenset(("active", "turns_taken", "draw", "discard", "rules", "goals", "limbo", "songs", "tie",
                      "hands", "tables", "options", "rng", "turn", "accents", "decisions", "effects", "result"))
# Shared with the state copied: never changed in place by the engine (zones.own copies
# one before changing it; "tie" is only ever replaced whole; "options" only read).
SHARED = frozenset(("active", "turns_taken", "draw", "rules", "goals", "songs", "tie", "options", "rng", "accents"))
# Keys known to hold numbers or strings (shared safely by ``dict(state)``): a state with no key outside
# these two sets skips the generic pass (a subset test allocates nothing; a difference does).
_SCALARS = frozenset(("first", "extra_turns", "decision_seq", "deck", "quotes", "fling"))  # the last three: strings
_KNOWN = _HANDLED | _SCALARS
_MANDATORY = len(_HANDLED - {"decisions"})  # read by copy_state whatever the state holds
assert _SCALARS == {"first", "extra_turns", "decision_seq", "deck", "quotes", "fling"}  # counted by name below
_read_shared = itemgetter(*sorted(SHARED))
# list.copy called directly costs a third of what a [:] slice does (no slice object).
_copy_list = list.copy


_CONTAINERS = (dict, list)


def clone(value):
    """A deep copy of plain JSON data. Strings and numbers are taken as they are without a
    call each (an effect frame's lists are mostly card ids)."""
    if type(value) is dict:
        return {k: clone(v) if type(v) in _CONTAINERS else v for k, v in value.items()}
    if type(value) is list:
        return [clone(v) if type(v) in _CONTAINERS else v for v in value]
    return value


def _clone_frames(frames: list) -> list:
    """``clone`` of the effect stack: each frame copied whole (its strings and numbers at
    C speed), then only its lists and dicts (a pool, an answer) cloned in their place."""
    out = []
    for frame in frames:
        new = frame.copy()
        for key, value in frame.items():
            if type(value) in _CONTAINERS:
                new[key] = clone(value)
        out.append(new)
    return out


def copy_state(state: dict) -> dict:
    # Spelled out key by key rather than looped over tables of key names: this runs once
    # per move, and the loops and lookups cost more than the copying (bench/fluxx_engine.py).
    # The keys of SHARED (and the turn's "used") are shared with ``state``, not copied:
    # the engine never changes them in place but through ``zones.own``, which copies first
    # (or replaces them whole), and most moves change none of them.
    new = dict(state)
    _read_shared(state)  # a state lacking one raises here, as when they were copied (see below)
    new["discard"] = _copy_list(state["discard"])
    new["limbo"] = _copy_list(state["limbo"])
    # The lists of hands and of tables are copied, the hands and tables in them shared
    # (changed only through zones.own_at, which copies one first).
    new["hands"] = _copy_list(state["hands"])
    new["tables"] = _copy_list(state["tables"])
    new["turn"] = state["turn"].copy()
    effects = state["effects"]
    new["effects"] = _clone_frames(effects) if effects else []
    if state["result"] is not None:
        new["result"] = clone(state["result"])
    if "decisions" in state:
        # games/rules/decisions.py never changes a decision's prompt, options, default or
        # data once asked (only its "answer"), so those are shared, the rest copied.
        new["decisions"] = [[d.copy() for d in frame] for frame in state["decisions"]]
    # "Every key is known" (state.keys() <= _KNOWN), counted instead of looked up key by
    # key: the handled keys but "decisions" were all read above (a missing one has raised
    # already), so the state has no other key exactly when its length is theirs plus the
    # optional known keys it holds.
    if len(state) == _MANDATORY + ("decisions" in state) + ("decision_seq" in state) + ("first" in state) \
            + ("extra_turns" in state) + ("deck" in state) + ("quotes" in state) + ("fling" in state):
        return new
    for key in state.keys() - _HANDLED:
        value = state[key]
        if type(value) in (dict, list):
            new[key] = clone(value)
    return new
