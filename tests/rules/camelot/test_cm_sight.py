"""Line of sight, centre to centre, by exact geometry (docs/rules/camelot.md, "Sight").

What the rules ("Camelot: Basic Game", Wingnut Games 2005, under the board's effects) ask of
a ranged attack, in our words: a straight line from the middle of the attacker's hex to the
middle of the defender's must not cross a tree or rock hex, though it may run exactly along
the edge of one.

So a hex blocks when the segment between the two centres passes through its inside; a line
running along an edge (or through a corner) skirts the hexes there.
"""
from fractions import Fraction
from functools import lru_cache

import pytest

from games.rules import hexgrid
from games.rules.camelot import editions
from games.rules.camelot.board import BOARDS, load
from games.rules.camelot.pieces import MODES

from .helpers import BOARD, GAME, play, put, refused, table

# The six directions whose lines from a hex centre run exactly along a hex edge, each with
# the two hexes (as offsets) that share the edge the line follows.
EDGE_LINES = [((2, -1), (1, 0), (1, -1)), ((1, 1), (1, 0), (0, 1)), ((1, -2), (0, -1), (1, -1)),
              ((-2, 1), (-1, 0), (-1, 1)), ((-1, -1), (-1, 0), (0, -1)), ((-1, 2), (0, 1), (-1, 1))]
BOARD_NAMES = sorted(p.stem for p in BOARDS.glob("*.json"))
LONGEST_STRIKE = max(spec[1] for modes in MODES.values() for spec in modes.values() if spec[2])


def _add(a, b):
    return a[0] + b[0], a[1] + b[1]


# --- an independent oracle: hex corners from neighbouring centres, clipping in fractions ----

def _point(h):
    """A hex centre in the plane, x scaled by 2/sqrt(3) and y by 2 (straight lines and
    insides are kept by any such stretch)."""
    return Fraction(2 * h[0] + h[1]), Fraction(3 * h[1])


@lru_cache(maxsize=None)
def _corners(h):
    """A hex's six corners: each is where it meets two neighbours that meet each other, so
    it is the average of the three centres."""
    ns = hexgrid.neighbours(h)
    out = []
    for i in range(6):
        pts = [_point(h), _point(ns[i]), _point(ns[(i + 1) % 6])]
        out.append((sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3))
    return tuple(out)


def _crosses_inside(a, b, h):
    """Clip the segment to the closed hexagon (Cyrus-Beck); it crosses the inside when the
    clipped piece has length and its middle is strictly inside (a piece of positive length
    whose middle is on the boundary lies along an edge)."""
    p, q = _point(a), _point(b)
    d = (q[0] - p[0], q[1] - p[1])
    corners = _corners(h)
    centre = _point(h)
    t0, t1 = Fraction(0), Fraction(1)
    sides = []
    for i in range(6):
        c1, c2 = corners[i], corners[(i + 1) % 6]
        normal = (c2[1] - c1[1], c1[0] - c2[0])
        if normal[0] * (centre[0] - c1[0]) + normal[1] * (centre[1] - c1[1]) > 0:
            normal = (-normal[0], -normal[1])   # point outwards
        sides.append((normal, c1))
        at_p = normal[0] * (p[0] - c1[0]) + normal[1] * (p[1] - c1[1])   # <= 0 inside
        slope = normal[0] * d[0] + normal[1] * d[1]
        if slope == 0:
            if at_p > 0:
                return False
        elif slope > 0:
            t1 = min(t1, -at_p / slope)
        else:
            t0 = max(t0, -at_p / slope)
    if t0 >= t1:
        return False
    mid = (t0 + t1) / 2
    m = (p[0] + d[0] * mid, p[1] + d[1] * mid)
    return all(n[0] * (m[0] - c[0]) + n[1] * (m[1] - c[1]) < 0 for n, c in sides)


def test_the_oracle_agrees_with_the_engine_on_a_whole_neighbourhood():
    hexes = hexgrid.spiral((0, 0), 4)
    for b in hexes:
        for h in hexes:
            if h not in ((0, 0), b):
                assert hexgrid.segment_crosses((0, 0), b, h) == _crosses_inside((0, 0), b, h), (b, h)


# --- the property, on every board ----------------------------------------------------------

