"""The rules contract: setup, options, legal moves that apply, refusals with reasons,
pure apply, the fast state copy, words for moves."""
import json
import pickle

import pytest

from games.rules.fluxx.cards import LEGACY
from games.rules.base import IllegalMove
from games.rules.fluxx import MontyPythonFluxx
from games.rules.fluxx.state_copy import SHARED, copy_state

from .helpers import GAME, decide, give, new_game, play, put, rules, table_for
from .playout import play as play_game

# Written for the reconstructed deck, which games stored on it still play (conftest.py).
DECK = LEGACY


def test_the_game_is_fluxx_for_two_to_six_and_refuses_other_counts():
    assert (GAME.kind, GAME.name, GAME.min_players, GAME.max_players) == ("fluxx", "Monty Python Fluxx", 2, 6)
    for players in (1, 7):
        with pytest.raises(ValueError):
            GAME.setup(players, {}, 1)
    assert isinstance(MontyPythonFluxx(), MontyPythonFluxx)


def test_options_have_defaults_bounds_and_refuse_unknown_names():
    assert GAME.options_with_defaults({}) == {"turn_cap": 300, "late_joiners": True}
    for bad in ({"turn_cap": 5}, {"turn_cap": "many"}, {"late_joiners": "yes"}, {"colour": "red"}):
        with pytest.raises(ValueError):
            GAME.setup(3, bad, 1)


def test_setup_is_plain_json_and_the_same_seed_gives_the_same_game():
    a, b = new_game(4, 99), new_game(4, 99)
    assert a == b and json.loads(json.dumps(a)) == a
    assert new_game(4, 100) != a


def test_apply_leaves_its_input_unchanged_and_gives_the_same_state_again():
    def step(before, state, seat, move, moves, events):
        frozen = pickle.dumps(before)
        again, _ = GAME.apply(before, seat, move)
        assert pickle.dumps(before) == frozen and again == state

    for seed in range(6):
        play_game(GAME, seed, players=3, on_step=step)


def _containers(value, path="state"):
    if isinstance(value, (dict, list)):
        yield path, value
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for k, v in items:
            yield from _containers(v, f"{path}/{k}")


def test_the_state_copy_shares_only_frozen_parts_and_the_keys_changed_through_own():
    state = table_for()
    rules(state, "hand-limit-1")
    give(state, 1, "cow", "coconuts")
    give(state, 2, "swallow", "catapult")
    give(state, 0, "draw-3-play-2")
    state, _ = play(state, 0, "draw-3-play-2")
    state["future"] = {"nested": [1, [2]]}  # a key state_copy does not know is still copied
    copy = copy_state(state)
    assert copy == state
    originals = {id(c): p for p, c in _containers(state)}
    shared = [p for p, c in _containers(copy) if id(c) in originals]
    frozen = ("/options", "/pick", "/default", "/data")
    # Shared on purpose: the frozen parts of open decisions, the keys the engine changes
    # only through zones.own (copy first) or by replacing them whole (state_copy.SHARED),
    # and each hand and table (changed only through zones.own_at), not the lists of them.
    assert all(p.startswith("state/decisions/") and any(f in p for f in frozen)
               or p == "state/turn/used" or p.split("/")[1] in SHARED
               or p.split("/")[1] in ("hands", "tables") and len(p.split("/")) >= 3
               for p in shared), shared
    assert any(p.startswith("state/decisions/") for p in shared)
    assert "state/future" not in shared and "state/future/nested/1" not in shared
    for key in ("hands", "tables", "discard", "limbo", "effects", "turn", "decisions"):
        assert copy[key] is not state[key], key


def test_apply_never_changes_what_it_shares_with_its_input():
    """The copy shares keys with the state it copies (state_copy.SHARED): whole games with
    the rules that act on them in play from the start, every Action played by both players,
    joins and resignations, check that no apply changes the state it was given."""
    from tests.rules.fluxx.playout import goal_seeking, uniform
    from games.rules.rng import Rng

    sets = [("double-agenda", "poor-bonus", "rich-bonus", "keeper-limit-3"),
            ("sing-bonus", "accent-bonus", "what-is-your-quote", "hand-limit-2", "swap-plays-for-draws"),
            ("no-hand-bonus", "one-two-five", "get-on-with-it"), ("play-all", "draw-3")]
    for seed in range(24):
        state = new_game(players=2 + seed % 5, seed=500 + seed)
        rules(state, *sets[seed % len(sets)])
        rng = Rng({"seed": seed, "n": 0})
        chooser = uniform if seed % 2 else goal_seeking
        while GAME.outcome(state) is None and state["turn"]["number"] < 60:
            before, frozen = state, pickle.dumps(state)
            if rng.below(30) == 0 and sum(state["active"]) > 2:
                seats = [s for s, on in enumerate(state["active"]) if on]
                state, _ = GAME.apply(state, seats[rng.below(len(seats))], {"type": "resign"})
            elif rng.below(30) == 0 and len(state["active"]) < GAME.max_players:
                state, _ = GAME.add_seat(state)
            else:
                pending = GAME.pending(state)
                seat = pending[rng.below(len(pending))].seat
                move = chooser(GAME, state, seat, GAME.legal_moves(state, seat), rng)
                if move["type"] in ("sing", "accent"):
                    move = dict(move, words="Ni", song="Ni", accent="French")
                state, _ = GAME.apply(state, seat, move)
            assert pickle.dumps(before) == frozen


