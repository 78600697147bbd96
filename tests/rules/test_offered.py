"""``Game.offered``: a person's move is applied only when the rules offer it to that seat.

Seeded playouts of every kind (the per-game playout players where they exist, the computer
players otherwise) check, in the states they meet:

- every listed move, as a client posts it back (through JSON), is offered;
- every move the playout's player makes is offered (the Cup Quest player aims its snipes
  anywhere), and so is every move each computer level chooses: computers play as persons
  would, so a move of theirs that is not offered is a bug in the listing or in the level;
- ``offered`` agrees with its definition, worked out here from the whole listing with a
  comparison of our own (JSON text): exactly listed, or of a type with declared free fields,
  matching a listed move on the others and passing the checks. It is asked of the listed
  moves, of other seats' listed moves, of the timeout move and of mutated moves (an unknown
  field, a value of another type or outside the listing, a field dropped). The CCG, Camelot
  and Cup Quest answer from a narrower listing than ``legal_moves``: this is where that
  proves to give the same answers;
- a move with a field no listed move of its type has (``"timed_out": true`` and any other)
  is refused in every kind, as is a value of another JSON type (``true`` for ``1``);
- the timeout move sent as the seat's own move is offered only where it is one a player may
  make; Camelot's ``{"type": "end_turn", "timed_out": true}`` never is.

Then each kind's free fields one by one, and the base contract's own moves.
OFFERED_PLAYOUTS sets the number of games per kind (default 2).
"""
from __future__ import annotations

import copy
import json
import os
import random

import pytest

from games.rules import computer, decisions
from games.rules.camelot import Camelot
from games.rules.camelot.game import MAX_QUESTION
from games.rules.ccg.game import MAX_SAID, MPHGGame
from games.rules.cupquest import CupQuest
from games.rules.duel.game import GrailDuel
from games.rules.fluxx import MontyPythonFluxx
from games.rules.fluxx.free_actions import MAX_WORDS
from games.rules.offered import NOT_OPEN
from games.rules.rng import Rng

from .camelot import playout as camelot_playout
from .camelot.helpers import put
from .camelot.helpers import table as camelot_table
from .ccg.helpers import starter_decks
from .cupquest import playout as cupquest_playout
from .fluxx import playout as fluxx_playout

GAMES = int(os.environ.get("OFFERED_PLAYOUTS", "2"))
KINDS = {"duel": GrailDuel(), "cupquest": CupQuest(), "fluxx": MontyPythonFluxx(), "ccg": MPHGGame(),
         "camelot": Camelot()}
# One state in EVERY[kind] gets the full check (each listed move and its mutations); every
# move made is checked in every state. The listings differ in size by a hundredfold.
EVERY = {"duel": 1, "cupquest": 3, "fluxx": 2, "ccg": 6, "camelot": 12}
SAMPLED = 14  # listed moves per seat whose mutations are tried (every type among them)
ODD_VALUES = ["nonsense", 10 ** 6, -1, None, True, False, [], {}, 2.5, "s9-arthur-9", "E1.1"]


def text(value) -> str:
    """JSON text, keys sorted: equal texts are equal values of the same JSON types."""
    return json.dumps(value, sort_keys=True)


def posted(move):
    return json.loads(json.dumps(move))


# --- the definition, worked out from the whole listing ----------------------------------