@pytest.mark.parametrize("name", BOARD_NAMES)
def test_sight_is_exact_and_symmetric_for_every_pair_within_reach_on_every_board(name):
    """Every pair of hexes within the longest ranged strike (the Bow's and Zot's 3): sight
    from attacker to target equals sight from target to attacker, and a line is blocked
    exactly when it passes through the inside of a tree or rock hex (oracle above)."""
    board = load(name, editions.CURRENT)
    keys = sorted(board.terrain)
    blockers = [k for k in keys if board.terrain[k] in ("trees", "rocks")]
    checked = 0
    for a in keys:
        for b in keys:
            if a == b or board.distance(a, b) > LONGEST_STRIKE:
                continue
            ha, hb = board.hexes[a], board.hexes[b]
            # A hex farther than the segment's length from either end cannot be touched by it.
            near = [k for k in blockers if k not in (a, b) and board.distance(a, k) <= LONGEST_STRIKE
                    and board.distance(b, k) <= LONGEST_STRIKE]
            crossed = [k for k in near if _crosses_inside(ha, hb, board.hexes[k])]
            assert board.sees(a, b) == (not crossed) == board.sees(b, a), (a, b, crossed)
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_morgan_sees_by_the_same_rule_at_every_distance(name):
    """Morgan's revival has no range: every pair of hexes on the board, both ways."""
    board = load(name, editions.CURRENT)
    keys = sorted(board.terrain)
    blockers = [board.hexes[k] for k in keys if board.terrain[k] in ("trees", "rocks")]
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            ha, hb = board.hexes[a], board.hexes[b]
            crossed = any(hexgrid.segment_crosses(ha, hb, h) for h in blockers if h not in (ha, hb))
            assert board.sees(a, b) == board.sees(b, a) == (not crossed), (a, b)


# --- skirting an edge ----------------------------------------------------------------------

@pytest.mark.parametrize("far,left,right", EDGE_LINES)
def test_a_line_along_an_edge_skirts_the_hexes_on_both_sides(far, left, right):
    """BOARD SPACE EFFECTS: a line of sight that runs exactly along the side of a tree or rock
    hex only grazes it and is not blocked: in all six such directions, from every hex of the board, one blocking
    hex beside the line does not block (the first edition blocked some of these, breaking the
    tie to one side), and neither do two, since the line passes through neither."""
    for a in (BOARD.hexes[k] for k in sorted(BOARD.terrain)):
        b, l, r = _add(a, far), _add(a, left), _add(a, right)
        for blocks in ({l}, {r}, {l, r}):
            assert hexgrid.line_of_sight(a, b, blocks) and hexgrid.line_of_sight(b, a, blocks)
        # ...and the same line carried one step on is blocked by a hex it passes through.
        assert not hexgrid.line_of_sight(a, _add(b, far), {b})


def test_the_first_editions_sampled_line_broke_edge_ties_to_one_side():
    """Why edition 2 exists: the sampled line blocked (1,0) -> (0,-1) by a tree at (0,0)
    alone, a line that only skirts the tree's edge, and decided some lines differently
    from their two ends."""
    assert not hexgrid.sampled_line_of_sight((1, 0), (0, -1), {(0, 0)})
    assert hexgrid.line_of_sight((1, 0), (0, -1), {(0, 0)})
    assert hexgrid.sampled_line_of_sight((0, 0), (3, 1), {(2, 0)}) != hexgrid.sampled_line_of_sight((3, 1), (0, 0), {(2, 0)})


def test_hand_drawn_straight_lines():
    #   A . T . B   : a tree in the middle of a straight row blocks
    assert not hexgrid.line_of_sight((0, 0), (4, 0), {(2, 0)})
    #   the blocker beside the row does not
    assert hexgrid.line_of_sight((0, 0), (4, 0), {(2, -1), (1, 1)})
    # a blocker at either end does not block (a Galahad may stand in a wood and shoot out)
    assert hexgrid.line_of_sight((0, 0), (3, 0), {(0, 0), (3, 0)})


