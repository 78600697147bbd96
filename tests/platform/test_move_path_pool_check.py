"""The pooled connection check (grailsite/dbpool.py): a live connection passes without a
round trip to the server, a connection whose backend was killed is refused, so the pool
hands out another instead of failing the request."""
import os
import time

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from grailsite.dbpool import check_pooled_connection

# The server's maintenance database: the check does not care which database a connection uses.
URL = make_conninfo(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/grailsite"), dbname="postgres")


@pytest.fixture
def conn():
    c = psycopg.connect(URL, autocommit=True)
    yield c
    c.close()


def _backend_alive(conn) -> bool:
    with psycopg.connect(URL, autocommit=True) as other:
        return other.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [conn.info.backend_pid]).fetchone()[0] == 1


def test_a_live_connection_passes_without_a_round_trip(conn, monkeypatch):
    conn.execute("SELECT 1")
    sent = []
    real_execute = psycopg.Connection.execute
    monkeypatch.setattr(psycopg.Connection, "execute", lambda self, *a, **k: sent.append(a) or real_execute(self, *a, **k))
    for _ in range(3):
        check_pooled_connection(conn)
    assert sent == []
    assert conn.execute("SELECT 41 + 1").fetchone()[0] == 42


def test_a_connection_whose_backend_was_killed_is_refused(conn):
    pid = conn.info.backend_pid
    with psycopg.connect(URL, autocommit=True) as other:
        assert other.execute("SELECT pg_terminate_backend(%s)", [pid]).fetchone()[0] is True
    deadline = time.monotonic() + 5
    while _backend_alive(conn) and time.monotonic() < deadline:
        time.sleep(0.02)
    with pytest.raises(psycopg.OperationalError):
        check_pooled_connection(conn)


def test_a_closed_connection_is_refused(conn):
    conn.close()
    with pytest.raises(psycopg.OperationalError):
        check_pooled_connection(conn)