class Listing:
    """A seat's whole listing in a state, and what ``offered`` should answer for a move."""

    def __init__(self, game, state, seat):
        self.game, self.state, self.seat = game, state, seat
        self.moves = [posted(m) for m in game.legal_moves(state, seat)]
        self.texts = {text(m) for m in self.moves}
        # The listed moves of each type with free fields, by their fields and the text of
        # their other fields: what a move of that type must match.
        self.shapes: dict = {}
        for m in self.moves:
            free = game.free_fields.get(m["type"])
            if free is not None:
                self.shapes.setdefault(self.shape(m, free), []).append(m)

    @staticmethod
    def shape(move, free):
        return frozenset(move), text({k: v for k, v in move.items() if k not in free})

    def offers(self, move) -> bool:
        game = self.game
        if not isinstance(move, dict) or not isinstance(move.get("type"), str) or game.outcome(self.state):
            return False
        kind = move["type"]
        if kind == "resign":
            return set(move) == {"type"}
        if kind == "takeback" and game.allows_takebacks(self.state):
            return set(move) == {"type", "mark"} and type(move["mark"]) is int
        if text(move) in self.texts:
            return True
        free = game.free_fields.get(kind)
        if free is None:
            return False
        matching = self.shapes.get(self.shape(move, free))
        return bool(matching) and all(
            check.refusal(name, move[name], self.state, self.seat, move, matching) is None
            for name, check in free.items() if name in move)


def mutations(move):
    """Moves one change away from ``move``: the clock's field, an unknown field, a field
    dropped, each field given odd values, values of another JSON type and changed lists."""
    yield dict(move, timed_out=True)
    yield dict(move, shrubbery="a nice one")
    yield dict(move, type=move["type"] + "_now")
    for key, value in move.items():
        if key == "type":
            continue
        yield {k: v for k, v in move.items() if k != key}
        for odd in ODD_VALUES:
            yield dict(move, **{key: odd})
        if type(value) is int:
            yield dict(move, **{key: float(value)})
            yield dict(move, **{key: value + 1})
            if value in (0, 1):
                yield dict(move, **{key: bool(value)})
        elif type(value) is bool:
            yield dict(move, **{key: int(value)})
        elif type(value) is str:
            yield dict(move, **{key: [value]})
            yield dict(move, **{key: value + "x"})
            yield dict(move, **{key: "x" * 5000})
        elif type(value) is float:
            yield dict(move, **{key: value + 1000.0})
        elif type(value) is list:
            yield dict(move, **{key: value[::-1]})
            yield dict(move, **{key: value[:-1]})
            if value:
                yield dict(move, **{key: value + value[:1]})
            yield dict(move, **{key: value + ["nonsense"]})


def sample(moves, rng):
    """Up to SAMPLED of ``moves``: one of each type first, then at random."""
    firsts = {}
    for m in moves:
        firsts.setdefault(m["type"], m)
    chosen = list(firsts.values())
    rest = [m for m in moves if all(m is not c for c in chosen)]
    while rest and len(chosen) < SAMPLED:
        chosen.append(rest.pop(rng.below(len(rest))))
    return chosen


class Tally:
    """What the checks met, so a test can say its cases were reached."""

    def __init__(self):
        self.states = self.mutated = self.free_offered = self.made = 0
        self.timeouts_offered: list[dict] = []
        self.timeouts_refused: list[dict] = []


def check_state(game, state, rng, tally, levels=True):
    """The full check of one state, for every seat the rules wait for."""
    seats = sorted({p.seat for p in game.pending(state)})
    listings = {s: Listing(game, state, s) for s in range(_seats(state))}
    tally.states += 1
    for seat in seats:
        listing = listings[seat]
        for move in listing.moves:
            assert game.offered(state, seat, move) is None, (seat, move)
        for move in sample(listing.moves, rng):
            for changed in mutations(move):
                why = game.offered(state, seat, changed)
                assert (why is None) == listing.offers(changed), (seat, changed, why)
                if why is None and text(changed) not in listing.texts:
                    tally.free_offered += 1
                tally.mutated += 1
            assert game.offered(state, seat, dict(move, timed_out=True)) is not None, move
            # A value of another JSON type is never the listed one (true is not 1).
            for key, value in move.items():
                if type(value) is int and value in (0, 1):
                    assert game.offered(state, seat, dict(move, **{key: bool(value)})) is not None, (key, move)
        for other, theirs in listings.items():
            if other != seat:
                for move in theirs.moves[:40]:
                    assert (game.offered(state, seat, move) is None) == listing.offers(move), (seat, other, move)
        timeout = posted(game.timeout_move(state, seat))
        offered = game.offered(state, seat, timeout) is None
        assert offered == listing.offers(timeout), timeout
        (tally.timeouts_offered if offered else tally.timeouts_refused).append(timeout)
        if levels:
            for level in computer.levels_for(game.kind):
                chosen, note = computer.choose_move(game, state, seat, level, rng.below(1 << 30))
                assert note is None, note
                assert game.offered(state, seat, posted(chosen)) is None, (level, chosen)


