"""Who meets a Goal, and winning.

A Goal is checked after every step of the game (each card placed, each card moved), so a
Goal counts however briefly it is in play, and a player can win on someone else's turn.
Creepers block a win unless the Goal being met names them. When two or more players meet
the Goals at once nobody wins; play goes on until exactly one does.
"""
from __future__ import annotations

from functools import lru_cache

from ..base import Event
from .cards import EFFECT, NAME, TAGS, TYPE
from .current_rules import number_under
from .zones import new_event, seat_name


def _compile(goal: str) -> tuple:
    """(have, others_have, tag, count, either, nothing): ``either`` is the set of every card
    that fills the Goal's "either" (its cards and every card carrying one of its tags), or
    None; ``nothing`` whether the Goal asks for a player with nothing at all."""
    e = EFFECT[goal]
    tagged = e.get("tagged") or {}
    either = e.get("either")
    if either is not None:
        tags = frozenset(either.get("tags", ()))
        either = frozenset(either.get("cards", ())) | frozenset(c for c in TAGS if not tags.isdisjoint(TAGS[c]))
    return (tuple(e.get("have", ())), tuple(e.get("others_have", ())), tagged.get("tag"), tagged.get("count", 0),
            either, bool(e.get("nothing")))


_GOALS = {c: _compile(c) for c, t in TYPE.items() if t == "goal"}
_CREEPERS = frozenset(c for c, t in TYPE.items() if t == "creeper")
_HAVE = {g: tuple(EFFECT[g].get("have", ())) for g in _GOALS}
# The Goals won by having nothing at all (The Cheese Shop): they read hands, not just tables.
NOTHING = frozenset(g for g, compiled in _GOALS.items() if compiled[5])
# card -> the Keepers that count as it while it is on no table (The Animator for The Finger of God)
STAND_INS: dict[str, tuple] = {}
for _card, _effect in EFFECT.items():
    if _effect.get("counts_as"):
        STAND_INS[_effect["counts_as"]] = STAND_INS.get(_effect["counts_as"], ()) + (_card,)
# A Goal naming a card some Keeper stands in for: its first look asks for either card.
_NEEDS_ALTERNATIVES = {g: tuple((c,) + STAND_INS.get(c, ()) for c in have) for g, have in _HAVE.items()
                       if any(c in STAND_INS for c in have)}


def _fewest(count: int) -> int:
    """The smallest number a printed ``count`` can read as under any rules: itself, or
    what a numbers rule in the deck maps it to (``_reading`` reads one such map)."""
    maps = [EFFECT[r]["map"] for r, t in TYPE.items() if t == "rule" and "map" in EFFECT[r]]
    return min([count] + [m[str(count)] for m in maps if str(count) in m])


# A tagged Goal's (tag, the fewest tagged Keepers it can ask for), for the first look.
_TAGGED = {g: (tag, _fewest(count)) for g, (have, others, tag, count, either, nothing) in _GOALS.items()
           if tag is not None}
_EITHER = {g: compiled[4] for g, compiled in _GOALS.items() if compiled[4] is not None}


def meets(state: dict, seat: int, goal: str) -> bool:
    """Does ``seat`` (still in the game) meet ``goal`` right now?"""
    return seat in _meeting(_position(state, (goal,)), (goal,))


def meeting(state: dict) -> list[int]:
    """The players who meet at least one Goal in play right now."""
    goals = state["goals"]
    if not may_be_met(state, goals):
        return []
    return list(_meeting(_position(state, goals), tuple(goals)))


_last_look: tuple = (None, None, False)  # (Goals, tables, answer): copies of what the last look read


def may_be_met(state: dict, goals: list) -> bool:
    """A cheap first look, run after every step: does any one table hold every card some
    Goal in play names? (Necessary for meeting it; Creepers and counts are left to
    ``_meeting``.) Most steps end here. A pure function of the Goals and the tables, most
    steps change neither: the last answer is remembered with copies of what it read, and
    given again while they are equal (two list comparisons; swapped in one assignment).
    A Goal won by having nothing (``NOTHING``) reads hands too: it is asked apart, after,
    and only when the tables' look says no."""
    global _last_look
    tables = state["tables"]
    last_goals, last_tables, answer = _last_look
    if not (goals == last_goals and tables == last_tables):
        answer = _may_be_met(tables, goals)
        _last_look = (list(goals), list(map(list.copy, tables)), answer)
    if not answer and NOTHING and not NOTHING.isdisjoint(goals):
        return _someone_has_nothing(state)
    return answer


def _someone_has_nothing(state: dict) -> bool:
    """Has some player still in no Keeper, no Creeper and no card in hand?"""
    for hand, table, on in zip(state["hands"], state["tables"], state["active"]):
        if on and not hand and not table:
            return True
    return False


