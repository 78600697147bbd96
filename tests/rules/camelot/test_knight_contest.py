"""Which enemy carriers of Excalibur the knight goes for (so that games end): when
every knight killed the carrier wherever it could, the sword changed hands in the middle
of the board until the turn limit. It goes for a carrier about to win (within three of its
Entry hex), one on its own side of the board, and one its units hold fast; a carrier far
from home in the middle of the board is left to walk."""
from games.rules import computer
from .helpers import GAME, knight_turn, put, table


def _armed(state):
    state["spells"][0]["teleport"] = False
    state["pool"][0] = {k: 0 for k in state["pool"][0]}
    return state


def test_a_carrier_in_the_middle_far_from_its_home_is_left_to_walk():
    state = _armed(table(3))                              # Entry hexes -7,7 (ours), 7,0, 0,-7
    carrier = put(state, 1, "arthur", "1,0", carry="excalibur")   # 7 walks from its home, 8 from ours
    put(state, 0, "arthur", "-1,0")                       # two Arthurs that could walk up and kill it
    put(state, 0, "arthur", "-1,1")
    assert "s1-arthur-1" in GAME.view_for(state, 0)["attack"]
    made, after = knight_turn(state, 0)
    assert not any(m["type"] == "declare" and m["targets"] for m in made)
    assert carrier in after["units"]


def test_a_carrier_within_three_of_its_entry_hex_is_attacked():
    state = _armed(table(3))
    carrier = put(state, 1, "arthur", "4,1", carry="excalibur")   # 3 walks from its Entry hex 7,0
    put(state, 0, "arthur", "3,0")
    put(state, 0, "arthur", "6,1")
    made, after = knight_turn(state, 0)
    assert made[0] == {"type": "declare", "targets": [carrier]}
    assert carrier not in after["units"] and after["items"]["4,1"] == ["excalibur"]


def test_a_carrier_our_unit_holds_fast_is_attacked_wherever_it_stands():
    # Engaged units cannot step away from each other: left alone, the carrier and our
    # Lancelot beside it would stand until the turn limit.
    state = _armed(table(3))
    carrier = put(state, 1, "arthur", "1,0", carry="excalibur")
    put(state, 0, "lancelot", "0,0")                      # beside it; its blow (2) kills an Arthur
    made, after = knight_turn(state, 0)
    assert made[0] == {"type": "declare", "targets": [carrier]}
    assert carrier not in after["units"]


def test_a_carrier_on_our_side_of_the_board_is_attacked():
    state = _armed(table(3))
    carrier = put(state, 1, "arthur", "-1,1", carry="excalibur")  # 6 walks from ours, 8 from its own
    put(state, 0, "arthur", "-3,1")
    put(state, 0, "arthur", "-2,3")
    made, after = knight_turn(state, 0)
    assert made[0] == {"type": "declare", "targets": [carrier]}
    assert carrier not in after["units"]


def test_a_seeded_four_player_knight_game_ends_well_within_the_turn_limit():
    state = GAME.setup(4, {"turn_cap": 400}, 0)
    state, _, notes = computer.play_game(GAME, state, ["knight"] * 4, 0)
    assert not notes and GAME.outcome(state).winners and state["turn_count"] < 200
