"""What a socket's end writes to the log, through a real uvicorn (whose
own "Exception in ASGI application" is what an error escaping the application looks like).
A flood past the socket's limit is one info line saying so; a client that goes away, even
in the middle of being sent something, is no warning (it used to read "the channel layer is
down"); neither is a traceback."""
import asyncio
import json
import logging
import time

import pytest
import websockets

from games.live import consumers
from tests.platform.wsclient import session_cookie

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def _connect(base: str, path: str, cookie: str):
    return websockets.connect(base.replace("http", "ws") + path, origin=base,
                              additional_headers={"Cookie": f"sessionid={cookie}"})


def _settle(caplog, seconds: float = 1.0) -> list[logging.LogRecord]:
    """The records, once the server has finished with the sockets."""
    time.sleep(seconds)
    return [r for r in caplog.records if not r.name.startswith(("websockets", "asyncio"))]


def test_a_flood_is_one_info_line_and_no_traceback(live_asgi, make_match, settings, caplog):
    settings.WS_MESSAGE_BURST, settings.WS_MESSAGES_PER_SECOND = 3, 0.5
    match, (alice, _) = make_match()
    cookie = session_cookie(alice)

    async def scenario():
        async with _connect(live_asgi, f"/ws/matches/{match.pk}/", cookie) as ws:
            version = json.loads(await ws.recv())["data"]["version"]
            for _ in range(50):
                await ws.send(json.dumps({"type": "sync", "version": version}))
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    await ws.recv()
        assert closed.value.rcvd.code == consumers.CLOSE["too_many"]

    with caplog.at_level(logging.INFO):
        asyncio.run(scenario())
        records = _settle(caplog)
    assert not [r for r in records if "Exception in ASGI application" in r.getMessage()]
    assert not [r for r in records if r.exc_info], [r.getMessage() for r in records if r.exc_info]
    said = [r for r in records if r.name == "games.live.consumers" and str(consumers.CLOSE["too_many"]) in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.INFO, [r.getMessage() for r in said]
    assert "Too many messages" in said[0].getMessage() and f"user {alice.id}" in said[0].getMessage()


def test_clients_that_go_away_write_no_warning(live_asgi, make_match, caplog):
    """Pages closed at once, closed while pings are being answered, and dropped without a
    closing handshake (a lost network)."""
    match, (alice, _) = make_match()
    cookie = session_cookie(alice)

    async def scenario():
        for i in range(12):
            ws = await _connect(live_asgi, f"/ws/matches/{match.pk}/", cookie)
            if i % 3:
                await ws.recv()
                for _ in range(5):
                    await ws.send(json.dumps({"type": "ping", "version": 0}))
            if i % 3 == 2:
                ws.transport.abort()  # no closing handshake
            await ws.close()

    with caplog.at_level(logging.DEBUG):
        asyncio.run(scenario())
        records = _settle(caplog)
    loud = [r for r in records if r.levelno >= logging.WARNING and not r.name.startswith("psycopg")]
    assert not loud, [f"{r.name}: {r.getMessage()}" for r in loud]
    assert not [r for r in records if "channel layer is down" in r.getMessage()]
