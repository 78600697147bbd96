"""Before play, each player rolls a die; the highest roll starts."""
import pytest

from games.rules.base import IllegalMove
from games.rules.rng import Rng, new_rng_state

from .helpers import GAME, new_game, on_turn


def _roll_sequences(state):
    """Each seat's rolls in order: its first roll, then any roll-offs it took part in."""
    seqs = {}
    for rnd in state["opening_rolls"]:
        for seat, roll in rnd.items():
            seqs.setdefault(int(seat), []).append(roll)
    return seqs


def test_order_is_every_seat_once_highest_first():
    for seed in range(40):
        state = new_game(seed=seed)
        assert sorted(state["order"]) == [0, 1, 2]
        first_round = {int(s): r for s, r in state["opening_rolls"][0].items()}
        # Nobody who rolled lower in the opening roll goes before someone who rolled higher.
        for i, a in enumerate(state["order"]):
            for b in state["order"][i + 1:]:
                assert first_round[a] >= first_round[b]
        assert GAME.pending(state)[0].seat == state["order"][0]


def test_tied_players_roll_again_among_themselves():
    tied_games = [g for g in (new_game(seed=s) for s in range(300)) if len(g["opening_rolls"]) > 1]
    assert len(tied_games) > 10
    for state in tied_games:
        first = {int(s): r for s, r in state["opening_rolls"][0].items()}
        rerolled = {int(s) for s in state["opening_rolls"][1]}
        assert len(rerolled) >= 2 and len({first[s] for s in rerolled}) == 1
        # Highest first, ties settled by the roll-offs: the order sorts the roll sequences.
        seqs = _roll_sequences(state)
        assert state["order"] == sorted(range(3), key=lambda s: seqs[s], reverse=True)


def test_the_opening_rolls_come_from_the_seeded_generator():
    state = new_game(seed=5)
    rng = Rng(new_rng_state(5))
    rng.below(3)  # the dealer
    deck = list(range(52))
    rng.shuffle(deck)
    assert {int(s): r for s, r in state["opening_rolls"][0].items()} == {s: rng.die() for s in range(3)}


def test_turns_follow_the_order_and_rounds_are_counted():
    state = new_game(seed=3)
    order = state["order"]
    seen = []
    for _ in range(6):
        seat = GAME.pending(state)[0].seat
        seen.append(seat)
        state, _ = GAME.apply(state, seat, {"type": "pass"})
    assert seen == order + order
    assert state["round"] == 3


def test_only_the_player_to_act_may_move():
    state = on_turn(new_game(), 1)
    for seat in (0, 2):
        assert GAME.legal_moves(state, seat) == []
    with pytest.raises(IllegalMove, match="not your turn"):
        GAME.apply(state, 0, {"type": "pass"})


def test_a_round_limit_ends_a_stalled_game_in_a_draw():
    state = GAME.setup(3, {"round_limit": 10}, 1)
    while GAME.outcome(state) is None:
        seat = GAME.pending(state)[0].seat
        state, _ = GAME.apply(state, seat, {"type": "pass"})
    result = GAME.outcome(state)
    assert result.draw and result.winners == () and state["round"] == 11
    assert GAME.pending(state) == [] and GAME.legal_moves(state, 0) == []


def test_seats_outside_the_game_get_no_moves_and_cannot_act():
    state = new_game()
    for seat in (None, 3, -1, "0"):
        assert GAME.legal_moves(state, seat) == []
        with pytest.raises(IllegalMove, match="not playing"):
            GAME.apply(state, seat, {"type": "pass"})
