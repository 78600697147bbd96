"""A short constructor for events, so rules modules stay readable."""
from __future__ import annotations

from ..base import Event


def ev(kind: str, text: str, audience=None, data=None, hidden_from=()) -> Event:
    """``hidden_from``: seats that get their own line for the same happening (the owner's
    "You draw Sir Robin." beside everyone else's "Seat 2 draws 1 card.")."""
    return Event(kind, text, audience, data or {}, tuple(hidden_from))
