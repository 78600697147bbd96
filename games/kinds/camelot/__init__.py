"""Camelot on the site: the rules' own options (schema form), the board's public data
(views.py, at api/camelot/boards/<name>/) and the table in the browser (static/board.js,
board.css). Two turn-token holders act at once; the shell applies their moves in the
order the server receives them (docs/rules/camelot.md, "On the site")."""
from django.urls import path

from games.kinds.base import Room
from games.rules.camelot import Camelot

from . import views
from .guide import GUIDE

ROOM = Room(
    game=Camelot(),
    urls=[path("api/camelot/boards/<slug:name>/", views.board, name="api_camelot_board")],
    style="board.css",
    guide=GUIDE,
)
