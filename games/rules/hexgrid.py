"""Hex geometry shared by the hex-map games (Cup Quest, Camelot).

Coordinates are *axial* ``(q, r)`` with pointy-top hexes: ``q`` grows to the east,
``r`` grows to the south-east, and the implied cube coordinate is ``s = -q - r``.
In game state a hex is written as the JSON-friendly key ``"q,r"`` (see ``key`` and
``parse``); ``parse`` also accepts a ``[q, r]`` list, so board files may use either.

Two layers:

* free functions on single hexes: ``neighbours``, ``distance``, ``ring``, ``spiral``,
  ``line``, ``line_of_sight`` (exact) and ``segment_crosses`` -- no board needed;
* ``Grid``, a fixed set of passable hexes with precomputed adjacency, for the questions
  a board asks: shortest paths, graph distances, and the walks a piece can make
  (``ends_of_walks``: where a piece can stop after exactly *n* steps along a path that
  never enters a hex twice, with per-call blockers).

Pure Python: no I/O, no randomness, nothing global but read-only tables.
"""
from __future__ import annotations

import threading
from collections import deque
from typing import Iterable, Iterator, Sequence

Hex = tuple[int, int]

# Pointy-top axial directions, clockwise from east.
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


# --- coordinates ------------------------------------------------------------------

def key(h: Hex | Sequence[int]) -> str:
    """``(q, r)`` -> ``"q,r"`` (the form stored in game state)."""
    return f"{int(h[0])},{int(h[1])}"


def parse(k: str | Sequence[int]) -> Hex:
    """``"q,r"`` or ``[q, r]`` -> ``(q, r)``; ValueError on anything else."""
    if isinstance(k, str):
        parts = k.split(",")
        if len(parts) != 2:
            raise ValueError(f"Not a hex key: {k!r}")
        return int(parts[0]), int(parts[1])
    if isinstance(k, (list, tuple)) and len(k) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in k):
        return int(k[0]), int(k[1])
    raise ValueError(f"Not a hex: {k!r}")


def to_cube(h: Hex) -> tuple[int, int, int]:
    q, r = h
    return q, r, -q - r


def add(a: Hex, b: Hex) -> Hex:
    return a[0] + b[0], a[1] + b[1]


def neighbours(h: Hex) -> list[Hex]:
    """The six hexes touching ``h``, clockwise from east (whether on a board or not)."""
    q, r = h
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def are_adjacent(a: Hex, b: Hex) -> bool:
    return distance(a, b) == 1


