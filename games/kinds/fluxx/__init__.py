"""Monty Python Fluxx on the site: the rules' own options (turn limit, late joiners), the
public card data its faces are drawn from (faces.py, served by views.py), and the table in
the browser (static/board.js, board.css)."""
from django.urls import path

from games.kinds.base import Room
from games.table.lifecycle import Hooks
from games.rules.fluxx import MontyPythonFluxx
from games.rules.fluxx.cards import CURRENT
from games.rules.fluxx.free_actions import JUDGED, ON_LANDING

from . import views
from .guide import GUIDE


def setup_options(match, seats) -> dict:
    """The table's options, the deck it is dealt from, how its quotes are weighed and when a
    flung Keeper completes a Goal: the current ones, written down so that the game replays
    under them after any changes (docs/rules/fluxx.md, Decks, Physical acts, The Catapult)."""
    return {**match.options, "deck": CURRENT, "quotes": JUDGED, "fling": ON_LANDING}


ROOM = Room(
    game=MontyPythonFluxx(),
    urls=[path("api/fluxx/cards/", views.cards, name="api_fluxx_cards")],
    style="board.css",
    guide=GUIDE,
    hooks=Hooks(setup_options=setup_options),
)
