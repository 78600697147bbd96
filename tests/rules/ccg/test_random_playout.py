"""Seeded games of random legal moves between 2, 3 and 4 players.

Players who are not asked to act now and then interject a face-up play (4.1).
Every step: the state given to ``apply`` is left as it was, every card is in exactly one place, the ante only grows (by doublings), the
seat that must act has a legal move. Every game ends (or reaches the turn cap), replays
from its move log to the same state, and its views never show a hidden card.

The default run plays a few dozen games per table size; `make deep` (CCG_PLAYOUTS=1000) is the
long run (thousands of games; see docs/rules/ccg.md for the last figures).
"""
import json
import os
import pickle
import re

import pytest

from games.rules.ccg import disputes as D
from games.rules.ccg import moves_check, moves_listing, places
from games.rules.ccg import state as S
from games.rules.ccg.game import ante_result
from games.rules.rng import Rng

from . import cards_for_tests as T
from .helpers import GAME, assert_every_card_once, join, new_game, place_rt, set_area, starter_decks
from .test_views import _hidden_ids, _shown_ids

GAMES = int(os.environ.get("CCG_PLAYOUTS", "10"))
MAX_MOVES = 5000
RAW_AREA_REF = re.compile(r"\b(E\d+|A)\.\d+\b")  # "E1.6": events name areas in words


def _decks(players, kind):
    if kind == "starter":
        sd = starter_decks()
        if sd is None:
            pytest.skip("starter decks not yet in games/rules/ccg/data")
        return [sd[i % 2] for i in range(players)]
    return [T.test_deck() for _ in range(players)]


def _check_views(state):
    viewers = list(range(state["n"])) + [None]
    together = GAME.views_for(state, viewers)  # what the shell asks for: built in one go
    assert list(together) == viewers
    for seat in viewers:
        v = GAME.view_for(state, seat)
        assert not _shown_ids(v) & _hidden_ids(state, seat)
        # The same view, key for key and in the same order, as built for that seat alone.
        assert json.dumps(together[seat]) == json.dumps(v)


def _check_narrow_listings(state):
    """Checking a move lists only moves of its kind (and card, and area): that narrow
    listing must hold the full listing's moves of that kind and nothing else, for every seat."""
    for seat in range(state["n"]):
        full = [moves_check.canonical(m) for m in GAME.legal_moves(state, seat)]
        groups: dict = {}
        for m in full:
            groups.setdefault((m["type"], m.get("card"), m.get("to")), []).append(m)
        for same in groups.values():
            narrow = moves_listing.candidates(state, seat, same[0])
            assert all(m in narrow for m in same), same[0]
            assert all(m in full for m in narrow), same[0]


def _check_every_listed_move_applies(state):
    """Every move listed for a seat is accepted exactly as listed (a
    run-away carries its shout, a face-up play its quote), so an API client's loop of
    "take a listed move, post it" never meets a refusal."""
    for seat in range(state["n"]):
        for move in GAME.legal_moves(state, seat):
            _, events = GAME.apply(state, seat, move)  # IllegalMove fails the test, naming the move
            assert not any("not read out properly" in e.text for e in events), move


def _check_places_and_passes(state, events):
    """Two Round Tables never share an area (FAQ 9: also not in Avalon, however
    they got there: a move, a run away by choice, by a song or by a timeout); an
    adversary's "outwitted" pass lasts only while the Round Table that won it stays (7.4);
    and a Round Table entering the area of an adversary it once outwitted meets it again
    (7.1), by combat when it has combat and wits (7.5)."""
    held = [q["pos"] for q in state["p"] if not q["out"] and q["pos"] is not None]
    assert len(held) == len(set(held)), f"two Round Tables in one area: {held}"
    for a in [a for q in state["p"] for a in q["england"]] + state["avalon"]:
        for foe, seat in a["ow"]:
            assert state["p"][seat]["pos"] == a["ref"], "an outwitted pass outlived the visit"
    entered = {e.data["seat"]: e.data["to"] for e in events if e.kind == "move" and e.data}
    for seat, to in entered.items():
        if to is None or state["p"][seat]["pos"] != to or state["p"][seat]["out"]:
            continue
        barring = places.blocking_foes(state, seat)
        for foe in S.up_iids(S.peek_area(state, to)):
            if foe in state["outwitted"] and S.ctype(state, foe) in ("adversary", "peril"):
                assert foe in barring, "an adversary outwitted before was walked past"
                combat, _ = D.foe_stats(state, foe)
                if combat is not None:
                    assert D.methods_for(state, seat, foe) in (["combat"], []), "outwitted twice (7.5)"


