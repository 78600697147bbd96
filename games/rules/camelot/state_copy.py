"""A fast private copy of a Camelot state for ``apply``.

The state's shape is known and shallow: copying its containers (and sharing the strings
and numbers) is several times faster than ``copy.deepcopy``. Any key not named here is
deep-copied generically, so a new key is never shared by mistake. Open asks share only the
parts games/rules/decisions.py never changes once asked (prompt, options, default, data).
"""
from __future__ import annotations

_FLAT_LISTS = ("rolls", "order", "entries", "active", "pauses_left", "tokens", "last_combat")
_LISTS_OF_DICTS = ("pool", "lost", "spells")
_HANDLED = frozenset(_FLAT_LISTS + _LISTS_OF_DICTS + (
    "options", "rng", "banked", "turns", "units", "items", "item_values", "decisions", "paused", "result"))


def clone(value):
    if type(value) is dict:
        return {k: clone(v) for k, v in value.items()}
    if type(value) is list:
        return [clone(v) for v in value]
    return value


def copy_state(state: dict) -> dict:
    new = dict(state)
    for key in _FLAT_LISTS:
        new[key] = list(state[key])
    for key in _LISTS_OF_DICTS:
        new[key] = [dict(d) for d in state[key]]
    new["options"] = dict(state["options"])  # never changed after setup, copied anyway: it is tiny
    new["rng"] = dict(state["rng"])
    new["item_values"] = dict(state["item_values"])
    new["banked"] = [{"items": list(b["items"]), "coins": list(b["coins"])} for b in state["banked"]]
    new["units"] = {uid: dict(u) for uid, u in state["units"].items()}
    new["items"] = {h: list(v) for h, v in state["items"].items()}
    new["turns"] = {k: {**t, "declared": list(t["declared"]), "moved": list(t["moved"]),
                        "strikes": [dict(s) for s in t["strikes"]], "permissions": list(t["permissions"]),
                        "struck": list(t["struck"]), "allies": [dict(a) for a in t["allies"]]}
                    for k, t in state["turns"].items()}
    if "decisions" in state:
        new["decisions"] = [[dict(d) for d in frame] for frame in state["decisions"]]
    new["paused"] = dict(state["paused"]) if state["paused"] else None
    new["result"] = clone(state["result"])
    new["last_combat"] = [dict(c) for c in state["last_combat"]]
    for key, value in state.items():
        if key not in _HANDLED and key not in _FLAT_LISTS and type(value) in (dict, list):
            new[key] = clone(value)
    return new
