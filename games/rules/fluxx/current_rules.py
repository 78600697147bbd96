"""The rules in play, read afresh every time a number is needed.

Nothing here is stored in the state: the draw count, play count and limits are computed
from ``state["rules"]`` (the New Rules on the table, in the order played) each time they
are asked for, so a rule that arrives or leaves changes the game at that instant, and a
rule that changes numbers ("One, Two, Five!") composes with every other card. The summary
of a list of rules is a pure function of that list, so it is memoised by the list.
"""
from __future__ import annotations

from functools import lru_cache

from .cards import EFFECT, NAME, TYPE

ALL = "all"  # the play count of "Play All"


@lru_cache(maxsize=4096)
def _summary(rules: tuple) -> tuple[dict, dict]:
    """(slot -> rule card, printed number -> number read) for a tuple of rules in play."""
    slots = {EFFECT[r]["slot"]: r for r in rules}
    numbers = next(({int(k): v for k, v in EFFECT[r]["map"].items()} for r in rules if "map" in EFFECT[r]), {})
    return slots, numbers


def rule_in(state: dict, slot: str) -> str | None:
    """The New Rule occupying ``slot``, or None (the Basic Rules then apply)."""
    return _summary(tuple(state["rules"]))[0].get(slot)


def in_play(state: dict, rule: str) -> bool:
    return rule in state["rules"]


def number(state: dict, printed: int) -> int:
    """The number a card's printed ``printed`` counts as under the rules in play."""
    return _summary(tuple(state["rules"]))[1].get(printed, printed)


def number_under(rules: tuple, printed: int) -> int:
    """``number`` for a tuple of rules in play rather than a state."""
    return _summary(rules)[1].get(printed, printed)


def _numbers_note(state: dict, printed: int) -> str:
    read = number(state, printed)
    if read == printed:
        return ""
    changer = next(r for r in state["rules"] if EFFECT[r].get("map"))
    return f" ({NAME[changer]} makes it {read})"


def _bonus_holder(state: dict, rule: str, fewest: bool) -> int | None:
    """The one seat with strictly the fewest (or most) Keepers, when ``rule`` is in play."""
    if rule not in state["rules"]:
        return None
    counts = {s: keeper_count(state, s) for s in active_seats(state)}
    if len(counts) < 2:
        return None
    best = (min if fewest else max)(counts.values())
    holders = [s for s, n in counts.items() if n == best]
    return holders[0] if len(holders) == 1 else None


def active_seats(state: dict) -> list[int]:
    return [s for s, on in enumerate(state["active"]) if on]


def keeper_count(state: dict, seat: int) -> int:
    return sum(1 for c in state["tables"][seat] if TYPE[c] == "keeper")


def poor_bonus(state: dict, seat: int) -> int:
    rule = "poor-bonus"
    return number(state, EFFECT[rule]["draw"]) if _bonus_holder(state, rule, fewest=True) == seat else 0


def rich_bonus(state: dict, seat: int) -> int:
    rule = "rich-bonus"
    return number(state, EFFECT[rule]["play"]) if _bonus_holder(state, rule, fewest=False) == seat else 0


def draw_count(state: dict, seat: int) -> int:
    rule = rule_in(state, "draw")
    base = number(state, EFFECT[rule]["value"]) if rule else 1
    return base + poor_bonus(state, seat)


def play_target(state: dict, seat: int) -> int | str:
    """How many cards ``seat`` must play this turn: a number, or ALL."""
    rule = rule_in(state, "play")
    value = EFFECT[rule]["value"] if rule else 1
    if value == ALL:
        return ALL
    return number(state, value) + rich_bonus(state, seat)


def hand_limit(state: dict) -> int | None:
    rule = rule_in(state, "hand_limit")
    return number(state, EFFECT[rule]["value"]) if rule else None


def keeper_limit(state: dict) -> int | None:
    rule = rule_in(state, "keeper_limit")
    return number(state, EFFECT[rule]["value"]) if rule else None


def goal_limit(state: dict) -> int:
    rule = rule_in(state, "goal_limit")
    return EFFECT[rule]["value"] if rule else 1


def explain(state: dict, seat: int | None) -> dict:
    """Each effective number with the words that justify it, for the table display.
    ``seat`` is whose bonuses to include (the player whose turn it is)."""
    out = {}
    rule = rule_in(state, "draw")
    printed = EFFECT[rule]["value"] if rule else 1
    draw = {"value": number(state, printed), "text": f"{NAME[rule] if rule else 'Basic Rules: draw 1'}"
                                                      f"{_numbers_note(state, printed)}"}
    if seat is not None and poor_bonus(state, seat):
        draw["value"] += poor_bonus(state, seat)
        draw["text"] += f", +{poor_bonus(state, seat)} from the Poor Bonus"
    out["draw"] = draw
    rule = rule_in(state, "play")
    printed = EFFECT[rule]["value"] if rule else 1
    if printed == ALL:
        out["play"] = {"value": ALL, "text": "Play All: every card in hand"}
    else:
        play = {"value": number(state, printed), "text": f"{NAME[rule] if rule else 'Basic Rules: play 1'}"
                                                         f"{_numbers_note(state, printed)}"}
        if seat is not None and rich_bonus(state, seat):
            play["value"] += rich_bonus(state, seat)
            play["text"] += f", +{rich_bonus(state, seat)} from the Rich Bonus"
        out["play"] = play
    for slot, reader in (("hand_limit", hand_limit), ("keeper_limit", keeper_limit)):
        rule = rule_in(state, slot)
        out[slot] = None if rule is None else {
            "value": reader(state), "text": NAME[rule] + _numbers_note(state, EFFECT[rule]["value"])}
    rule = rule_in(state, "goal_limit")
    out["goal_limit"] = {"value": goal_limit(state), "text": NAME[rule] if rule else "One Goal at a time"}
    return out