def _may_be_met(tables: list, goals: list) -> bool:
    """``may_be_met`` worked out: does some table hold every card a Goal in play names (or
    a Keeper standing in for it), one card of its "either", no Creeper that Goal does not
    name, and (a tagged Goal) at least the fewest tagged cards it can ask for? Each is part
    of ``_meets``, so a table failing one cannot meet the Goal; the rest (the others'
    cards, the count under today's rules, a stand-in's conditions) is left to
    ``_meeting``. Without the Creeper and count tests a Goal blocked by a Creeper, or the
    knights' Goal, sent every step to the full look (``declare``: the position built and
    looked up) to find nobody. Most Goals name two cards, looked up as a pair. A Goal won
    by having nothing is not this look's (see ``may_be_met``)."""
    for goal in goals:
        if goal in NOTHING:
            continue
        have = _HAVE[goal]
        alternatives = _NEEDS_ALTERNATIVES.get(goal)
        pair = have if len(have) == 2 and alternatives is None else None
        tagged = _TAGGED.get(goal)
        either = _EITHER.get(goal)
        for table in tables:
            if pair is not None:
                if pair[0] not in table or pair[1] not in table:
                    continue
            elif not table:
                continue  # an empty table meets nothing here (_meeting skips it)
            elif alternatives is not None:
                if not all(any(c in table for c in alts) for alts in alternatives):
                    continue
            elif not all(map(table.__contains__, have)):
                continue
            if either is not None and either.isdisjoint(table):
                continue
            if tagged is not None:
                tag, fewest = tagged
                if sum(1 for c in table if tag in TAGS[c] and c not in have) < fewest:
                    continue
            if _CREEPERS.isdisjoint(table) or _only_named_creepers(table, have):
                return True
    return False


def _only_named_creepers(table: list, have: tuple) -> bool:
    """Is every Creeper on ``table`` one the Goal names (a Creeper it names does not block it)?"""
    for card in table:
        if card in _CREEPERS and card not in have:
            return False
    return True


def _position(state: dict, goals) -> tuple:
    """Everything a Goal looks at, as a hashable value: who is in, their tables, the number
    a printed count reads as (for "any N knights"), and -- only when one of ``goals`` is
    won by having nothing -- the players still in who have nothing at all (else ())."""
    active = state["active"]
    bare = ()
    if NOTHING and not NOTHING.isdisjoint(goals):
        bare = tuple(s for s, (hand, table, on) in enumerate(zip(state["hands"], state["tables"], active))
                     if on and not hand and not table)
    if all(active):  # the usual case: every table as it is, converted at C speed
        return tuple(map(tuple, state["tables"])), tuple(state["rules"]), bare
    tables = tuple(tuple(t) if on else () for t, on in zip(state["tables"], active))
    return tables, tuple(state["rules"]), bare


@lru_cache(maxsize=8192)
def _meeting(position: tuple, goals: tuple) -> tuple:
    # Memoised: the loop re-checks the Goals after every step, and most steps change
    # nothing a Goal looks at. A pure function of its arguments, so safe to cache.
    tables, rules, bare = position
    out = []
    for seat, table in enumerate(tables):
        if (table or seat in bare) and any(_meets(tables, rules, bare, seat, g) for g in goals):
            out.append(seat)
    return tuple(out)


def _meets(tables: tuple, rules: tuple, bare: tuple, seat: int, goal: str) -> bool:
    have, others_have, tag, count, either, nothing = _GOALS[goal]
    if nothing:
        return bare == (seat,)  # the only player with nothing at all
    table = tables[seat]
    standing_in = ()  # Keepers of this table used for a card they count as
    for card in have:
        if card not in table:
            stand_in = _stand_in(tables, table, card, have)
            if stand_in is None:
                return False
            standing_in += (stand_in,)
    for card in others_have:
        if not any(card in t for s, t in enumerate(tables) if s != seat):
            return False
    if either is not None and not any(c in either for c in table if c not in have and c not in standing_in):
        return False
    if tag is not None:
        found = sum(1 for c in table if tag in TAGS[c] and c not in have)
        if found < number_under(rules, count):
            return False
    for card in table:
        if card in _CREEPERS and card not in have:
            return False
    return True


def _stand_in(tables: tuple, table: tuple, card: str, have: tuple) -> str | None:
    """A Keeper on ``table`` that counts as ``card`` now: ``card`` itself is on no table,
    and the Goal does not ask for the stand-in in its own right (one card fills one need:
    The Animator alone is not both halves of "The Finger of God and The Animator")."""
    for stand_in in STAND_INS.get(card, ()):
        if stand_in in table and stand_in not in have and not any(card in t for t in tables):
            return stand_in
    return None


def check(state: dict, events: list) -> None:
    """Declare a winner when exactly one player meets a Goal; report a tie once."""
    if not may_be_met(state, state["goals"]):
        if state["tie"]:
            state["tie"] = []
        return
    declare(state, events)


def declare(state: dict, events: list) -> None:
    """``check`` once ``may_be_met`` has said yes (engine.settle asks that first itself)."""
    seats = list(_meeting(_position(state, state["goals"]), tuple(state["goals"])))
    if len(seats) == 1:
        (winner,) = seats
        goal = next(g for g in state["goals"] if meets(state, winner, g))
        reason = f"{seat_name(winner)} meets the Goal {NAME[goal]} and wins!"
        state["result"] = {"winners": [winner], "draw": False, "reason": reason, "goal": goal}
        events.append(new_event(Event, ("win", reason, None, {"seat": winner, "goal": goal}, ())))
        return
    if len(seats) > 1 and seats != state["tie"]:
        who = ", ".join(seat_name(s) for s in seats)
        events.append(Event("tie", f"{who} meet the Goal at the same moment: nobody wins yet, play goes on.",
                            data={"seats": seats}))
    state["tie"] = seats if len(seats) > 1 else []
