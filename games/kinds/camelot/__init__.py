"""Camelot on the site: the rules' own options (schema form), the board's public data
(views.py, at api/camelot/boards/<name>/) and the table in the browser (static/board.js,
board.css). Two turn-token holders act at once; the shell applies their moves in the
order the server receives them (docs/rules/camelot.md, "On the site").

Each game is set up under the current edition of the rules, stamped into its setup options
(``edition``), so a later change of ruling never changes how a stored game replays
(games/rules/camelot/editions.py; games stored before editions were stamped 1 by migration
games/0010)."""
from django.urls import path

from games.kinds.base import Room
from games.table.lifecycle import Hooks
from games.rules.camelot import Camelot, editions

from . import views
from .guide import GUIDE


def setup_options(match, seats) -> dict:
    """The table options plus the edition of the rules this game is played under: the one its
    commitment named when it was created (a new edition released before the last seat is
    taken does not change it), or the current one for a game not committed."""
    edition = int(match.rules_edition) if match.rules_edition else editions.CURRENT
    return {**(match.options or {}), "edition": edition}


ROOM = Room(
    game=Camelot(),
    hooks=Hooks(setup_options=setup_options),
    urls=[path("api/camelot/boards/<slug:name>/", views.board, name="api_camelot_board")],
    style="board.css",
    guide=GUIDE,
    edition=editions.CURRENT,
)
