"""The turn tokens: each holder's own turn, and passing a token clockwise.

Two tokens (one turn-based). Each holder has its own turn record in ``state["turns"]``
keyed by seat; nothing the other holder does changes it, so each holder's pending key (its
turn's number) only changes when that holder's own turn ends.
"""
from __future__ import annotations

MOVES_PER_TURN = 2


def start(state: dict, seat: int) -> None:
    state["turn_seq"] += 1
    state["turns"][str(seat)] = {
        "number": state["turn_seq"], "stage": "declare", "declared": [], "moved": [],
        "moves_left": MOVES_PER_TURN, "strikes": [], "permissions": [],
        "struck": [],   # units (guardians too) that struck this turn
        "allies": [],   # {"seat", "unit", "target"}: units an ally lent to an attack
    }


def next_holder(state: dict, seat: int) -> int | None:
    """Clockwise from ``seat``: the first active player without a token (``seat`` itself
    last, when nobody else is free)."""
    n = state["players"]
    holders = set(state["tokens"])
    for step in range(1, n + 1):
        s = (seat + step) % n
        if state["active"][s] and s not in holders:
            return s
    return None


def pass_token(state: dict, seat: int) -> int | None:
    """``seat``'s turn is over: its token goes on, and the receiver's turn starts at once."""
    del state["turns"][str(seat)]
    state["tokens"].remove(seat)
    receiver = next_holder(state, seat)
    if receiver is not None:
        state["tokens"].append(receiver)
        start(state, receiver)
    return receiver
