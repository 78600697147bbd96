"""A game's places from how it ended: the winners first, everyone else next; a draw or no
winner, everyone first; an aborted game lost by whoever left it."""
from fractions import Fraction

import pytest

from games.tournaments.results import first_points, places_after_abort, places_from_outcome


@pytest.mark.parametrize("outcome, seats, places", [
    ({"winners": [1], "draw": False}, 2, [2, 1]),
    ({"winners": [0], "draw": False}, 4, [1, 2, 2, 2]),
    ({"winners": [0, 2], "draw": False}, 3, [1, 2, 1]),
    ({"winners": [], "draw": True}, 2, [1, 1]),
    ({"winners": [0, 1], "draw": False}, 2, [1, 1]),  # everyone won: a draw
    ({"winners": []}, 3, [1, 1, 1]),                  # no winner at all
    (None, 2, [1, 1]),
    ({"winners": [5, "x"]}, 2, [1, 1]),               # nothing of this table: no winner
])
def test_places_from_an_outcome(outcome, seats, places):
    assert places_from_outcome(outcome, seats) == places


def test_an_aborted_game_is_lost_by_whoever_left_it():
    assert places_after_abort(2, [0]) == [2, 1]
    assert places_after_abort(3, [1]) == [1, 2, 1]
    assert places_after_abort(3, []) == [1, 1, 1]


def test_the_first_players_score_in_a_game_of_two():
    assert [first_points(p) for p in ([1, 2], [1, 1], [2, 1])] == [Fraction(1), Fraction(1, 2), Fraction(0)]
