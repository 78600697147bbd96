"""Checking a move: it must be one of the listed moves of its kind (so listing and applying
can never disagree); a refused move raises ``IllegalMove`` with the reason in words."""
from __future__ import annotations

from ..base import IllegalMove
from . import moves_explain, moves_listing


_EXTRA_KEYS = ("quote", "shout")


def canonical(move):
    return {k: v for k, v in move.items() if k not in _EXTRA_KEYS and not (k == "double" and v is False)}


def check(state, seat, move):
    want = canonical(move)
    if want not in moves_listing.candidates(state, seat, move):
        raise IllegalMove(moves_explain.why_illegal(state, seat, move))
