"""Explaining: why a move is illegal, and what the game waits for, in words a person reads."""
from __future__ import annotations

from . import moves_listing


def why_illegal(state, seat, move):
    if state["p"][seat]["out"]:
        return "You are out of the game."
    if state["steps"]:
        if move["type"] == "accept" and state["steps"][-1]["k"] == "offer" and seat in state["steps"][-1]["wait"]:
            return ("You cannot accept: too few cards of your deck are free of your other games' antes to pay "
                    "the doubled ante, so you may only concede.")
        return "That move is not open now: " + describe_wait(state)
    if seat != state["turn"]:
        if move["type"] == "play":
            return "On another player's turn a card can only be played face up, where the rules allow it."
        return "It is not your turn: you may play cards face up or use an ability, nothing else."
    if move["type"] == "end_turn" and move.get("double") and not moves_listing.must_dispute(state, seat):
        return ("You cannot double the ante now: doubling is off, you doubled since the others last did, or "
                "your deck cannot pay your share from cards free of your other games' antes.")
    if move["type"] == "end_turn":
        return "You must deal with the adversary first: fight, outwit, or run away."
    if move["type"] == "move":
        return "Your Round Table cannot move there now."
    if move["type"] == "play":
        return "That card cannot be played that way now."
    return f"The move '{move['type']}' is not allowed now."


def describe_wait(state):
    step = state["steps"][-1]
    k = step["k"]
    if k == "response":
        return f"seat {step['order'][step['i']] + 1} may respond before the grail numbers are drawn."
    if k == "offer":
        return "the doubled ante awaits an answer."
    return f"seat {step['seat'] + 1} must {k}."
