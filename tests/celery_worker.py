"""A real Celery worker on the Redis broker, in a thread of the test process, for timer
tests (not eager mode), and a polling helper to wait for what it does."""
import time

import pytest
from celery.contrib.testing.worker import start_worker

from grailsite.celery import app


@pytest.fixture
def worker():
    """Purges this run's queue, then runs a solo worker for the test."""
    app.control.purge()
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10) as w:
        yield w


def wait_for(predicate, timeout: float = 15.0) -> bool:
    """Poll ``predicate`` until it holds or ``timeout`` seconds pass."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return False
