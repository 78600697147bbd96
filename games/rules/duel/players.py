"""Grail Duel computer players (see games/rules/computer.py for how they are called).

The higher total of laid cards wins and every card laid is replaced from the deck, so the
knight simply lays its highest card each turn: a card kept back is worth nothing at the end.
What it draws does not depend on what it lays, so no player can do better; against the
random level it still wins only about three games in four (74.9% of 1,000 in
bench/computer_players.py, 4.7% drawn): the rest is the deal.
"""
from __future__ import annotations

from ..computer import random_move
from ..rng import Rng


def random_level(view: dict, legal: list[dict], rng: Rng) -> dict:
    return random_move(legal, rng)


def knight(view: dict, legal: list[dict], rng: Rng) -> dict:
    return max(legal, key=lambda m: m.get("card", -1))


LEVELS = {"random": random_level, "knight": knight}
