"""No blocking of other players' alcoves."""
import pytest

from games.rules import hexgrid
from games.rules.base import IllegalMove

from .helpers import BOARD, GAME, give, new_game, on_turn, place


def _all_targets(state, seat):
    return {m["to"] for m in GAME.legal_moves(state, seat) if m["type"] == "move"}


def test_nobody_may_enter_another_players_alcove():
    state = on_turn(new_game(), 0)
    give(state, 0, ["2H", "3H", "4H"])
    place(state, s0="-3,11")  # next to seat 1's alcove at -2,12
    targets = _all_targets(state, 0)
    assert targets and not targets & set(state["alcoves"][1:])
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, {"type": "move", "card": "2H", "to": state["alcoves"][1]})


def test_walks_do_not_pass_through_another_alcove_either():
    state = on_turn(new_game(), 0)
    give(state, 0, ["9H", "AH", "AS"])
    blocked = frozenset(state["positions"][1:]) | frozenset(state["alcoves"][1:])
    for to in _all_targets(state, 0):
        path = BOARD.path(state["positions"][0], to, 9, blocked)
        assert not set(path) & set(state["alcoves"][1:])


def test_your_own_alcove_is_always_free_for_you_to_return_to():
    state = on_turn(new_game(), 0)
    give(state, 0, ["2C", "9C", "9D"])
    place(state, s0="-3,11")
    assert state["alcoves"][0] in _all_targets(state, 0)


def test_an_empty_alcove_of_a_player_who_left_is_open_ground():
    state = on_turn(new_game(), 0)
    state, _ = GAME.apply(state, 1, {"type": "resign"})
    give(state, 0, ["2H", "3H", "4H"])
    place(state, s0="-3,11")
    assert state["alcoves"][1] in _all_targets(state, 0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_alcoves_sit_on_the_south_edge_far_from_the_grail(players):
    state = new_game(players=players)
    grail = hexgrid.parse(BOARD.grail)
    for alcove in state["alcoves"]:
        assert hexgrid.parse(alcove)[1] == 12
        assert BOARD.grid.walk_distance(hexgrid.parse(alcove), grail) >= 12
    assert state["positions"] == state["alcoves"]