def test_on_the_board_rocks_and_trees_block_and_water_does_not():
    assert BOARD.terrain["2,0"] == "rocks" and not BOARD.sees("1,0", "3,0")
    assert all(BOARD.terrain[k] == "trees" for k in ("-1,-3", "-2,-3", "-3,-3"))
    assert not BOARD.sees("0,-3", "-4,-3")
    assert all(BOARD.terrain[k] == "water" for k in ("2,2", "2,3", "2,4"))
    assert BOARD.sees("2,1", "2,5")
    # Item spaces and Excalibur's space are grass and block nothing.
    assert BOARD.sees("-1,0", "1,0") and BOARD.terrain["0,0"] == "grass"


def test_on_the_board_edge_skirting_lines():
    # (1,0) -> (3,-1) runs along the edge between the rocks at (2,0) and grass at (2,-1).
    assert BOARD.terrain["2,0"] == "rocks" and BOARD.terrain["2,-1"] == "grass"
    assert BOARD.sees("1,0", "3,-1") and BOARD.sees("3,-1", "1,0")
    # (-3,-2) -> (-1,-3) runs along the edge between two wood hexes, (-2,-2) and (-2,-3):
    # it passes through neither, so it skirts both.
    assert BOARD.terrain["-2,-2"] == BOARD.terrain["-2,-3"] == "trees"
    assert BOARD.sees("-3,-2", "-1,-3")


def test_the_first_edition_is_kept_for_games_started_under_it():
    old = load("standard", editions.FIRST)
    assert not old.sees("-3,-2", "-1,-3") and BOARD.sees("-3,-2", "-1,-3")
    state = GAME.setup(3, {"edition": 1}, 1)
    assert "edition" not in state and GAME.view_for(state, 0)["edition"] == 1
    assert GAME.setup(3, {}, 1)["edition"] == editions.CURRENT


def test_a_galahad_shoots_over_units_and_water_but_not_through_rocks():
    state = table()
    archer = put(state, 0, "galahad", "1,0")
    behind_rock = put(state, 1, "arthur", "3,0")
    state = play(state, 0, {"type": "declare", "targets": [behind_rock]})
    assert "sight" in refused(state, 0, {"type": "strike", "unit": archer, "target": behind_rock, "mode": "bow"})
    state = table()
    archer = put(state, 0, "galahad", "3,1")
    target = put(state, 1, "arthur", "3,4")  # across the Mere: (3,2) and (3,3) are water
    assert BOARD.terrain["3,2"] == BOARD.terrain["3,3"] == "water"
    state = play(state, 0, {"type": "declare", "targets": [target]})
    state = play(state, 0, {"type": "strike", "unit": archer, "target": target, "mode": "bow"})
    assert state["turns"]["0"]["strikes"] == [{"unit": archer, "target": target, "mode": "bow", "value": 1}]
    state = table()
    archer = put(state, 0, "galahad", "-1,0")
    put(state, 2, "arthur", "0,0")  # standing in the way: units never block sight
    target = put(state, 1, "arthur", "1,0")
    state = play(state, 0, {"type": "declare", "targets": [target]})
    state = play(state, 0, {"type": "strike", "unit": archer, "target": target, "mode": "bow"})
    assert state["turns"]["0"]["stage"] == "attack"


def _kill(state, killer_seat, killer, target):
    state = play(state, killer_seat, {"type": "declare", "targets": [target]})
    state = play(state, killer_seat, {"type": "strike", "unit": killer, "target": target, "mode": "melee"})
    return play(state, killer_seat, {"type": "end_turn"})


@pytest.mark.parametrize("edition,revived", [(editions.CURRENT, False), (editions.FIRST, True)])
def test_morgan_at_long_range_does_not_see_through_a_trees_corner(edition, revived):
    """PLAYING PIECES: Morgan can revive a character only if she sees it die, that is, only
    with line of sight to it. From (-1,-1) to (3,-2), four hexes,
    the line cuts through the inside of the wood at (1,-2) near its corner; the first
    edition's sampled line missed it and revived the Galahad."""
    assert BOARD.terrain["1,-2"] == "trees"
    assert hexgrid.segment_crosses((-1, -1), (3, -2), (1, -2))
    state = table(3, options={"edition": edition})
    knight = put(state, 0, "lancelot", "3,-3")
    victim = put(state, 1, "galahad", "3,-2")
    put(state, 1, "morgan", "-1,-1")
    after = _kill(state, 0, knight, victim)
    assert victim not in after["units"]
    assert (after["pool"][1]["galahad"] == 4) is revived
    assert (after["lost"][1]["galahad"] == 0) is revived
