"""England and Avalon geometry: area references, rows and adjacency.

The rulebook's Figure 1 is missing, so the layout is our own (see docs/rules/ccg.md):
each England is a pyramid of rows, read from the bottom (next to the Round Table Area)
to the top. The top row always has two areas: the "top two areas" that lead into Avalon.

Area references are short strings: ``"E<seat>.<index>"`` for an area of that seat's
England (index in row-major order, bottom row first) and ``"A.<index>"`` for Avalon. The
Round Table Area itself is ``None``.
"""
from __future__ import annotations

from functools import lru_cache

# England size -> row widths from bottom to top.
ROWS = {12: (4, 3, 3, 2), 13: (4, 4, 3, 2)}


def england_size(players: int) -> int:
    """Two players lay 12 cards in England and 2 in Avalon; three or more lay 13 and 1 (16.3)."""
    return 12 if players == 2 else 13


@lru_cache(maxsize=None)
def geometry(size: int) -> dict:
    """Rows, the row of each index, neighbours, the areas below, and the top two."""
    widths = ROWS[size]
    rows, row_of, col_of = [], [], []
    i = 0
    for r, w in enumerate(widths):
        rows.append(tuple(range(i, i + w)))
        for c in range(w):
            row_of.append(r)
            col_of.append(c)
        i += w

    def overlap(a: int, b: int) -> bool:
        # Area c of a row of width w spans [c/w, (c+1)/w]; rows touch where spans overlap.
        wa, wb = widths[row_of[a]], widths[row_of[b]]
        ca, cb = col_of[a], col_of[b]
        return ca * wb < (cb + 1) * wa and cb * wa < (ca + 1) * wb

    adj, below = [], []
    for a in range(size):
        r = row_of[a]
        near = [b for b in rows[r] if abs(col_of[b] - col_of[a]) == 1]
        down = [b for b in rows[r - 1] if overlap(a, b)] if r > 0 else []
        up = [b for b in rows[r + 1] if overlap(a, b)] if r + 1 < len(rows) else []
        adj.append(tuple(sorted(near + down + up)))
        below.append(tuple(down))
    return {"rows": tuple(rows), "row_of": tuple(row_of), "adj": tuple(adj), "below": tuple(below),
            "bottom": rows[0], "top": rows[-1]}


def ref_e(seat: int, index: int) -> str:
    return f"E{seat}.{index}"


def ref_a(index: int) -> str:
    return f"A.{index}"


def parse(ref: str) -> tuple[int | None, int]:
    """(seat, index) for an England area, (None, index) for Avalon."""
    head, _, idx = ref.partition(".")
    return (None if head == "A" else int(head[1:])), int(idx)


def name(size: int, ref: str | None) -> str:
    """An area in words, as the board labels it ("Seat 2's England, row 3 area 1",
    "Avalon 2"); the site turns "Seat 2" into the player's name."""
    if ref is None:
        return "the Round Table Area"
    seat, i = parse(ref)
    if seat is None:
        return f"Avalon {i + 1}"
    g = geometry(size)
    row = g["row_of"][i]
    return f"Seat {seat + 1}'s England, row {row + 1} area {i - g['rows'][row][0] + 1}"


def is_avalon(ref: str | None) -> bool:
    return ref is not None and ref.startswith("A")


def neighbours(size: int, ref: str | None, seat: int) -> list[str | None]:
    """Areas one step from ``ref`` inside the seat's own England (None = Round Table Area)."""
    g = geometry(size)
    if ref is None:
        return [ref_e(seat, i) for i in g["bottom"]]
    _, i = parse(ref)
    out: list[str | None] = [ref_e(seat, j) for j in g["adj"][i]]
    if g["row_of"][i] == 0:
        out.append(None)
    return out


def down_from(size: int, ref: str) -> list[str | None]:
    """Areas 'down' towards the Round Table Area (rule 7.6): the row below, or the RT Area."""
    seat, i = parse(ref)
    g = geometry(size)
    if g["row_of"][i] == 0:
        return [None]
    return [ref_e(seat, j) for j in g["below"][i]]


def is_top(size: int, ref: str | None) -> bool:
    if ref is None or is_avalon(ref):
        return False
    return parse(ref)[1] in geometry(size)["top"]


def top_two(size: int, seat: int) -> list[str]:
    return [ref_e(seat, i) for i in geometry(size)["top"]]
