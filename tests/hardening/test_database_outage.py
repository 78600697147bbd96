"""PostgreSQL connections that die (a restart, a failover), and a
database that refuses connections for a while, on PostgreSQL with the site's own pool (as
in production) and through the real Channels layer.

The faults are made on this run's own test database only: its backends are terminated
(``pg_terminate_backend`` filtered by its name), and "down" is ``ALLOW_CONNECTIONS false``
on it, which refuses every new connection to it (superusers' too) while the shared server
goes on serving everyone else's."""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time

import psycopg
import pytest
from asgiref.sync import sync_to_async
from django.db import connection, connections
from django.test import Client
from psycopg import sql
from psycopg.conninfo import make_conninfo

from games.live import aiodb, consumers
from tests.hardening.conftest import assert_json_error
from tests.platform.wsclient import communicator, next_state, session_cookie

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

ADMIN = make_conninfo(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/grailsite"),
                      dbname="postgres")
# A request that meets a dead pool or a refusing server answers within this (seconds).
QUICK = 1.5


def kill_backends(name: str) -> int:
    """Terminate every backend of database ``name`` (this run's test database), and wait
    until they are gone."""
    with psycopg.connect(ADMIN, autocommit=True) as admin:
        killed = admin.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                               "WHERE datname = %s AND pid <> pg_backend_pid()", [name]).fetchone()[0]
        deadline = time.monotonic() + 5
        while admin.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [name]).fetchone()[0]:
            assert time.monotonic() < deadline, "backends still alive 5 s after pg_terminate_backend"
            time.sleep(0.02)
    return killed


@contextlib.contextmanager
def database_down(name: str):
    """The database refuses new connections and has lost every one it had, until the block ends."""
    allow = sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS {}")
    with psycopg.connect(ADMIN, autocommit=True) as admin:
        admin.execute(allow.format(sql.Identifier(name), sql.SQL("false")))
    try:
        kill_backends(name)
        yield
    finally:
        with psycopg.connect(ADMIN, autocommit=True) as admin:
            admin.execute(allow.format(sql.Identifier(name), sql.SQL("true")))


def close_every_threads_connections() -> None:
    """Close this thread's connections and those of the thread where sockets' synchronous
    database work runs (asgiref's one thread-sensitive thread, which lives as long as the
    process). The fixture below changes the connection settings at run time: a connection
    opened under the old ones (a direct one, which cannot go back to a pool; a pooled one,
    after the pool is gone) must not be found by the next test."""
    connections.close_all()
    asyncio.run(sync_to_async(connections.close_all, thread_sensitive=True)())


@pytest.fixture
def pooled():
    """The site's connection pool on the default database for this test, as production has it
    (a shorter timeout than production's 20 s, so the failures before the fix are quick)."""
    close_every_threads_connections()
    options = connection.settings_dict["OPTIONS"]
    options["pool"] = {"min_size": 4, "max_size": 4, "timeout": 5}
    pool = connection.pool
    pool.open(wait=True, timeout=10)
    yield pool
    aiodb.close_all()
    close_every_threads_connections()
    connection.close_pool()
    options.pop("pool")


def _get(client, url, token):
    started = time.monotonic()
    response = client.get(url, HTTP_AUTHORIZATION=f"Token {token}")
    return response, time.monotonic() - started


def test_after_every_backend_is_killed_the_next_requests_wait_for_nothing(pooled, make_match, api_token):
    """Item 6: the pool's four idle connections are all dead; one client's next requests each
    get a live connection at once (psycopg_pool slept 0, 1, 2, 4 s going through them)."""
    match, (alice, _) = make_match()
    token, url, client = api_token(alice), f"/api/matches/{match.pk}/", Client()
    assert _get(client, url, token)[0].status_code == 200
    connection.close()
    assert kill_backends(connection.settings_dict["NAME"]) >= 4
    times = []
    for _ in range(6):
        response, elapsed = _get(client, url, token)
        assert response.status_code == 200, response.content[:200]
        times.append(elapsed)
    assert max(times) < QUICK, times


def test_a_database_that_refuses_connections_fails_requests_at_once_with_json_then_recovers(
        pooled, make_match, api_token, caplog):
    """Item 6: while the database refuses connections, a request is answered 503 in JSON with
    Retry-After at once (not after the pool's timeout, not the HTML 500 page, not with a
    traceback in the log); once it accepts them again, service is back within a second."""
    match, (alice, _) = make_match()
    token, url, client = api_token(alice), f"/api/matches/{match.pk}/", Client()
    assert _get(client, url, token)[0].status_code == 200
    connection.close()
    with caplog.at_level(logging.WARNING), database_down(connection.settings_dict["NAME"]):
        for _ in range(3):
            response, elapsed = _get(client, url, token)
            assert assert_json_error(response, 503)["code"] == "unavailable"
            assert response["Retry-After"] == "1"
            assert elapsed < QUICK, elapsed
        page = client.get("/")
        assert page.status_code == 503 and page["Content-Type"].startswith("text/plain")
    reopened = time.monotonic()
    while _get(client, url, token)[0].status_code != 200:
        assert time.monotonic() - reopened < QUICK, "not recovered within a second and a half"
        time.sleep(0.05)
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged for an outage"
    assert any("database unavailable" in r.getMessage() for r in caplog.records)


