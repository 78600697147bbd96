"""The static board: terrain per hex, Excalibur's space, the item spaces, the edge ring.

Loaded once per board name and edition from ``boards/<name>.json`` and cached; the game
state holds only the name (and, from edition 2 on, the edition: see ``editions.py``).
Everything here is read-only after loading, so every game shares it.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from .. import hexgrid
from .editions import CURRENT, FIRST, exact_sight
from .squares import edge_labels, square_name

BOARDS = Path(__file__).resolve().parent / "boards"
ENTERABLE = frozenset({"grass", "trees"})      # rocks and water cannot be entered
SIGHT_BLOCKING = frozenset({"trees", "rocks"})  # water does not block sight


class Board:
    """One board's terrain and the questions rules ask of it (keys are ``"q,r"``)."""

    def __init__(self, data: dict, edition: int = FIRST) -> None:
        self.name: str = data["name"]
        self.edition = edition
        # Edition 1 sampled the line (hexgrid.sampled_line_of_sight); later editions decide
        # sight by exact geometry (hexgrid.line_of_sight, docs/rules/camelot.md "Sight").
        self._line_of_sight = hexgrid.line_of_sight if exact_sight(edition) else hexgrid.sampled_line_of_sight
        self.radius: int = data["radius"]
        self.terrain: dict[str, str] = dict(data["terrain"])
        self.excalibur: str = data["excalibur"]
        self.item_spaces: dict[str, str] = dict(data["item_spaces"])
        self.edge: list[str] = list(data["edge"])  # the outer ring, in clockwise order
        self.edge_index = {k: i for i, k in enumerate(self.edge)}
        self.hexes: dict[str, tuple[int, int]] = {k: hexgrid.parse(k) for k in self.terrain}
        # What people call each hex ("h8"), as the labels along the board's edges read (squares.py).
        self.names: dict[str, str] = {k: square_name(k, self.radius) for k in self.terrain}
        self.enterable = frozenset(k for k, t in self.terrain.items() if t in ENTERABLE)
        self.enterable_order = sorted(self.enterable)  # a fixed order for listing moves
        self.blockers = frozenset(self.hexes[k] for k, t in self.terrain.items() if t in SIGHT_BLOCKING)
        # Neighbour keys a piece may step to, precomputed once (movement asks this a lot).
        self.steps: dict[str, tuple[str, ...]] = {
            k: tuple(hexgrid.key(n) for n in hexgrid.neighbours(h) if hexgrid.key(n) in self.enterable)
            for k, h in self.hexes.items()
        }
        self.adjacent: dict[str, tuple[str, ...]] = {
            k: tuple(hexgrid.key(n) for n in hexgrid.neighbours(h) if hexgrid.key(n) in self.terrain)
            for k, h in self.hexes.items()
        }
        self.grid = hexgrid.Grid(self.hexes[k] for k in self.enterable)
        self._sight: dict[tuple[str, str], bool] = {}
        # Every pairwise distance, once per board (169 x 169 small ints): rules ask often.
        self.dist: dict[str, dict[str, int]] = {
            a: {b: hexgrid.distance(ha, hb) for b, hb in self.hexes.items()} for a, ha in self.hexes.items()
        }

        # near[k][r]: the hexes 1..r steps from k, for r up to the longest strike (3).
        self.near: dict[str, list[tuple[str, ...]]] = {
            a: [tuple(b for b, d in row.items() if 0 < d <= r) for r in range(4)] for a, row in self.dist.items()}

    def hex_name(self, k: str) -> str:
        """The hex ``k`` ("q,r") as people name it ("h8"); anything else as it came."""
        return self.names.get(k, str(k))

    def distance(self, a: str, b: str) -> int:
        return self.dist[a][b]

    def edge_distance(self, a: str, b: str) -> int:
        """Steps along the edge ring between two edge spaces (0..len/2)."""
        d = abs(self.edge_index[a] - self.edge_index[b])
        return min(d, len(self.edge) - d)

    def from_edge(self, k: str) -> int:
        """How far a hex lies inside the edge ring (0 on an edge space)."""
        return self.radius - hexgrid.distance(self.hexes[k], (0, 0))

    def sees(self, a: str, b: str) -> bool:
        """Line of sight from the centre of ``a`` to the centre of ``b`` (see sight.py)."""
        pair = (a, b) if a <= b else (b, a)
        seen = self._sight.get(pair)
        if seen is None:
            seen = self._sight[pair] = self._line_of_sight(self.hexes[a], self.hexes[b], self.blockers)
        return seen

    def public(self) -> dict:
        return {"name": self.name, "radius": self.radius, "terrain": dict(self.terrain),
                "excalibur": self.excalibur, "item_spaces": dict(self.item_spaces), "edge": list(self.edge),
                "names": dict(self.names), "labels": edge_labels(self.hexes.values(), self.radius)}


def load(name: str = "standard", edition: int = FIRST) -> Board:
    """The board ``name`` as the rules of ``edition`` read it (only sight differs)."""
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"No such board: {name!r}")
    return _load(name, edition)


@lru_cache(maxsize=None)
def _load(name: str, edition: int) -> Board:
    path = BOARDS / f"{name}.json"
    if not path.exists():
        raise ValueError(f"No such board: {name!r}")
    return Board(json.loads(path.read_text()), edition)


def board_public(name: str = "standard") -> dict:
    """What the page draws: terrain per hex, Excalibur's space, item spaces, the edge ring,
    each hex's name and the labels along the edges (squares.py)."""
    return load(name).public()


load("standard")  # read once at import, never at move time
load("standard", CURRENT)
