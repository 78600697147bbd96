"""The rules in play, read afresh every time a number is needed.

Nothing here is stored in the state: the draw count, play count and limits are computed
from ``state["rules"]`` (the New Rules on the table, in the order played) each time they
are asked for, so a rule that arrives or leaves changes the game at that instant, and a
rule that changes numbers ("One, Two, Five!") composes with every other card. What a list
of rules says (``Reading``) is a pure function of that list, so it is memoised by the list.
"""
from __future__ import annotations

from functools import lru_cache
from .cards import EFFECT, NAME, TYPE

ALL = "all"  # the play count of "Play All"
KEEPERS = frozenset(c for c, t in TYPE.items() if t == "keeper")
_is_keeper = KEEPERS.__contains__


class Reading:
    """What a set of rules in play says, numbers already read through the number rules.

    A plain class with slots rather than a NamedTuple: the settle loop reads these fields
    a dozen times a step, and Python 3.11 reads a slot several times faster than a
    NamedTuple's field. Equal to a Reading of equal fields, as the NamedTuple was."""

    __slots__ = ("slots", "numbers", "draw", "play", "hand_limit", "keeper_limit", "goal_limit", "poor", "rich",
                 "cards", "limited", "most_drawn")
    FIELDS = __slots__[:10]  # what a Reading says; the rest is worked out from these

    def __init__(self, slots: dict, numbers: dict, draw: int, play: int | str, hand_limit: int | None,
                 keeper_limit: int | None, goal_limit: int, poor: int, rich: int, cards: frozenset) -> None:
        self.slots = slots                # slot -> the rule card in it
        self.numbers = numbers            # printed number -> number read
        self.draw = draw
        self.play = play                  # a number, or ALL
        self.hand_limit = hand_limit
        self.keeper_limit = keeper_limit
        self.goal_limit = goal_limit
        self.poor = poor                  # extra draws of the Poor Bonus (0 when not in play)
        self.rich = rich                  # extra plays of the Rich Bonus (0 when not in play)
        self.cards = cards                # the rules in play, as a set: "is this rule in play?" by hash
        # Asked by the settle loop on every pass, so worked out once per set of rules:
        self.limited = hand_limit is not None or keeper_limit is not None  # a limit to hold others to
        self.most_drawn = draw + poor     # the most a turn can owe, with the Poor Bonus or without

    def fields(self) -> tuple:
        return tuple(getattr(self, name) for name in self.FIELDS)

    def __eq__(self, other):
        return self.fields() == other.fields() if type(other) is Reading else NotImplemented

    __hash__ = None  # its dicts make it unhashable, as the NamedTuple was

    def __repr__(self) -> str:
        return "Reading(" + ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS) + ")"


@lru_cache(maxsize=4096)
def _reading(rules: tuple) -> Reading:
    slots = {EFFECT[r]["slot"]: r for r in rules}
    numbers = next(({int(k): v for k, v in EFFECT[r]["map"].items()} for r in rules if "map" in EFFECT[r]), {})

    def value(slot, default):
        rule = slots.get(slot)
        if rule is None:
            return default
        printed = EFFECT[rule]["value"]
        return printed if printed == ALL or slot == "goal_limit" else numbers.get(printed, printed)

    def bonus(word, key):
        # The rule in play with that bonus word (the legacy Poor Bonus, the printed deck's
        # Always Look on the Bright Side of Life: one deck at a time holds either).
        rule = next((r for r in rules if EFFECT[r].get("bonus") == word), None)
        return 0 if rule is None else numbers.get(EFFECT[rule][key], EFFECT[rule][key])

    return Reading(slots, numbers, value("draw", 1), value("play", 1), value("hand_limit", None),
                   value("keeper_limit", None), value("goal_limit", 1),
                   bonus("poor", "draw"), bonus("rich", "play"), frozenset(rules))


_last: tuple = ((), None)  # (a copy of the rules list, its reading): the last one read


def reading(state: dict) -> Reading:
    """The rules in play, read now. Asked several times a step, nearly always of the same
    rules: a list comparison with the last rules read costs half the tuple and the memo
    lookup. The pair is replaced in one assignment, so threads never see a torn pair."""
    global _last
    rules = state["rules"]
    last = _last
    if rules == last[0]:
        return last[1]
    r = _reading(tuple(rules))
    _last = (rules[:], r)
    return r


def _summary(rules: tuple) -> tuple[dict, dict]:
    r = _reading(rules)
    return r.slots, r.numbers


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


def active_seats(state: dict) -> list[int]:
    return [s for s, on in enumerate(state["active"]) if on]


