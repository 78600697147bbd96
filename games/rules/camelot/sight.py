"""Line of sight and range on the board (the geometry is games/rules/hexgrid.py's).

From centre to centre; a tree or rock hex blocks when the segment passes through its inside
(exact geometry, the same both ways); skirting an edge or a corner does not block; water,
units and item spaces never do. Edition-1 games keep the sampled line they were played with
(board.Board, editions.py; docs/rules/camelot.md "Sight").
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
