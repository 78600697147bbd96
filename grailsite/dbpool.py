"""The check a pooled PostgreSQL connection passes before a request gets it, and the pool
that runs it (``ConnectionPool``, below: what it does when connections die).

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

import contextlib
import logging
import select
from time import monotonic

import django.db
import psycopg
import psycopg_pool
from psycopg_pool.base import AttemptWithBackoff

# What a database that cannot be reached, or that dropped the connection mid-way, raises
# (Django's wrappers and psycopg's own, as the async path sees them). A request or a move
# that meets one is refused with a 503 to retry (``UNAVAILABLE``), never a 500: a retried
# move with the same key is made once, whether or not its first COMMIT got through.
DATABASE_DOWN = (django.db.OperationalError, django.db.InterfaceError, psycopg.OperationalError,
                 psycopg.InterfaceError)
UNAVAILABLE = "The database is unavailable for a moment: try again."
RETRY_AFTER = 1  # seconds; the pool retries a failed connect at least this often


def check_pooled_connection(conn) -> None:
    """Raise if ``conn`` is dead (the pool then discards it); cost a system call if alive."""
    if may_be_dead(conn):
        psycopg_pool.ConnectionPool.check_connection(conn)  # raises for a closed or dead connection


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


class ConnectionPool(psycopg_pool.ConnectionPool):
    """psycopg_pool's pool, quick to notice and to get over a server that dropped its
    connections (a restart, a failover, ``pg_terminate_backend``).

    psycopg_pool, finding a dead connection on checkout, sleeps before trying the next one,
    1, 2, 4, 8 s..., and retries a failed connect on the same growing back-off: after every
    backend was killed, a request that met the pool's dead connections one by one slept for
    ~15 s and then failed on the 20 s timeout, and service came back 21–24 s after the kills
    stopped. Here:

    * the first dead connection found on checkout sends every idle connection through the
      same check (a system call each), so the dead ones go at once, and the request takes
      the next one without sleeping; if the connection it gets next is dead too, the server
      is dropping connections right now, and the request fails at once;
    * a failed connect fails the requests waiting for a connection at once, instead of
      leaving them to the pool's timeout, and for a second after it a request that finds no
      idle connection fails at once too; the error reaches them as ``OperationalError``,
      which the site answers with a 503 to retry (``grailsite.middleware``). Not when the
      server said it is full (``max_connections``): a connection in use may come back;
    * a failed connect is tried again after at most ``RETRY_MAX`` seconds, not on a back-off
      that has grown to many seconds by the time the server answers again.
    """

    RETRY_MAX = 0.5
    _refused_at: float | None = None  # when the last connect failed, until one succeeds

    def _getconn_with_check_loop(self, deadline: float):
        failed = False
        while True:
            refused_at = self._refused_at
            if refused_at is not None and monotonic() - refused_at < 2 * self.RETRY_MAX and not self._pool:
                # The next connect is at most RETRY_MAX away and would most likely fail as
                # the last did: say so now rather than hold the request until then.
                raise psycopg.OperationalError("the database refused a connection a moment ago")
            conn = self._getconn_unchecked(deadline - monotonic())
            try:
                self._check_connection(conn)
            except Exception as exc:
                self._putconn(conn, from_getconn=True)
                if failed:
                    raise psycopg.OperationalError("the database is dropping connections") from exc
                failed = True
                self._discard_dead_idle()
                continue
            except BaseException:
                self._putconn(conn, from_getconn=True)  # as psycopg_pool: keep it, but stop
                raise
            return conn

    def _discard_dead_idle(self) -> None:
        """Take the idle connections that fail the check out of the pool; each is replaced
        as any dead one is (``_return_connection`` schedules a new connection)."""
        with self._lock:
            idle = list(self._pool)
            dead = [conn for conn in idle if may_be_dead(conn)]
            for conn in dead:
                self._pool.remove(conn)
        for conn in dead:
            with contextlib.suppress(Exception):
                psycopg_pool.ConnectionPool.check_connection(conn)  # marks it broken
            conn.close()  # the pool must see it closed, whatever the check found
            self._putconn(conn, from_getconn=True)

    def _connect(self, timeout: float | None = None):
        try:
            conn = super()._connect(timeout)
        except Exception as exc:
            if not _server_full(exc):
                self._refused_at = monotonic()
                self._fail_waiting(exc)
            raise
        self._refused_at = None
        return conn

    def _fail_waiting(self, exc: Exception) -> None:
        with self._lock:
            while self._waiting:
                self._waiting.popleft().fail(exc)

    def _add_connection(self, attempt, growing: bool = False) -> None:
        super()._add_connection(attempt or _QuickRetry(timeout=self.reconnect_timeout), growing)


def _server_full(exc: Exception) -> bool:
    """Whether a failed connect was refused for want of a free slot (``max_connections``);
    psycopg gives a connect's error no SQLSTATE, so the server's words tell."""
    text = str(exc)
    return "too many clients" in text or "remaining connection slots" in text


class _QuickRetry(AttemptWithBackoff):
    """A connect's retries, at most ``ConnectionPool.RETRY_MAX`` seconds apart."""

    def update_delay(self, now: float) -> None:
        super().update_delay(now)
        self.delay = min(self.delay, ConnectionPool.RETRY_MAX)


class _OncePerInterval(logging.Filter):
    """psycopg_pool logs a warning for every failed connect; with retries every half second
    for each lost connection, an outage would write dozens of lines a second per process.
    One such line per ``interval`` seconds says as much."""

    def __init__(self, prefix: str, interval: float = 10.0):
        super().__init__()
        self.prefix, self.interval, self.last = prefix, interval, float("-inf")

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith(self.prefix):
            return True
        now = monotonic()
        if now - self.last < self.interval:
            return False
        self.last = now
        return True


logging.getLogger("psycopg.pool").addFilter(_OncePerInterval("error connecting"))