def test_a_websocket_opened_while_the_database_refuses_is_closed_with_1013_at_once(pooled, make_match):
    """Items 6 and 11: the handshake is answered at once with 1013 (the page retries), not
    left to time out nor failed with "Exception in ASGI application"."""
    match, (alice, _) = make_match()
    cookie = session_cookie(alice)
    connection.close()

    async def scenario():
        ws = communicator(f"/ws/matches/{match.pk}/", cookie)
        started = time.monotonic()
        connected, code = await ws.connect(timeout=10)
        if connected:
            closed = await ws.receive_output(timeout=10)
            code = closed.get("code")
        assert code == consumers.CLOSE["try_later"]
        assert time.monotonic() - started < QUICK

    with database_down(connection.settings_dict["NAME"]):
        asyncio.run(scenario())
    aiodb.close_all()


def test_a_socket_move_while_the_database_is_down_is_refused_at_once_and_can_be_sent_again(
        pooled, make_match, caplog):
    """Item 7: the move is answered at once with a refusal to retry (503, "unavailable"), the
    socket stays open, and the same move with the same key is made once the database is back."""
    match, (alice, _) = make_match()
    cookie = session_cookie(alice)
    name = connection.settings_dict["NAME"]
    connection.close()
    move = {"type": "play", "card": match.state["hands"][0][0]}

    async def opened():
        """The socket and its first frame. A pooled connection the previous test's outage
        killed may still be handed out once: the page is told to try later (1013) and
        reconnects, as a page does."""
        for _ in range(20):
            ws = communicator(f"/ws/matches/{match.pk}/", cookie)
            assert (await ws.connect())[0]
            first = await ws.receive_output(timeout=10)
            if first["type"] == "websocket.send":
                return ws, json.loads(first["text"])["data"]
            assert first.get("code") == consumers.CLOSE["try_later"], first
            await asyncio.sleep(0.1)
        raise AssertionError("the socket never opened")

    async def scenario():
        ws, data = await opened()
        with database_down(name):
            started = time.monotonic()
            await ws.send_json_to({"type": "move", "move": move, "version": data["version"], "key": "k1"})
            answer = json.loads(await ws.receive_from(timeout=10))
            assert time.monotonic() - started < QUICK
            assert answer["type"] == "refused" and answer["key"] == "k1", answer
            assert answer["status"] == 503 and answer["error"]["code"] == "unavailable", answer
            assert answer["retry_after"] == 1
        for _ in range(40):  # until the pool has reconnected
            await ws.send_json_to({"type": "move", "move": move, "version": data["version"], "key": "k1"})
            answer = json.loads(await ws.receive_from(timeout=10))
            while answer["type"] not in ("ack", "refused"):
                answer = json.loads(await ws.receive_from(timeout=10))
            if answer["type"] == "ack" or answer["error"]["code"] != "unavailable":
                break
            await asyncio.sleep(0.1)
        assert answer["type"] == "ack" and answer["version"] == data["version"] + 1, answer
        await ws.disconnect()

    with caplog.at_level(logging.WARNING):
        asyncio.run(scenario())
    tracebacks = [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.exc_info]
    assert not tracebacks, tracebacks  # an outage is a warning line, not an error's traceback
    assert any("socket move" in r.getMessage() and "database is unavailable" in r.getMessage()
               for r in caplog.records)


def test_a_full_server_leaves_waiting_requests_to_connections_in_use(pooled, monkeypatch):
    """A connect refused because the server has no free slot (max_connections) does not fail
    the waiting requests as a refusing database does: a connection in use comes back to them."""
    import threading

    from grailsite.dbpool import ConnectionPool

    pool = ConnectionPool(kwargs=connection.get_connection_params() | {"autocommit": True}, min_size=1,
                          max_size=2, timeout=5, open=True)
    try:
        pool.wait(timeout=10)
        held = pool.getconn()

        def full(*args, **kwargs):
            raise psycopg.OperationalError("connection failed: FATAL:  sorry, too many clients already")

        monkeypatch.setattr(pool.connection_class, "connect", full)
        threading.Timer(0.5, pool.putconn, [held]).start()
        started = time.monotonic()
        got = pool.getconn()  # waits, the pool tries to grow and is refused, then gets ``held``
        assert got is held and 0.4 < time.monotonic() - started < 3
        pool.putconn(got)
    finally:
        pool.close()