def distance(a: Hex, b: Hex) -> int:
    """Steps between two hexes on an open plane (ignores any board)."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def ring(center: Hex, radius: int) -> list[Hex]:
    """The hexes exactly ``radius`` steps from ``center`` (just ``center`` for 0)."""
    if radius == 0:
        return [center]
    out = []
    h = (center[0] + DIRECTIONS[4][0] * radius, center[1] + DIRECTIONS[4][1] * radius)
    for d in DIRECTIONS:
        for _ in range(radius):
            out.append(h)
            h = add(h, d)
    return out


def spiral(center: Hex, radius: int) -> list[Hex]:
    """Every hex within ``radius`` steps, nearest first."""
    return [h for k in range(radius + 1) for h in ring(center, k)]


def _cube_round(x: float, y: float, z: float) -> tuple[int, int, int]:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return rx, ry, rz


def line(a: Hex, b: Hex, nudge: float = 1e-6) -> list[Hex]:
    """Hexes a straight line from the centre of ``a`` to the centre of ``b`` crosses.

    Both ends included. When the line runs exactly along an edge between two hexes the
    tie is broken by shifting it a hair (``nudge``): a walk for drawing and stepping, not a
    sight test (``line_of_sight`` decides sight by exact geometry).
    """
    n = distance(a, b)
    if n == 0:
        return [a]
    ax, ay, az = to_cube(a)
    bx, by, bz = to_cube(b)
    ax, ay, az = ax + nudge, ay + nudge, az - 2 * nudge
    bx, by, bz = bx + nudge, by + nudge, bz - 2 * nudge
    out = []
    for i in range(n + 1):
        t = i / n
        x, y, _ = _cube_round(ax + (bx - ax) * t, ay + (by - ay) * t, az + (bz - az) * t)
        out.append((x, y))
    return out


def sampled_line_of_sight(a: Hex, b: Hex, blocks: Iterable[Hex] | set[Hex]) -> bool:
    """The first edition's sight rule (Camelot games stored before edition 2 replay with it).

    It samples the line at one point per hex step (``line``) with the line nudged a hair to
    either side, and calls it clear when either nudge meets no blocking hex. Two faults, kept
    only so old games replay as they were played: a line along one of the directions parallel
    to the nudge (axial (1, 1) and its multiples) breaks its edge ties to the same side both
    times, and a segment can cut through a corner of a hex between two sample points.
    ``line_of_sight`` decides by exact geometry instead.
    """
    blocking = blocks if isinstance(blocks, (set, frozenset)) else set(blocks)
    for nudge in (1e-6, -1e-6):
        if not any(h in blocking for h in line(a, b, nudge)[1:-1]):
            return True
    return False


# --- exact sight ------------------------------------------------------------------
#
# Hex centres and corners on an integer lattice, so that sight is decided with whole
# numbers only (no rounding, so no direction is treated differently from another and a
# line is clear exactly when its reverse is). A pointy-top hex of size 1 has its centre at
# x = sqrt(3) * (q + r/2), y = 3/2 * r and its corners at (+-sqrt(3)/2, +-1/2) and (0, +-1)
# from the centre. Scaling x by 2/sqrt(3) and y by 2 (an affine map: it keeps straight
# lines straight and insides inside) gives the centre (2q + r, 3r) and the corners
# (+-1, +-1) and (0, +-2); the open hexagon is then |dx| < 1, |dx + dy| < 2, |dx - dy| < 2.

def _centre(h: Hex) -> tuple[int, int]:
    return 2 * h[0] + h[1], 3 * h[1]


# (linear form on (dx, dy), bound): the inside of a hex is every |form| < bound.
_SIDES = (((1, 0), 1), ((1, 1), 2), ((1, -1), 2))


def segment_crosses(a: Hex, b: Hex, h: Hex) -> bool:
    """True when the segment from the centre of ``a`` to the centre of ``b`` passes through
    the *inside* of hex ``h``. Touching ``h``'s edge or corner, or running along an edge, is
    not crossing it. Exact (whole numbers only) and symmetric: the same for ``b``, ``a``.

    The segment is P + t (Q - P) for t in [0, 1]; each of the hexagon's six sides keeps t
    on one side of a bound, and the segment crosses the inside when the open interval of
    t they leave overlaps [0, 1]. Bounds are fractions compared by cross-multiplying.
    """
    px, py = _centre(a)
    qx, qy = _centre(b)
    cx, cy = _centre(h)
    dx, dy = qx - px, qy - py
    ox, oy = px - cx, py - cy
    # lo and hi as fractions num/den with den > 0; t must satisfy lo < t < hi (and 0 <= t <= 1).
    lo_n, lo_d, hi_n, hi_d = 0, 1, 1, 1
    for (fx, fy), bound in _SIDES:
        at0 = fx * ox + fy * oy          # the form at t = 0
        slope = fx * dx + fy * dy        # its change from t = 0 to t = 1
        # -bound < at0 + slope * t < bound
        for sign in (1, -1):
            a0, s = sign * at0 - bound, sign * slope   # need a0 + s t < 0
            if s == 0:
                if a0 >= 0:
                    return False
            elif s > 0:   # t < -a0 / s
                if -a0 * hi_d < hi_n * s:
                    hi_n, hi_d = -a0, s
            else:         # t > -a0 / s = a0 / -s
                if a0 * lo_d > lo_n * -s:
                    lo_n, lo_d = a0, -s
    return lo_n * hi_d < hi_n * lo_d


def line_of_sight(a: Hex, b: Hex, blocks: Iterable[Hex] | set[Hex]) -> bool:
    """True when the segment between the centres of ``a`` and ``b`` crosses the inside of
    no hex in ``blocks`` other than ``a`` and ``b`` themselves (a piece may stand in a wood
    and shoot out of it). A line running exactly along an edge, or through a corner, skirts
    the hexes there and is not blocked by them, whatever they are.

    Only hexes near the line can be crossed: a point of the segment lies within 2/3 of a
    step (in the hex metric) of the centre of the hex holding it, so such a hex ``h`` has
    distance(a, h) + distance(h, b) <= distance(a, b) + 1; the rest are skipped unexamined.
    """
    n = distance(a, b)
    for h in blocks:
        if h == a or h == b or distance(a, h) + distance(h, b) > n + 1:
            continue
        if segment_crosses(a, b, h):
            return False
    return True


# --- a board's passable hexes -----------------------------------------------------

class Grid:
    """A fixed set of passable hexes with the walking questions a game asks of it.

    Hexes are tuples at the API; inside, each hex has an index so searches can use
    small lists and bit masks. ``blocked`` arguments are per-call (pieces that move).
    """

    def __init__(self, cells: Iterable[Hex]) -> None:
        self.cells: list[Hex] = sorted(set(cells))
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(self.cells)}
        self._adj: list[tuple[int, ...]] = [
            tuple(self.index[n] for n in neighbours(h) if n in self.index) for h in self.cells
        ]
        self._dist: list[list[int]] | None = None  # all-pairs walking distances, built lazily
        self._balls: dict[tuple[int, int], tuple[int, ...]] = {}
        self._ball_tables: list[list[tuple[int, ...]]] = []
        self._lock = threading.Lock()  # for the lazily grown table above (_ball_table)
        # (start, steps) -> (ends on the empty grid, end -> witness path masks)
        self._walk_cache: dict[tuple[int, int], tuple[frozenset[int], dict[int, list[int]]]] = {}

    def __contains__(self, h: object) -> bool:
        return h in self.index

    def __len__(self) -> int:
        return len(self.cells)

    def neighbours(self, h: Hex) -> list[Hex]:
        """Neighbours of ``h`` that are on this grid."""
        return [self.cells[j] for j in self._adj[self.index[h]]]

    # -- distances over the grid (walking, not as the crow flies) -------------------

    def _bfs(self, src: int, blocked_mask: int = 0) -> list[int]:
        dist = [-1] * len(self.cells)
        dist[src] = 0
        queue = deque([src])
        while queue:
            u = queue.popleft()
            for v in self._adj[u]:
                if dist[v] < 0 and not (blocked_mask >> v) & 1:
                    dist[v] = dist[u] + 1
                    queue.append(v)
        return dist

    def _all_pairs(self) -> list[list[int]]:
        if self._dist is None:
            self._dist = [self._bfs(i) for i in range(len(self.cells))]
        return self._dist

    def walk_distance(self, a: Hex, b: Hex) -> int | None:
        """Fewest steps from ``a`` to ``b`` staying on the grid; None if cut off."""
        d = self._all_pairs()[self.index[a]][self.index[b]]
        return None if d < 0 else d

    def within(self, start: Hex, steps: int, hexes: Iterable[Hex]) -> list[Hex]:
        """Those of ``hexes`` a walk of up to ``steps`` from ``start`` could touch.

        A blocker farther away than that cannot change where such a walk ends, so
        callers drop the rest (it makes answers, and caches of them, reusable).
        """
        row = self._all_pairs()[self.index[start]]
        out = []
        for h in hexes:
            i = self.index.get(h)
            if i is not None and 0 <= row[i] <= steps:
                out.append(h)
        return out

    def shortest_path(self, a: Hex, b: Hex, blocked: Iterable[Hex] = ()) -> list[Hex] | None:
        """A shortest path from ``a`` to ``b`` (both included) avoiding ``blocked``."""
        mask = self._mask(blocked)
        src, dst = self.index[a], self.index[b]
        prev = {src: -1}
        queue = deque([src])
        while queue:
            u = queue.popleft()
            if u == dst:
                out = []
                while u != -1:
                    out.append(self.cells[u])
                    u = prev[u]
                return out[::-1]
            for v in self._adj[u]:
                if v not in prev and not (mask >> v) & 1:
                    prev[v] = u
                    queue.append(v)
        return None

    def _mask(self, hexes: Iterable[Hex]) -> int:
        mask = 0
        for h in hexes:
            i = self.index.get(h)
            if i is not None:
                mask |= 1 << i
        return mask

    def _ball(self, u: int, r: int) -> tuple[int, ...]:
        """Indexes within ``r`` walking steps of ``u`` (static grid), cached."""
        got = self._balls.get((u, r))
        if got is None:
            row = self._all_pairs()[u]
            got = tuple(v for v, d in enumerate(row) if 0 < d <= r)
            self._balls[(u, r)] = got
        return got

    def _ball_table(self, steps: int) -> list[list[tuple[int, ...]]]:
        """``table[left][u]`` = ``_ball(u, left)`` for every left up to ``steps``, cached.

        A row's place is its radius, so rows are added under a lock: a grid is shared by
        every game of a process, and the site asks it from several threads at once (frames
        built in worker threads beside the moves of the event loop). Two threads that both
        found the table short used to append the same radius twice, leaving every later
        row one radius short: searches then pruned real ends, and a memoised answer kept
        refusing a legal move for as long as the process lived."""
        table = self._ball_tables
        if len(table) > steps:
            return table
        with self._lock:
            while len(table) <= steps:
                left = len(table)
                table.append([self._ball(u, left) for u in range(len(self.cells))])
        return table

    # -- walks that never revisit a hex --------------------------------------------

    def ends_of_walks(self, start: Hex, steps: int, blocked: Iterable[Hex] = ()) -> set[Hex]:
        """Hexes where a walk of exactly ``steps`` steps from ``start`` can end.

        A walk moves to a neighbouring hex each step, never enters a hex in ``blocked``
        and never enters a hex it has already been on (``start`` included), so it is a
        simple path.

        Enumerating simple paths blindly is exponential (about four million of length
        ten on an open hex plane), so the answer is built in three moves:

        1. once per (start, steps), the ends on the empty grid are found exactly and a
           few *witness* paths are kept for each end (``_unblocked``);
        2. an end is confirmed at once when one of its witnesses avoids ``blocked``;
        3. a search settles the rest, pruning a branch as soon as every hex it could
           still end on is already known to be an end. Paths it finds are kept as
           witnesses, so later questions with similar blockers are answered in step 2.
        """
        if steps <= 0 or start not in self.index:
            return set()
        src = self.index[start]
        mask = self._mask(self.within(start, steps, blocked))
        possible, witnesses = self._unblocked(src, steps)
        if mask == 0:
            found = set(possible)
        else:
            # A snapshot: another thread's search may be adding witnesses to this shared
            # dict meanwhile (any path it adds is a real walk, so missing it is harmless).
            found = {e for e, paths in list(witnesses.items())
                     if not (mask >> e) & 1 and any(not (w & mask) for w in paths)}
            # Ends the blockers have cut off entirely need no search to rule out.
            near = self._bfs(src, mask)
            possible = frozenset(e for e in possible if 0 < near[e] <= steps)
            if len(found) < len(possible):
                self._search(src, steps, mask, found, possible, witnesses)
        return {self.cells[i] for i in found}

    _WITNESSES = 6  # paths kept per (start, steps, end)

    def _unblocked(self, src: int, steps: int) -> tuple[frozenset[int], dict[int, list[int]]]:
        got = self._walk_cache.get((src, steps))
        if got is None:
            witnesses = self._greedy_witnesses(src, steps)
            found = set(witnesses)
            self._search(src, steps, 0, found, None, witnesses)
            got = (frozenset(found), witnesses)
            self._walk_cache[(src, steps)] = got
        return got

    def _search(self, src: int, steps: int, blocked_mask: int, found: set[int],
                possible: frozenset[int] | None, witnesses: dict[int, list[int]]) -> None:
        """Add to ``found`` every remaining end of a simple walk (exhaustive, pruned).

        ``possible`` (when known) holds every hex that could be an end at all; a branch
        stops once no hex within its remaining steps is possible, unblocked and unfound.
        """
        adj = self._adj
        n = len(self.cells)
        balls = self._ball_table(steps)
        # Hexes not worth looking for, as one bit mask: blocked, the start (a walk never
        # re-enters it), impossible ends, and ends already found. It only gains bits.
        stop = blocked_mask | (1 << src)
        for e in found:
            stop |= 1 << e
        if possible is not None:
            for v in range(n):
                if v not in possible:
                    stop |= 1 << v
        state = [stop]
        # For each (steps left, hex): index of the first hex of its ball still worth
        # looking for; since ``stop`` only gains bits, the index only moves forward.
        cursor = [0] * ((steps + 1) * n)
        keep = self._WITNESSES

        def walk(u: int, left: int, visited: int) -> None:
            if left == 0:
                if u not in found:
                    found.add(u)
                    state[0] |= 1 << u
                    paths = witnesses.setdefault(u, [])
                    if len(paths) < keep:
                        paths.append(visited)
                return
            members = balls[left][u]
            slot = left * n + u
            i, size, stop_now = cursor[slot], len(members), state[0]
            while i < size and (stop_now >> members[i]) & 1:
                i += 1
            cursor[slot] = i
            if i == size:
                return  # nothing left to find within reach of this branch
            for v in adj[u]:
                if not (visited >> v) & 1 and not (blocked_mask >> v) & 1:
                    walk(v, left - 1, visited | (1 << v))

        walk(src, steps, 1 << src)

    def _greedy_witnesses(self, src: int, steps: int) -> dict[int, list[int]]:
        """Ends of the empty grid found by growing a few witness paths per hex.

        Each witness is the set of hexes (a bit mask) of a real simple walk, so every
        hex returned is an end; ends needing a winding walk may be missed, and
        ``_search`` finds those.
        """
        adj = self._adj
        keep = self._WITNESSES
        layer: dict[int, list[int]] = {src: [1 << src]}
        for _ in range(steps):
            nxt: dict[int, list[int]] = {}
            for u, useds in layer.items():
                for used in useds:
                    for v in adj[u]:
                        if (used >> v) & 1:
                            continue
                        paths = nxt.get(v)
                        if paths is None:
                            nxt[v] = [used | (1 << v)]
                        elif len(paths) < keep:
                            paths.append(used | (1 << v))
            layer = nxt
        return layer

    def walk_to(self, start: Hex, goal: Hex, steps: int, blocked: Iterable[Hex] = ()) -> list[Hex] | None:
        """One simple path of exactly ``steps`` steps from ``start`` to ``goal``, or None.

        The path lists every hex entered, ``start`` first and ``goal`` last.
        """
        if start not in self.index or goal not in self.index or steps <= 0:
            return None
        mask = self._mask(blocked)
        src, dst = self.index[start], self.index[goal]
        if (mask >> dst) & 1:
            return None
        dist = self._all_pairs()
        adj = self._adj
        path = [src]

        def walk(u: int, left: int, visited: int) -> bool:
            if left == 0:
                return u == dst
            d = dist[u][dst]
            if d < 0 or d > left:
                return False
            for v in adj[u]:
                if not (visited >> v) & 1 and not (mask >> v) & 1:
                    path.append(v)
                    if walk(v, left - 1, visited | (1 << v)):
                        return True
                    path.pop()
            return False

        if walk(src, steps, 1 << src):
            return [self.cells[i] for i in path]
        return None

    def simple_paths(self, start: Hex, steps: int, blocked: Iterable[Hex] = ()) -> Iterator[list[Hex]]:
        """Every simple path of exactly ``steps`` steps (exponential; small ``steps`` only)."""
        mask = self._mask(blocked)
        src = self.index[start]
        path = [src]
        adj = self._adj

        def walk(u: int, left: int, visited: int) -> Iterator[list[Hex]]:
            if left == 0:
                yield [self.cells[i] for i in path]
                return
            for v in adj[u]:
                if not (visited >> v) & 1 and not (mask >> v) & 1:
                    path.append(v)
                    yield from walk(v, left - 1, visited | (1 << v))
                    path.pop()

        yield from walk(src, steps, 1 << src)