def test_every_listed_move_applies_and_every_refusal_gives_a_reason():
    junk = [{"type": "play", "card": "nonsense"}, {"type": "play"}, {"type": "power", "card": "cow"},
            {"type": "decide", "id": -1, "choice": None}, {"type": "end_turn"}, {"type": "fly"},
            {"type": "sing", "song": 3}, {"type": "swap_plays"}, {"type": "get_on_with_it"}, "not a move"]

    def step(before, state, seat, move, moves, events):
        for other in moves:
            GAME.apply(before, seat, other)  # each listed move can be made as listed
        for bad in junk:
            if bad in moves:
                continue
            for s in range(len(before["active"])):
                try:
                    GAME.apply(before, s, bad)
                except IllegalMove as err:
                    assert err.reason
                else:
                    assert bad in GAME.legal_moves(before, s), (bad, s)

    for seed in range(5):
        play_game(GAME, seed, players=2 + seed, on_step=step)


def test_moves_out_of_turn_or_by_strangers_are_refused():
    state = table_for()
    give(state, 1, "cow")
    with pytest.raises(IllegalMove, match="Seat 1's turn"):
        GAME.apply(state, 1, {"type": "play", "card": "cow"})
    for stranger in (3, -1, None, "0", True):
        with pytest.raises(IllegalMove, match="not playing"):
            GAME.apply(state, stranger, {"type": "end_turn"})


def test_a_finished_game_takes_no_more_moves():
    state = table_for()
    put(state, 0, "cow", "catapult")
    give(state, 0, "fetchez-la-vache")
    state, _ = play(state, 0, "fetchez-la-vache")
    with pytest.raises(IllegalMove, match="over"):
        GAME.apply(state, 1, {"type": "end_turn"})
    assert GAME.legal_moves(state, 1) == [] and GAME.pending(state) == []


def test_describe_move_names_the_card_but_never_a_hidden_choice():
    state = table_for()
    give(state, 1, "cow", "coconuts")
    give(state, 0, "taxation", "holy-grail")
    rules(state, "play-2")
    assert GAME.describe_move({"type": "play", "card": "taxation"}, state) == "plays Taxation!"
    state, _ = play(state, 0, "taxation")
    d = state["decisions"][-1][0]
    assert GAME.describe_move({"type": "decide", "id": d["id"], "choice": "cow"}, state) == "makes a choice"
    state, _ = decide(state, 1, "cow")
    state, _ = play(state, 0, "holy-grail")
    assert GAME.describe_move({"type": "power", "card": "excalibur"}) == "uses Excalibur"
    assert GAME.describe_move({"type": "swap_plays"}) == "swaps plays for draws"


def test_describe_move_names_public_choices():
    state = table_for()
    put(state, 2, "cow")
    give(state, 0, "trash-a-keeper")
    state, _ = play(state, 0, "trash-a-keeper")
    d = state["decisions"][-1][0]
    assert GAME.describe_move({"type": "decide", "id": d["id"], "choice": "cow"}, state) == "chooses The Cow"


def test_replaying_the_log_from_the_seed_gives_the_same_state():
    for seed in range(10):
        final, log = play_game(GAME, seed, players=2 + seed % 5)
        state = GAME.setup(2 + seed % 5, {}, seed)
        for seat, move in log:
            state, _ = GAME.apply(json.loads(json.dumps(state)), seat, json.loads(json.dumps(move)))
        assert json.dumps(state, sort_keys=True) == json.dumps(final, sort_keys=True)


def test_the_turn_cap_ends_a_game_in_a_draw():
    state = GAME.setup(3, {"turn_cap": 20}, 5)
    state["turn"]["number"] = 20
    give(state, state["turn"]["seat"], "coconuts")  # a Keeper of every deck
    state, events = play(state, state["turn"]["seat"], "coconuts")
    assert GAME.outcome(state).draw and GAME.outcome(state).winners == ()
    assert GAME.outcome(state).reason == "Nobody won within 20 turns: the game is a draw."
