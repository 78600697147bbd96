"""The MPHG CCG on the site: decks and antes from collections (hooks.py), the table's options
and each player's deck (forms.py), the preset operation of the API (api.py), the board (static/)."""
from games.kinds.base import Room
from games.table.lifecycle import Hooks
from games.rules.ccg.game import MPHGGame

from . import api, forms, hooks
from .guide import GUIDE

ROOM = Room(
    game=MPHGGame(),
    hooks=Hooks(setup_options=hooks.setup_options, on_start=hooks.on_start, on_finish=hooks.on_finish,
                on_abandon=hooks.on_abandon, after_move=hooks.after_move, allowance=hooks.allowance,
                auto_move=hooks.auto_move),
    table_form=forms.TableOptionsForm,
    seat_form=forms.DeckChoiceForm,
    api=api.router,
    style="board.css",
    guide=GUIDE,
)