def _seats(state):
    for key in ("players", "n"):
        if isinstance(state.get(key), int):
            return state[key]
    return len(state["hands"])  # the duel and Fluxx keep a hand per seat


# --- the playouts, each kind with its own player ----------------------------------------------

def ccg_options(players, seed):
    decks = starter_decks()
    if decks is None:
        pytest.skip("starter decks not in games/rules/ccg/data")
    return {"decks": [decks[(seed + i) % 2] for i in range(players)], "collection_sizes": [0] * players,
            "double_the_ante": seed % 2 == 0}


def play_kind(kind, seed, on_state):
    """One seeded game of ``kind``; ``on_state(state, seat, move)`` for every move made, in
    the state it was made in."""
    game = KINDS[kind]
    if kind == "camelot":
        options = dict(camelot_playout.random_options(seed), turn_cap=40)
        camelot_playout.play(game, seed, players=3 + seed % 3, options=options,
                             on_step=lambda before, after, seat, move, moves, events: on_state(before, seat, move))
        return
    if kind == "fluxx":
        fluxx_playout.play(game, seed, players=2 + seed % 3,
                           on_step=lambda before, after, seat, move, moves, events: on_state(before, seat, move))
        return
    if kind == "cupquest":
        # The playout's own player (it aims its snipes anywhere), moved here by hand: its
        # hook sees only the state after each move.
        rnd = random.Random(seed)
        state = game.setup(2 + seed % 3, {"round_limit": 12}, seed)
        while game.outcome(state) is None:
            seat = game.pending(state)[0].seat
            move = cupquest_playout.choose(game, state, seat, game.legal_moves(state, seat), rnd)
            on_state(state, seat, move)
            state, _ = game.apply(state, seat, move)
        return
    # The CCG and the duel: the computer players, random and knight, seat by seat.
    players = 2 + seed % 3 if kind == "ccg" else 2
    state = game.setup(players, ccg_options(players, seed) if kind == "ccg" else {}, seed)
    levels = ["knight" if (seat + seed) % 2 else "random" for seat in range(players)]
    rng = Rng({"seed": seed, "n": 0})
    for n in range(3000):
        if game.outcome(state) is not None:
            return
        pending = game.pending(state)
        seat = pending[rng.below(len(pending))].seat
        move, _ = computer.choose_move(game, state, seat, levels[seat], computer.seed_for(kind, seed, n))
        on_state(state, seat, move)
        state, _ = game.apply(state, seat, move)
    raise AssertionError(f"{kind}: no end")


def run_playouts(kind):
    game = KINDS[kind]
    tally = Tally()
    for seed in range(GAMES):
        rng = Rng({"seed": 1000 + seed, "n": 0})

        def on_state(state, seat, move):
            tally.made += 1
            # The move made is offered: the playout's players play as persons do.
            assert game.offered(state, seat, posted(move)) is None, (seat, move)
            if rng.below(EVERY[kind]) == 0:
                check_state(game, state, rng, tally)

        play_kind(kind, seed, on_state)
    return tally


