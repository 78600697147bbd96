"""Monty Python Fluxx on the site: the rules' own options (turn limit, late joiners), the
public card data its faces are drawn from (faces.py, served by views.py), and the table in
the browser (static/board.js, board.css)."""
from django.urls import path

from games.kinds.base import Room
from games.lifecycle import Hooks
from games.rules.fluxx import MontyPythonFluxx
from games.rules.fluxx.cards import CURRENT

from . import views
from .guide import GUIDE


def setup_options(match, seats) -> dict:
    """The table's options and the deck it is dealt from: the current one, written down so
    that the game replays from it after the current deck changes (docs/rules/fluxx.md, Decks)."""
    return {**match.options, "deck": CURRENT}


ROOM = Room(
    game=MontyPythonFluxx(),
    urls=[path("api/fluxx/cards/", views.cards, name="api_fluxx_cards")],
    style="board.css",
    guide=GUIDE,
    hooks=Hooks(setup_options=setup_options),
)
