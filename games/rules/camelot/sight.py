"""Line of sight and range on the board (the geometry is games/rules/hexgrid.py's).

From centre to centre; trees and rocks block, water, units and item spaces do not; a line
running exactly along the edge of one blocking hex passes (hexgrid's permissive edge rule),
a line along the edge *between two* blocking hexes does not (both sides are closed).
"""
from __future__ import annotations

from .board import Board


def in_sight(board: Board, a: str, b: str) -> bool:
    return a == b or board.sees(a, b)


def can_reach(board: Board, a: str, b: str, reach: int, needs_sight: bool) -> bool:
    d = board.dist[a][b]
    if d < 1 or d > reach:
        return False
    return not needs_sight or d == 1 or board.sees(a, b)
