"""What a web process writes to its log, run as the deployment runs it (grailsite/deploy/web.sh,
JSON lines, one line a request, INFO): every HTTP request once (it was logged twice, by
``uvicorn.access`` and ``grailsite.request``); a flood of refused websocket handshakes a
line every few seconds with their count (every refusal wrote a line: 16,000 in 20 s), the
counts adding up to every refusal, a flood's tail included; a failing readiness check one
line, without a traceback."""
from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import websockets

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def web_process(db, tmp_path_factory):
    """web.sh on a free port, on the test database, its channel layer on this run's Redis and
    a second shard that does not answer (so /readyz has a check that fails)."""
    from django.conf import settings

    from tests.browser_fixtures import _database_url, _free_port

    port, dead = _free_port(), _free_port()
    env = dict(os.environ, DATABASE_URL=_database_url(), DJANGO_SETTINGS_MODULE="tests.live_settings",
               GRAILSITE_CHANNEL_PREFIX=settings.CHANNEL_PREFIX, ALLOWED_HOSTS="127.0.0.1",
               LOG_FORMAT="json", LOG_REQUESTS="1", LOG_LEVEL="INFO", HOST="127.0.0.1", PORT=str(port),
               HANDSHAKE_LOG_SECONDS="1",
               REDIS_URLS=f"{settings.REDIS_URL},redis://127.0.0.1:{dead}/0",
               PATH=f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}")
    env.pop("GRAILSITE_TEST_DB", None)
    log = tmp_path_factory.mktemp("web") / "web.log"
    proc = subprocess.Popen([str(ROOT / "grailsite/deploy/web.sh")], cwd=ROOT, env=env, stdout=log.open("w"),
                            stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()[-2000:]
            time.sleep(0.2)
    yield f"http://127.0.0.1:{port}", log, dead
    proc.terminate()
    proc.wait(timeout=30)


def lines_after(log: Path, offset: int) -> list[dict]:
    time.sleep(0.5)  # what the process still has to write
    text = log.read_text()[offset:]
    out = []
    for line in text.splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            out.append({"message": line, "not_json": True})
    return out


def test_every_request_is_one_line(web_process):
    import httpx

    base, log, _ = web_process
    offset = len(log.read_text())
    for _ in range(3):
        assert httpx.get(f"{base}/healthz?n=1", timeout=10).status_code == 200
    about = [line for line in lines_after(log, offset) if "/healthz" in json.dumps(line)]
    assert len(about) == 3, about
    assert {line["logger"] for line in about} == {"grailsite.request"}


def test_a_flood_of_refused_handshakes_is_a_line_or_two(web_process):
    base, log, _ = web_process
    offset = len(log.read_text())

    async def flood():
        refused = 0
        for _ in range(150):
            try:
                async with websockets.connect(base.replace("http", "ws") + "/ws/me/", origin="http://evil.example"):
                    pass
            except websockets.InvalidStatus as exc:
                refused += exc.response.status_code == 403
        return refused

    started = time.monotonic()
    assert asyncio.run(flood()) == 150
    took = time.monotonic() - started

    def said():
        return [line for line in lines_after(log, offset) if "WebSocket" in line["message"] or "handshake" in
                line["message"]]

    def counted():
        return sum(refused_counts([line["message"] for line in said()]))

    # The flood's tail is written when the interval (1 s here) ends, though no refusal follows.
    wait_for(lambda: counted() >= 150, timeout=10)
    lines = said()
    assert counted() == 150, [line["message"] for line in lines]
    assert 2 <= len(lines) <= 2 + took, [line["message"] for line in lines]
    assert lines[0]["message"].startswith("websocket handshakes refused: 1 after a quiet spell")
    assert all(not line.get("not_json") and line["logger"] == "uvicorn.error" for line in lines)


class Lines(logging.Handler):
    def __init__(self):
        super().__init__()
        self.said: list[str] = []

    def emit(self, record):
        self.said.append(record.getMessage())


def refused_counts(said: list[str]) -> list[int]:
    return [int(re.match(r"websocket handshakes refused: (\d+) ", line).group(1)) for line in said]


@pytest.fixture
def handshake_logger():
    """A logger of its own with the web process's filter on it, its interval short (0.2 s)."""
    from grailsite.logs import HandshakeLines

    logger = logging.getLogger(f"test.handshakes.{time.monotonic_ns()}")
    lines, counted = Lines(), HandshakeLines()
    counted.refusals.interval = 0.2
    logger.addFilter(counted)
    logger.addHandler(lines)
    logger.propagate, logger.level = False, logging.INFO
    yield logger, lines.said
    counted.refusals.reset()


def wait_for(condition, timeout: float = 5.0) -> None:
    end = time.monotonic() + timeout
    while not condition() and time.monotonic() < end:
        time.sleep(0.02)


def test_a_flood_of_refused_handshakes_is_counted_in_full_though_nothing_follows_it(handshake_logger):
    """150 refusals then silence: the first is said at once, the other 149 when the interval
    ends (they were never said when no later refusal came to write them)."""
    logger, said = handshake_logger
    for i in range(150):
        logger.info('%s - "WebSocket %s" 403', f"10.0.0.{i % 7}:5000", "/ws/me/")
    assert refused_counts(said) == [1]  # at once, the rest only counted
    wait_for(lambda: sum(refused_counts(said)) >= 150)
    time.sleep(0.5)  # two intervals more: nothing else is written once it is quiet
    assert sum(refused_counts(said)) == 150 and len(said) == 2, said
    assert said[0].startswith("websocket handshakes refused: 1 after a quiet spell (the last from 10.0.0.0:5000")
    assert said[1].startswith("websocket handshakes refused: 149 in the last 0.2 s (the last from 10.0.0.2:5000 to /ws/")


def test_refusals_that_go_on_are_a_line_an_interval_and_add_up(handshake_logger):
    logger, said = handshake_logger
    end, sent = time.monotonic() + 0.7, 0
    while time.monotonic() < end:  # about three and a half intervals of refusals
        logger.info('%s - "WebSocket %s" %d', "10.0.0.1:5000", "/ws/me/", 403)
        sent += 1
        time.sleep(0.005)
    wait_for(lambda: sum(refused_counts(said)) >= sent)
    time.sleep(0.5)
    assert sum(refused_counts(said)) == sent, (sent, said)
    assert 3 <= len(said) <= 6, said  # the first, then one an interval; not one a refusal
    # After a quiet spell, the next refusal is said at once again.
    logger.info('%s - "WebSocket %s" 403', "10.0.0.1:5000", "/ws/me/")
    assert refused_counts(said)[-1] == 1 and len(said) <= 7


def test_a_failing_readiness_check_is_one_line_without_a_traceback(web_process):
    import httpx

    base, log, dead = web_process
    offset = len(log.read_text())
    assert httpx.get(f"{base}/readyz", timeout=20).status_code == 503
    lines = lines_after(log, offset)
    loud = [line for line in lines if line.get("level") in ("WARNING", "ERROR", "CRITICAL") or line.get("not_json")]
    assert len(loud) == 1, loud
    assert loud[0]["logger"] == "health_check" and str(dead) in loud[0]["message"]
    assert "Traceback" not in log.read_text()[offset:] and "exc_info" not in loud[0]
