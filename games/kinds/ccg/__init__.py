"""The MPHG CCG on the site: decks and antes from collections (hooks.py), the table's options
and each player's deck (forms.py), the preset endpoint (views.py), the board (static/)."""
from django.urls import path

from games.kinds.base import Room
from games.lifecycle import Hooks
from games.rules.ccg.game import MPHGGame

from . import forms, hooks, views
from .guide import GUIDE

ROOM = Room(
    game=MPHGGame(),
    hooks=Hooks(setup_options=hooks.setup_options, on_start=hooks.on_start, on_finish=hooks.on_finish,
                on_abandon=hooks.on_abandon, after_move=hooks.after_move, allowance=hooks.allowance,
                auto_move=hooks.auto_move),
    table_form=forms.TableOptionsForm,
    seat_form=forms.DeckChoiceForm,
    urls=[path("api/matches/<int:match_id>/ccg/preset/", views.preset, name="api_ccg_preset")],
    style="board.css",
    guide=GUIDE,
)