@pytest.fixture(scope="module")
def tallies():
    return {}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_playouts_offer_what_the_rules_list_and_nothing_else(kind, tallies):
    tally = tallies[kind] = run_playouts(kind)
    assert tally.states > 5 and tally.mutated > 100, (tally.states, tally.mutated)
    if kind in ("camelot", "cupquest", "fluxx", "ccg"):
        # Moves no list holds were met and offered (a subset declared, an aim, words).
        assert tally.free_offered > 0


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_timeout_move_is_offered_only_where_a_player_may_make_it(kind, tallies):
    tally = tallies.get(kind) or run_playouts(kind)
    if kind == "camelot":
        # The clock's end of a turn carries "timed_out": no player may send it. Its other
        # timeout moves (resume, an ask's default answer, the first Entry hex) are listed.
        assert tally.timeouts_refused
        assert all(m == {"type": "end_turn", "timed_out": True} for m in tally.timeouts_refused)
    else:
        # Here the timeout move is one a player may make too: the duel's lowest card, Cup
        # Quest's pass, fight or decline, Fluxx's first card, end of turn or a decision's
        # default, the CCG's end of turn, pass, concession, cut or first choice.
        assert tally.timeouts_offered and not tally.timeouts_refused, tally.timeouts_refused


# --- each kind's free fields ------------------------------------------------------------------

def test_camelot_declarations_name_any_of_the_declarable_units():
    game = KINDS["camelot"]
    state = camelot_table(3, tokens=(0, 1))
    put(state, 0, "arthur", "0,1")
    put(state, 0, "lancelot", "1,1")
    targets = [put(state, 1, "arthur", "1,0"), put(state, 2, "galahad", "0,2"), put(state, 1, "lancelot", "2,0")]
    listed = [m["targets"] for m in game.legal_moves(state, 0) if m["type"] == "declare"]
    assert listed == [[t] for t in targets] + [targets]  # each alone, and all together
    some = [targets[2], targets[0]]  # any subset, in any order: not a listed move
    assert game.offered(state, 0, {"type": "declare", "targets": some}) is None
    game.apply(state, 0, {"type": "declare", "targets": some})  # and the rules take it
    for bad, why in ((targets[:1] * 2, "'targets' names a choice twice."),
                     ([targets[0], "s9-arthur-1"], "'targets' may only name choices offered to you."),
                     ([], "'targets' must list at least 1 of the choices offered."),
                     (targets[0], "'targets' must list at least 1 of the choices offered.")):
        assert game.offered(state, 0, {"type": "declare", "targets": bad}) == why
    assert game.offered(state, 0, {"type": "declare", "targets": some, "timed_out": True}) is not None
    assert game.offered(state, 2, {"type": "declare", "targets": some}) == NOT_OPEN  # no token


def test_camelot_the_clocks_end_of_turn_is_refused_to_a_person():
    game = KINDS["camelot"]
    state = game.setup(3, {}, 5)
    while state["phase"] == "entry":
        seat = game.pending(state)[0].seat
        state, _ = game.apply(state, seat, game.legal_moves(state, seat)[0])
    seat = state["tokens"][0]
    timeout = game.timeout_move(state, seat)
    assert timeout == {"type": "end_turn", "timed_out": True}
    assert game.offered(state, seat, timeout) == "That move has a field the rules do not take: timed_out."
    assert game.offered(state, seat, {"type": "end_turn"}) is None
    # The pause carries the player's own question, within the rules' bound.
    assert game.offered(state, seat, {"type": "pause", "question": "Is a swallow laden?"}) is None
    assert game.offered(state, seat, {"type": "pause", "question": "?" * MAX_QUESTION}) is None
    assert game.offered(state, seat, {"type": "pause", "question": "?" * (MAX_QUESTION + 1)}) is not None
    assert game.offered(state, seat, {"type": "pause", "question": 42}) is not None
    assert game.offered(state, seat, {"type": "pause"}) is not None  # the listing has a question
    # Another holder's move, and a seat without a token, are not offered.
    idle = next(s for s in range(3) if s not in state["tokens"])
    assert game.offered(state, idle, {"type": "end_turn"}) == NOT_OPEN


