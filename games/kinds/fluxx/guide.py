"""How Monty Python Fluxx explains itself (games/kinds/base.py, Guide): the rules page is
templates/fluxx/rules.html beside this file. It speaks of card types, never of single cards:
the deck's list is data (games/rules/fluxx/data/) and may change."""
from games.kinds.base import Guide

GUIDE = Guide(
    summary="The card game whose rules change as you play: every card you play can change how many "
            "cards you draw and play, or what it takes to win.",
    goal="Meet the Goal card in play (there is none at the start, and it changes as the game goes on).",
)
