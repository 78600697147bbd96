"""Cup Quest maps: loading a board file and answering questions about it.

A board file (``boards/<name>.json``) holds, as ``"q,r"`` axial hex keys (see
``games.rules.hexgrid``): the walkable ``cells``; decorative ``rocks`` (impassable, drawn
only); the ``grail`` start; the ``monsters`` (each stands on a cell that nobody may
enter); the twelve court-card ``teleports`` keyed by card (``"JH"`` ...); and the
``alcoves`` to use for each player count. Files are read once, from this package,
when first asked for -- the only file access in the rules, and it never changes.
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from .. import hexgrid
from . import cards

BOARD_NAMES = ("standard",)
_CACHE_LIMIT = 4096  # memoised walk answers (a few kB each) kept per board


class Board:
    def __init__(self, name: str, data: dict) -> None:
        validate(data)
        self.name = name
        self.title: str = data["name"]
        self.description: str = data.get("description", "")
        self.cells: list[str] = list(data["cells"])
        self.rocks: list[str] = list(data.get("rocks", []))
        self.grail: str = data["grail"]
        self.monsters: dict[str, dict] = {m: dict(v) for m, v in data["monsters"].items()}
        self.teleports: dict[str, str] = dict(data["teleports"])
        self.alcoves: dict[str, list[str]] = {k: list(v) for k, v in data["alcoves"].items()}
        self.monster_hexes = {v["at"] for v in self.monsters.values()}
        self.hex_of: dict[str, hexgrid.Hex] = {c: hexgrid.parse(c) for c in self.cells}
        self.key_of: dict[hexgrid.Hex, str] = {h: c for c, h in self.hex_of.items()}  # shared strings
        walkable = [self.hex_of[c] for c in self.cells if c not in self.monster_hexes]
        self.grid = hexgrid.Grid(walkable)
        self._reach: dict[tuple, tuple[int, frozenset[str]]] = {}

    # -- static facts -------------------------------------------------------------

    def alcoves_for(self, players: int) -> list[str]:
        return list(self.alcoves[str(players)])

    def teleport_for(self, card: str) -> str | None:
        return self.teleports.get(cards.rank(card) + cards.suit(card))

    def monsters_touching(self, cell: str) -> list[str]:
        """Monster ids standing next to ``cell`` (board order)."""
        h = self.hex_of[cell]
        return [m for m, v in self.monsters.items() if hexgrid.distance(h, self.hex_of[v["at"]]) == 1]

    # -- walking ------------------------------------------------------------------

    def destinations(self, start: str, steps: int, blocked: frozenset[str]) -> tuple[int, frozenset[str]]:
        """Where a walk of ``steps`` from ``start`` can stop, and how long it is.

        The walk is exactly ``steps`` long when any such walk exists. When pieces hem the
        walker in so that none does, it is the longest walk that fits (the piece "stops
        behind" whoever blocks it): the answer is then ``(k, ends)`` with ``k < steps``.
        ``(0, {})`` means the piece cannot move at all. Results are memoised per
        (start, steps, blocked) because a turn asks the same question several times.
        """
        origin = self.hex_of[start]
        # Only blockers within reach matter; dropping the rest lets far more questions
        # share one memo entry (most of the time nobody is near enough to matter).
        blocked_hexes = self.grid.within(origin, steps, [self.hex_of[b] for b in blocked])
        memo_key = (start, steps, frozenset(blocked_hexes))
        got = self._reach.get(memo_key)
        if got is not None:
            return got
        result: tuple[int, frozenset[str]] = (0, frozenset())
        for length in range(steps, 0, -1):
            ends = self.grid.ends_of_walks(origin, length, blocked_hexes)
            if ends:
                result = (length, frozenset(self.key_of[h] for h in ends))
                break
        if len(self._reach) >= _CACHE_LIMIT:
            self._reach.clear()
        self._reach[memo_key] = result
        return result

    def path(self, start: str, goal: str, steps: int, blocked: frozenset[str]) -> list[str] | None:
        """One walk of exactly ``steps`` from ``start`` to ``goal``, as hex keys."""
        got = self.grid.walk_to(self.hex_of[start], self.hex_of[goal], steps,
                                [self.hex_of[b] for b in blocked])
        return None if got is None else [self.key_of[h] for h in got]

    def as_view(self) -> dict:
        """The drawable map (plain data for the browser)."""
        return {
            "name": self.name, "title": self.title, "description": self.description,
            "cells": list(self.cells), "rocks": list(self.rocks), "grail": self.grail,
            "monsters": {m: dict(v) for m, v in self.monsters.items()},
            "teleports": dict(self.teleports),
        }


def validate(data: dict) -> None:
    """Refuse a board file that would break the rules (ValueError with the reason)."""
    for field in ("name", "cells", "grail", "monsters", "teleports", "alcoves"):
        if field not in data:
            raise ValueError(f"Board is missing '{field}'.")
    cells = set(data["cells"])
    if len(cells) != len(data["cells"]):
        raise ValueError("Board lists a cell twice.")
    for c in list(cells) + list(data.get("rocks", [])):
        hexgrid.parse(c)
    if cells & set(data.get("rocks", [])):
        raise ValueError("A hex cannot be both a cell and a rock.")
    monster_hexes = {v["at"] for v in data["monsters"].values()}
    if not monster_hexes <= cells or len(monster_hexes) != len(data["monsters"]):
        raise ValueError("Each monster needs its own cell on the board.")
    expected = {r + s for r in cards.FACE_RANKS for s in cards.SUITS}
    if set(data["teleports"]) != expected:
        raise ValueError("Board needs exactly one teleport space per Jack, Queen and King of each suit.")
    specials = set(data["teleports"].values())
    if len(specials) != 12 or not specials <= cells - monster_hexes:
        raise ValueError("Teleport spaces must be twelve distinct free cells.")
    if data["grail"] not in cells - monster_hexes - specials:
        raise ValueError("The Grail must start on a free cell that is not a teleport space.")
    for players in ("2", "3", "4"):
        alcoves = data["alcoves"].get(players)
        if alcoves is None or len(alcoves) != int(players) or len(set(alcoves)) != int(players):
            raise ValueError(f"Board needs {players} distinct alcoves for {players} players.")
        if not set(alcoves) <= cells - monster_hexes - specials - {data["grail"]}:
            raise ValueError("Alcoves must be free cells away from the Grail and teleports.")


@lru_cache(maxsize=None)
def load_board(name: str) -> Board:
    if name not in BOARD_NAMES:
        raise ValueError(f"Unknown board '{name}'.")
    text = resources.files(__package__).joinpath("boards", f"{name}.json").read_text("utf-8")
    return Board(name, json.loads(text))
