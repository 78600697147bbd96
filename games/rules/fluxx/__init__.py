"""Monty Python Fluxx: rules that are cards (rules in ``game.py``, deck in ``data/deck.json``)."""
from .game import MontyPythonFluxx

__all__ = ["MontyPythonFluxx"]
