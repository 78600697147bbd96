"""What one seat (or a spectator) may see of a Fluxx game.

Public: the rules in play with their effective numbers and why, the Goals, every Keeper
and Creeper, hand sizes, draw and discard counts and the top discard, cards being resolved,
whose turn it is and how many plays are left, who is deciding what.
Private: your own hand, the cards you drew to use at once, your own open decisions.
Never shown: other hands, anyone else's drawn-to-use cards, the draw pile's order, the
random generator, the engine's notes on decisions.
"""
from __future__ import annotations

from .. import decisions
from .cards import BASIC, TYPE, deck_of
from .current_rules import explain
from .free_actions import AFTER_DISCARD, CHECKED
from .turn import plays_left


def build_view(state: dict, seat: int | None) -> dict:
    seats = len(state["active"])
    me = seat if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < seats else None
    t = state["turn"]
    pool_owner = t["seat"]
    pool = [c for frame in state["effects"] for c in frame.get("pool", ())]
    finished = state["result"] is not None
    return {
        "players": seats,
        "deck": deck_of(state),
        "my_seat": me,
        "my_hand": list(state["hands"][me]) if me is not None else None,
        "hand_counts": [len(h) for h in state["hands"]],
        "active": list(state["active"]),
        "keepers": [[c for c in table if TYPE[c] == "keeper"] for table in state["tables"]],
        "creepers": [[c for c in table if TYPE[c] == "creeper"] for table in state["tables"]],
        "basic_rules": BASIC,
        "rules": list(state["rules"]),
        "effective": explain(state, None if finished else t["seat"]),
        "goals": list(state["goals"]),
        "draw_count": len(state["draw"]),
        "discard_count": len(state["discard"]),
        "discard_top": state["discard"][-1] if state["discard"] else None,
        "resolving": list(state["limbo"]),
        "my_pool": list(pool) if me == pool_owner else None,
        "pool_count": len(pool),
        "turn": None if finished else {
            "seat": t["seat"], "number": t["number"], "phase": t["phase"], "drawn": t["drawn"],
            "played": t["played"], "plays_left": plays_left(state), "powers_used": _on_tables(state, t["used"])},
        "extra_turns": state["extra_turns"],
        "first": state["first"],
        "quotes": state.get("quotes", CHECKED),  # judged by the others, or checked for the card's name
        "fling": state.get("fling", AFTER_DISCARD),  # when the Goals are looked at in a fling
        "songs_sung": list(state["songs"]),
        "tie": list(state["tie"]),
        "turn_cap": state["options"]["turn_cap"],
        "decisions": decisions.view(state, me),
        "result": None if state["result"] is None else dict(state["result"], winners=list(state["result"]["winners"])),
    }


def _on_tables(state: dict, cards: list) -> list:
    """The cards of ``cards`` on a table now: a used Keeper that went back to a hand (The
    Finger of God after smiting) is left out, hands being nobody else's business."""
    return [c for c in cards if any(c in table for table in state["tables"])]
