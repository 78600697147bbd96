"""A short constructor for events, so rules modules stay readable."""
from __future__ import annotations

from ..base import Event


def ev(kind: str, text: str, audience=None, data=None) -> Event:
    return Event(kind, text, audience, data or {})
