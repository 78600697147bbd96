"""Cup Quest: the race for the Grail on a hex map (rules in ``game.py``)."""
from .game import CupQuest

__all__ = ["CupQuest"]
