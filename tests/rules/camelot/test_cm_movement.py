"""Moving: up to two pieces a turn; entering from the pool (placing is not a step);
no sharing, no moving through units, no other player's Entry hex, rocks and water closed,
carriers move 1, dropping first restores movement, Merlin's teleport once, frozen units stay."""
from games.rules.camelot.board import load

from .helpers import BOARD, GAME, ends, moves_of, play, put, refused, table


def _enter_ends(state, seat, piece):
    return {m["to"] for m in moves_of(state, seat, "enter") if m["piece"] == piece and not m.get("teleport")}


def test_entering_places_on_the_entry_hex_then_walks_its_movement():
    state = table(3)
    entry = state["entries"][0]
    arthur = _enter_ends(state, 0, "arthur")
    assert entry in arthur
    assert max(BOARD.distance(entry, h) for h in arthur) == 2  # placing is not a step
    assert max(BOARD.distance(entry, h) for h in _enter_ends(state, 0, "lancelot")) == 1
    far = next(h for h in arthur if BOARD.distance(entry, h) == 2)
    state = play(state, 0, {"type": "enter", "piece": "arthur", "to": far})
    assert state["units"]["s0-arthur-1"]["hex"] == far and state["pool"][0]["arthur"] == 4
    assert state["turns"]["0"]["moves_left"] == 1


def test_two_pieces_a_turn_and_each_once():
    state = table(3)
    a = put(state, 0, "arthur", "0,3")
    b = put(state, 0, "lancelot", "-2,3")
    c = put(state, 0, "galahad", "-3,5")
    state = play(state, 0, {"type": "move", "unit": a, "to": "0,2"})
    assert "already moved" in refused(state, 0, {"type": "move", "unit": a, "to": "0,1"})
    state = play(state, 0, {"type": "move", "unit": b, "to": "-2,4"})
    assert "two pieces" in refused(state, 0, {"type": "move", "unit": c, "to": "-3,4"})
    assert not moves_of(state, 0, "move") and not moves_of(state, 0, "enter")


def test_no_sharing_no_walking_through_units_rocks_or_water():
    state = table(3)
    arthur = put(state, 0, "arthur", "0,3")
    put(state, 0, "galahad", "0,2")
    reach = ends(state, 0, arthur)
    assert "0,2" not in reach                 # no sharing
    assert "0,1" not in reach                 # two steps only by walking through the Galahad
    assert {"1,2", "1,1", "-1,3"} <= reach    # round the side is fine
    state = table(3)
    arthur = put(state, 0, "arthur", "1,1")
    reach = ends(state, 0, arthur)
    assert "2,0" not in reach and "2,1" in reach          # rocks closed
    assert "2,2" not in reach and BOARD.terrain["2,2"] == "water"
    assert "1,-1" in reach and BOARD.terrain["1,-2"] == "trees"
    lone_tree = put(state, 0, "galahad", "1,-1")
    assert "1,-2" in ends(state, 0, lone_tree)             # trees may be entered


def test_no_walking_through_a_wall_of_units():
    state = table(3)
    arthur = put(state, 0, "arthur", "0,0")
    for h in ("1,0", "1,-1", "0,-1", "-1,0", "-1,1", "0,1"):
        put(state, 0, "galahad", h) if state["pool"][0]["galahad"] else put(state, 0, "lancelot", h)
    assert ends(state, 0, arthur) == set()


def test_no_entering_another_players_entry_hex():
    state = table(3)
    theirs = state["entries"][1]
    next_to = next(h for h in BOARD.adjacent[theirs] if h in BOARD.enterable)
    arthur = put(state, 0, "arthur", next_to)
    assert theirs not in ends(state, 0, arthur)
    assert refused(state, 0, {"type": "move", "unit": arthur, "to": theirs})


def test_a_full_entry_hex_stops_entering():
    state = table(3)
    put(state, 0, "galahad", state["entries"][0])
    assert not moves_of(state, 0, "enter")


def test_carriers_move_one_and_dropping_first_restores_movement():
    state = table(3)
    arthur = put(state, 0, "arthur", "0,0", carry="excalibur")
    assert max(BOARD.distance("0,0", h) for h in ends(state, 0, arthur)) == 1
    dropped = play(state, 0, {"type": "drop", "unit": arthur})
    assert dropped["items"] == {"0,0": ["excalibur"]} and dropped["units"][arthur]["carry"] is None
    assert max(BOARD.distance("0,0", h) for h in ends(dropped, 0, arthur)) == 2
    assert dropped["turns"]["0"]["moves_left"] == 2  # dropping is not one of the two moves
    moved = play(state, 0, {"type": "move", "unit": arthur, "to": "0,1"})
    assert "before" in refused(moved, 0, {"type": "drop", "unit": arthur})
    assert moved["units"][arthur]["carry"] == "excalibur"


def test_merlin_teleports_once_even_on_the_turn_he_enters():
    state = table(3)
    tele = [m for m in moves_of(state, 0, "enter") if m.get("teleport")]
    assert tele and all(m["piece"] == "merlin" for m in tele)
    assert all(h != state["entries"][1] and h in BOARD.enterable for h in (m["to"] for m in tele))
    state = play(state, 0, {"type": "enter", "piece": "merlin", "to": "0,0", "teleport": True})
    assert state["units"]["s0-merlin-1"]["hex"] == "0,0" and state["spells"][0]["teleport"] is False
    state = play(state, 0, {"type": "end_turn"})
    state = play(state, state["tokens"][0], {"type": "end_turn"})
    while 0 not in state["tokens"]:
        state = play(state, state["tokens"][0], {"type": "end_turn"})
    assert "once" in refused(state, 0, {"type": "move", "unit": "s0-merlin-1", "to": "5,-5", "teleport": True})
    assert not [m for m in GAME.legal_moves(state, 0) if m.get("teleport")]


def test_merlin_teleport_from_the_board():
    state = table(3)
    merlin = put(state, 0, "merlin", "-3,6")
    state = play(state, 0, {"type": "move", "unit": merlin, "to": "3,-3", "teleport": True})
    assert state["units"][merlin]["hex"] == "3,-3"
    state = table(3)
    arthur = put(state, 0, "arthur", "-3,6")
    assert "Merlin" in refused(state, 0, {"type": "move", "unit": arthur, "to": "0,0", "teleport": True})


def test_at_most_five_arthurs_on_the_board():
    state = table(3)
    for h in ("0,1", "0,2", "0,3", "1,1", "1,2"):
        put(state, 0, "arthur", h)
    assert state["pool"][0]["arthur"] == 0
    assert not [m for m in moves_of(state, 0, "enter") if m["piece"] == "arthur"]
    assert "no such piece" in refused(state, 0, {"type": "enter", "piece": "arthur", "to": state["entries"][0]})


def test_frozen_units_neither_move_nor_strike():
    state = table(3, tokens=(0, 1))
    lancelot = put(state, 1, "lancelot", "0,1")
    arthur = put(state, 0, "arthur", "0,2")
    state = play(state, 0, {"type": "declare", "targets": [lancelot]})
    assert "frozen" in refused(state, 1, {"type": "move", "unit": lancelot, "to": "1,0"})
    assert not [m for m in GAME.legal_moves(state, 1) if m.get("unit") == lancelot]
    assert arthur in state["units"]


def test_the_board_is_one_connected_field_from_every_edge_space():
    board = load("standard")
    for e in board.edge[::5]:
        for h in board.enterable:
            assert board.grid.walk_distance(board.hexes[e], board.hexes[h]) is not None
