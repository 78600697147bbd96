"""What one seat (or a spectator) may see of a Cup Quest game.

Public: the map, every piece, the Grail, hand sizes, the size of the draw pile, the top of
the discard pile, snipes left, who is frozen, the goblet's spot and the last snipe.
Private: your own hand only. Never shown: other hands, the draw pile's order, the whole
discard pile (only its top is face up), and the random generator's state.
"""
from __future__ import annotations

from .board import Board


def build_view(state: dict, seat: int | None, board: Board) -> dict:
    players = state["players"]
    me = seat if isinstance(seat, int) and 0 <= seat < players else None
    pending = state["pending"]
    return {
        "board": board.as_view(),
        "players": players,
        "my_seat": me,
        "my_hand": list(state["hands"][me]) if me is not None else None,
        "hand_counts": [len(h) for h in state["hands"]],
        "draw_count": len(state["draw"]),
        "discard_top": state["discard"][-1] if state["discard"] else None,
        "discard_count": len(state["discard"]),
        "alcoves": list(state["alcoves"]),
        "positions": list(state["positions"]),
        "grail": dict(state["grail"]),
        "snipes_left": list(state["snipes"]),
        "frozen": list(state["frozen"]),
        "resigned": list(state["resigned"]),
        "dealer": state["dealer"],
        "order": list(state["order"]),
        "opening_rolls": [dict(r) for r in state["opening_rolls"]],
        "turn": state["order"][state["turn_index"]] if state["result"] is None else None,
        "round": state["round"],
        "round_limit": state["round_limit"],
        "pending": None if pending is None else {k: (list(v) if isinstance(v, list) else v) for k, v in pending.items()},
        "goblet": dict(state["goblet"]),
        "last_snipe": _copy(state["last_snipe"]),
        "last_move": _copy(state["last_move"]),
        "result": _copy(state["result"]),
    }


def _copy(value):
    """A deep copy of plain JSON data, so a view never aliases the state."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
