"""Questions asked of a Camelot state (no changes here).

The state is plain JSON. Per seat: ``entries``, ``active``, ``pool``, ``lost``, ``spells``,
``banked`` ({"items": [...], "coins": [...]}) and ``pauses_left`` are lists indexed by seat.
``units`` maps unit id -> {"seat", "type", "hex", "carry", "guardian"}; ``items`` maps a hex
to the items lying there; ``turns`` maps str(seat) -> that token holder's turn.
"""
from __future__ import annotations

from . import editions
from .board import Board, load


def board_of(state: dict) -> Board:
    """The game's board, read by the rules of the game's edition (editions.py)."""
    return load(state["board"], editions.of(state))


def occupancy(state: dict) -> dict[str, str]:
    """hex -> unit id standing there."""
    return {u["hex"]: uid for uid, u in state["units"].items()}


def frozen(state: dict) -> set[str]:
    """Units some token holder declared a target this turn: they neither move nor strike."""
    out: set[str] = set()
    for t in state["turns"].values():
        out.update(t["declared"])
    return out


def turn_of(state: dict, seat: int) -> dict | None:
    return state["turns"].get(str(seat))


def entry_hexes(state: dict) -> dict[str, int]:
    """Entry hex -> the seat it belongs to (resigned seats' hexes are free again)."""
    return {h: s for s, h in enumerate(state["entries"]) if h is not None and state["active"][s]}


def is_enemy(unit: dict, seat: int) -> bool:
    """An enemy of ``seat``: any other player's unit, or a guardian (neutral to all)."""
    return unit["guardian"] or unit["seat"] != seat


def controls(state: dict, unit: dict, seat: int) -> bool:
    """``seat`` may move and strike with ``unit``: its own, or a guardian."""
    return unit["seat"] == seat or unit["guardian"]


def units_of(state: dict, seat: int):
    return ((uid, u) for uid, u in state["units"].items() if u["seat"] == seat)


def gold_of(state: dict, seat: int) -> int:
    values = state["item_values"]
    return sum(values[c] for c in state["banked"][seat]["coins"])


def active_seats(state: dict) -> list[int]:
    return [s for s, a in enumerate(state["active"]) if a]