def test_camelot_an_ally_lends_any_of_the_units_asked_for():
    game = KINDS["camelot"]
    state = camelot_table(3, tokens=(0, 1))
    put(state, 0, "arthur", "0,1")
    target = put(state, 1, "arthur", "1,0")
    lent = [put(state, 2, "galahad", "3,-1"), put(state, 2, "lancelot", "2,-1"), put(state, 2, "arthur", "2,0")]
    state, _ = game.apply(state, 0, {"type": "declare", "targets": [target]})
    state, _ = game.apply(state, 0, {"type": "ask_ally", "target": target, "seat": 2})
    ask = state["decisions"][0][0]
    assert [o["value"] for o in ask["options"]] == lent
    move = {"type": "decide", "id": ask["id"], "choice": [lent[2], lent[0]]}
    assert move not in game.legal_moves(state, 2)  # each alone, none or all are listed
    assert game.offered(state, 2, move) is None
    game.apply(state, 2, move)
    assert game.offered(state, 2, dict(move, choice=lent + ["s9-arthur-1"])) is not None
    assert game.offered(state, 2, dict(move, choice=lent[:1] * 2)) == "Choose each one at most once."
    assert game.offered(state, 2, dict(move, id=ask["id"] + 100)) == NOT_OPEN
    assert game.offered(state, 1, move) == NOT_OPEN  # asked of seat 3 only


def _cupquest_sniping():
    game = KINDS["cupquest"]
    for seed in range(50):
        state = game.setup(3, {}, seed)
        rng = Rng({"seed": seed, "n": 0})
        for _ in range(300):
            if game.outcome(state) is not None:
                break
            seat = game.pending(state)[0].seat
            moves = game.legal_moves(state, seat)
            snipes = [m for m in moves if m["type"] == "snipe"]
            if snipes:
                return game, state, seat, snipes[0]
            calm = [m for m in moves if m["type"] != "snipe"]
            state, _ = game.apply(state, seat, calm[rng.below(len(calm))])
    raise AssertionError("no snipe met")


def test_cupquest_a_snipe_aims_anywhere_in_range():
    game, state, seat, listed = _cupquest_sniping()
    for angle, strength in ((12.5, 61.0), (-45, 0), (45.0, 100), (0, 50)):
        move = dict(listed, angle=angle, strength=strength)
        assert game.offered(state, seat, move) is None, move
    for angle, strength in ((45.5, 50.0), (0.0, 100.01), ("10", 50.0), (True, 50.0), (0.0, None),
                            (float("nan"), 50.0), (float("inf"), 50.0)):
        assert game.offered(state, seat, dict(listed, angle=angle, strength=strength)) is not None, (angle, strength)
    assert game.offered(state, seat, dict(listed, target=seat)) is not None  # not a target offered
    assert game.offered(state, seat, {k: v for k, v in listed.items() if k != "angle"}) is not None
    assert game.offered(state, seat, dict(listed, spin=3)) == "That move has a field the rules do not take: spin."


def _ccg_state_with(want, seed_range=range(30)):
    """A CCG state met in a seeded game where some seat's listing has a move ``want``
    accepts; returns (state, seat, move)."""
    game = KINDS["ccg"]
    for seed in seed_range:
        state = game.setup(2, ccg_options(2, seed), seed)
        rng = Rng({"seed": seed, "n": 0})
        for n in range(1500):
            if game.outcome(state) is not None:
                break
            for seat in range(2):
                hit = next((m for m in game.legal_moves(state, seat) if want(state, m)), None)
                if hit is not None:
                    return state, seat, hit
            seat = game.pending(state)[0].seat
            move, _ = computer.choose_move(game, state, seat, "random", computer.seed_for(seed, n))
            state, _ = game.apply(state, seat, move)
    raise AssertionError("no such move met")


