"""Waking a bot's event stream: after a change that may start, end or offer it a game, a
message with no content goes to each concerned person's events group; an open event stream
(``streams.event_stream``) then reads what it needs and says what changed. Nobody's stream
open: one PUBLISH that nobody hears."""
from __future__ import annotations

import logging
from functools import partial

from games.live import publisher
from games.models import Match
from games.table import unit_of_work

log = logging.getLogger(__name__)


def events_group(user_id: int) -> str:
    return f"bot-events-{user_id}"


def _wake(user_ids) -> None:
    try:
        publisher.group_send_many([(events_group(u), {"type": "bot.wake"}) for u in sorted(set(user_ids))])
    except Exception:  # the stream's own periodic check catches up
        log.warning("could not wake the event streams of %s", user_ids, exc_info=True)


def _wake_on_commit(user_ids) -> None:
    ids = [u for u in user_ids if u]
    if ids:
        unit_of_work.on_commit(partial(_wake, ids))


def noticed(user_ids) -> None:
    """A notice went to these people: an invitation among others."""
    _wake_on_commit(user_ids)


def shown(match, seats, record=None) -> None:
    """A change without a move (a start, a join, a decline) or one that ended the game."""
    if record is None or match.status in Match.ENDED:
        _wake_on_commit([*(s.user_id for s in seats), *match.__dict__.get("_left_user_ids", ())])


def finished(match, seats) -> None:
    _wake_on_commit(s.user_id for s in seats)


def aborted(match, seats, seat) -> None:
    _wake_on_commit(s.user_id for s in seats)
