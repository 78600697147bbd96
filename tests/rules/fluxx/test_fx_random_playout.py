"""Thousands of seeded games between 2 to 6 players, checked at every step.

Every step: every card in exactly one place (hand + table + rules + goals + draw +
discard + cards being resolved = the deck the game was dealt from), every move made was
offered, whoever must act has a legal move; every tenth step, the state is plain JSON; in
one game of 25, no view shows a hidden card; in one game of 20, ``apply`` left every input
unchanged and the replay from the seed equals the final state. Every game ends (a win, or a
draw at the turn cap) and every card of the printed deck is played (a Creeper: lands on a
table) in at least one game of the run.

The default run plays 600 games of the printed deck and 50 of the legacy deck (which
games stored on it still play), about 10 seconds on one core; `make deep`
(FLUXX_PLAYOUTS=5000) plays more. Half the games use the goal-seeking player, half pick uniformly at random.
"""
import json
import os
import pickle
from collections import Counter

import pytest

from games.rules.fluxx.cards import DECKS, LEGACY, PRINTED

from .helpers import GAME, check_invariants
from .playout import goal_seeking, play, uniform
from .test_fx_views import check_views

GAMES = int(os.environ.get("FLUXX_PLAYOUTS", "600"))
LEGACY_GAMES = max(GAMES // 12, 10)
# Events that bring a card into play: played (from a hand, a pool, the discard pile) or, a
# Creeper, put on a table when drawn.
_PLAYED = ("play", "creeper")


def _checked(seed, players, chooser, views, deck=PRINTED, played=None):
    steps = []

    def step(before, state, seat, move, moves, events):
        assert move in moves
        steps.append(move)
        check_invariants(state, deep=len(steps) % 10 == 0)  # the JSON round trip every tenth step
        if views:
            check_views(state)
        if played is not None:
            for e in events:
                if e.kind in _PLAYED and "card" in e.data:
                    played[e.data["card"]] += 1

    return play(GAME, seed, players=players, chooser=chooser, on_step=step, options={"deck": deck})


def _run(games, deck):
    endings = {"won": 0, "draw": 0}
    played = Counter()
    for seed in range(games):
        players = 2 + seed % 5
        chooser = goal_seeking if seed % 2 else uniform
        final, log = _checked(seed, players, chooser, views=seed % 25 == 0, deck=deck, played=played)
        outcome = GAME.outcome(final)
        assert outcome is not None and final["turn"]["number"] <= final["options"]["turn_cap"]
        endings["won" if outcome.winners else "draw"] += 1
        if seed % 20 == 0:
            state = GAME.setup(players, {"deck": deck}, seed)
            for seat, move in log:
                before = pickle.dumps(state)
                previous = state
                state, _ = GAME.apply(state, seat, move)
                assert pickle.dumps(previous) == before
            assert json.dumps(state, sort_keys=True) == json.dumps(final, sort_keys=True)
    return endings, played


@pytest.mark.slow
def test_thousands_of_random_games_keep_every_invariant_and_end():
    endings, played = _run(GAMES, PRINTED)
    assert endings["won"] >= 0.95 * GAMES, endings
    never = [c for c in DECKS[PRINTED] if not played[c]]
    assert not never, f"never played in {GAMES} games: {never}"


@pytest.mark.slow
def test_games_on_the_legacy_deck_still_keep_every_invariant_and_end():
    endings, _ = _run(LEGACY_GAMES, LEGACY)
    assert endings["won"] >= 0.9 * LEGACY_GAMES, endings


def test_a_few_games_of_each_size_play_out_quickly():
    for players in range(2, 7):
        final, _ = _checked(players, players, goal_seeking, views=True)
        assert GAME.outcome(final) is not None and final["deck"] == PRINTED