def test_ccg_a_quote_is_in_the_players_own_words():
    game = KINDS["ccg"]
    state, seat, play = _ccg_state_with(lambda s, m: m["type"] == "play" and m.get("quote"))
    said = dict(play, quote=play["quote"].upper() + "!!")
    assert game.offered(state, seat, said) is None
    assert game.offered(state, seat, dict(play, quote="")) is None  # said badly: the dead cart decides
    assert game.offered(state, seat, dict(play, quote="x" * MAX_SAID)) is None
    assert game.offered(state, seat, dict(play, quote="x" * (MAX_SAID + 1))) is not None
    assert game.offered(state, seat, dict(play, quote=["words"])) is not None
    assert game.offered(state, seat, {k: v for k, v in play.items() if k != "quote"}) is not None
    assert game.offered(state, seat, dict(play, card=play["card"] + 1000)) is not None


def test_ccg_words_only_where_the_listing_has_them():
    game = KINDS["ccg"]
    state, seat, down = _ccg_state_with(lambda s, m: m["type"] == "play" and m.get("face") == "down")
    assert game.offered(state, seat, down) is None
    assert game.offered(state, seat, dict(down, quote="Ni!")) is not None  # a face-down play says nothing
    state, seat, end = _ccg_state_with(lambda s, m: m == {"type": "end_turn"})
    assert game.offered(state, seat, dict(end, double=False)) is not None  # exactly as listed, or not at all
    assert game.offered(state, seat, dict(end, shout="Run away!")) is not None


def test_ccg_running_away_with_ones_own_shout():
    game = KINDS["ccg"]
    state, seat, run = _ccg_state_with(lambda s, m: m["type"] == "run_away", range(60))
    assert game.offered(state, seat, dict(run, shout="run away, RUN AWAY")) is None
    assert game.offered(state, seat, dict(run, shout=None)) is not None


def _fluxx_state(want):
    game = KINDS["fluxx"]
    for seed in range(80):
        found = {}

        def look(before, after, seat, move, moves, events):
            if not found and want(before, seat, moves):
                found["at"] = (before, seat, moves)

        fluxx_playout.play(game, seed, players=3, on_step=look)
        if found:
            return found["at"]
    raise AssertionError("no such state met")


def test_fluxx_quotes_songs_and_accents_in_the_players_own_words():
    game = KINDS["fluxx"]
    state, seat, moves = _fluxx_state(lambda s, seat, moves: any("quote" in m for m in moves))
    quoted = next(m for m in moves if "quote" in m)
    assert game.offered(state, seat, dict(quoted, quote="It's just a flesh wound.")) is None
    assert game.offered(state, seat, dict(quoted, quote="x" * (MAX_WORDS + 1))) is not None
    state, seat, moves = _fluxx_state(lambda s, seat, moves: all("quote" not in m for m in moves)
                                      and any(m["type"] == "play" for m in moves))
    plain = next(m for m in moves if m["type"] == "play")
    # Without the quote rule open no play lists a quote: none may be sent.
    assert game.offered(state, seat, dict(plain, quote="Ni!")) == "That move has a field the rules do not take: quote."
    state, seat, moves = _fluxx_state(lambda s, seat, moves: any(m["type"] in ("sing", "accent") for m in moves))
    claim = next(m for m in moves if m["type"] in ("sing", "accent"))
    label = "song" if claim["type"] == "sing" else "accent"
    assert game.offered(state, seat, dict(claim, **{label: "Lumberjack", "words": "I'm a lumberjack"})) is None
    assert game.offered(state, seat, dict(claim, words="x" * (MAX_WORDS + 1))) is not None
    assert game.offered(state, seat, dict(claim, words=None)) is not None


