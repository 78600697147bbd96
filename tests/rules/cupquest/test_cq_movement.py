"""Cards 2-10 move exactly that many spaces; nobody moves through another player."""
import pytest

from games.rules import hexgrid
from games.rules.base import IllegalMove

from .helpers import BOARD, GAME, adjacent, give, new_game, on_turn, place


def _brute_force_ends(start, steps, blocked):
    """Every simple path, enumerated the slow way: the oracle for the engine's search."""
    grid = BOARD.grid
    blocked_hexes = [hexgrid.parse(b) for b in blocked]
    return {hexgrid.key(p[-1]) for p in grid.simple_paths(hexgrid.parse(start), steps, blocked_hexes)}


def _move_targets(state, seat, card):
    return {m["to"] for m in GAME.legal_moves(state, seat) if m["type"] == "move" and m["card"] == card}


@pytest.mark.parametrize("card,steps", [("2H", 2), ("3S", 3), ("5D", 5), ("6C", 6)])
def test_destinations_are_exactly_the_ends_of_walks_of_that_length(card, steps):
    state = on_turn(new_game(), 0)
    give(state, 0, [card, "AH", "AS"])
    place(state, s0="0,8", s1="1,8", s2="-1,6")
    blocked = {"1,8", "-1,6", state["alcoves"][1], state["alcoves"][2]}
    assert _move_targets(state, 0, card) == _brute_force_ends("0,8", steps, blocked)


def test_a_ten_moves_ten_along_a_path_of_ten_distinct_adjacent_hexes():
    state = on_turn(new_game(), 0)
    give(state, 0, ["10H", "AH", "AS"])
    to = sorted(_move_targets(state, 0, "10H"))[0]
    state, _ = GAME.apply(state, 0, {"type": "move", "card": "10H", "to": to})
    path = state["last_move"]["path"]
    assert len(path) == 11 and len(set(path)) == 11
    assert path[0] == state["alcoves"][0] and path[-1] == to == state["positions"][0]
    assert all(adjacent(a, b) for a, b in zip(path, path[1:]))


def test_paths_never_pass_through_another_player_or_a_monster():
    state = on_turn(new_game(), 0)
    give(state, 0, ["9H", "AH", "AS"])
    # Seat 1 stands in the only gap in the middle of the broken wall.
    place(state, s0="2,6", s1="2,5", s2="-3,10")
    for to in sorted(_move_targets(state, 0, "9H")):
        path = BOARD.path("2,6", to, 9, frozenset({"2,5", "-3,10", *state["alcoves"][1:]}))
        assert path is not None and "2,5" not in path
        assert not set(path) & BOARD.monster_hexes


def test_a_hemmed_in_player_stops_behind_the_blockers():
    # Four players: seat 1 is pushed into the south-west corner pocket and walled in.
    state = on_turn(new_game(players=4), 1)
    give(state, 1, ["7H", "AH", "AS"])
    place(state, s1="-6,12", s0="-4,11", s2="-4,10", s3="-5,10")
    moves = [m for m in GAME.legal_moves(state, 1) if m["type"] == "move"]
    assert moves == [{"type": "move", "card": "7H", "to": "-5,11"}]
    state, events = GAME.apply(state, 1, moves[0])
    assert state["positions"][1] == "-5,11"
    assert "moves 1" in events[0].text


def test_a_player_who_cannot_move_at_all_has_no_move_with_a_number_card():
    state = on_turn(new_game(players=4), 1)
    give(state, 1, ["7H", "AH", "AS"])
    place(state, s1="-6,12", s3="-5,11")  # the corner's other neighbour is seat 0's alcove
    assert not [m for m in GAME.legal_moves(state, 1) if m["type"] == "move"]
    with pytest.raises(IllegalMove):
        GAME.apply(state, 1, {"type": "move", "card": "7H", "to": "-5,11"})
    assert {"type": "discard", "card": "7H"} in GAME.legal_moves(state, 1)


def test_a_destination_off_the_list_is_refused_with_a_reason():
    state = on_turn(new_game(), 0)
    give(state, 0, ["3H", "AH", "AS"])
    with pytest.raises(IllegalMove, match="cannot take you there"):
        GAME.apply(state, 0, {"type": "move", "card": "3H", "to": "4,0"})
    with pytest.raises(IllegalMove, match="do not hold"):
        GAME.apply(state, 0, {"type": "move", "card": "4C", "to": "4,0"})


def test_monster_hexes_and_rocks_are_never_destinations():
    state = on_turn(new_game(), 0)
    give(state, 0, ["2H", "3H", "4H"])
    place(state, s0="3,1")
    targets = set().union(*(_move_targets(state, 0, c) for c in ("2H", "3H", "4H")))
    assert targets and not targets & BOARD.monster_hexes and not targets & set(BOARD.rocks)
