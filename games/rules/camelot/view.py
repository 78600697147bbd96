"""What a seat (or a spectator) sees: everything but the generator's state.

Camelot hides nothing, so every seat and spectator sees the same table; ``me`` and the
asks' ``mine`` flags (and only the asked seat sees an ask's prompt and options) differ.
"""
from __future__ import annotations

from .. import decisions
from . import combat, editions
from .requests import open_asks
from .setup import entry_chooser, entry_choices
from .state import gold_of


def build_view(state: dict, seat: int | None) -> dict:
    n = state["players"]
    chooser = entry_chooser(state) if state["phase"] == "entry" else None
    players = [{
        "seat": s, "entry": state["entries"][s], "active": state["active"][s],
        "pool": dict(state["pool"][s]), "lost": dict(state["lost"][s]), "spells": dict(state["spells"][s]),
        "banked": {"items": list(state["banked"][s]["items"]), "gold": gold_of(state, s),
                   "coins": list(state["banked"][s]["coins"])},
        "pauses_left": state["pauses_left"][s],
    } for s in range(n)]
    turns = {k: {"number": t["number"], "stage": t["stage"], "declared": list(t["declared"]),
                 "moved": list(t["moved"]), "moves_left": t["moves_left"],
                 "strikes": [dict(x) for x in t["strikes"]], "permissions": list(t["permissions"]),
                 "allies": [dict(a) for a in t["allies"]]}
             for k, t in state["turns"].items()}
    frozen = sorted({uid for t in state["turns"].values() for uid in t["declared"]})
    # decisions.view reads the top frame; Camelot keeps every open ask in one frame.
    asks = decisions.view({"decisions": [open_asks(state)]} if open_asks(state) else {}, seat)
    attack = None
    if seat is not None and state["phase"] == "play" and seat in state["tokens"] and state["result"] is None:
        # The holder's own attack, before declaring (every target it may declare) and after
        # (its declared targets): strength still able to reach each, and the failure's cost.
        turn = state["turns"][str(seat)]
        if turn["declared"]:
            attack = combat.attack_preview(state, seat, turn["declared"])
        elif turn["stage"] == "declare":
            attack = combat.attack_preview(state, seat, combat.declarable(state, seat))
    return {
        "board": state["board"], "edition": editions.of(state), "me": seat, "phase": state["phase"], "options": dict(state["options"]),
        "order": list(state["order"]), "rolls": list(state["rolls"]),
        "entry_turn": chooser, "entry_choices": entry_choices(state) if chooser is not None else [],
        "players": players, "tokens": list(state["tokens"]), "turns": turns,
        "units": {uid: dict(u) for uid, u in state["units"].items()},
        "items": {h: list(v) for h, v in state["items"].items()},
        "item_values": dict(state["item_values"]), "frozen": frozen, "decisions": asks,
        "paused": dict(state["paused"]) if state["paused"] else None,
        "turn_count": state["turn_count"], "turn_cap": state["options"]["turn_cap"],
        "last_combat": [dict(c) for c in state["last_combat"]],
        "result": dict(state["result"]) if state["result"] else None,
        "attack": attack,
    }


def moved_since_turn(state: dict, seat: int, events_newest_first) -> dict[str, str | None]:
    """Unit id -> the hex it first left since ``seat`` last ended a turn (None: brought on from
    the reserve), for the units other players moved in that time, read from the move events
    back to that end of turn. A unit back where it was (a move taken back) or gone (dead) is
    left out: nothing to see."""
    units = state["units"]
    first_from: dict[str, str | None] = {}
    for event in events_newest_first:
        kind, data = event.get("kind"), event.get("data") or {}
        if kind == "end_turn" and data.get("seat") == seat:
            break
        uid = data.get("unit")
        if kind != "move" or not uid:
            continue
        # Moves stored before they said who made them: the unit's owner did.
        mover = data["seat"] if "seat" in data else units.get(uid, {}).get("seat")
        if mover != seat:
            # Read newest first: the last one written is where the unit stood first.
            first_from[uid] = data.get("from")
    return {uid: was for uid, was in first_from.items() if uid in units and units[uid]["hex"] != was}
