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
from . import effects, free_actions, goals, limits, turn
from .frames import EFFECT_HANDLER
from .zones import pools

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
    while state["result"] is None:
        goals.check(state, events)
        if state["result"] is not None:
            break
        if decisions.waiting(state):
            if _answer_for_absent(state, events):
                continue
            return
        if limits.ask_others(state, events):
            continue
        if state["turn"]["phase"] == turn.PLAY and turn.draw_shortfall(state, events):
            continue
        if state["effects"]:
            effects.step(state, events)
            continue
        if not _advance_turn(state, events):
            return
    _clear_for_the_end(state)


def _advance_turn(state: dict, events: list) -> bool:
    """Move the turn's own sequence on, through every phase that has nothing to ask;
    False when the turn player must act. Returns True as soon as anything changed, so the
    Goals and limits are looked at again before going further."""
    t = state["turn"]
    if t["phase"] == turn.PLAY:
        if not turn.plays_done(state) or free_actions.optional_moves(state, t["seat"]):
            return False
        t["phase"] = turn.HAND_LIMIT
    if t["phase"] == turn.HAND_LIMIT:
        t["phase"] = turn.KEEPER_LIMIT
        if limits.ask_turn_player(state, "hand", events):
            return True
    if t["phase"] == turn.KEEPER_LIMIT:
        t["phase"] = turn.OVER
        if limits.ask_turn_player(state, "keepers", events):
            return True
    turn.advance(state, events)
    return True


def _answer_for_absent(state: dict, events: list) -> bool:
    """A seat that left the game answers its open decisions with their defaults."""
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
