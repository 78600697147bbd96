"""Engaged enemies stay adjacent (they may circle each other) unless the other player
gives leave to disengage; guardians engage nobody."""
from .helpers import BOARD, GAME, moves_of, play, put, refused, table, ends


def test_an_engaged_unit_may_only_circle_its_enemy():
    state = table(3)
    mine = put(state, 0, "lancelot", "0,1")
    put(state, 1, "arthur", "0,2")
    reach = ends(state, 0, mine)
    assert reach and all(BOARD.distance(h, "0,2") == 1 for h in reach)
    assert "0,0" not in reach
    assert "engagement" in refused(state, 0, {"type": "move", "unit": mine, "to": "0,0"})


def test_an_arthur_stays_adjacent_at_every_step_even_to_enemies_met_on_the_way():
    state = table(3)
    arthur = put(state, 0, "arthur", "0,1")
    enemy = put(state, 1, "galahad", "0,2")
    for h in ends(state, 0, arthur):
        assert BOARD.distance(h, "0,2") == 1
    # Not engaged at the start, but stepping next to an enemy engages at once: from (1,3)
    # the only way to (2,1) is through (1,2) (the Mere closes the other), which touches the
    # Galahad at (0,2), and (2,1) does not -- so the second step is refused.
    state = table(3)
    arthur = put(state, 0, "arthur", "1,3")
    put(state, 1, "galahad", "0,2")
    assert BOARD.distance("1,3", "0,2") == 2 and BOARD.terrain["2,2"] == "water"
    assert "2,1" not in ends(state, 0, arthur) and "1,2" in ends(state, 0, arthur)
    state["units"]["s1-galahad-1"]["seat"] = 0  # the same Galahad as a friend: the way is open
    assert "2,1" in ends(state, 0, arthur)
    assert enemy


def test_leave_to_disengage_is_asked_and_answered_out_of_turn():
    state = table(3, tokens=(0, 1))
    mine = put(state, 0, "lancelot", "0,1")
    put(state, 2, "arthur", "0,2")  # seat 2 does not hold a token
    assert moves_of(state, 0, "ask_disengage") == [{"type": "ask_disengage", "seat": 2}]
    state = play(state, 0, {"type": "ask_disengage", "seat": 2})
    ask = next(p for p in GAME.pending(state) if p.seat == 2)
    assert ask.kind == "disengage"
    assert "already" in refused(state, 0, {"type": "ask_disengage", "seat": 2})
    # The holder is not blocked while the question is open.
    assert moves_of(state, 0, "move")
    yes = play(state, 2, {"type": "decide", "id": int(ask.key), "choice": "yes"})
    assert yes["turns"]["0"]["permissions"] == [2]
    assert any(BOARD.distance(h, "0,2") > 1 for h in ends(yes, 0, mine))
    no = play(state, 2, {"type": "decide", "id": int(ask.key), "choice": "no"})
    assert all(BOARD.distance(h, "0,2") == 1 for h in ends(no, 0, mine))


def test_leave_lasts_one_turn_and_an_unanswered_ask_lapses():
    state = table(3, tokens=(0, 1))
    put(state, 0, "lancelot", "0,1")
    put(state, 2, "arthur", "0,2")
    state = play(state, 0, {"type": "ask_disengage", "seat": 2})
    state = play(state, 0, {"type": "end_turn"})
    assert not [p for p in GAME.pending(state) if p.kind == "disengage"]


def test_guardians_engage_nobody_and_nobody_engages_them():
    state = table(3, options={"guardians": True})
    state["units"] = {}
    guard = put(state, None, "lancelot", "0,2")
    mine = put(state, 0, "lancelot", "0,1")
    assert any(BOARD.distance(h, "0,2") > 1 for h in ends(state, 0, mine))
    assert any(BOARD.distance(h, "0,1") > 1 for h in ends(state, 0, guard))


def test_no_leave_needed_from_ones_own_units():
    state = table(3)
    mine = put(state, 0, "lancelot", "0,1")
    put(state, 0, "arthur", "0,2")
    assert "0,0" in ends(state, 0, mine) and not moves_of(state, 0, "ask_disengage")
