"""Aces freeze another player for two of their turns; frozen players may still snipe."""
import pytest

from games.rules.base import IllegalMove

from .helpers import GAME, give, new_game, on_turn, place


def _frozen_game():
    state = on_turn(new_game(), 0)
    give(state, 0, ["AS", "2C", "3C"])
    place(state, s2="0,8")  # out of the alcove, so a snipe target
    state, events = GAME.apply(state, 0, {"type": "freeze", "card": "AS", "target": 1})
    return state, events


def test_an_ace_freezes_any_other_player_and_ends_the_turn():
    state = on_turn(new_game(), 0)
    give(state, 0, ["AS", "2C", "3C"])
    freezes = [m for m in GAME.legal_moves(state, 0) if m["type"] == "freeze"]
    assert freezes == [{"type": "freeze", "card": "AS", "target": 1}, {"type": "freeze", "card": "AS", "target": 2}]
    state, events = _frozen_game()
    assert state["frozen"] == [0, 2, 0]
    assert "AS" in state["discard"] and len(state["hands"][0]) == 3


def test_you_cannot_freeze_yourself():
    state = on_turn(new_game(), 0)
    give(state, 0, ["AS", "2C", "3C"])
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, {"type": "freeze", "card": "AS", "target": 0})


def test_aces_do_not_move():
    state = on_turn(new_game(), 0)
    give(state, 0, ["AS", "2C", "3C"])
    assert not [m for m in GAME.legal_moves(state, 0) if m.get("card") == "AS" and m["type"] == "move"]
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, {"type": "move", "card": "AS", "to": "0,8"})


def test_a_frozen_player_may_only_snipe_or_pass():
    state, _ = _frozen_game()
    state = on_turn(state, 1)
    kinds = {m["type"] for m in GAME.legal_moves(state, 1)}
    assert kinds == {"snipe", "pass"}
    card = state["hands"][1][0]
    for move in ({"type": "discard", "card": card}, {"type": "move", "card": card, "to": "0,8"}):
        with pytest.raises(IllegalMove, match="frozen"):
            GAME.apply(state, 1, move)
    state, _ = GAME.apply(state, 1, {"type": "snipe", "target": 2, "angle": 0, "strength": 50})
    assert state["snipes"][1] == 3 and state["frozen"][1] == 1


def test_the_freeze_lasts_two_of_the_frozen_players_turns():
    state, _ = _frozen_game()
    turns_frozen = 0
    while True:
        seat = GAME.pending(state)[0].seat
        if seat == 1:
            if not state["frozen"][1]:
                break
            turns_frozen += 1
            assert {m["type"] for m in GAME.legal_moves(state, 1)} <= {"snipe", "pass"}
        state, _ = GAME.apply(state, seat, {"type": "pass"})
    assert turns_frozen == 2
    assert any(m["type"] == "discard" for m in GAME.legal_moves(state, 1))


def test_freezing_a_frozen_player_starts_the_two_turns_again():
    state, _ = _frozen_game()
    state = on_turn(state, 1)
    state, _ = GAME.apply(state, 1, {"type": "pass"})
    assert state["frozen"][1] == 1
    state = on_turn(state, 2)
    give(state, 2, ["AD", "2H", "3H"])
    state, _ = GAME.apply(state, 2, {"type": "freeze", "card": "AD", "target": 1})
    assert state["frozen"][1] == 2


@pytest.mark.parametrize("target", [True, "1", 1.0, None, 7])
def test_a_target_must_be_a_seat_number(target):
    state = on_turn(new_game(), 0)
    give(state, 0, ["AS", "2C", "3C"])
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, {"type": "freeze", "card": "AS", "target": target})