def _holds(state: dict, seat: int, fewest: bool) -> bool:
    """Does ``seat`` alone have strictly the fewest (or most) Keepers of the players still
    in? (Nobody does on a tie, or with one player left.) Counts ``seat``'s Keepers, then
    the others' only until one ties or beats it: the draw and play counts ask this often."""
    active, tables = state["active"], state["tables"]
    if not (0 <= seat < len(active) and active[seat]):
        return False
    # Keepers counted with sum(map(...)): a list comprehension makes a function and a list
    # each time (Python 3.11), and this is asked several times a move while a bonus is in play.
    mine = sum(map(_is_keeper, tables[seat]))
    others = False
    for s, on in enumerate(active):
        if not on or s == seat:
            continue
        others = True
        count = sum(map(_is_keeper, tables[s]))
        if (count <= mine) if fewest else (count >= mine):
            return False
    return others


def holds_fewest(state: dict, seat: int) -> bool:
    """Does ``seat`` alone have the fewest Keepers (and so earn the Poor Bonus, if in play)?"""
    return _holds(state, seat, fewest=True)


def poor_bonus(state: dict, seat: int) -> int:
    extra = reading(state).poor
    return extra if extra and _holds(state, seat, fewest=True) else 0


def rich_bonus(state: dict, seat: int) -> int:
    extra = reading(state).rich
    return extra if extra and _holds(state, seat, fewest=False) else 0


def draw_count(state: dict, seat: int) -> int:
    r = reading(state)
    return r.draw + (poor_bonus(state, seat) if r.poor else 0)


def play_target(state: dict, seat: int) -> int | str:
    """How many cards ``seat`` must play this turn: a number, or ALL."""
    r = reading(state)
    if r.play == ALL:
        return ALL
    return r.play + (rich_bonus(state, seat) if r.rich else 0)


def limits(state: dict) -> tuple[int | None, int | None]:
    """(hand limit, keeper limit), None where no such rule is in play."""
    r = reading(state)
    return r.hand_limit, r.keeper_limit


def hand_limit(state: dict) -> int | None:
    return reading(state).hand_limit


def keeper_limit(state: dict) -> int | None:
    return reading(state).keeper_limit


def goal_limit(state: dict) -> int:
    return reading(state).goal_limit


def _bonus_rule(state: dict, word: str) -> str:
    return next(r for r in state["rules"] if EFFECT[r].get("bonus") == word)


# How the table display names each number ("Keeper limit 2"), and the card that sets it when
# no New Rule does.
_LABELS = {"draw": "Draw", "play": "Play", "hand_limit": "Hand limit", "keeper_limit": "Keeper limit",
           "goal_limit": "Goals at once:"}
_BASIC, _ONE_GOAL = "Basic Rules", "One Goal at a time"


def explain(state: dict, seat: int | None) -> dict:
    """Each effective number with the words that justify it, for the table display.
    ``seat`` is whose bonuses to include (the player whose turn it is).

    Each entry: ``value``; ``text``, the card that sets it and how ("Play 3 (One, Two, Five!
    (Three, Sir!) makes it 5)"); ``label``, the number as the display says it ("Play 5");
    ``why``, what ``text`` adds to the label, or None when it only says it again (a Keeper
    Limit 2 card for "Keeper limit 2"): each thing said once."""
    out = _explain(state, seat)
    for key, entry in out.items():
        if entry is not None:
            entry["label"], entry["why"] = _label(key, entry)
    return out


def _label(key: str, entry: dict) -> tuple[str, str | None]:
    value = "all" if entry["value"] == ALL else entry["value"]
    label = f"{_LABELS[key]} {value}"
    text = entry["text"]
    if text == _ONE_GOAL:
        return label, _BASIC
    if text.startswith(_BASIC):  # "Draw 1" from the Basic Rules, not "Draw 1 — Basic Rules: draw 1"
        head, comma, bonus = text.partition(",")
        return label, _BASIC + comma + bonus
    if text.casefold().startswith(label.casefold()):
        rest = text[len(label):].lstrip(" :,")  # "Keeper Limit 2" for "Keeper limit 2": nothing more
        return label, rest or None
    return label, text


def _explain(state: dict, seat: int | None) -> dict:
    out = {}
    rule = rule_in(state, "draw")
    printed = EFFECT[rule]["value"] if rule else 1
    draw = {"value": number(state, printed), "text": f"{NAME[rule] if rule else 'Basic Rules: draw 1'}"
                                                      f"{_numbers_note(state, printed)}"}
    if seat is not None and poor_bonus(state, seat):
        draw["value"] += poor_bonus(state, seat)
        draw["text"] += f", +{poor_bonus(state, seat)} from {NAME[_bonus_rule(state, 'poor')]}"
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
            play["text"] += f", +{rich_bonus(state, seat)} from {NAME[_bonus_rule(state, 'rich')]}"
        out["play"] = play
    for slot, reader in (("hand_limit", hand_limit), ("keeper_limit", keeper_limit)):
        rule = rule_in(state, slot)
        out[slot] = None if rule is None else {
            "value": reader(state), "text": NAME[rule] + _numbers_note(state, EFFECT[rule]["value"])}
    rule = rule_in(state, "goal_limit")
    out["goal_limit"] = {"value": goal_limit(state), "text": NAME[rule] if rule else _ONE_GOAL}
    return out
