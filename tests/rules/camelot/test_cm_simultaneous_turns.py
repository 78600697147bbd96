"""Two token holders at once: each has its own turn, its own pending key, and moves are
taken in the order they arrive; tokens pass clockwise to the first player without one."""
from .helpers import GAME, play, put, refused, table


def _keys(state):
    return {p.seat: p.key for p in GAME.pending(state) if p.kind == "turn"}


def test_each_holders_pending_key_ignores_the_other_holder():
    state = table(4, tokens=(0, 1))
    before = _keys(state)
    assert set(before) == {0, 1} and before[0] != before[1]
    state = play(state, 1, {"type": "enter", "piece": "arthur", "to": state["entries"][1]})
    state = play(state, 1, {"type": "end_turn"})
    after = _keys(state)
    assert after[0] == before[0] and 1 not in after and 2 in after


def test_tokens_pass_clockwise_to_the_first_player_without_one():
    state = table(4, tokens=(0, 1))
    state = play(state, 0, {"type": "end_turn"})
    assert state["tokens"] == [1, 2]          # seat 1 holds one: seat 2 is next
    state = play(state, 2, {"type": "end_turn"})
    assert state["tokens"] == [1, 3]
    state = play(state, 1, {"type": "end_turn"})
    assert state["tokens"] == [3, 2]          # from seat 1: 2 is free again
    state = play(state, 3, {"type": "end_turn"})
    assert sorted(state["tokens"]) == [0, 2] and state["turn_count"] == 4


def test_a_fast_player_takes_many_turns_round_a_slow_one():
    state = table(3, tokens=(0, 1))
    for _ in range(4):
        holder = next(s for s in state["tokens"] if s != 0)
        state = play(state, holder, {"type": "end_turn"})
    assert 0 in state["tokens"] and state["turn_count"] == 4


def test_both_holders_may_move_from_the_same_version_in_either_order():
    state = table(4, tokens=(0, 1))
    a = {"type": "enter", "piece": "arthur", "to": state["entries"][0]}
    b = {"type": "enter", "piece": "lancelot", "to": state["entries"][1]}
    one = play(play(state, 0, a), 1, b)
    two = play(play(state, 1, b), 0, a)
    assert one["units"] == two["units"]
    assert b in GAME.legal_moves(play(state, 0, a), 1)


def test_a_move_is_refused_only_when_illegal_at_arrival():
    state = table(4, tokens=(0, 1))
    put(state, 0, "arthur", "0,1")
    put(state, 1, "arthur", "0,-1")
    # Both race for Excalibur's space: the first to arrive gets there, the second is refused.
    first = play(state, 0, {"type": "move", "unit": "s0-arthur-1", "to": "0,0"})
    assert "cannot move" in refused(first, 1, {"type": "move", "unit": "s1-arthur-1", "to": "0,0"})
    assert play(state, 1, {"type": "move", "unit": "s1-arthur-1", "to": "0,0"})["units"]["s1-arthur-1"]["hex"] == "0,0"


def test_whoever_touched_it_first_moving_a_piece_then_the_declaration_freezes_it_there():
    state = table(4, tokens=(0, 1))
    mine = put(state, 0, "lancelot", "0,2")
    theirs = put(state, 1, "arthur", "0,4")
    other = put(state, 1, "arthur", "-3,6")
    state = play(state, 1, {"type": "move", "unit": theirs, "to": "0,3"})  # seat 1 moved first
    state = play(state, 0, {"type": "declare", "targets": [theirs, other]})
    assert "frozen" in refused(state, 1, {"type": "move", "unit": other, "to": "-3,5"})
    assert theirs in GAME.view_for(state, None)["frozen"]
    state = play(state, 0, {"type": "strike", "unit": mine, "target": theirs, "mode": "melee"})
    state = play(state, 0, {"type": "end_turn"})
    assert theirs not in state["units"] and state["last_combat"][1]["outcome"] == "held"


def test_only_token_holders_take_turn_moves():
    state = table(4, tokens=(0, 1))
    assert "token" in refused(state, 2, {"type": "end_turn"})
    assert [m for m in GAME.legal_moves(state, 2) if m["type"] != "pause"] == []


def test_turn_based_has_one_token():
    state = GAME.setup(3, {"turn_based": True}, 2)
    for seat in state["order"]:
        state = play(state, seat, {"type": "entry", "hex": GAME.legal_moves(state, seat)[0]["hex"]})
    assert len(state["tokens"]) == 1 and len(GAME.pending(state)) == 1
    first = state["tokens"][0]
    state = play(state, first, {"type": "end_turn"})
    assert state["tokens"] == [(first + 1) % 3]


def test_a_turn_is_declare_then_move_then_attack():
    state = table(3, tokens=(0, 1))
    assert state["turns"]["0"]["stage"] == "declare"
    state = play(state, 0, {"type": "enter", "piece": "arthur", "to": state["entries"][0]})
    assert state["turns"]["0"]["stage"] == "move"
    assert "before" in refused(state, 0, {"type": "declare", "targets": []})
