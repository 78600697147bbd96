"""The loop that carries the game forward after every move until someone must choose.

``settle`` repeats, in this order of precedence:

1. check the Goals (a win ends everything at once, on anybody's turn);
2. wait while a decision is open (answering at once for seats that have left);
3. hold the other players to the Hand and Keeper limits (one frame of decisions);
4. draw what the Draw rule owes the turn player, at once, even in the middle of an Action
   (a Draw rule raised mid-turn draws the difference immediately);
5. run the top effect frame one step (nested Actions);
6. otherwise move the turn on: wait for plays, then the turn player's limits, then the
   next turn.

``route`` sends a finished decision frame to whoever asked it.
"""
from __future__ import annotations

from .. import decisions
from . import current_rules, effects, free_actions, goals, limits, turn
from .cards import TYPE
from .current_rules import reading
from .frames import EFFECT_HANDLER
from .turn import HAND_LIMIT, KEEPER_LIMIT, OVER, PLAY
from .zones import pools

_ON_A_TABLE = ("keeper", "creeper")  # the kinds of card resolved by putting them on a table

HANDLERS = {
    EFFECT_HANDLER: lambda state, frame, events: effects.receive_answer(state, frame),
    limits.LIMIT_HANDLER: limits.on_answered,
    free_actions.CLAIM_HANDLER: free_actions.on_judged,
}


def route(state: dict, frame: list[dict], events: list) -> None:
    HANDLERS[frame[0]["data"]["handler"]](state, frame, events)


def answer(state: dict, seat: int, move: dict, events: list) -> None:
    frame = decisions.answer(state, seat, move)
    if frame is not None:
        route(state, frame, events)


def settle(state: dict, events: list) -> None:
    # The six looks of the docstring, with their cheap first tests written out here: this
    # loop runs after every step of every move, and most looks find nothing to do, so a
    # look is called only when its quick test says it may act (bench/fluxx_engine.py;
    # tests/rules/fluxx/test_fx_fast_paths.py compares each quick test with the full look).
    # The rules' reading is taken once a pass: nothing before the first look that acts can
    # change the rules, and every look that acts starts a new pass.
    others_clear = False  # the limits' look has said nothing and no step since can change that
    while state["result"] is None:
        in_play = state["goals"]
        if in_play and goals.may_be_met(state, in_play):
            goals.declare(state, events)
            if state["result"] is not None:
                break
        elif state["tie"]:
            state["tie"] = []  # what goals.check does when nobody can meet a Goal
        if state.get("decisions"):  # decisions.waiting
            if _answer_for_absent(state, events):
                continue
            return
        # current_rules.reading, its remembered answer looked at here (once a pass) without a call
        last_read = current_rules._last
        r = last_read[1] if state["rules"] == last_read[0] else reading(state)
        if r.limited and not others_clear and limits.ask_others(state, events, r):
            continue
        others_clear = False
        t = state["turn"]
        phase = t["phase"]
        if phase == PLAY and t["drawn"] < r.most_drawn and turn.draw_shortfall(state, events, r):
            continue
        stack = state["effects"]
        if not stack:
            if not _advance_turn(state, events, t, phase, r):
                return
            continue
        while True:
            frame = stack[-1]
            op = frame["op"]
            if op == "resolve":
                kind = TYPE[frame["card"]]
                quiet = kind == "action"
                placed = kind == "goal" or kind in _ON_A_TABLE and frame["seat"] == t["seat"]
            else:
                quiet = op == "discard_limbo"
                placed = False
            effects.OPS[op](state, frame, events)  # effects.step, with the top frame at hand
            if not quiet:
                # A Goal placed, or a Keeper or Creeper put on the turn player's own table,
                # changes no hand, no rule, no other player's table, not whose turn it is nor
                # who is playing: nothing the limits' look reads (it leaves the turn player
                # out). That look said nothing in this pass, so the next pass need not ask it.
                others_clear = placed
                break
            # That step moved only the effect stack, limbo and the discard pile (an Action
            # taken up, or its card discarded when done), which none of the looks above
            # reads: they would answer as they have just answered, so go on from here.
            if not stack:
                if not _advance_turn(state, events, t, phase, r):
                    return
                break
    _clear_for_the_end(state)


def _advance_turn(state: dict, events: list, t: dict, phase: str, r) -> bool:
    """Move the turn's own sequence on, through every phase that has nothing to ask;
    False when the turn player must act. Returns True as soon as anything changed, so the
    Goals and limits are looked at again before going further. ``r`` is the rules'
    reading of this pass (nothing here changes the rules before returning)."""
    seat = t["seat"]
    if phase == PLAY:
        if not turn.plays_done(state, r) or free_actions.has_optional_moves(state, seat, r.cards):
            return False
        t["phase"] = phase = HAND_LIMIT
    if phase == HAND_LIMIT:
        t["phase"] = phase = KEEPER_LIMIT
        # Within the limit nothing is asked: skip the look (limits.ask_turn_player).
        limit = r.hand_limit
        if limit is not None and len(state["hands"][seat]) > limit and limits.ask_turn_player(state, "hand", events):
            return True
    if phase == KEEPER_LIMIT:
        t["phase"] = OVER
        limit = r.keeper_limit
        if limit is not None and len(state["tables"][seat]) > limit and limits.ask_turn_player(state, "keepers", events):
            return True
    turn.advance(state, events)
    return True


def _answer_for_absent(state: dict, events: list) -> bool:
    """A seat that left the game answers its open decisions with their defaults."""
    if all(state["active"]):
        return False  # nobody has left: nothing to answer (asked whenever the game waits)
    for d in decisions.top(state):
        if d["answer"] is None and not state["active"][d["seat"]]:
            answer(state, d["seat"], {"type": decisions.DECIDE, "id": d["id"], "choice": d["default"]}, events)
            return True
    return False


def _clear_for_the_end(state: dict) -> None:
    """A finished game owes nothing: open choices go, cards in mid-air go to the discards."""
    state.pop("decisions", None)
    state["discard"] += state["limbo"] + pools(state)
    state["limbo"] = []
    state["effects"] = []
