"""The turn: draw what the rules ask, play what they ask, then limits, then the next player.

``state["turn"]`` holds what this turn has done so far (``drawn``, ``played``, powers
``used``, bonuses claimed) and its ``phase``: ``play`` -> ``hand_limit`` ->
``keeper_limit`` -> ``over``. The numbers it is compared with are read from the rules in
play every time, so a Draw rule raised mid-turn draws the difference at once, a Play rule
changed mid-turn recounts, Play All counts cards picked up while playing, and a hand that
runs out ends the plays.
"""
from __future__ import annotations

from ..base import Event
from .cards import EFFECT
from .current_rules import ALL, Reading, holds_fewest, number, reading, rich_bonus
from .zones import SEAT_NAMES, draw_to_hand, new_event, own

PLAY, HAND_LIMIT, KEEPER_LIMIT, OVER = "play", "hand_limit", "keeper_limit", "over"


def start(state: dict, seat: int, number_: int, events: list) -> None:
    state["turn"] = {"seat": seat, "number": number_, "phase": PLAY, "drawn": 0, "played": 0, "used": [],
                     "quoted": False, "sang": False, "accent": False}
    own(state, "turns_taken")[seat] += 1
    events.append(new_event(Event, ("turn", f"Turn {number_}: {SEAT_NAMES[seat]} to play.", None,
                                    {"seat": seat, "turn": number_}, ())))
    # No-Hand Bonus looks only at the very start of a turn (rules FAQ): whoever plays it waits.
    r = reading(state)  # drawing changes no rule: one reading serves both draws
    if "no-hand-bonus" in r.cards and not state["hands"][seat]:  # in_play
        draw_to_hand(state, seat, number(state, EFFECT["no-hand-bonus"]["draw"]), events, "No-Hand Bonus")
    draw_shortfall(state, events, r)  # the turn's draw


def draw_shortfall(state: dict, events: list, r: Reading | None = None) -> bool:
    """Draw whatever the Draw rule asks beyond what was drawn this turn. A draw the empty
    piles cannot supply is counted as taken, so it is not retried. True if it drew.
    ``r``: the rules' reading, when the caller has it."""
    turn = state["turn"]
    if r is None:
        r = reading(state)
    drawn = turn["drawn"]
    if drawn >= r.most_drawn:
        return False  # owed nothing even with the Poor Bonus: no need to count Keepers
    # current_rules.draw_count, with the reading already at hand.
    seat = turn["seat"]
    need = r.draw + (r.poor if r.poor and holds_fewest(state, seat) else 0) - drawn
    if need <= 0:
        return False
    turn["drawn"] += need
    draw_to_hand(state, seat, need, events)
    return True


def plays_left(state: dict) -> int:
    # current_rules.play_target, unfolded: this is read several times a move.
    turn = state["turn"]
    seat = turn["seat"]
    hand = state["hands"][seat]
    r = reading(state)
    if r.play == ALL:
        return len(hand)
    target = r.play + rich_bonus(state, seat) if r.rich else r.play
    return min(len(hand), max(0, target - turn["played"]))


def plays_done(state: dict, r: Reading | None = None) -> bool:
    """``plays_left(state) == 0``, without counting Keepers for the Rich Bonus when the
    answer does not depend on it (this is asked several times a move). ``r``: the rules'
    reading, when the caller has it."""
    turn = state["turn"]
    if not state["hands"][turn["seat"]]:
        return True
    if r is None:
        r = reading(state)
    if r.play == ALL:
        return False
    played = turn["played"]
    if played >= r.play + r.rich:
        return True
    if played < r.play:
        return False
    return plays_left(state) == 0


def next_seat(state: dict) -> int:
    seat = state["turn"]["seat"]
    if state["extra_turns"] and state["active"][seat]:
        state["extra_turns"] -= 1
        return seat
    state["extra_turns"] = 0  # an extra turn owed to a player who left is lost
    active = state["active"]
    n = len(active)
    # the first seat after ``seat`` still playing, round the table (a loop, not a generator
    # made each turn)
    for i in range(1, n + 1):
        following = (seat + i) % n
        if active[following]:
            return following
    raise StopIteration  # nobody is playing: what next() on the empty generator raised


def advance(state: dict, events: list) -> None:
    """Hand the game to the next player, or end it at the turn cap (a draw)."""
    number_ = state["turn"]["number"] + 1
    if number_ > state["options"]["turn_cap"]:
        reason = f"Nobody won within {state['options']['turn_cap']} turns: the game is a draw."
        state["result"] = {"winners": [], "draw": True, "reason": reason}
        events.append(Event("end", reason))
        return
    start(state, next_seat(state), number_, events)
