"""Cup Quest on the site: the rules' own options, an SVG board (static/board.js, board.css)."""
from games.kinds.base import Room
from games.rules.cupquest import CupQuest

from .guide import GUIDE

ROOM = Room(game=CupQuest(), style="board.css", guide=GUIDE)
