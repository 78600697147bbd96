"""How people name the board's hexes: a letter and a number, as chess names its squares.

The rules keep hexes as axial coordinates ``"q,r"`` (games/rules/hexgrid.py); nobody at a
table reads those. The board carries labels along its edges instead, and the log, the asks
and the page name a hex the way those labels read, so "Galahad 1 moves to c5" can be found
by eye:

- **Ranks** are the board's rows, numbered from the south: the bottom row is 1, the row
  through Excalibur's space is ``radius + 1`` (8 on the standard board), the top row
  ``2 * radius + 1``. Each row has its number at both ends.
- **Files** are the lines of hexes that run from the top edge down to the right (axial
  ``q`` constant), lettered from the west: ``a`` is the lower-left edge, Excalibur's file is
  the ``radius + 1``-th letter (``h``). A file's letter stands at the end of it that meets
  the top or the bottom edge (both for the middle file); the files' other ends lie on the
  slanting edges, where the ranks' numbers stand.

So Excalibur's space on the standard board is ``h8``; every row reads in alphabetical order
from left to right. One function names a hex for the whole site (``square_name``); the board
hands the page every name and where each edge label goes (``Board.public``).
"""
from __future__ import annotations

import re

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def square_name(key: str, radius: int) -> str:
    """``"0,0"`` -> ``"h8"`` on a board of radius 7; ``"-7,7"`` -> ``"a1"``."""
    q, r = (int(p) for p in key.split(","))
    return f"{LETTERS[q + radius]}{radius - r + 1}"


def edge_labels(hexes, radius: int) -> list[dict]:
    """The labels drawn just outside the board: each file's letter beyond its end on the top
    or bottom edge, each rank's number beyond both ends of its row. ``at`` is the axial
    place (off the board) where the label is drawn, as ``"q,r"``."""
    rows: dict[int, list[int]] = {}
    files: dict[int, list[int]] = {}
    for q, r in hexes:
        rows.setdefault(r, []).append(q)
        files.setdefault(q, []).append(r)
    out = []
    for r in sorted(rows):
        number = str(radius - r + 1)
        out.append({"kind": "rank", "text": number, "at": f"{min(rows[r]) - 1},{r}"})
        out.append({"kind": "rank", "text": number, "at": f"{max(rows[r]) + 1},{r}"})
    for q in sorted(files):
        letter = LETTERS[q + radius]
        top, bottom = min(files[q]), max(files[q])
        if top == -radius:
            out.append({"kind": "file", "text": letter, "at": f"{q},{top - 1}"})
        if bottom == radius:
            out.append({"kind": "file", "text": letter, "at": f"{q},{bottom + 1}"})
    return out


# A hex as the rules key it ("-5,-1"), standing alone in a sentence: not part of a longer
# number or list ("1,2,3"), and with no space after the comma (a list of dice has one).
_COORDINATES = re.compile(r"(?<![\w,.])-?\d+,-?\d+(?![\w,]|\.\d)")


def named_coordinates(text: str, names: dict[str, str]) -> str:
    """``text`` with every hex written as coordinates that ``names`` knows ("moves to -5,-1")
    named as the board's edges read ("moves to c6"); anything else as it came."""
    return _COORDINATES.sub(lambda m: names.get(m.group(0), m.group(0)), text)
