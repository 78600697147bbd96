"""The in-process worker of the embedded default (no Redis, no Celery): a daemon thread that
runs the same sweep as Celery beat every few seconds, so turn timers still fire."""
from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.db import close_old_connections

log = logging.getLogger(__name__)


def _loop(stop: threading.Event, interval: float) -> None:
    from games import emails, services

    while not stop.wait(interval):
        close_old_connections()
        try:
            services.deadlines_sweep()
            emails.notification_emails_send()
        except Exception:  # keep the site's timers alive whatever one sweep hit
            log.exception("embedded sweep failed")
        finally:
            close_old_connections()


def start(interval: float | None = None) -> threading.Event:
    """Start the sweep thread; set the returned event to stop it."""
    stop = threading.Event()
    thread = threading.Thread(target=_loop, args=(stop, interval or settings.EMBEDDED_SWEEP_SECONDS),
                              name="grailsite-sweep", daemon=True)
    thread.start()
    return stop
