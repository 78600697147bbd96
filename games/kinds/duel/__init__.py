"""Grail Duel, the platform's smallest game: its room needs only the rules and a board script."""
from games.kinds.base import Room
from games.rules.duel import GrailDuel

from .guide import GUIDE

ROOM = Room(game=GrailDuel(), guide=GUIDE)
