"""Browser fixtures: a real ASGI server (uvicorn with the web processes' websocket protocol, as
production runs it: HTTP and websockets) on the test database, driven by Playwright's Python
package in Debian's Chromium. Shared by every test folder."""
from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _database_url() -> str:
    db = settings.DATABASES["default"]
    user = db.get("USER") or "postgres"
    auth = f"{user}:{db['PASSWORD']}@" if db.get("PASSWORD") else f"{user}@"
    return f"postgres://{auth}{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


def wait_listening(port: int, proc, log: Path, timeout: float = 60) -> None:
    """Wait until something listens on ``port``; fail with the end of ``log`` if ``proc``
    exits first or ``timeout`` seconds pass."""
    end = time.monotonic() + timeout
    while True:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        tail = log.read_text(errors="replace")[-3000:] if log.exists() else ""
        assert proc.poll() is None, f"{proc.args[0]} exited: {tail}"
        assert time.monotonic() < end, f"nothing listens on {port} after {timeout} s: {tail}"
        time.sleep(0.2)


def start_server(log_path: Path, **extra_env) -> tuple[str, subprocess.Popen, object]:
    """The site served on the test database by uvicorn as grailsite/deploy/web.sh starts it
    (its websocket protocol; uvloop and httptools, which cost the suite less CPU than Daphne
    did: docs/performance.md): (its URL, the process, its open log file). ``extra_env`` adds
    to or replaces the server's settings."""
    port = _free_port()
    env = dict(os.environ, DATABASE_URL=_database_url(), DJANGO_SETTINGS_MODULE="tests.live_settings",
               GRAILSITE_CHANNEL_PREFIX=settings.CHANNEL_PREFIX, ALLOWED_HOSTS="127.0.0.1,localhost",
               EMAIL_BACKEND="django.core.mail.backends.console.EmailBackend",
               # Every browser test signs people up from 127.0.0.1: the per-address limits
               # would hold the suite back, and are tested on their own (tests/hardening).
               RATE_SIGNUP_IP="100000/h", RATE_LOGIN_IP="100000/m", **extra_env)
    env.pop("GRAILSITE_TEST_DB", None)
    log = open(log_path, "w")
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "grailsite.asgi:application", "--host", "127.0.0.1",
                             "--port", str(port), "--ws", "grailsite.ws_protocol:WebSocketProtocol",
                             "--ws-per-message-deflate", "false", "--no-access-log", "--lifespan", "off",
                             "--timeout-graceful-shutdown", "5"],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    # A loaded machine (the suite runs several processes per core) can take a while to import.
    wait_listening(port, proc, log_path, timeout=90)
    return f"http://127.0.0.1:{port}", proc, log


@pytest.fixture(scope="session")
def live_url(django_db_setup, tmp_path_factory):
    """Base URL of the site's server on the test database (started once per session)."""
    url, proc, log = start_server(tmp_path_factory.mktemp("server") / "server.log")
    yield url
    proc.terminate()
    proc.wait(timeout=10)
    log.close()


class _SharedChromium:
    """One Chromium for each run of consecutive browser tests (launching Playwright's driver
    and Chromium cost about a second a test).

    Playwright's sync API keeps an event loop that every sync call leaves marked as running
    in this thread. While it is marked, Django's connections are context-local ones, not the
    test's own, so the database steps between tests (the reset) must not run then: after each
    test the mark is taken off (``pause``), and put back before the next test's first call
    (``resume``). After the last of a run of browser tests the browser is closed and the loop
    ends, as it did when each test had its own."""

    def __init__(self):
        self.manager = None
        self.browser = None

    def get(self):
        if self.browser is None:
            from playwright.sync_api import sync_playwright

            self.manager = sync_playwright()
            playwright = self.manager.start()
            try:
                self.browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
                    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage"])
            except BaseException:
                manager, self.manager = self.manager, None
                manager.__exit__()
                raise
        else:
            self.resume()
        return self.browser

    def resume(self):
        asyncio._set_running_loop(self.manager._loop)

    def pause(self):
        asyncio._set_running_loop(None)

    def stop(self):
        if self.browser is None:
            return
        self.resume()
        try:
            self.browser.close()
        finally:
            self.browser = None
            manager, self.manager = self.manager, None
            manager.__exit__()


_CHROMIUM = _SharedChromium()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item, nextitem):
    """Close the shared Chromium once the next test does not use it (or none is left)."""
    if nextitem is None or "browser" not in getattr(nextitem, "fixturenames", ()):
        _CHROMIUM.stop()


@pytest.fixture
def browser(monkeypatch):
    """Chromium through Playwright's sync API, shared by consecutive browser tests (see
    _SharedChromium); each test makes its own contexts (``new_page``), so nothing else is shared."""
    # Our own ORM calls in browser tests are synchronous, beside that loop.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium.")
    yield _CHROMIUM.get()
    _CHROMIUM.pause()


@pytest.fixture
def new_page(transactional_db, django_db_serialized_rollback, browser):
    """Make pages in fresh browser contexts (one per person); closed after the test.

    ``browser`` comes last so it is torn down first: while Playwright's loop runs, Django's
    context-local connections differ, and the serialized-rollback flush must not run there."""
    contexts = []

    def make(width: int = 1200, height: int = 900):
        context = browser.new_context(viewport={"width": width, "height": height})
        # Generous: four processes share two cores with their servers and browsers.
        context.set_default_timeout(30000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
    # The test's own ORM calls ran beside Playwright's loop on a connection of their own;
    # close it so the test database can be dropped at the end.
    from django.db import connections

    connections.close_all()


@pytest.fixture
def own_server(tmp_path, new_page):
    """Start a server of the test's own on the test database (``own_server(**env)`` gives its
    URL and process), for a test that must stop it or needs settings of its own (the session's
    server stays up for the others). ``new_page`` first: it brings the database."""
    started = []

    def start(**extra_env):
        url, proc, log = start_server(tmp_path / f"server-{len(started)}.log", **extra_env)
        started.append((proc, log))
        return url, proc

    yield start
    for proc, log in started:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:  # a socket it waits on to close: it goes anyway
                proc.kill()
                proc.wait(timeout=10)
        log.close()


@pytest.fixture
def page(new_page):
    return new_page()
