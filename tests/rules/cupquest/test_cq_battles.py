"""Ending next to Big Bob or Big Bill forces a battle; next to a player, you may attack."""
import pytest

from games.rules.base import IllegalMove

from .helpers import BOARD, GAME, give, new_game, on_turn, place, rig_dice


def _next_to_bob():
    """Seat 0 walks two steps from 2,3 to 2,2, which touches Big Bob (2,1)."""
    state = on_turn(new_game(), 0)
    give(state, 0, ["2H", "9C", "9D"])
    place(state, s0="2,3")
    state, _ = GAME.apply(state, 0, {"type": "move", "card": "2H", "to": "2,2"})
    return state


def test_landing_next_to_a_monster_forces_a_battle():
    state = _next_to_bob()
    assert state["pending"] == {"kind": "battle", "seat": 0, "monsters": ["bob"]}
    assert GAME.legal_moves(state, 0) == [{"type": "fight", "monster": "bob"}]
    assert [(p.seat, p.kind) for p in GAME.pending(state)] == [(0, "battle")]
    with pytest.raises(IllegalMove, match="battle"):
        GAME.apply(state, 0, {"type": "pass"})


def test_winning_against_a_monster_keeps_you_where_you_are():
    state = rig_dice(_next_to_bob(), [5, 2])
    state, events = GAME.apply(state, 0, {"type": "fight", "monster": "bob"})
    assert state["positions"][0] == "2,2" and state["pending"] is None
    assert GAME.pending(state)[0].seat != 0
    assert "Big Bob" in events[0].text and events[0].data["won"]


def test_losing_against_a_monster_sends_you_home_and_drops_the_grail_there():
    state = _next_to_bob()
    state["grail"] = {"at": None, "carrier": 0}
    state = rig_dice(state, [2, 5])
    state, _ = GAME.apply(state, 0, {"type": "fight", "monster": "bob"})
    assert state["positions"][0] == state["alcoves"][0]
    assert state["grail"] == {"at": "2,2", "carrier": None}


def test_a_tied_battle_is_rolled_again():
    state = rig_dice(_next_to_bob(), [4, 4, 3, 3, 1, 6])
    state, events = GAME.apply(state, 0, {"type": "fight", "monster": "bob"})
    assert events[0].data["rolls"] == [[4, 4], [3, 3], [1, 6]]
    assert state["positions"][0] == state["alcoves"][0]


def test_every_hex_touching_the_grail_touches_a_monster_but_the_grail_hex_does_not():
    from games.rules import hexgrid
    around = [hexgrid.key(h) for h in BOARD.grid.neighbours(hexgrid.parse(BOARD.grail))]
    assert around and all(BOARD.monsters_touching(h) for h in around)
    assert BOARD.monsters_touching(BOARD.grail) == []


def _beside_seat_one():
    state = on_turn(new_game(), 0)
    give(state, 0, ["2H", "9C", "9D"])
    place(state, s0="-1,8", s1="0,6")
    move = {"type": "move", "card": "2H", "to": "-1,7"}  # -1,7 touches 0,6
    assert move in GAME.legal_moves(state, 0)
    state, _ = GAME.apply(state, 0, move)
    return state


def test_ending_next_to_another_player_offers_an_attack_or_decline():
    state = _beside_seat_one()
    assert state["pending"] == {"kind": "attack", "seat": 0, "targets": [1]}
    assert GAME.legal_moves(state, 0) == [{"type": "attack", "target": 1}, {"type": "decline"}]


def test_declining_ends_the_turn_with_nobody_moved():
    state = _beside_seat_one()
    state, _ = GAME.apply(state, 0, {"type": "decline"})
    assert state["positions"][:2] == ["-1,7", "0,6"] and state["pending"] is None


def test_the_attacker_rolls_both_dice_and_the_lower_goes_home_dropping_the_grail():
    state = _beside_seat_one()
    state["grail"] = {"at": None, "carrier": 1}
    state = rig_dice(state, [6, 1])
    state, _ = GAME.apply(state, 0, {"type": "attack", "target": 1})
    assert state["positions"][1] == state["alcoves"][1]
    assert state["grail"] == {"at": "0,6", "carrier": None}
    state = rig_dice(_beside_seat_one(), [1, 6])
    state, _ = GAME.apply(state, 0, {"type": "attack", "target": 1})
    assert state["positions"][0] == state["alcoves"][0] and state["positions"][1] == "0,6"


def test_only_an_adjacent_player_can_be_attacked():
    state = _beside_seat_one()
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, {"type": "attack", "target": 2})


def test_a_player_at_home_is_not_offered_as_a_target():
    state = on_turn(new_game(), 0)
    give(state, 0, ["2H", "9C", "9D"])
    home1 = state["alcoves"][1]  # -2,12
    place(state, s0="-4,12")
    state, _ = GAME.apply(state, 0, {"type": "move", "card": "2H", "to": "-3,12"})
    assert state["positions"][0] == "-3,12" and state["pending"] is None
    assert state["positions"][1] == home1


def test_a_monster_battle_comes_before_the_attack_choice():
    state = on_turn(new_game(), 0)
    give(state, 0, ["2H", "9C", "9D"])
    place(state, s0="2,3", s1="1,2")
    state, _ = GAME.apply(state, 0, {"type": "move", "card": "2H", "to": "2,2"})
    assert state["pending"]["kind"] == "battle"
    state = rig_dice(state, [6, 1])
    state, _ = GAME.apply(state, 0, {"type": "fight", "monster": "bob"})
    assert state["pending"] == {"kind": "attack", "seat": 0, "targets": [1]}


def test_timeouts_fight_a_forced_battle_and_decline_an_attack():
    assert GAME.timeout_move(_next_to_bob(), 0) == {"type": "fight", "monster": "bob"}
    assert GAME.timeout_move(_beside_seat_one(), 0) == {"type": "decline"}
