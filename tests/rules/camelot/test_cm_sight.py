"""Line of sight, centre to centre: trees and rocks block; water, units and item spaces do
not; a line along the edge of one blocking hex passes, along the edge between two does not."""
import pytest

from games.rules import hexgrid

from .helpers import BOARD, play, put, refused, table

# The three directions whose lines from a hex centre run exactly along hex edges, with the
# two hexes sharing the edge the line follows.
EDGE_LINES = [((2, -1), (1, 0), (1, -1)), ((1, 1), (1, 0), (0, 1)), ((1, -2), (0, -1), (1, -1))]


@pytest.mark.parametrize("far,left,right", EDGE_LINES)
def test_a_line_along_one_blocking_edge_passes_and_between_two_is_blocked(far, left, right):
    a = (0, 0)
    assert hexgrid.line_of_sight(a, far, {left})
    assert hexgrid.line_of_sight(a, far, {right})
    assert not hexgrid.line_of_sight(a, far, {left, right})


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
    # (-3,-2) -> (-1,-3) runs between two wood hexes, (-2,-2) and (-2,-3): blocked.
    assert BOARD.terrain["-2,-2"] == BOARD.terrain["-2,-3"] == "trees"
    assert not BOARD.sees("-3,-2", "-1,-3")


def test_sight_is_symmetric_over_the_whole_board_sample():
    keys = sorted(BOARD.terrain)[::7]
    for a in keys:
        for b in keys:
            assert BOARD.sees(a, b) == BOARD.sees(b, a)


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
