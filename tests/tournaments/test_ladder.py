"""Ladder: challenges up to a reach, at most three open each way, the winner takes the higher
rung, a timeout costs a rung."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournaments.ladder import (MAX_OPEN, Challenge, LadderError, after_game, challenge, challenge_refusal,
                                      drop, join, leave, rung)

LADDER = ["A", "B", "C", "D", "E", "F"]


def test_rungs_count_from_the_top():
    assert rung(LADDER, "A") == 1
    assert rung(LADDER, "F") == 6
    with pytest.raises(LadderError):
        rung(LADDER, "Z")


def test_joining_starts_at_the_bottom_and_leaving_moves_those_below_up():
    assert join(LADDER, "G")[-1] == "G"
    assert leave(LADDER, "C") == ["A", "B", "D", "E", "F"]
    with pytest.raises(LadderError):
        join(LADDER, "A")


def test_a_player_may_challenge_up_to_the_reach_above_them():
    assert challenge(LADDER, [], "E", "B", reach=3) == Challenge("E", "B")
    assert challenge_refusal(LADDER, [], "F", "B", reach=3) is not None
    assert challenge_refusal(LADDER, [], "B", "E", reach=3) is not None  # not downwards
    assert challenge_refusal(LADDER, [], "B", "B", reach=3) is not None


def test_at_most_three_open_challenges_made():
    made = [Challenge("F", x) for x in "CDE"]
    assert len(made) == MAX_OPEN
    assert "open challenges" in challenge_refusal(LADDER, made, "F", "B", reach=5)
    assert challenge_refusal(LADDER, made[:2], "F", "B", reach=5) is None


def test_at_most_three_open_challenges_received():
    received = [Challenge(x, "A") for x in "BCD"]
    assert "against them" in challenge_refusal(LADDER, received, "E", "A", reach=5)
    assert challenge_refusal(LADDER, received[:2], "E", "A", reach=5) is None


def test_one_open_challenge_between_the_same_two():
    with pytest.raises(LadderError):
        challenge(LADDER, [Challenge("E", "C")], "E", "C", reach=3)


def test_a_challenger_who_wins_takes_the_rung_and_the_rest_shift_down():
    played = Challenge("E", "B")
    assert after_game(LADDER, played, winner="E") == ["A", "E", "B", "C", "D", "F"]


def test_a_defender_who_wins_or_a_draw_changes_nothing():
    played = Challenge("E", "B")
    assert after_game(LADDER, played, winner="B") == LADDER
    assert after_game(LADDER, played, winner=None) == LADDER


def test_a_challenger_already_above_the_defender_gains_nothing_more():
    # E climbed above B in another game before this one ended.
    ladder = ["A", "E", "B", "C", "D", "F"]
    assert after_game(ladder, Challenge("E", "C"), winner="E") == ladder


def test_a_challenger_who_runs_out_of_time_drops_a_rung():
    assert after_game(LADDER, Challenge("D", "B"), winner="B", timed_out="D") == ["A", "B", "C", "E", "D", "F"]


def test_a_defender_who_runs_out_of_time_loses_the_rung_and_drops_one_more():
    assert after_game(LADDER, Challenge("D", "B"), winner="D", timed_out="B") == ["A", "D", "C", "B", "E", "F"]


def test_the_bottom_rung_cannot_drop():
    assert drop(LADDER, "F") == LADDER


def test_results_that_do_not_fit_the_challenge_are_refused():
    played = Challenge("D", "B")
    with pytest.raises(LadderError):
        after_game(LADDER, played, winner="A")
    with pytest.raises(LadderError):
        after_game(LADDER, played, winner="D", timed_out="D")
    with pytest.raises(LadderError):
        after_game(LADDER, played, winner=None, timed_out="B")


def test_the_ladder_given_is_never_changed():
    ladder = list(LADDER)
    after_game(ladder, Challenge("E", "B"), winner="E")
    drop(ladder, "A")
    assert ladder == LADDER


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 7), st.integers(1, 3), st.sampled_from(["won", "lost", "draw", "time"])),
                max_size=40))
def test_any_sequence_of_games_keeps_everyone_on_exactly_one_rung(games):
    ladder = list("ABCDEFGH")
    for index, up, outcome in games:
        challenger = ladder[index]
        if index - up < 0:
            continue
        defender = ladder[index - up]
        played = challenge(ladder, [], challenger, defender, reach=3)
        before = ladder.index(challenger)
        if outcome == "won":
            ladder = after_game(ladder, played, winner=challenger)
            assert ladder.index(challenger) == index - up
        elif outcome == "lost":
            ladder = after_game(ladder, played, winner=defender)
        elif outcome == "draw":
            ladder = after_game(ladder, played, winner=None)
        else:
            ladder = after_game(ladder, played, winner=defender, timed_out=challenger)
            assert ladder.index(challenger) == min(before + 1, len(ladder) - 1)
        assert sorted(ladder) == list("ABCDEFGH")
