"""Monty Python Fluxx on the site: the rules' own options (turn limit, late joiners), the
public card data its faces are drawn from (faces.py, served by views.py), and the table in
the browser (static/board.js, board.css)."""
from django.urls import path

from games.kinds.base import Room
from games.rules.fluxx import MontyPythonFluxx

from . import views
from .guide import GUIDE

ROOM = Room(
    game=MontyPythonFluxx(),
    urls=[path("api/fluxx/cards/", views.cards, name="api_fluxx_cards")],
    style="board.css",
    guide=GUIDE,
)
