"""Seeded random games with 3-6 players and random variations, checked at every step.

Every step: no two units on a space; at most five Arthurs a player on the board; pieces
conserved (pool + board + lost = 15 a player, Arthurs never lost); a used spell never comes
back; every item in exactly one place (lying, carried or banked); the move made was
offered; each holder's pending key unchanged by the other holder's moves. Every 25th
step: the state is plain JSON and no view shows the generator. Some games: every listed
move applies and apply leaves its input unchanged; replay from the seed and the move log
equals the final state. Every game ends (a win, a draw, or the turn cap).

The suite plays 75 games; `make deep` (CAMELOT_PLAYOUTS=2000) plays more.
"""
import json
import os
import pickle
import re
from collections import Counter

from games.rules.camelot.items import all_items
from games.rules.camelot.pieces import COUNT, SPELLS

from .helpers import GAME
from .playout import play, random_options, seeking, uniform
from .test_cm_views import check_views

GAMES = int(os.environ.get("CAMELOT_PLAYOUTS", "75"))
# Log lines and prompts name pieces and items in words ("Seat 3's Arthur", "Excalibur"),
# never by the ids the moves carry ("s2-arthur-3", "guardian-1", "gold-4", "excalibur").
RAW_ID = re.compile(r"\bs\d+-[a-z]+-\d+\b|\bguardian-\d+\b|\bgold-\d+\b|\bexcalibur\b|\b(crown|scepter|robe|throne)\b")


def check_invariants(state, spent, deep=False):
    units = state["units"]
    hexes = {u["hex"] for u in units.values()}
    assert len(hexes) == len(units), "two units on one space"
    on_boards = [Counter() for _ in range(state["players"])]
    for u in units.values():
        if u["seat"] is not None:
            on_boards[u["seat"]][u["type"]] += 1
    for seat, on_board in enumerate(on_boards):
        assert on_board["arthur"] <= 5 and state["lost"][seat]["arthur"] == 0
        if state["active"][seat]:
            for kind, n in COUNT.items():
                assert state["pool"][seat][kind] + on_board[kind] + state["lost"][seat][kind] == n, (seat, kind)
        for spell in SPELLS:
            if not state["spells"][seat][spell]:
                spent.add((seat, spell))
            assert (seat, spell) not in spent or not state["spells"][seat][spell], "a spell came back"
    places = [t for v in state["items"].values() for t in v]
    places += [u["carry"] for u in units.values() if u["carry"]]
    places += [t for b in state["banked"] for t in b["items"] + b["coins"]]
    assert sorted(places) == sorted(all_items(state)), "an item is missing or doubled"
    for u in units.values():
        assert u["carry"] is None or (u["type"] != "merlin" and (u["type"] == "arthur" or u["carry"] != "excalibur"))
    if deep:
        assert json.loads(json.dumps(state)) == state


def _checked(seed, players, options, chooser, thorough):
    spent: set = set()
    steps = []
    keys = {}

    def step(before, state, seat, move, moves, events):
        assert move in moves
        assert not any(RAW_ID.search(e.text) for e in events), [e.text for e in events]
        steps.append(move)
        check_invariants(state, spent, deep=len(steps) % 25 == 0)
        now = {p.seat: p.key for p in GAME.pending(state) if p.kind == "turn"}
        for s, k in keys.items():
            if s != seat and s in now:
                assert now[s] == k, "the other holder's move changed a holder's key"
        keys.clear()
        keys.update(now)
        if len(steps) % 25 == 0:
            check_views(state)
        if thorough:
            frozen = pickle.dumps(before)
            for other in moves:
                GAME.apply(before, seat, other)
            assert pickle.dumps(before) == frozen

    return play(GAME, seed, players=players, chooser=chooser, options=options, on_step=step)


def test_random_games_keep_every_invariant_and_end():
    endings = Counter()
    for seed in range(GAMES):
        players = 3 + seed % 4
        options = random_options(seed)
        chooser = uniform if seed % 5 == 0 else seeking
        if chooser is uniform:
            options["turn_cap"] = 60
        final, log = _checked(seed, players, options, chooser, thorough=seed % 75 == 0)
        outcome = GAME.outcome(final)
        assert outcome is not None and final["turn_count"] <= options["turn_cap"]
        endings["draw" if outcome.draw else "won"] += 1
        endings["capped"] += final["turn_count"] >= options["turn_cap"]
        if seed % 15 == 0:
            state = GAME.setup(players, options, seed)
            for seat, move in log:
                state, _ = GAME.apply(state, seat, move)
            assert json.dumps(state, sort_keys=True) == json.dumps(final, sort_keys=True)
    print(f"{GAMES} games: {dict(endings)}")  # shown with -s (the figures in docs/rules/camelot.md)
    assert endings["won"] > 0, endings
