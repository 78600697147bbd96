"""Tom Jolly's Camelot: two turn holders at once on a hex board (rules in ``game.py``,
the board in ``boards/standard.json``, every digital choice in docs/rules/camelot.md)."""
from .board import board_public
from .game import Camelot

__all__ = ["Camelot", "board_public"]
