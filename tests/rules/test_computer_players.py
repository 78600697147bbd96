"""Computer players (games/rules/computer.py and games/rules/<kind>/players.py).

- Every level of every game plays seeded games to the end, at 2 to 4 seats, without a
  single fallback (a fallback is how choose_move reports a crash or an illegal choice) and
  without changing the view or the legal list it was handed.
- A level is handed only the view and the legal moves: its signature says so, choose_move
  passes exactly ``view_for(state, seat)`` (sharing nothing with the state), and a card
  hidden from the seat (a canary) appears nowhere in what the level receives.
- Same seed, same move; a crashing level, a level choosing a move that is not listed and an
  unknown level all give a legal random move with a note.

COMPUTER_PLAYOUTS sets the number of games per game kind (default 25, five times that for the
duel; `make deep` plays 400). The long run, ``COMPUTER_PLAYOUTS=400 pytest --timeout=0 -k seeded`` (3,600 games; the
timeout option lifts pytest-timeout's 300 s a test), passed in 5 minutes on the shared machine.
"""
from __future__ import annotations

import copy
import inspect
import json
import marshal
import os

import pytest

from games.rules import computer
from games.rules.camelot import Camelot
from games.rules.ccg.game import MPHGGame
from games.rules.cupquest import CupQuest
from games.rules.duel.game import GrailDuel
from games.rules.fluxx import MontyPythonFluxx
from games.rules.rng import Rng, new_rng_state

from .ccg.helpers import starter_decks

GAMES = int(os.environ.get("COMPUTER_PLAYOUTS", "25"))
KINDS = {"duel": GrailDuel(), "cupquest": CupQuest(), "fluxx": MontyPythonFluxx(), "ccg": MPHGGame(),
         "camelot": Camelot()}
SEATS = {"duel": (2,), "cupquest": (2, 3, 4), "fluxx": (2, 3, 4), "ccg": (2, 3, 4), "camelot": (3, 4, 5, 6)}
CAMELOT_VARIATIONS = [{}, {"guardians": True}, {"accoutrements": True}, {"gold": True}, {"turn_based": True}]


def new_state(kind: str, players: int, seed: int) -> dict:
    game = KINDS[kind]
    if kind == "ccg":
        decks = starter_decks()
        options = {"decks": [decks[(seed + i) % 2] for i in range(players)], "collection_sizes": [0] * players,
                   "double_the_ante": seed % 2 == 0}
    elif kind == "cupquest":
        # Random players seldom carry the Grail home: a short round limit ends their games.
        options = {"round_limit": 25}
    elif kind == "camelot":
        # Knights guarding the sword from each other can stand off for hundreds of turns.
        options = dict(CAMELOT_VARIATIONS[seed % len(CAMELOT_VARIATIONS)], turn_cap=60)
    else:
        options = {}
    return game.setup(players, options, seed)


def table(kind: str, seed: int) -> list[str]:
    """Level per seat: knight against random either way round, knights only, randoms only."""
    players = SEATS[kind][seed % len(SEATS[kind])]
    pattern = seed // len(SEATS[kind]) % 4
    levels = ["knight"] * players if pattern == 2 else ["random"] * players
    if pattern in (0, 1):
        levels[pattern % players] = "knight"
    return levels


