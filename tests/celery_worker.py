"""A real Celery worker on the Redis broker, in a thread of the test process, for timer
tests (not eager mode), and a polling helper to wait for what it does."""
import time

import pytest
from celery.contrib.testing.worker import start_worker

from grailsite.celery import app


def purge_lanes() -> None:
    """Both lanes' queues emptied, whichever a worker of this process last consumed from (a
    worker of one lane narrows the app's own list of queues to that lane, and a purge
    follows that list)."""
    from django.conf import settings

    app.amqp.queues.select(list(settings.LANE_QUEUES.values()))
    app.control.purge()


@pytest.fixture
def worker():
    """Purges this run's queues, then runs a solo worker of both lanes for the test (the lanes
    apart are tests/platform/test_lanes.py's business)."""
    from django.conf import settings

    purge_lanes()
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10,
                      queues=list(settings.LANE_QUEUES.values())) as w:
        yield w


def wait_for(predicate, timeout: float = 15.0) -> bool:
    """Poll ``predicate`` until it holds or ``timeout`` seconds pass."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return False
