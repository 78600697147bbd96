"""Items and gold: picking up, dropping, banking at one's Entry hex, and the goals."""
from __future__ import annotations

from ..base import Event
from .pieces import can_carry, item_name, unit_name
from .setup import excalibur_in_play
from .state import gold_of

GOLD_TO_WIN = 15
ITEMS_TO_WIN = 2
ACCOUTREMENTS = ("crown", "scepter", "robe", "throne")
# What a unit takes when several things lie where it stops (documented choice).
_PREFERENCE = {"excalibur": 0, "crown": 1, "scepter": 2, "robe": 3, "throne": 4}


def is_gold(item: str) -> bool:
    return item.startswith("gold-")


def pick_up(state: dict, uid: str, events: list) -> None:
    """A unit not carrying anything that stops where items lie takes one it may carry."""
    unit = state["units"][uid]
    if unit["carry"] is not None or unit["guardian"]:
        return
    here = state["items"].get(unit["hex"])
    if not here:
        return
    values = state["item_values"]
    options = [i for i in here if can_carry(unit["type"], i)]
    if not options:
        return
    item = min(options, key=lambda i: (_PREFERENCE.get(i, 9), -values.get(i, 0), i))
    here.remove(item)
    if not here:
        del state["items"][unit["hex"]]
    unit["carry"] = item
    events.append(Event("pick_up", f"{unit_name(uid)} picks up {item_name(item, values)}.", data={"unit": uid, "item": item}))


def drop(state: dict, uid: str) -> str | None:
    """The unit's item goes onto its hex (also when the unit dies or leaves)."""
    unit = state["units"][uid]
    item = unit["carry"]
    if item is not None:
        state["items"].setdefault(unit["hex"], []).append(item)
        unit["carry"] = None
    return item


def bank(state: dict, uid: str, events: list) -> None:
    """A carrier standing on its owner's Entry hex hands the item over at once."""
    unit = state["units"][uid]
    seat = unit["seat"]
    if unit["carry"] is None or seat is None or state["entries"][seat] != unit["hex"]:
        return
    item = unit["carry"]
    unit["carry"] = None
    bank_of = state["banked"][seat]
    (bank_of["coins"] if is_gold(item) else bank_of["items"]).append(item)
    events.append(Event("bank", f"Seat {seat + 1} brings {item_name(item, state['item_values'])} home.", data={"seat": seat, "item": item}))
    check_goals(state, events)


def outstanding(state: dict) -> bool:
    """Something collectible is still out (lying on the board or carried)."""
    return bool(state["items"]) or any(u["carry"] for u in state["units"].values())


def check_goals(state: dict, events: list) -> None:
    """Set ``state["result"]`` when a goal is met (see docs/rules/camelot.md, Winning)."""
    if state["result"] is not None:
        return
    options, n = state["options"], state["players"]
    basic = not options["accoutrements"] and not options["gold"]
    winners = []
    for seat in range(n):
        if not state["active"][seat]:
            continue
        banked = state["banked"][seat]
        if basic and "excalibur" in banked["items"]:
            winners.append((seat, "brought Excalibur home"))
        elif options["accoutrements"] and len(banked["items"]) >= ITEMS_TO_WIN:
            winners.append((seat, "brought two items of kingship home"))
        elif options["gold"] and gold_of(state, seat) >= GOLD_TO_WIN:
            winners.append((seat, f"brought {GOLD_TO_WIN} gold home"))
    if winners:
        seat, why = winners[0]  # banking is one move, so one seat at a time
        # The log has just said what was brought home (``bank``): its last line says who won,
        # not the same happening again; the outcome keeps the reason.
        finish(state, [seat], False, f"Seat {seat + 1} {why}.", events, said=f"Seat {seat + 1} wins.")
        return
    if (options["accoutrements"] or options["gold"]) and not outstanding(state):
        active = [s for s in range(n) if state["active"][s]]
        if options["gold"]:
            best = max(gold_of(state, s) for s in active)
            tied = [s for s in active if gold_of(state, s) == best]
            finish(state, tied, False, f"All the gold is gathered; most gold ({best}) wins.", events)
        else:
            finish(state, [], True, "Every item is home and nobody holds two: a draw.", events)


def finish(state: dict, winners: list[int], draw: bool, reason: str, events: list, said: str | None = None) -> None:
    """The game ends for ``reason``; the log's line is ``said`` when given (else the reason)."""
    state["result"] = {"winners": winners, "draw": draw, "reason": reason}
    state["phase"] = "over"
    events.append(Event("game_over", said or reason, data=dict(state["result"])))


def all_items(state: dict) -> list[str]:
    """Every item this game uses (for the conservation check)."""
    items = list(state["item_values"])
    if excalibur_in_play(state["options"], state["players"]):
        items.append("excalibur")
    if state["options"]["accoutrements"]:
        items.extend(ACCOUTREMENTS)
    return items
