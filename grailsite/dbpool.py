"""The check a pooled PostgreSQL connection passes before a request gets it.

psycopg_pool's own check (``ConnectionPool.check_connection``, what Django installs when
``CONN_HEALTH_CHECKS`` is on) sends an empty query and waits for the answer: a round trip to
the server on every checkout, which under ASGI is every request and every move. This check
asks the operating system instead. A connection sitting idle in the pool has nothing to
read; a backend that was killed (``pg_terminate_backend``, a server restart or failover)
leaves an error message and end-of-file on its socket, so the socket turns readable. Only
then, or when psycopg already knows the connection is closed, is the full check run, and it
raises, so the pool throws the connection away and hands out another.

What this does not see is a peer that vanished without a word (a cable cut): such a
connection fails its first query, as it would a moment after any check.
"""
from __future__ import annotations

import select

from psycopg_pool import ConnectionPool


def check_pooled_connection(conn) -> None:
    """Raise if ``conn`` is dead (the pool then discards it); cost a system call if alive."""
    if may_be_dead(conn):
        ConnectionPool.check_connection(conn)  # raises for a closed or dead connection


def may_be_dead(conn) -> bool:
    """Whether an idle connection (sync or async) is closed, broken, or has something to read
    (a dead backend's farewell); False, at the cost of one system call, for a live one."""
    if conn.closed or conn.broken:
        return True
    try:
        readable, _, _ = select.select([conn.fileno()], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(readable)
