"""After-commit side effects of a change: push the new version to the match's group and
schedule the fast-path deadline tasks. Group messages carry only ids and versions: each
consumer loads what its own viewer may see."""
from __future__ import annotations

import logging
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.live import publisher
from games.live.publisher import match_group, user_group
from games.table import unit_of_work

log = logging.getLogger(__name__)

# Deadlines further away than this are left to the beat sweep: long ETA tasks sit in worker
# memory and are redelivered late after a worker dies (see docs/architecture.md).
FAST_PATH_HORIZON = timedelta(hours=1)


def match_changed_on_commit(match, seats_to_nudge, *, timers=()) -> None:
    """After commit: nudge the pages of the seats that owe a move, and set a timer on the
    clocks' lane for each seat whose deadline was (re)set by this change (``timers``) and
    falls within the hour. The game pages' frames are published by games/live/frames.py; the
    reminders before the new deadlines are planned by the side lane's sweep, from the seats'
    rows this change wrote (games/inbox/reminders.py)."""
    deadlines = [(s.index, s.deadline) for s in timers]
    user_ids = [s.user_id for s in seats_to_nudge if s.user_id]
    if user_ids:
        unit_of_work.on_commit(partial(_nudge, match.pk, user_ids))
    soon = [(i, d) for i, d in deadlines if d - timezone.now() <= FAST_PATH_HORIZON]
    if soon and settings.TIMERS_USE_CELERY:
        # A Celery send may wait on the broker: never on an event loop (games/table/unit_of_work.py).
        unit_of_work.on_commit(partial(_schedule, match.pk, match.version, soon), blocking=True)


def chat_posted_on_commit(message, line: dict) -> None:
    """After commit, the line itself (``selectors.chat_public``) to the match's group: each
    socket forwards it if its viewer may read that channel, and only its place to a viewer
    who blocked its ``author`` (games/live/consumers.py), without a query of its own."""
    payload = {"type": "chat.message", "id": message.pk, "author": message.user_id, "line": line}
    transaction.on_commit(partial(_group_send, match_group(message.match_id), payload))


def _nudge(match_id: int, user_ids) -> None:
    try:  # one round trip to Redis for every player's nudge
        publisher.group_send_many([(user_group(u), {"type": "user.update", "match": match_id}) for u in user_ids])
    except Exception:  # a dropped nudge is caught up by the page's next fetch
        log.warning("could not nudge the players of match %s", match_id, exc_info=True)


# games/tasks.py's task, named rather than imported: the tasks import the services, which
# import this module.
DEADLINE_TASK = "games.tasks.deadline_fire"


def _schedule(match_id: int, version: int, deadlines) -> None:
    """A Celery task at each of these deadlines (all within FAST_PATH_HORIZON)."""
    from grailsite.celery import app

    for seat_index, deadline in deadlines:
        try:
            app.send_task(DEADLINE_TASK, args=(match_id, seat_index, version, deadline.isoformat()), eta=deadline)
        except Exception:  # the broker is down: the sweep still fires it
            log.warning("could not schedule deadline task for match %s", match_id, exc_info=True)


def _group_send(group: str, payload: dict) -> None:
    try:
        publisher.group_send(group, payload)
    except Exception:  # a dropped push is caught up by version on the client's next fetch
        log.warning("could not push to %s", group, exc_info=True)
