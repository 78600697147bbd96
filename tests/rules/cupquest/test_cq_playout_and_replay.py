"""Thousands of seeded games: invariants every step, every game ends, replays are exact."""
import json
import os

import pytest

from .helpers import GAME, check_invariants
from .playout import play

# 800 three-player games by default (about 7 CPU-seconds), besides the 2- and 4-player runs
# below; `make deep` (CUPQUEST_PLAYOUTS=5000) runs more.
GAMES = int(os.environ.get("CUPQUEST_PLAYOUTS", "800"))
# The replay test's games are three-player games the thousands test also plays (and checks);
# it keeps their results here, so the replay test replays those logs instead of playing the
# same games again. Run on its own, the replay test plays them itself.
REPLAY_SEEDS = range(0, 300, 3)
_PLAYED: dict = {}


def _played(seed):
    """(final state, log) of the three-player game of ``seed``."""
    return _PLAYED.pop(seed, None) or play(GAME, seed)


def _checked_game(seed, players):
    def step(state, seat, move, legal, events):
        check_invariants(state)
        # Every move the player made was offered (snipes with their own aim).
        offered = [m for m in legal if m["type"] == move["type"]]
        if move["type"] == "snipe":
            assert any(m["target"] == move["target"] for m in offered)
        else:
            assert move in offered

    result = play(GAME, seed, players=players, on_step=step)
    if players == 3 and seed in REPLAY_SEEDS:
        _PLAYED[seed] = result
    return result


def test_thousands_of_random_games_keep_the_invariants_and_end():
    endings = {"won": 0, "draw": 0}
    for seed in range(GAMES):
        state, log = _checked_game(seed, players=3)
        result = GAME.outcome(state)
        assert result is not None and GAME.legal_moves(state, 0) == []
        endings["won" if result.winners else "draw"] += 1
        if result.winners:
            (winner,) = result.winners
            assert state["grail"] == {"at": None, "carrier": winner}
            assert state["positions"][winner] == state["alcoves"][winner]
    # The goal-seeking players nearly always finish well inside the round limit.
    assert endings["won"] >= 0.95 * GAMES


@pytest.mark.parametrize("players", [2, 4])
def test_two_and_four_player_games_play_out_too(players):
    for seed in range(150):
        state, _ = _checked_game(seed, players)
        assert GAME.outcome(state) is not None


def test_replaying_the_move_log_from_the_seed_gives_the_same_final_state():
    for seed in REPLAY_SEEDS:
        final, log = _played(seed)
        state = GAME.setup(3, {}, seed)
        for seat, move in log:
            state, _ = GAME.apply(json.loads(json.dumps(state)), seat, json.loads(json.dumps(move)))
        assert json.dumps(state, sort_keys=True) == json.dumps(final, sort_keys=True)


def test_games_played_only_by_timeouts_end_in_a_draw_at_the_round_limit():
    state = GAME.setup(3, {"round_limit": 12}, 4)
    while GAME.outcome(state) is None:
        (pending,) = GAME.pending(state)
        state, _ = GAME.apply(state, pending.seat, GAME.timeout_move(state, pending.seat))
        check_invariants(state)
    assert GAME.outcome(state).draw


def test_resigning_players_leave_cleanly_and_the_last_one_wins():
    final, log = play(GAME, 8)
    state = GAME.setup(3, {}, 8)
    for seat, move in log[:6]:
        state, _ = GAME.apply(state, seat, move)
    state, _ = GAME.apply(state, 2, {"type": "resign"})
    check_invariants(state)
    assert state["positions"][2] is None and state["hands"][2] == []
    assert GAME.pending(state)[0].seat != 2
    state, _ = GAME.apply(state, 0, {"type": "resign"})
    assert GAME.outcome(state).winners == (1,)
    check_invariants(state)


def test_a_neighbour_who_resigns_is_dropped_from_a_pending_attack():
    from .helpers import give, new_game, on_turn, place
    state = on_turn(new_game(players=2), 0)
    give(state, 0, ["2H", "9C", "9D"])
    place(state, s0="-1,8", s1="0,6")
    state, _ = GAME.apply(state, 0, {"type": "move", "card": "2H", "to": "-1,7"})
    assert state["pending"]["kind"] == "attack"
    state, _ = GAME.apply(state, 1, {"type": "resign"})
    assert GAME.outcome(state).winners == (0,) and GAME.pending(state) == []

    state = on_turn(new_game(players=3), 0)
    give(state, 0, ["2H", "9C", "9D"])
    place(state, s0="-1,8", s1="0,6")
    state, _ = GAME.apply(state, 0, {"type": "move", "card": "2H", "to": "-1,7"})
    state, _ = GAME.apply(state, 1, {"type": "resign"})
    assert GAME.outcome(state) is None and state["pending"] is None
    assert GAME.pending(state)[0].seat != 0
    check_invariants(state)
