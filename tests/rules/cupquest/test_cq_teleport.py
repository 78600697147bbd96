"""Jack, Queen, King: move four, or teleport to that suit's space on a die of 1-3."""
import pytest

from games.rules.base import IllegalMove

from .helpers import BOARD, GAME, give, new_game, on_turn, place, rig_dice


def _ready(card="QH", at="0,8"):
    state = on_turn(new_game(), 0)
    give(state, 0, [card, "2C", "3C"])
    place(state, s0=at)
    return state


def test_a_court_card_offers_a_four_step_move_and_a_teleport():
    state = _ready()
    moves = [m for m in GAME.legal_moves(state, 0) if m.get("card") == "QH"]
    assert {"type": "teleport", "card": "QH"} in moves
    walks = {m["to"] for m in moves if m["type"] == "move"}
    assert walks == BOARD.destinations("0,8", 4, frozenset(p for p in state["positions"][1:]) | frozenset(state["alcoves"][1:]))[1]


@pytest.mark.parametrize("roll", [1, 2, 3])
def test_a_roll_of_one_to_three_teleports_to_the_matching_space(roll):
    state = rig_dice(_ready(), [roll])
    state, events = GAME.apply(state, 0, {"type": "teleport", "card": "QH"})
    assert state["positions"][0] == BOARD.teleports["QH"] == "3,7"
    assert any(e.kind == "teleport" and e.data["ok"] for e in events)


@pytest.mark.parametrize("roll", [4, 5, 6])
def test_a_roll_of_four_to_six_fails_and_sends_the_player_home(roll):
    state = rig_dice(_ready(), [roll])
    state, _ = GAME.apply(state, 0, {"type": "teleport", "card": "QH"})
    assert state["positions"][0] == state["alcoves"][0]
    assert GAME.pending(state)[0].seat != 0  # the turn is over


def test_a_failed_teleport_drops_the_goblet_where_the_player_stood():
    state = _ready()
    state["grail"] = {"at": None, "carrier": 0}
    state = rig_dice(state, [6])
    state, events = GAME.apply(state, 0, {"type": "teleport", "card": "QH"})
    assert state["grail"] == {"at": "0,8", "carrier": None}
    assert any(e.kind == "grail" for e in events)


def test_each_court_card_goes_to_its_own_suit_and_rank():
    assert len(set(BOARD.teleports.values())) == 12
    for card, space in BOARD.teleports.items():
        state = rig_dice(_ready(card=card), [1])
        state, _ = GAME.apply(state, 0, {"type": "teleport", "card": card})
        assert state["positions"][0] == space


def test_no_teleport_onto_another_player_or_the_space_you_stand_on():
    state = _ready()
    place(state, s1="3,7")
    assert {"type": "teleport", "card": "QH"} not in GAME.legal_moves(state, 0)
    with pytest.raises(IllegalMove, match="Someone is standing"):
        GAME.apply(state, 0, {"type": "teleport", "card": "QH"})
    state = _ready(at="3,7")
    with pytest.raises(IllegalMove, match="already on"):
        GAME.apply(state, 0, {"type": "teleport", "card": "QH"})


def test_number_cards_cannot_teleport():
    state = _ready()
    with pytest.raises(IllegalMove, match="Jack, Queen or King"):
        GAME.apply(state, 0, {"type": "teleport", "card": "2C"})


def test_a_teleport_onto_the_loose_grail_picks_it_up():
    state = _ready(card="KD")
    state["grail"] = {"at": BOARD.teleports["KD"], "carrier": None}
    state = rig_dice(state, [2])
    state, _ = GAME.apply(state, 0, {"type": "teleport", "card": "KD"})
    assert state["grail"] == {"at": None, "carrier": 0}
