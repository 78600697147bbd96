"""Shared hex geometry: coordinates, neighbours, distance, lines, paths and walks."""
import random

import pytest

from games.rules import hexgrid
from games.rules.hexgrid import Grid


def _rect(width=9, height=9):
    return [(c - r // 2, r) for r in range(height) for c in range(width)]


def test_keys_round_trip_and_lists_are_accepted():
    assert hexgrid.key((3, -2)) == "3,-2"
    assert hexgrid.parse("3,-2") == (3, -2) == hexgrid.parse([3, -2])
    for bad in ("3", "a,b", [1], [1, 2, 3], [True, 1], 7):
        with pytest.raises(ValueError):
            hexgrid.parse(bad)


def test_six_neighbours_at_distance_one():
    ns = hexgrid.neighbours((2, 3))
    assert len(set(ns)) == 6 and all(hexgrid.distance((2, 3), n) == 1 for n in ns)


def test_distance_is_a_metric_on_the_plane():
    rnd = random.Random(1)
    pts = [(rnd.randint(-9, 9), rnd.randint(-9, 9)) for _ in range(30)]
    for a in pts:
        assert hexgrid.distance(a, a) == 0
        for b in pts:
            assert hexgrid.distance(a, b) == hexgrid.distance(b, a)
            for c in pts[:5]:
                assert hexgrid.distance(a, c) <= hexgrid.distance(a, b) + hexgrid.distance(b, c)
    assert hexgrid.distance((0, 0), (3, -1)) == 3 and hexgrid.distance((0, 0), (2, 2)) == 4


def test_rings_and_spirals_count_and_distance():
    assert len(hexgrid.ring((0, 0), 3)) == 18
    assert all(hexgrid.distance((1, 1), h) == 2 for h in hexgrid.ring((1, 1), 2))
    assert len(hexgrid.spiral((0, 0), 2)) == 19 == len(set(hexgrid.spiral((0, 0), 2)))


def test_lines_are_connected_and_as_long_as_the_distance():
    rnd = random.Random(2)
    for _ in range(50):
        a = (rnd.randint(-6, 6), rnd.randint(-6, 6))
        b = (rnd.randint(-6, 6), rnd.randint(-6, 6))
        line = hexgrid.line(a, b)
        assert line[0] == a and line[-1] == b and len(line) == hexgrid.distance(a, b) + 1
        assert all(hexgrid.distance(p, q) == 1 for p, q in zip(line, line[1:]))


def test_line_of_sight_is_blocked_by_a_hex_in_between_only():
    assert hexgrid.line_of_sight((0, 0), (4, 0), [])
    assert not hexgrid.line_of_sight((0, 0), (4, 0), [(2, 0)])
    assert hexgrid.line_of_sight((0, 0), (4, 0), [(4, 0), (0, 0), (2, 1)])
    # (0,0)->(2,-1) runs along the edge between (1,0) and (1,-1): it passes through the
    # inside of neither, so neither blocks it (exact geometry; the sampled first edition
    # needed one of them clear).
    assert hexgrid.line_of_sight((0, 0), (2, -1), [(1, 0)])
    assert hexgrid.line_of_sight((0, 0), (2, -1), [(1, -1)])
    assert hexgrid.line_of_sight((0, 0), (2, -1), [(1, 0), (1, -1)])
    assert not hexgrid.sampled_line_of_sight((0, 0), (2, -1), [(1, 0), (1, -1)])
    # ...but one step farther, the line passes through the middle of (2,-1).
    assert not hexgrid.line_of_sight((0, 0), (4, -2), [(2, -1)])


def test_grid_neighbours_stay_on_the_grid_and_shortest_paths_avoid_blockers():
    grid = Grid(_rect())
    assert all(n in grid for n in grid.neighbours((0, 0)))
    assert len(grid.neighbours((0, 0))) < 6
    path = grid.shortest_path((0, 4), (8 - 2, 4), blocked=[(3, 4)])
    assert (3, 4) not in path and len(path) - 1 == grid.walk_distance((0, 4), (6, 4)) + 1
    wall = [(c - r // 2, r) for r in range(9) for c in (4,)]
    assert grid.shortest_path((0, 4), (6, 4), blocked=wall) is None


@pytest.mark.parametrize("seed", range(12))
def test_ends_of_walks_match_brute_force_enumeration(seed):
    rnd = random.Random(seed)
    cells = [h for h in _rect() if rnd.random() > 0.15]
    grid = Grid(cells)
    start = rnd.choice(cells)
    blocked = rnd.sample([c for c in cells if c != start], 4)
    for steps in range(1, 7):
        brute = {p[-1] for p in grid.simple_paths(start, steps, blocked)}
        assert grid.ends_of_walks(start, steps, blocked) == brute, (seed, steps)
    # And again now that witnesses are cached, with other blockers.
    blocked = rnd.sample([c for c in cells if c != start], 3)
    for steps in range(1, 7):
        brute = {p[-1] for p in grid.simple_paths(start, steps, blocked)}
        assert grid.ends_of_walks(start, steps, blocked) == brute, (seed, steps)


def test_walk_to_finds_a_simple_path_of_the_exact_length():
    grid = Grid(_rect())
    path = grid.walk_to((0, 4), (1, 4), 7, blocked=[(0, 5)])
    assert len(path) == 8 and len(set(path)) == 8 and path[0] == (0, 4) and path[-1] == (1, 4)
    assert all(hexgrid.distance(a, b) == 1 for a, b in zip(path, path[1:]))
    assert (0, 5) not in path
    assert grid.walk_to((0, 4), (4, 4), 2) is None  # too far for two steps


def test_a_dead_end_corridor_has_no_long_walks():
    grid = Grid([(0, 0), (1, 0), (2, 0), (3, 0)])
    assert grid.ends_of_walks((0, 0), 3) == {(3, 0)}
    assert grid.ends_of_walks((0, 0), 4) == set()
    assert grid.ends_of_walks((1, 0), 2) == {(3, 0)}


def test_within_keeps_only_hexes_a_walk_could_touch():
    grid = Grid(_rect())
    near, far, off = (2, 4), (7, 4), (40, 40)
    assert grid.within((0, 4), 3, [near, far, off]) == [near]
    # Dropping far blockers never changes the answer.
    assert grid.ends_of_walks((0, 4), 3, [near, far]) == grid.ends_of_walks((0, 4), 3, [near])


def test_the_walk_tables_stay_right_when_two_threads_grow_them_at_once(monkeypatch):
    """A grid is shared by a process's games and asked from several threads. Both threads
    here reach the radius-3 row of the table at the same moment; each row must still hold
    its own radius (once two threads appended radius 3 twice, every later row was one
    radius short, and walks lost real ends)."""
    import threading

    grid = Grid(_rect())
    real = Grid._ball
    meet = threading.Barrier(2, timeout=0.5)

    def ball(self, u, r):
        if u == 0 and r == 3:
            try:
                meet.wait()  # with the table locked, the other thread never comes: time out
            except threading.BrokenBarrierError:
                pass
        return real(self, u, r)

    monkeypatch.setattr(Grid, "_ball", ball)
    threads = [threading.Thread(target=grid._ball_table, args=(5,)) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    table = grid._ball_table(5)
    assert len(table) == 6
    assert all(table[r][u] == real(grid, u, r) for r in range(6) for u in range(len(grid.cells)))