def test_fluxx_a_big_decision_takes_any_answer_within_its_bounds():
    game = KINDS["fluxx"]

    def big(state, seat, moves):
        return any(not d["answer"] and d["seat"] == seat and d["pick"] != [1, 1]
                   and not decisions._combinations_at_most(len(d["options"]), *d["pick"], decisions.MAX_LISTED_COMBINATIONS)
                   for d in decisions.top(state))

    state, seat, moves = _fluxx_state(big)
    d = next(d for d in decisions.open_for(state, seat) if d["pick"] != [1, 1])
    least, most = d["pick"]
    values = [o["value"] for o in d["options"]]
    answer = values[::-1][:most]
    move = {"type": "decide", "id": d["id"], "choice": answer}
    assert move not in moves  # only the default is listed
    assert game.offered(state, seat, move) is None
    game.apply(state, seat, move)
    assert game.offered(state, seat, dict(move, choice=values[:1] * most)) is not None
    assert game.offered(state, seat, dict(move, choice=values + ["nonsense"])) is not None


def test_the_duel_lists_every_move_and_types_count():
    game = KINDS["duel"]
    state = game.setup(2, {}, 3)
    seat = state["turn"]
    for move in game.legal_moves(state, seat):
        assert game.offered(state, seat, move) is None
        assert game.offered(state, seat, dict(move, card=float(move["card"]))) == NOT_OPEN
        assert game.offered(state, 1 - seat, move) == NOT_OPEN
    for card in (0, 1):
        if card in state["hands"][seat]:
            assert game.offered(state, seat, {"type": "play", "card": bool(card)}) == NOT_OPEN


# --- the base contract's own moves ------------------------------------------------------------

def test_resigning_and_taking_back_are_offered_by_shape():
    camelot, duel = KINDS["camelot"], KINDS["duel"]
    state = camelot.setup(3, {}, 1)
    assert camelot.offered(state, 0, {"type": "resign"}) is None
    assert camelot.offered(state, 0, {"type": "resign", "timed_out": True}) is not None
    assert camelot.offered(state, 0, {"type": "takeback", "mark": 3}) is None  # apply judges the mark
    for bad in ({"type": "takeback"}, {"type": "takeback", "mark": True}, {"type": "takeback", "mark": "3"},
                {"type": "takeback", "mark": 3, "seat": 1}):
        assert camelot.offered(state, 0, bad) is not None, bad
    old = camelot.setup(3, {"edition": 2}, 1)  # before take-backs: no such move
    assert camelot.offered(old, 0, {"type": "takeback", "mark": 3}) == NOT_OPEN
    assert duel.offered(duel.setup(2, {}, 1), 0, {"type": "takeback", "mark": 1}) == NOT_OPEN
    for bad in ("end_turn", ["resign"], None, {"kind": "resign"}, {"type": 7}):
        assert camelot.offered(state, 0, bad) == "A move must be an object with a 'type'."


def test_nothing_is_offered_once_the_game_is_over():
    duel = KINDS["duel"]
    state = duel.setup(2, {}, 1)
    state, _ = duel.apply(state, 0, {"type": "resign"})
    assert duel.offered(state, 1, {"type": "resign"}) == "The game is over."


def test_offered_never_raises_on_odd_json():
    # A person's move may be any JSON: every kind answers with words, never an exception.
    for kind, game in KINDS.items():
        state = _any_state(kind)
        seat = game.pending(state)[0].seat
        for move in game.legal_moves(state, seat)[:12]:
            for changed in mutations(move):
                for key in list(changed):
                    if key != "type":
                        for odd in ([[1]], {"a": [None]}, [{"b": 2}], -(10 ** 30)):
                            assert isinstance(game.offered(state, seat, dict(changed, **{key: odd})), (str, type(None)))
                assert isinstance(game.offered(state, seat, copy.deepcopy(changed)), (str, type(None)))


def _any_state(kind):
    game = KINDS[kind]
    players = 3 if kind in ("camelot", "cupquest", "fluxx") else 2
    state = game.setup(players, ccg_options(players, 1) if kind == "ccg" else {}, 1)
    for n in range(40):  # a few moves in, stopping short of the end
        seat = game.pending(state)[0].seat
        move, _ = computer.choose_move(game, state, seat, "random", n)
        after, _ = game.apply(state, seat, move)
        if game.outcome(after) is not None:
            break
        state = after
    return state
