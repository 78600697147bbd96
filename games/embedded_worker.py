"""The in-process worker of the embedded default (no Redis, no Celery): a daemon thread that
runs the same sweep as Celery beat every few seconds, so turn timers still fire and no
computer player's move is lost (each is first tried on a timer thread of its own after the
table's delay: games/table/computers.py).

The thread must outlive anything one round hits (a locked database, a rules bug in one
game, a lost connection): each step runs on its own, a failure is logged and the next
round starts afresh with a new connection."""
from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.db import close_old_connections, connection

from games.inbox import emails, push, reminders
from games.table import services

log = logging.getLogger(__name__)


def _steps():
    """What one round does, in order; each step is tried even when the one before failed."""
    return (("deadline sweep", services.deadlines_sweep),
            ("computer moves", services.computer_moves_sweep),
            ("notification e-mails", emails.notification_emails_send),
            ("reminders", reminders.sweep),
            ("pushes", push.sweep))


def sweep_once() -> int:
    """One round of the embedded worker. Returns how many of its steps failed."""
    failed = 0
    for name, step in _steps():
        try:
            close_old_connections()
            step()
        except Exception:  # noqa: BLE001 - logged; the timers must keep running
            failed += 1
            log.exception("embedded worker: %s failed", name)
            _drop_connection()
    _drop_connection()
    if not failed:  # /readyz (grailsite/health.py): the timers are being kept
        from grailsite.health import sweep_done

        sweep_done()
    return failed


def _drop_connection() -> None:
    # A connection left inside a failed transaction (or broken) would fail every later round.
    try:
        connection.close()
    except Exception:  # noqa: BLE001 - a broken connection may fail to close; a new one opens next time
        log.warning("embedded worker: closing the database connection failed", exc_info=True)


def _loop(stop: threading.Event, interval: float) -> None:
    while not stop.wait(interval):
        try:
            sweep_once()
        except Exception:  # noqa: BLE001 - belt and braces: sweep_once already catches per step
            log.exception("embedded worker: round failed")


def start(interval: float | None = None) -> threading.Event:
    """Start the sweep thread; set the returned event to stop it."""
    stop = threading.Event()
    thread = threading.Thread(target=_loop, args=(stop, interval or settings.EMBEDDED_SWEEP_SECONDS),
                              name="grailsite-sweep", daemon=True)
    thread.start()
    return stop
