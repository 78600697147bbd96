"""Monty Python and the Holy Grail CCG: cards, effects and the rules engine (pure Python)."""
