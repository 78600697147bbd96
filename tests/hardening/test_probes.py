"""The probes under faults (grailsite/health.py): /readyz says only whether this process can
serve (its database, its Redis), so beat's sweep running late never takes every web process
out of a balancer at once; the sweep's age is /sweepz's, a metric's and a log line's. Which
check failed and the hosts and ports it asked are told only to the addresses allowed
/metrics; a failing check is one log line, not a traceback."""
from __future__ import annotations

import logging
import socket
import time

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client, override_settings
from prometheus_client import REGISTRY

from games import tasks
from grailsite import health

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

INSIDE, OUTSIDE = "127.0.0.1", "203.0.113.9"


@pytest.fixture
def dead_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def late_sweep():
    cache.set(health.SWEEP_KEY, time.time() - 600, timeout=None)
    health._late_noted = float("-inf")
    yield
    cache.delete(health.SWEEP_KEY)


def get(url: str, address: str, **extra):
    return Client().get(url, REMOTE_ADDR=address, **extra)


def test_a_late_sweep_leaves_every_web_process_ready(late_sweep, caplog):
    with caplog.at_level(logging.WARNING):
        assert get("/readyz", INSIDE, HTTP_ACCEPT="application/json").status_code == 200
        assert get("/readyz", OUTSIDE).status_code == 200
        late = get("/sweepz", INSIDE)
        assert late.status_code == 503
        assert late.json()["fresh"] is False and late.json()["age_seconds"] >= 600
        get("/sweepz", INSIDE)  # asked again: no second warning within the minute
    said = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(said) == 1, [f"{r.name}: {r.getMessage()}" for r in said]
    assert said[0].name == "grailsite.health" and "sweep is late" in said[0].getMessage()


def test_the_sweep_s_age_is_a_metric_read_at_each_scrape(late_sweep):
    assert get("/metrics", INSIDE).status_code == 200
    assert REGISTRY.get_sample_value("grailsite_timers_sweep_age_seconds") >= 600
    tasks.timers_sweep.run()
    page = get("/metrics", INSIDE).content.decode()
    assert REGISTRY.get_sample_value("grailsite_timers_sweep_age_seconds") < 60
    assert "grailsite_timers_sweep_age_seconds" in page
    fresh = get("/sweepz", INSIDE)
    assert fresh.status_code == 200 and fresh.json()["fresh"] is True


def test_the_probes_name_hosts_ports_and_reasons_only_to_allowed_addresses(dead_port):
    down = f"redis://127.0.0.1:{dead_port}/0"
    with override_settings(REDIS_URLS=[settings.REDIS_URL, down]):
        inside = get("/readyz", INSIDE, HTTP_ACCEPT="application/json")
        outside = [get("/readyz", OUTSIDE, HTTP_ACCEPT=accept) for accept in ("application/json", "text/html")]
        outside.append(get("/readyz?format=json", OUTSIDE))
    assert inside.status_code == 503 and str(dead_port) in inside.content.decode()
    for response in outside:
        assert response.status_code == 503
        assert response.content == b"not ready\n", response.content
    assert get("/sweepz", OUTSIDE).content in (b"ok\n", b"late\n")
    assert get("/readyz", OUTSIDE).content == b"ready\n"


def test_through_a_trusted_proxy_the_client_s_address_decides(dead_port):
    down = f"redis://127.0.0.1:{dead_port}/0"
    with override_settings(REDIS_URLS=[settings.REDIS_URL, down], TRUSTED_PROXIES=[INSIDE]):
        from_outside = get("/readyz?format=json", INSIDE, HTTP_X_FORWARDED_FOR=OUTSIDE)
        written_by_client = get("/readyz?format=json", OUTSIDE, HTTP_X_FORWARDED_FOR=INSIDE)
    assert from_outside.content == b"not ready\n" and written_by_client.content == b"not ready\n"


def test_a_failing_readiness_check_is_one_log_line_without_a_traceback(dead_port, caplog):
    down = f"redis://127.0.0.1:{dead_port}/0"
    with caplog.at_level(logging.INFO), override_settings(REDIS_URLS=[settings.REDIS_URL, down]):
        assert get("/readyz", OUTSIDE).status_code == 503
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING and not r.name.startswith("asyncio")]
    assert len(lines) == 1, [f"{r.name}: {r.getMessage()}" for r in lines]
    assert lines[0].name == "health_check" and not lines[0].exc_info and "Traceback" not in caplog.text
    assert str(dead_port) in lines[0].getMessage()  # the log is the operator's: the reason is there
