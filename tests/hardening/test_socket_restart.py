"""A websocket reconnect during a rolling restart gets a clean refusal or a clean connect,
never a 500 (grailsite/ws_protocol.py).

During a rolling restart 6 of 99 reconnects were answered "HTTP 500". uvicorn, told to
stop, shuts every connection down at once, and answered a socket still in its handshake
500: the site was still reading the session, which takes longer when the database is slow.
Here a real uvicorn, with the websocket protocol web.sh gives it, stops while a handshake
waits for a database connection (every connection of the pool is held), and the handshake
is answered 503 with Retry-After, nothing escapes the application, and nothing is logged as
an error."""
from __future__ import annotations

import asyncio
import logging
import re
import socket
import threading
import time
from pathlib import Path

import pytest
import uvicorn
import websockets
from django.db import connection

from tests.hardening.test_database_outage import pooled  # noqa: F401 (fixture)
from tests.platform.wsclient import session_cookie

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

WEB_SH = Path(__file__).resolve().parents[2] / "grailsite" / "deploy" / "web.sh"


def web_sh_ws_protocol() -> str:
    """The websocket protocol the deployment's web processes run (web.sh's --ws)."""
    found = re.search(r"--ws (\S+)", WEB_SH.read_text())
    assert found, "web.sh names no websocket protocol"
    return found.group(1)


@pytest.fixture
def stoppable_server():
    """The site served by uvicorn in a thread of this process, as web.sh configures its
    websockets; yields (base URL, server) and stops it if the test did not."""
    from grailsite.asgi import application

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(application, host="127.0.0.1", port=port, log_config=None,
                                           lifespan="off", ws=web_sh_ws_protocol(), ws_per_message_deflate=False,
                                           timeout_graceful_shutdown=10))
    thread = threading.Thread(target=server.run, name="stoppable-asgi", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}", server
    server.should_exit = True
    thread.join(timeout=15)


def test_a_handshake_caught_by_a_restart_is_refused_503_not_500(pooled, stoppable_server, make_match, caplog):
    base, server = stoppable_server
    match, (alice, _) = make_match()
    cookie = session_cookie(alice)
    connection.close()
    held = [pooled.getconn() for _ in range(pooled.max_size)]  # the database is slow: no connection free

    async def reconnect():
        try:
            async with websockets.connect(base.replace("http", "ws") + f"/ws/matches/{match.pk}/", origin=base,
                                          additional_headers={"Cookie": f"sessionid={cookie}"},
                                          open_timeout=10):
                return "connected", None
        except websockets.InvalidStatus as exc:
            return exc.response.status_code, exc.response.headers.get("Retry-After")

    async def scenario():
        attempt = asyncio.ensure_future(reconnect())
        await asyncio.sleep(1)  # the handshake waits for a database connection
        server.should_exit = True  # SIGTERM: a rolling restart reaches this process
        return await attempt

    try:
        with caplog.at_level(logging.INFO):
            answer = asyncio.run(scenario())
    finally:
        for conn in held:
            pooled.putconn(conn)
    time.sleep(1)  # the application finishes its connect, to find the client gone
    assert answer == (503, "1"), answer
    records = [r for r in caplog.records if not r.name.startswith(("websockets", "asyncio"))]
    assert not [r for r in records if "Exception in ASGI application" in r.getMessage()]
    assert not [r for r in records if r.levelno >= logging.ERROR], [r.getMessage() for r in records]


def test_an_open_socket_is_still_closed_1012_by_a_restart(stoppable_server, make_match):
    base, server = stoppable_server
    match, (alice, _) = make_match()
    cookie = session_cookie(alice)

    async def scenario():
        async with websockets.connect(base.replace("http", "ws") + f"/ws/matches/{match.pk}/", origin=base,
                                      additional_headers={"Cookie": f"sessionid={cookie}"}) as ws:
            await ws.recv()
            server.should_exit = True
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    await ws.recv()
            return closed.value.rcvd.code

    assert asyncio.run(scenario()) == 1012