def playout(players, seed, decks, views=False, double=False, start=None):
    """A game of random legal moves from set-up (or from the arranged state ``start``)."""
    opts = {"decks": decks, "collection_sizes": [seed % 3, 1, 2, 0][:players], "double_the_ante": double}
    state = GAME.setup(players, opts, seed) if start is None else start
    rng = Rng({"seed": seed * 7919 + players, "n": 0})
    log = []
    ante = list(state["ante"])
    while GAME.outcome(state) is None:
        assert len(log) < MAX_MOVES, "a game ran past the move guard"
        pend = GAME.pending(state)
        assert pend, "nobody must act in an unfinished game"
        seat = pend[rng.below(len(pend))].seat
        moves = GAME.legal_moves(state, seat)
        assert moves, f"seat {seat} must act ({pend}) but has no legal move"
        if rng.below(6) == 0:
            # Now and then another player interjects a face-up play (4.1 "at any time").
            other = rng.below(players)
            extra = GAME.legal_moves(state, other) if other not in {p.seat for p in pend} else []
            if extra:
                seat, moves = other, extra
        move = moves[rng.below(len(moves))]  # exactly as listed: the listing carries the words
        before = pickle.dumps(state)
        previous = state
        state, events = GAME.apply(state, seat, move)
        assert pickle.dumps(previous) == before, "apply changed the state it was given"
        log.append((seat, move))
        assert not any(RAW_AREA_REF.search(e.text) for e in events), [e.text for e in events]
        assert_every_card_once(state)
        _check_places_and_passes(state, events)
        assert state["ante"][:len(ante)] == ante, "an ante card left the ante"
        grown = len(state["ante"]) - len(ante)
        assert grown == 0 or any(e.kind == "ante" for e in events)
        ante = list(state["ante"])
        if views:
            _check_views(state)
            _check_narrow_listings(state)
            if len(log) % 4 == 0:
                _check_every_listed_move_applies(state)
    assert state["tn"] <= state["opts"]["turn_cap"] + 1
    res = ante_result(state)
    assert sorted(c["iid"] for c in res["cards"]) == sorted(state["ante"])
    return opts, state, log


def replay(players, seed, opts, log):
    state = GAME.setup(players, opts, seed)
    for seat, move in log:
        state, _ = GAME.apply(state, seat, move)
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("kind", ["starter", "test"])
def test_random_games_keep_every_invariant(players, kind):
    decks = _decks(players, kind)
    count = GAMES if kind == "starter" else max(5, GAMES // 3)
    for seed in range(count):
        opts, final, log = playout(players, seed, decks, views=seed % 8 == 0, double=seed % 2 == 1)
        assert GAME.outcome(final) is not None
        if seed % 4 == 0:
            again = replay(players, seed, opts, log)
            assert json.dumps(again, sort_keys=True) == json.dumps(final, sort_keys=True)
        assert json.loads(json.dumps(final)) == final  # plain JSON data throughout


def _crowded_avalon(players, seed):
    """Every Round Table already in Avalon, each having come from an area another one now
    holds, with adversaries about: random play from here runs away (by choice, by song,
    to and from the top two areas) where FAQ 9 and 7.5 are easiest to break."""
    state = new_game(players, seed=seed)
    foes = ["black-knight", "bridgekeeper", "vicious-chicken-of-bristol", "moor", "moor"]
    for i, a in enumerate(state["avalon"]):
        set_area(state, a["ref"], [foes[i % len(foes)]], owner=i % players)
    for seat in range(players):
        join(state, seat, "lancelot")
        join(state, seat, "bedevere")
        place_rt(state, seat, f"A.{seat}", came_from=f"A.{(seat + 1) % players}")
    return state


@pytest.mark.parametrize("players", [2, 3])
def test_random_games_from_a_crowded_avalon_keep_every_invariant(players):
    decks = [T.test_deck() for _ in range(players)]
    for seed in range(max(6, GAMES // 2)):
        _, final, _ = playout(players, seed, decks, views=seed % 3 == 0, start=_crowded_avalon(players, seed))
        assert GAME.outcome(final) is not None


JUNK = [{"type": "play", "card": "x"}, {"type": "play", "card": 10 ** 6, "use": "primary"}, {"type": "move", "to": 5},
        {"type": "move", "to": "E9.9"}, {"type": "fight", "foe": None}, {"type": "cut", "at": -1},
        {"type": "choose", "option": {"a": 1}}, {"type": "discard", "card": [1]}, {"type": "accept"},
        {"type": "end_turn", "double": "yes"}, {"type": "nonsense"}, {"type": "pass", "extra": 1},
        {"type": "run_away", "to": "A.99", "shout": "Run away! Run away!"}, {"type": "use", "card": -1}]


@pytest.mark.parametrize("players", [2, 3])
def test_junk_moves_are_refused_with_a_reason_and_change_nothing(players):
    from games.rules.base import IllegalMove
    decks = [T.test_deck() for _ in range(players)]
    opts, final, log = playout(players, 3, decks)
    state = GAME.setup(players, opts, 3)
    for i, (seat, move) in enumerate(log[:120]):
        if i % 10 == 0:
            before = json.dumps(state, sort_keys=True)
            for junk in JUNK:
                for s in range(players):
                    if junk in GAME.legal_moves(state, s):
                        continue
                    with pytest.raises(IllegalMove) as err:
                        GAME.apply(state, s, junk)
                    assert err.value.reason
            assert json.dumps(state, sort_keys=True) == before
        state, _ = GAME.apply(state, seat, move)
