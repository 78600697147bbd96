"""Reach the Grail, pick it up, carry it home to your own alcove to win."""
import pytest

from games.rules.base import IllegalMove

from .helpers import GAME, give, new_game, on_turn, place


def _at_grail_distance_two():
    state = on_turn(new_game(), 0)
    give(state, 0, ["2H", "9C", "9D"])
    place(state, s0="4,2")
    return state


def test_ending_a_move_on_the_grail_picks_it_up():
    state = _at_grail_distance_two()
    state, events = GAME.apply(state, 0, {"type": "move", "card": "2H", "to": "4,0"})
    assert state["grail"] == {"at": None, "carrier": 0}
    assert any(e.kind == "grail" and "picks up" in e.text for e in events)


def test_walking_over_the_grail_does_not_pick_it_up():
    state = on_turn(new_game(), 0)
    give(state, 0, ["3H", "9C", "9D"])
    place(state, s0="3,0")
    # 3,0 -> 4,0 -> 5,0 -> 6,0 walks over the Grail without stopping on it.
    assert state["grail"]["at"] == "4,0"
    state, _ = GAME.apply(state, 0, {"type": "move", "card": "3H", "to": "6,0"})
    assert "4,0" in state["last_move"]["path"]
    assert state["grail"] == {"at": "4,0", "carrier": None}


def test_the_carrier_takes_the_grail_along():
    state = _at_grail_distance_two()
    state, _ = GAME.apply(state, 0, {"type": "move", "card": "2H", "to": "4,0"})
    state = on_turn(state, 0)
    give(state, 0, ["4H", "9C", "9D"])
    state, _ = GAME.apply(state, 0, {"type": "move", "card": "4H", "to": "4,4"})
    assert state["grail"] == {"at": None, "carrier": 0}


def test_bringing_the_grail_into_your_own_alcove_wins():
    state = on_turn(new_game(), 0)
    give(state, 0, ["2C", "9C", "9D"])
    state["grail"] = {"at": None, "carrier": 0}
    place(state, s0="-3,11")
    state, events = GAME.apply(state, 0, {"type": "move", "card": "2C", "to": state["alcoves"][0]})
    result = GAME.outcome(state)
    assert result.winners == (0,) and not result.draw
    assert events[-1].kind == "end"
    assert GAME.pending(state) == [] and GAME.legal_moves(state, 0) == []
    with pytest.raises(IllegalMove, match="over"):
        GAME.apply(state, 1, {"type": "pass"})


def test_coming_home_without_the_grail_does_not_win():
    state = on_turn(new_game(), 0)
    give(state, 0, ["2C", "9C", "9D"])
    place(state, s0="-3,11")
    state, _ = GAME.apply(state, 0, {"type": "move", "card": "2C", "to": state["alcoves"][0]})
    assert GAME.outcome(state) is None


def test_a_dropped_grail_can_be_picked_up_by_anyone():
    state = on_turn(new_game(), 1)
    state["grail"] = {"at": "0,8", "carrier": None}
    give(state, 1, ["2C", "9C", "9D"])
    place(state, s1="-1,10")
    state, _ = GAME.apply(state, 1, {"type": "move", "card": "2C", "to": "0,8"})
    assert state["grail"] == {"at": None, "carrier": 1}
