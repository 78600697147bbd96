"""The in-process worker of the embedded default (no Redis, no Celery): two daemon threads
that run the same sweeps as Celery beat every few seconds, one a lane, as the production
shape has a worker for each (settings.LANE_QUEUES): the clocks' thread fires turn timers and
makes every computer player's move that is due (each is first tried on a timer thread of its
own after the table's delay: games/table/computers.py); the side thread sends notification
e-mail, reminders and pushes. A slow push service or a long e-mail round only ever holds up
the side thread, never a clock.

Each thread must outlive anything one round hits (a locked database, a rules bug in one
game, a lost connection): each step runs on its own, a failure is logged and the next round
starts afresh with a new connection (Django gives each thread its own)."""
from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.db import close_old_connections, connection

from games.inbox import emails, push, reminders
from games.table import services
from games.tournaments import services as tournaments

log = logging.getLogger(__name__)

LANES = ("clocks", "side")


def _steps(lane: str):
    """What one round of ``lane`` does, in order; each step is tried even when the one before failed."""
    if lane == "clocks":
        return (("deadline sweep", services.deadlines_sweep),
                ("computer moves", services.computer_moves_sweep),
                ("tournaments", tournaments.sweep))
    return (("notification e-mails", emails.notification_emails_send),
            ("reminders", reminders.sweep),
            ("pushes", push.sweep))


def sweep_once(lanes=LANES) -> int:
    """One round of the given lanes, one after the other. Returns how many steps failed."""
    failed = 0
    for lane in lanes:
        lane_failed = 0
        for name, step in _steps(lane):
            try:
                close_old_connections()
                step()
            except Exception:  # noqa: BLE001 - logged; the timers must keep running
                lane_failed += 1
                log.exception("embedded worker: %s failed", name)
                _drop_connection()
        _drop_connection()
        if lane == "clocks" and not lane_failed:  # /readyz (grailsite/health.py): the timers are kept
            from grailsite.health import sweep_done

            sweep_done()
        failed += lane_failed
    return failed


def _drop_connection() -> None:
    # A connection left inside a failed transaction (or broken) would fail every later round.
    try:
        connection.close()
    except Exception:  # noqa: BLE001 - a broken connection may fail to close; a new one opens next time
        log.warning("embedded worker: closing the database connection failed", exc_info=True)


def _loop(stop: threading.Event, interval: float, lane: str) -> None:
    while not stop.wait(interval):
        try:
            sweep_once((lane,))
        except Exception:  # noqa: BLE001 - belt and braces: sweep_once already catches per step
            log.exception("embedded worker: %s round failed", lane)


def start(interval: float | None = None) -> threading.Event:
    """Start one sweep thread a lane; set the returned event to stop them all."""
    stop = threading.Event()
    for lane in LANES:
        threading.Thread(target=_loop, args=(stop, interval or settings.EMBEDDED_SWEEP_SECONDS, lane),
                         name=f"grailsite-{lane}", daemon=True).start()
    return stop
