"""Goals: checked at every step, won on anybody's turn, a single winner only."""
import pytest

from games.rules.fluxx.cards import LEGACY, PRINTED
from games.rules.fluxx.free_actions import AFTER_DISCARD, ON_LANDING
from games.rules.fluxx.goals import meeting

from .helpers import GAME, act, decide, give, goals, open_decision, play, put, rules, table_for

# Written for the reconstructed deck, which games stored on it still play (conftest.py).
DECK = LEGACY


def test_no_goal_no_winner():
    state = table_for()
    put(state, 0, "king-arthur", "holy-grail")
    give(state, 0, "cow")
    state, _ = play(state, 0, "cow")
    assert GAME.outcome(state) is None and meeting(state) == []


def test_a_player_wins_on_another_players_turn_when_their_creeper_is_smitten():
    state = table_for()
    goals(state, "the-quest")
    put(state, 2, "king-arthur", "holy-grail", "death")
    put(state, 0, "finger-of-god")
    give(state, 0, "cow")
    assert GAME.outcome(state) is None
    state, events = act(state, 0, {"type": "power", "card": "finger-of-god", "target": "death"})
    assert GAME.outcome(state).winners == (2,) and state["turn"]["seat"] == 0


def test_the_goal_player_can_hand_another_player_the_win():
    state = table_for()
    put(state, 2, "king-arthur")
    put(state, 0, "holy-grail")
    goals(state, "the-quest")
    give(state, 0, "exchange-keepers")
    put(state, 2, "cow")
    state, _ = play(state, 0, "exchange-keepers")
    state, _ = decide(state, 0, "holy-grail")
    state, events = decide(state, 0, "cow")
    assert GAME.outcome(state).winners == (2,)
    assert any(e.kind == "win" and "Seat 3" in e.text for e in events)


def test_a_win_during_another_players_out_of_turn_decision_ends_the_game_at_once():
    state = table_for()
    put(state, 2, "sir-robin", "robins-minstrels")
    goals(state, "brave-sir-robin")
    put(state, 2, "death")  # blocked by Death for now
    give(state, 0, "trash-something")
    state, _ = play(state, 0, "trash-something")
    state, _ = decide(state, 0, "death")
    assert GAME.outcome(state).winners == (2,) and GAME.pending(state) == []


def test_simultaneous_winners_keep_playing_and_the_first_to_stand_alone_wins():
    state = table_for()
    rules(state, "double-agenda", "play-3")
    put(state, 1, "king-arthur", "holy-grail")
    put(state, 2, "sir-robin", "robins-minstrels")
    goals(state, "the-quest")
    put(state, 1, "death")  # Seat 2 has The Quest's cards but Death blocks it...
    give(state, 0, "brave-sir-robin", "creeper-sweeper", "cow")
    state, events = play(state, 0, "brave-sir-robin")
    assert GAME.outcome(state).winners == (2,)  # ...so Seat 3 alone meets a Goal: a win

    state = table_for()
    rules(state, "double-agenda", "play-3")
    put(state, 1, "king-arthur", "holy-grail")
    put(state, 2, "sir-robin", "robins-minstrels", "death")
    goals(state, "the-quest")
    put(state, 1, "black-knight")
    give(state, 0, "brave-sir-robin", "creeper-sweeper", "trash-a-keeper")
    state, _ = play(state, 0, "brave-sir-robin")
    assert GAME.outcome(state) is None
    state, events = play(state, 0, "creeper-sweeper")  # both freed at the same instant: a tie
    assert GAME.outcome(state) is None and state["tie"] == [1, 2]
    assert any(e.kind == "tie" for e in events)
    state, _ = play(state, 0, "trash-a-keeper")
    state, events = decide(state, 0, "holy-grail")
    assert GAME.outcome(state).winners == (2,)


def test_the_goal_names_the_creeper_it_needs():
    state = table_for()
    put(state, 0, "sir-robin", "black-beast")
    give(state, 0, "run-away")
    state, _ = play(state, 0, "run-away")
    assert GAME.outcome(state).winners == (0,)


def test_grail_shaped_beacon_needs_someone_else_to_hold_the_grail():
    state = table_for()
    put(state, 0, "sir-galahad", "holy-grail")
    give(state, 0, "grail-shaped-beacon")
    state, _ = play(state, 0, "grail-shaped-beacon")
    assert GAME.outcome(state) is None  # holding both is not the goal
    state = table_for()
    put(state, 0, "sir-galahad")
    put(state, 2, "holy-grail")
    give(state, 0, "grail-shaped-beacon")
    state, _ = play(state, 0, "grail-shaped-beacon")
    assert GAME.outcome(state).winners == (0,)


def test_much_rejoicing_needs_the_minstrels_and_two_knights():
    state = table_for()
    put(state, 0, "robins-minstrels", "sir-robin")
    give(state, 0, "much-rejoicing")
    state, _ = play(state, 0, "much-rejoicing")
    assert GAME.outcome(state) is None
    state = table_for()
    put(state, 0, "robins-minstrels", "sir-robin", "king-arthur")
    give(state, 0, "much-rejoicing")
    state, _ = play(state, 0, "much-rejoicing")
    assert GAME.outcome(state).winners == (0,)


