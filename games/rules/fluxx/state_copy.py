"""A fast private copy of a Fluxx state for ``apply``.

The state is plain JSON data whose shape is known: most of it is flat lists of card ids
(immutable strings, safely shared). Copying the containers and not the strings is several
times faster than ``copy.deepcopy`` or a marshal round trip, which matters because every
move copies the state. Any key this module does not know is copied generically, so a new
key is never shared by mistake; the one thing shared on purpose is the frozen payload of an
open decision (tests/rules/fluxx/test_fx_contract.py checks both).
"""
from __future__ import annotations

_FLAT_LISTS = ("active", "turns_taken", "draw", "discard", "rules", "goals", "limbo", "songs", "tie")
_NESTED_LISTS = ("hands", "tables")
_FLAT_DICTS = ("options", "rng")
_HANDLED = frozenset(_FLAT_LISTS + _NESTED_LISTS + _FLAT_DICTS + ("turn", "accents", "decisions"))


def clone(value):
    """A deep copy of plain JSON data."""
    if type(value) is dict:
        return {k: clone(v) for k, v in value.items()}
    if type(value) is list:
        return [clone(v) for v in value]
    return value


def copy_state(state: dict) -> dict:
    new = dict(state)
    for key in _FLAT_LISTS:
        new[key] = state[key][:]
    for key in _NESTED_LISTS:
        new[key] = [inner[:] for inner in state[key]]
    for key in _FLAT_DICTS:
        new[key] = dict(state[key])
    new["accents"] = [dict(a) if a else a for a in state["accents"]]
    turn = dict(state["turn"])
    turn["used"] = turn["used"][:]
    new["turn"] = turn
    if "decisions" in state:
        # games/rules/decisions.py never changes a decision's prompt, options, default or
        # data once asked (only its "answer"), so those are shared, the rest copied.
        new["decisions"] = [[dict(d) for d in frame] for frame in state["decisions"]]
    for key, value in state.items():
        if key not in _HANDLED and type(value) in (dict, list):
            new[key] = clone(value)
    return new
