"""One happening, one line for each viewer (words, not internals): the owner of
a draw reads "You draw Sir Robin." and not also "Seat 2 draws 1 card."; everyone else reads
the count. Camelot says a win by bringing Excalibur home once, not "brings Excalibur home."
and then "brought Excalibur home."."""
from __future__ import annotations

import copy
import random

import pytest

from games.rules.camelot.game import Camelot
from games.rules.ccg.game import MPHGGame
from games.rules.cupquest.game import CupQuest
from games.rules.fluxx.game import MontyPythonFluxx
from games.rules.duel.game import GrailDuel
from tests.rules.camelot.helpers import BOARD, play, put, table
from tests.rules.ccg import cards_for_tests as T

GAMES = [(GrailDuel(), 2, {}), (MontyPythonFluxx(), 3, {}), (CupQuest(), 3, {}), (Camelot(), 4, {}),
         (MPHGGame(), 2, {"decks": [T.test_deck() for _ in range(2)], "collection_sizes": [100, 99],
                          "double_the_ante": True})]


def _twice_for(events, seat) -> list[list[str]]:
    """Pairs where ``seat`` gets a line of its own (audience: that seat) and also a line for
    everyone of the same kind that speaks of it in the third person ("Seat 2 draws ...")."""
    seen = [e for e in events if e.visible_to(seat)]
    own_kinds = {e.kind for e in seen if e.audience is not None}
    return [[x.text for x in seen if x.kind == e.kind] for e in seen
            if e.audience is None and e.kind in own_kinds and e.text.startswith(f"Seat {seat + 1} ")]


@pytest.mark.parametrize("game,players,options", GAMES, ids=[g.kind for g, _, _ in GAMES])
def test_no_viewer_reads_one_happening_twice(game, players, options):
    checked = 0
    for seed in range(10):
        state, rng = game.setup(players, options, seed), random.Random(seed)
        for _ in range(400):
            pending = game.pending(state)
            if game.outcome(state) is not None or not pending:
                break
            seat = rng.choice(pending).seat
            state, events = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
            for viewer in range(players):
                assert _twice_for(events, viewer) == [], viewer
            checked += len(events)
    assert checked > 100


def test_a_ccg_draw_is_one_line_for_the_drawer_and_a_count_for_the_others():
    from tests.rules.ccg.helpers import new_game
    from games.rules.ccg import turns

    state, events = new_game(players=2, seed=3), []
    turns.draw_cards(state, 1, 2, events)
    mine = [e.text for e in events if e.visible_to(1)]
    theirs = [e.text for e in events if e.visible_to(0)]
    assert len(mine) == 2 and all(t.startswith("You draw ") for t in mine)
    assert theirs == ["Seat 2 draws 2 cards."]


def test_bringing_excalibur_home_is_said_once():
    state = table(3)
    state = copy.deepcopy(state)
    home = state["entries"][0]
    beside = next(h for h in BOARD.adjacent[home] if h in BOARD.enterable
                  and h not in {u["hex"] for u in state["units"].values()})
    unit = put(state, 0, "arthur", beside, carry="excalibur")
    _, events = Camelot().apply(state, 0, {"type": "move", "unit": unit, "to": home})
    texts = [e.text for e in events]
    assert sum("Excalibur home" in t for t in texts) == 1, texts
    assert texts[-1] == "Seat 1 wins."
    assert Camelot().outcome(play(state, 0, {"type": "move", "unit": unit, "to": home})).reason == \
        "Seat 1 brought Excalibur home."