def test_double_agenda_a_third_goal_replaces_the_one_the_player_picks():
    state = table_for()
    rules(state, "double-agenda")
    goals(state, "the-quest", "brave-sir-robin")
    give(state, 0, "run-away")
    state, _ = play(state, 0, "run-away")
    d = open_decision(state, 0)
    assert d["kind"] == "replace_goal" and [o["value"] for o in d["options"]] == ["the-quest", "brave-sir-robin"]
    state, _ = decide(state, 0, "the-quest")
    assert state["goals"] == ["brave-sir-robin", "run-away"] and "the-quest" in state["discard"]


def test_without_double_agenda_a_new_goal_discards_the_old():
    state = table_for()
    goals(state, "the-quest")
    give(state, 0, "run-away")
    state, _ = play(state, 0, "run-away")
    assert state["goals"] == ["run-away"] and "the-quest" in state["discard"]


def test_a_winner_is_declared_with_the_goal_in_words():
    state = table_for()
    put(state, 0, "cow", "catapult")
    give(state, 0, "fetchez-la-vache")
    state, events = play(state, 0, "fetchez-la-vache")
    assert GAME.outcome(state).reason == "Seat 1 meets the Goal Fetchez la Vache! and wins!"
    assert GAME.legal_moves(state, 0) == [] and GAME.pending(state) == []


# --- The Catapult: the Goals are looked at as the flung Keeper lands ---------------------------
# WINNING and the FAQ: a Goal is won the moment anyone fulfils it, on anyone's turn, and a
# Goal counts however short a time it stays in play: the fling is one step and the throwing away another,
# so a Keeper that lands and completes a Goal wins before anything is thrown away. The
# printed deck's Catapult (these tests deal from it whatever this module's DECK).

def _catapult_table(**options):
    state = table_for(deck=PRINTED, **options)
    goals(state, "flying-creatures")                    # Airborne Cow and Unladen Swallow
    put(state, 0, "the-catapult", "airborne-cow")
    put(state, 2, "unladen-swallow", "sir-robin")
    return state


FLING_THE_COW = {"type": "power", "card": "the-catapult", "target": "airborne-cow", "to": 2, "discard": "airborne-cow"}


def test_a_keeper_flung_that_completes_the_receivers_goal_wins_for_them_before_the_discard():
    state = _catapult_table()
    assert state["fling"] == ON_LANDING
    assert FLING_THE_COW in GAME.legal_moves(state, 0)
    state, events = act(state, 0, FLING_THE_COW)
    assert GAME.outcome(state).winners == (2,)
    assert sorted(state["tables"][2]) == ["airborne-cow", "sir-robin", "unladen-swallow"]  # nothing thrown away
    assert [e.text for e in events if e.kind in ("power", "win")] == [
        "Seat 1 flings Airborne Cow at Seat 3 with The Catapult.",
        "Seat 3 meets the Goal Monty Python’s Flying Creatures and wins!"]


def test_the_catapults_player_wins_as_the_keeper_lands_when_that_completes_their_own_goal():
    # Grail-Shaped Beacon: Sir Galahad here while someone else has The Holy Grail.
    state = table_for(deck=PRINTED)
    goals(state, "grail-shaped-beacon")
    put(state, 0, "the-catapult", "sir-galahad", "holy-grail")
    put(state, 1, "sir-robin")
    state, _ = act(state, 0, {"type": "power", "card": "the-catapult", "target": "holy-grail", "to": 1,
                              "discard": "holy-grail"})
    assert GAME.outcome(state).winners == (0,) and "holy-grail" in state["tables"][1]


def test_a_fling_that_completes_no_goal_throws_away_as_before():
    state = _catapult_table()
    move = dict(FLING_THE_COW, to=1)
    state, events = act(state, 0, move)
    assert GAME.outcome(state) is None and "airborne-cow" in state["discard"] and state["tables"][1] == []
    assert "Seat 1 flings Airborne Cow at Seat 2 with The Catapult: Airborne Cow is thrown away." in \
        [e.text for e in events]


def test_games_stored_before_look_at_the_goals_only_after_the_discard():
    # Their setup options do not say "on_landing": they replay as played, states and all.
    state = _catapult_table(fling=AFTER_DISCARD)
    assert "fling" not in state
    state, _ = act(state, 0, FLING_THE_COW)
    assert GAME.outcome(state) is None and "airborne-cow" in state["discard"]
    for stored in ({"deck": PRINTED, "quotes": "judged"}, {"deck": PRINTED, "quotes": "checked"}, {"deck": LEGACY}):
        assert "fling" not in GAME.setup(3, stored, 1)
    assert GAME.view_for(state, 0)["fling"] == AFTER_DISCARD
    with pytest.raises(ValueError, match="fling"):
        GAME.setup(3, {"deck": PRINTED, "fling": "whenever"}, 1)