class Watch:
    """choose_move wrapped so every call also checks the level left its inputs alone."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, game, state, seat, level, seed):
        view, legal = game.view_for(state, seat), game.legal_moves(state, seat)
        before = marshal.dumps([view, legal], 2)  # fast and exact for plain data
        fn = computer.players_module(game.kind).LEVELS[level]
        fn(view, legal, Rng(new_rng_state(seed)))
        assert marshal.dumps([view, legal], 2) == before, f"{level} changed its inputs"
        self.calls += 1
        return computer.choose_move(game, state, seat, level, seed)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_level_plays_seeded_games_to_the_end_without_an_illegal_move(kind):
    game = KINDS[kind]
    count = GAMES * 5 if kind == "duel" else GAMES
    watch = Watch()
    for seed in range(count):
        levels = table(kind, seed)
        state = new_state(kind, len(levels), seed)
        # Every sixteenth game also checks that no level touches the view or the legal list.
        chooser = watch if seed % 16 == 0 else None
        final, moves, notes = computer.play_game(game, state, levels, seed, chooser=chooser)
        assert notes == [], (seed, levels, notes[:3])
        assert game.outcome(final) is not None and moves > 0
    assert watch.calls > 0


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_same_seed_gives_the_same_game(kind):
    game = KINDS[kind]
    levels = ["knight"] + ["random"] * (SEATS[kind][0] - 1)
    runs = [computer.play_game(game, new_state(kind, len(levels), 11), levels, 11)[0] for _ in range(2)]
    assert json.dumps(runs[0], sort_keys=True, default=list) == json.dumps(runs[1], sort_keys=True, default=list)


# --- what a level is handed -------------------------------------------------------------

@pytest.mark.parametrize("kind", sorted(KINDS))
def test_levels_take_the_view_the_legal_moves_and_a_generator_only(kind):
    assert computer.levels_for(kind)[:2] == ["random", "knight"]
    for level, fn in computer.players_module(kind).LEVELS.items():
        assert list(inspect.signature(fn).parameters) == ["view", "legal", "rng"], level


def _containers(value, out):
    if isinstance(value, (dict, list)):
        out.add(id(value))
        for v in value.values() if isinstance(value, dict) else value:
            _containers(v, out)
    return out


def _mid_game(kind: str, moves: int = 12) -> tuple[dict, int]:
    game = KINDS[kind]
    if kind == "duel":
        moves = min(moves, 3)  # a whole duel is eight moves
    state = new_state(kind, SEATS[kind][0], 5)
    for n in range(moves):
        seat = game.pending(state)[0].seat
        move, _ = computer.choose_move(game, state, seat, "random", computer.seed_for(5, n))
        state, _ = game.apply(state, seat, move)
        if game.outcome(state) is not None:
            break
    return state, game.pending(state)[0].seat


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_choose_move_hands_the_level_exactly_the_seat_view_and_nothing_of_the_state(kind, monkeypatch):
    game = KINDS[kind]
    state, seat = _mid_game(kind)
    got = []

    def spy(view, legal, rng):
        got.append((view, legal, rng))
        return legal[0]

    monkeypatch.setitem(computer.players_module(kind).LEVELS, "spy", spy)
    move, note = computer.choose_move(game, state, seat, "spy", 1)
    assert note is None
    (view, legal, rng), = got
    assert view == game.view_for(state, seat)
    assert legal == game.legal_moves(state, seat)
    assert isinstance(rng, Rng)
    # Nothing handed over is (or holds) a part of the state itself.
    shared = _containers(state, set()) & _containers([view, legal], set())
    assert shared == set()


def _plant_canary(kind: str, state: dict, other: int) -> dict:
    """The state with a card only ``other`` may see renamed to the word 'canary'."""
    state = copy.deepcopy(state)
    if kind == "duel":
        state["hands"][other] = [7 if i else -424242 for i in range(len(state["hands"][other]))]
        return state
    if kind == "camelot":
        # Camelot shows every piece to everyone: only the generator is hidden.
        state["rng"] = dict(state["rng"], seed=424242424242)
        return state
    if kind in ("cupquest", "fluxx"):
        # The other seat's hand and the draw pile: the view may count them, never name them.
        state["hands"][other] = ["canary"] + state["hands"][other][1:]
        state["draw"] = ["canary"] + state["draw"][1:]
        return state
    # CCG: a card in the opponent's hand becomes an instance of a canary card.
    hidden = state["p"][other]["hand"][0]
    code = state["inst"][hidden]
    state["cards"] = dict(state["cards"], canary=dict(state["cards"][code], code="canary", title="Canary"))
    state["inst"] = list(state["inst"])
    state["inst"][hidden] = "canary"
    return state


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_hidden_card_never_reaches_a_level(kind, monkeypatch):
    game = KINDS[kind]
    state, seat = _mid_game(kind)
    other = (seat + 1) % SEATS[kind][0]
    planted = _plant_canary(kind, state, other)
    marker = {"duel": "-424242", "camelot": "424242424242"}.get(kind, "canary")
    assert marker in json.dumps(planted)
    seen = []

    def spy(view, legal, rng):
        seen.append(json.dumps([view, legal]))
        return computer.players_module(kind).LEVELS["knight"](view, legal, rng)

    monkeypatch.setitem(computer.players_module(kind).LEVELS, "spy", spy)
    move, note = computer.choose_move(game, planted, seat, "spy", 3)
    assert note is None and move["type"]
    assert seen and marker not in seen[0]


# --- determinism and falling back -------------------------------------------------------

@pytest.mark.parametrize("kind", sorted(KINDS))
def test_same_seed_same_move_for_every_level(kind):
    game = KINDS[kind]
    state, seat = _mid_game(kind)
    for level in computer.levels_for(kind):
        first = computer.choose_move(game, state, seat, level, 99)
        assert computer.choose_move(game, state, seat, level, 99) == first


def test_the_random_level_spreads_over_the_legal_moves():
    game = KINDS["cupquest"]
    state, seat = _mid_game("cupquest", moves=0)
    legal = game.legal_moves(state, seat)
    picked = {json.dumps(computer.choose_move(game, state, seat, "random", s)[0], sort_keys=True) for s in range(200)}
    assert len(picked) > len(legal) // 2


def test_seeds_are_a_stable_checksum_not_pythons_salted_hash():
    assert computer.seed_for(1, 2, 3) == 8064461727618995781
    assert computer.seed_for("match", 7, 0) == 9157623940166836299
    assert computer.seed_for(1, 2, 3) != computer.seed_for(1, 2, 4)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_crashing_level_falls_back_to_a_legal_move_with_a_note(kind, monkeypatch):
    game = KINDS[kind]
    state, seat = _mid_game(kind)

    def broken(view, legal, rng):
        raise KeyError("oops")

    monkeypatch.setitem(computer.players_module(kind).LEVELS, "broken", broken)
    move, note = computer.choose_move(game, state, seat, "broken", 4)
    assert "failed" in note and "KeyError" in note
    assert _is_legal(game, state, seat, move)
    assert computer.choose_move(game, state, seat, "broken", 4) == (move, note)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_move_not_in_legal_falls_back_to_a_legal_move_with_a_note(kind, monkeypatch):
    game = KINDS[kind]
    state, seat = _mid_game(kind)
    monkeypatch.setitem(computer.players_module(kind).LEVELS, "cheat", lambda view, legal, rng: {"type": "win_now"})
    move, note = computer.choose_move(game, state, seat, "cheat", 4)
    assert "not legal" in note
    assert _is_legal(game, state, seat, move)


def test_an_equal_copy_of_a_listed_move_is_accepted_and_an_unknown_level_falls_back():
    game = KINDS["duel"]
    state = game.setup(2, {}, 1)
    module = computer.players_module("duel")
    module.LEVELS["copy"] = lambda view, legal, rng: dict(legal[-1])
    try:
        move, note = computer.choose_move(game, state, 0, "copy", 1)
    finally:
        del module.LEVELS["copy"]
    assert note is None and move == game.legal_moves(state, 0)[-1]
    move, note = computer.choose_move(game, state, 0, "wizard", 1)
    assert "No computer level 'wizard'" in note and move in game.legal_moves(state, 0)
    with pytest.raises(ValueError):
        computer.choose_move(game, state, 1, "knight", 1)  # not seat 2's turn: nothing to choose


def test_levels_are_found_by_convention():
    assert computer.levels_for("duel") == ["random", "knight"]
    assert computer.levels_for("no_such_game") == []
    assert computer.levels_for("../etc") == []
    assert computer.level_label("knight") == "Knight"
    assert computer.level_label("random") == "Random squire"


def test_a_ccg_play_comes_back_with_its_quote_as_a_person_would_post_it():
    game = KINDS["ccg"]
    state = new_state("ccg", 2, 2)
    for n in range(400):
        seat = game.pending(state)[0].seat
        move, _ = computer.choose_move(game, state, seat, "knight", computer.seed_for(2, n))
        if move["type"] == "play" and move.get("face") != "down":
            quote = game.view_for(state, seat)["cards"]
            assert move.get("quote") and any(c.get("quote") == move["quote"] for c in quote.values())
            return
        state, _ = game.apply(state, seat, move)
        if game.outcome(state) is not None:
            state = new_state("ccg", 2, 3 + n)
    pytest.fail("the knight never played a card face up")


def _is_legal(game, state, seat, move) -> bool:
    game.apply(state, seat, move)  # raises IllegalMove otherwise
    return True
