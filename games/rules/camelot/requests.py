"""Asks answered out of turn: an ally lending units, permission to disengage, a revival.

Camelot's asks never block anyone, so every open ask sits in one frame of
games/rules/decisions.py's stack (``state["decisions"]``) and each is removed as soon as
it is answered. An ally's or a disengage ask lapses (as a "no") when the asking turn ends.
"""
from __future__ import annotations

from .. import decisions
from ..base import Event, IllegalMove
from . import editions
from .combat import ally_candidates
from .pieces import NAMES, unit_label, unit_name
from .sight import in_sight
from .state import board_of

YES_NO = [{"value": "yes", "label": "Yes"}, {"value": "no", "label": "No"}]


def open_asks(state: dict) -> list[dict]:
    frames = state.get("decisions")
    return frames[0] if frames else []


def _add(state: dict, **spec) -> dict:
    decisions.push(state, [spec])
    frames = state["decisions"]
    if len(frames) > 1:  # keep every ask in one frame: all are open at once
        frames[0].extend(frames.pop())
    return frames[0][-1]


def _remove(state: dict, decision: dict) -> None:
    frame = state["decisions"][0]
    frame.remove(decision)
    if not frame:
        del state["decisions"]


def asked(state: dict, seat: int, kind: str, **data) -> bool:
    return any(d["seat"] == seat and d["kind"] == kind and all(d["data"].get(k) == v for k, v in data.items())
               for d in open_asks(state))


def ask_ally(state: dict, asker: int, target: str, ally: int, events: list) -> None:
    turn = state["turns"][str(asker)]
    # An ask is kept in the state, so its words follow the game's edition (stored games replay).
    if editions.numbered_names(editions.of(state)):
        name, whom = (lambda uid: unit_name(uid)), unit_label(state["units"], target, state["item_values"])
    else:
        name = (lambda uid: unit_name(uid, numbered=False))
        whom = name(target)
    options = [{"value": uid, "label": f"{name(uid)} at {state['units'][uid]['hex']}"} for uid in ally_candidates(state, ally, target)]
    _add(state, seat=ally, kind="ally", options=options, default=[], pick=(0, len(options)),
         prompt=f"Seat {asker + 1} asks you to join the attack on {whom}: choose units to lend (none to refuse).",
         public=f"Seat {ally + 1} is asked to join seat {asker + 1}'s attack on {whom}.",
         data={"asker": asker, "turn": turn["number"], "target": target})
    events.append(Event("ask", f"Seat {asker + 1} asks seat {ally + 1} to help against {unit_name(target)}.",
                        data={"kind": "ally", "seat": ally, "target": target}))


def ask_disengage(state: dict, asker: int, other: int, events: list) -> None:
    turn = state["turns"][str(asker)]
    _add(state, seat=other, kind="disengage", options=YES_NO, default="no",
         prompt=f"Seat {asker + 1} asks to let their units leave yours this turn.",
         public=f"Seat {asker + 1} asks seat {other + 1} for leave to disengage.",
         data={"asker": asker, "turn": turn["number"]})
    events.append(Event("ask", f"Seat {asker + 1} asks seat {other + 1} for leave to disengage.",
                        data={"kind": "disengage", "seat": other}))


def answer(state: dict, seat: int, move: dict, events: list) -> None:
    decision = next((d for d in open_asks(state) if d["id"] == move.get("id") and d["seat"] == seat), None)
    if decision is None:
        raise IllegalMove("There is no such question waiting for you.")
    decisions._check_choice(decision, move.get("choice"))
    choice = move["choice"]
    _remove(state, decision)
    data, kind = decision["data"], decision["kind"]
    if kind == "ally":
        turn = state["turns"].get(str(data["asker"]))
        if turn is not None and turn["number"] == data["turn"]:
            taken = {a["unit"] for a in turn["allies"]}
            for uid in choice:
                if uid not in taken:
                    turn["allies"].append({"seat": seat, "unit": uid, "target": data["target"]})
        events.append(Event("answer", f"Seat {seat + 1} lends {len(choice)} unit(s) against {unit_name(data['target'])}.",
                            data={"kind": kind, "seat": seat, "units": choice}))
    elif kind == "disengage":
        turn = state["turns"].get(str(data["asker"]))
        if choice == "yes" and turn is not None and turn["number"] == data["turn"] and seat not in turn["permissions"]:
            turn["permissions"].append(seat)
        events.append(Event("answer", f"Seat {seat + 1} says {choice} to disengaging.", data={"kind": kind, "seat": seat, "choice": choice}))
    elif kind == "revive":
        owner, kind_of = data["owner"], data["type"]
        if choice == "yes" and state["lost"][owner][kind_of] > 0:
            state["lost"][owner][kind_of] -= 1
            state["pool"][owner][kind_of] += 1
            for other in [d for d in open_asks(state) if d["kind"] == "revive" and d["data"]["death"] == data["death"]]:
                _remove(state, other)  # one death, one revival
            events.append(Event("revive", f"Seat {seat + 1}'s Morgan brings back seat {owner + 1}'s {NAMES[kind_of]}.",
                                data={"seat": owner, "type": kind_of}))
        else:
            events.append(Event("answer", f"Seat {seat + 1} lets the dead rest.", data={"kind": kind, "seat": seat}))


def lapse_turn_asks(state: dict, asker: int, number: int) -> None:
    """The asking turn ended: its unanswered ally and disengage asks go away."""
    for d in list(open_asks(state)):
        if d["kind"] in ("ally", "disengage") and d["data"].get("asker") == asker and d["data"].get("turn") == number:
            _remove(state, d)


def drop_asks_of(state: dict, seat: int) -> None:
    """A player who leaves owes no answers (each counts as a no)."""
    for d in list(open_asks(state)):
        if d["seat"] == seat or d["data"].get("asker") == seat:
            _remove(state, d)


def offer_revivals(state: dict, deaths: list[dict], events: list) -> None:
    """Morgan brings back any non-Arthur whose death she saw: her own side's at once, other
    players' if her owner says yes (an ask). Arthurs come back anyway; guardians never."""
    board = board_of(state)
    morgans = [(u["seat"], u["hex"]) for u in state["units"].values() if u["type"] == "morgan" and not u["guardian"]]
    for death in deaths:
        owner = death["seat"]
        if owner is None or death["type"] == "arthur" or not state["active"][owner]:
            continue
        witnesses = {s for s, h in morgans if in_sight(board, h, death["hex"])}
        if owner in witnesses:
            if state["lost"][owner][death["type"]] > 0:
                state["lost"][owner][death["type"]] -= 1
                state["pool"][owner][death["type"]] += 1
                events.append(Event("revive", f"Seat {owner + 1}'s Morgan saw {unit_name(death['uid'])} fall and brings it back.",
                                    data={"seat": owner, "type": death["type"]}))
            continue
        for s in sorted(witnesses):
            _add(state, seat=s, kind="revive", options=YES_NO, default="no",
                 prompt=f"Your Morgan saw seat {owner + 1}'s {NAMES[death['type']]} die. Bring it back to their pool?",
                 public=f"Seat {s + 1} may bring back seat {owner + 1}'s {NAMES[death['type']]}.",
                 data={"owner": owner, "type": death["type"], "unit": death["uid"],
                      "death": f"{state['turn_seq']}-{death['uid']}"})
