"""Thousands of seeded games between 2 to 6 players, checked at every step.

Every step: every card in exactly one place (hand + table + rules + goals + draw +
discard + cards being resolved = the deck), every move made was offered, whoever must act
has a legal move; every tenth step, the state is plain JSON; in one game of 25, no view
shows a hidden card; in one game of 20, ``apply`` left every input unchanged and the
replay from the seed equals the final state. Every game ends (a win, or a draw at the turn cap) and
replays from its seed and move log to the same state.

The default run plays 1,200 games (under a minute on one core); FLUXX_PLAYOUTS=5000 plays
more. Half the games use the goal-seeking player, half pick uniformly at random.
"""
import json
import os
import pickle

import pytest

from .helpers import GAME, check_invariants
from .playout import goal_seeking, play, uniform
from .test_fx_views import check_views

GAMES = int(os.environ.get("FLUXX_PLAYOUTS", "1200"))


def _checked(seed, players, chooser, views):
    steps = []

    def step(before, state, seat, move, moves, events):
        assert move in moves
        steps.append(move)
        check_invariants(state, deep=len(steps) % 10 == 0)  # the JSON round trip every tenth step
        if views:
            check_views(state)

    return play(GAME, seed, players=players, chooser=chooser, on_step=step)


@pytest.mark.slow
def test_thousands_of_random_games_keep_every_invariant_and_end():
    endings = {"won": 0, "draw": 0}
    for seed in range(GAMES):
        players = 2 + seed % 5
        chooser = goal_seeking if seed % 2 else uniform
        final, log = _checked(seed, players, chooser, views=seed % 25 == 0)
        outcome = GAME.outcome(final)
        assert outcome is not None and final["turn"]["number"] <= final["options"]["turn_cap"]
        endings["won" if outcome.winners else "draw"] += 1
        if seed % 20 == 0:
            state = GAME.setup(players, {}, seed)
            for seat, move in log:
                before = pickle.dumps(state)
                previous = state
                state, _ = GAME.apply(state, seat, move)
                assert pickle.dumps(previous) == before
            assert json.dumps(state, sort_keys=True) == json.dumps(final, sort_keys=True)
    assert endings["won"] >= 0.95 * GAMES, endings


def test_a_few_games_of_each_size_play_out_quickly():
    for players in range(2, 7):
        final, _ = _checked(players, players, goal_seeking, views=True)
        assert GAME.outcome(final) is not None
