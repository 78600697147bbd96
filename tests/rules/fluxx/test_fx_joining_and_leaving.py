"""New players join a running game with three cards; players who leave leave cleanly."""
import pytest

from games.rules.fluxx.cards import LEGACY
from games.rules.base import IllegalMove

from .helpers import GAME, act, check_invariants, decide, give, new_game, play, put, rules, stack, table_for

# Written for the reconstructed deck, which games stored on it still play (conftest.py).
DECK = LEGACY


def test_a_newcomer_is_dealt_three_cards_and_sits_last_in_the_turn_order():
    state = table_for(players=3, seat=1)
    give(state, 1, "cow")
    state, events = GAME.add_seat(state)
    check_invariants(state)
    assert len(state["active"]) == 4 and len(state["hands"][3]) == 3
    assert "Seat 4 joins the game" in events[0].text
    state, _ = play(state, 1, "cow")
    give(state, 2, "coconuts")
    state, _ = play(state, 2, "coconuts")
    assert state["turn"]["seat"] == 3  # after seat 3, before seat 1


def test_the_site_records_a_join_as_a_move_and_logs_it_in_words():
    # games/table/replay.py replays the record {"type": "join"} with add_seat; the rules refuse it as a move.
    assert GAME.describe_move({"type": "join"}) == "joins the game"
    with pytest.raises(IllegalMove, match="Unknown move 'join'"):
        GAME.apply(table_for(players=3, seat=0), 0, {"type": "join"})


def test_a_newcomer_dealt_a_creeper_puts_it_down_and_draws_another():
    state = table_for()
    stack(state, "death", "cow", "coconuts", "swallow")
    state, events = GAME.add_seat(state)
    assert state["tables"][3] == ["death"] and state["hands"][3] == ["cow", "coconuts", "swallow"]
    assert any(e.kind == "creeper" for e in events)


def test_a_newcomer_over_a_hand_limit_discards_at_once():
    state = table_for()
    rules(state, "hand-limit-2")
    state, _ = GAME.add_seat(state)
    assert [(p.seat, p.kind) for p in GAME.pending(state)] == [(3, "discard")]


def test_add_seat_leaves_its_input_unchanged_and_respects_the_table():
    state = table_for()
    before = repr(state)
    GAME.add_seat(state)
    assert repr(state) == before
    closed = new_game(3, late_joiners=False)
    with pytest.raises(IllegalMove, match="does not take players"):
        GAME.add_seat(closed)
    full = new_game(6)
    with pytest.raises(IllegalMove, match="full"):
        GAME.add_seat(full)


def test_the_player_whose_turn_it_is_resigns_and_the_next_one_plays():
    state = table_for()
    give(state, 0, "draw-2-and-use-em", "cow")
    put(state, 0, "coconuts")
    stack(state, "swallow", "catapult")
    state, _ = play(state, 0, "draw-2-and-use-em")
    state, events = act(state, 0, {"type": "resign"})
    assert state["turn"]["seat"] == 1 and state["effects"] == [] and "decisions" not in state
    assert {"swallow", "catapult", "cow", "coconuts", "draw-2-and-use-em"} <= set(state["discard"])
    assert GAME.legal_moves(state, 0) == []


def test_a_player_who_resigns_while_deciding_answers_with_the_default():
    state = table_for()
    give(state, 1, "cow")
    give(state, 2, "coconuts", "swallow")
    give(state, 0, "taxation")
    state, _ = play(state, 0, "taxation")
    state, _ = decide(state, 1, "cow")
    state, _ = act(state, 2, {"type": "resign"})
    assert "cow" in state["hands"][0] and "coconuts" not in state["hands"][0]
    assert state["active"] == [True, True, False]


def test_the_last_player_left_wins():
    state = new_game(3)
    state, _ = act(state, 1, {"type": "resign"})
    state, _ = act(state, 2, {"type": "resign"})
    assert GAME.outcome(state).winners == (0,)


def test_turns_skip_players_who_left():
    state = table_for(players=3)
    give(state, 0, "cow")
    state, _ = act(state, 1, {"type": "resign"})
    state, _ = play(state, 0, "cow")
    assert state["turn"]["seat"] == 2


def test_a_player_who_leaves_during_everybody_gets_1_is_given_nothing():
    state = table_for(players=4)
    rules(state, "hand-limit-1")
    give(state, 1, "shrubbery")
    give(state, 0, "everybody-gets-1")
    stack(state, "coconuts", "swallow", "catapult", "cow")
    state, _ = play(state, 0, "everybody-gets-1")
    state, _ = decide(state, 0, "coconuts")  # seat 2 must now discard one of two cards...
    state, _ = act(state, 2, {"type": "resign"})  # ...while seat 3, next in line, leaves
    state, _ = decide(state, 1, "shrubbery")
    state, _ = decide(state, 0, "swallow")  # the next card goes to seat 4
    assert state["hands"][2] == [] and state["hands"][3] == ["swallow"]
    assert sorted(c for c in ("catapult", "cow") if c in state["hands"][0]) == ["catapult", "cow"]
