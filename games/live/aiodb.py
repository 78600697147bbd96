"""PostgreSQL connections for code running on an event loop (games/live/live_moves.py).

Django's connections are synchronous: under ASGI every use costs a hop to a worker thread
and back, which was about a tenth of a move's server time (docs/performance.md). A move
made over a game's websocket talks to PostgreSQL through psycopg's async connection on the
loop instead. This module keeps a few idle ones for each event loop (uvicorn has one a
process; each test has its own), made with the same parameters and type adapters as
Django's connections, so a row reads the same through either.

Connections are checked on checkout as the synchronous pool's are (grailsite/dbpool.py: a
system call for a live one), replaced after ``MAX_LIFETIME`` seconds, and at most
``MAX_SIZE`` are in use on one loop at once: a burst of moves waits for a connection rather
than opening dozens. A connection goes back to the idle ones only when it is open and
outside any transaction; anything else (a broken connection, a task cancelled mid-way)
closes it.
"""
from __future__ import annotations

import asyncio
import contextlib
import os
import re
import time
import weakref

import psycopg
from django.db import connection as django_connection
from psycopg.pq import TransactionStatus

from grailsite.dbpool import may_be_dead

MAX_SIZE = int(os.environ.get("DB_ASYNC_POOL_MAX", "6"))
MAX_LIFETIME = float(os.environ.get("DB_POOL_MAX_LIFETIME", "1800"))


class _LoopPool:
    def __init__(self):
        self.idle: list[tuple[float, psycopg.AsyncConnection]] = []
        self.slots = asyncio.Semaphore(MAX_SIZE)


_pools: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# Every connection made, whichever loop it belongs to, for close_all.
_made: weakref.WeakSet = weakref.WeakSet()


def connection_params() -> dict:
    """Django's own parameters for a new connection (database, credentials, the adapters
    context, the prepare threshold), without its synchronous cursor class."""
    params = dict(django_connection.get_connection_params())
    params.pop("cursor_factory", None)
    params["autocommit"] = True  # transactions are begun and committed by the caller
    params["prepare_threshold"] = None  # run_script prepares its statements itself
    return params


async def _connect() -> psycopg.AsyncConnection:
    conn = await psycopg.AsyncConnection.connect(**connection_params())
    _made.add(conn)
    # As Django's _configure_connection: the session's time zone is the site's.
    wanted = django_connection.timezone_name
    if wanted and conn.info.parameter_status("TimeZone") != wanted:
        await conn.execute("SELECT set_config('TimeZone', %s, false)", [wanted])
    # Plan each prepared statement once: they are lookups by key, whose generic plan is as
    # good as a fresh one, and PostgreSQL otherwise plans the first five runs afresh and
    # keeps doing so when the generic plan's estimate looks worse (array parameters).
    await conn.execute("SET plan_cache_mode = force_generic_plan")
    return conn


@contextlib.asynccontextmanager
async def connection():
    """An async connection of this loop's, for the duration of the block."""
    pool = _pools.get(asyncio.get_running_loop())
    if pool is None:
        pool = _pools[asyncio.get_running_loop()] = _LoopPool()
    async with pool.slots:
        conn = None
        while pool.idle and conn is None:
            born, candidate = pool.idle.pop()
            if time.monotonic() - born > MAX_LIFETIME or may_be_dead(candidate):
                _close(candidate)
            else:
                conn = candidate
        if conn is None:
            born, conn = time.monotonic(), await _connect()
        try:
            yield conn
        finally:
            if _settled(conn):
                pool.idle.append((born, conn))
            else:
                _close(conn)


def _settled(conn: psycopg.AsyncConnection) -> bool:
    """Open and outside any transaction: fit for the next user as it is."""
    return not conn.closed and not conn.broken and conn.info.transaction_status == TransactionStatus.IDLE


def _close(conn: psycopg.AsyncConnection) -> None:
    """Close without awaiting (also from outside any loop): libpq's own close."""
    with contextlib.suppress(Exception):
        conn.pgconn.finish()


def close_all() -> None:
    """Close every connection this module made, on every loop (tests, between tests and
    before their database is dropped; never while a loop is using one)."""
    for pool in list(_pools.values()):
        pool.idle.clear()
    for conn in list(_made):
        _close(conn)


# --- scripts ----------------------------------------------------------------------------

# sql -> the name it is prepared under, for each connection.
_prepared: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_PLACEHOLDER = re.compile(r"%[s%]")


async def run_script(conn: psycopg.AsyncConnection, statements: list[tuple[str, list]], *, begin: bool = False,
                     commit: bool = False) -> list[list[tuple]]:
    """Run ``statements`` ((sql with %s placeholders, parameters) pairs) in one round trip,
    after BEGIN and before COMMIT if asked; return each statement's rows.

    psycopg's pipeline mode sends each statement with a flush and a wait of its own, which
    cost more than the round trips it saves (docs/performance.md). Here the statements go
    as one simple-query message: each SQL is prepared on the connection the first time it
    is used (``PREPARE`` in the same message), so PostgreSQL plans it once per connection,
    and is run with ``EXECUTE``, its parameters written as literals by psycopg's own
    quoting. A statement fails the whole message: the caller rolls back (``roll_back``).

    Behind a pooler in transaction mode (PgBouncer; DB_PREPARE_THRESHOLD=-1 says so) a
    connection's next transaction may be on another server connection, where nothing was
    prepared: the statements are then sent as they are, each planned anew (docs/deploy.md)."""
    names = _prepared.setdefault(conn, {})
    new: dict[str, str] = {}
    parts = ["BEGIN"] if begin else []
    prepare = _prepares()
    if prepare:
        for sql, _ in statements:
            if sql not in names and sql not in new:
                new[sql] = f"grail_{len(names) + len(new)}"
                parts.append(f"PREPARE {new[sql]} AS {_numbered(sql)}")
    first = len(parts)
    quoting = psycopg.AsyncClientCursor(conn)
    for sql, params in statements:
        if not prepare:
            parts.append(quoting.mogrify(sql, params) if params else sql.replace("%%", "%"))
            continue
        name = names.get(sql) or new[sql]
        parts.append(quoting.mogrify(f"EXECUTE {name}({', '.join(['%s'] * len(params))})", params) if params
                     else f"EXECUTE {name}")
    if commit:
        parts.append("COMMIT")
    cur = conn.cursor()
    await cur.execute(";\n".join(parts), prepare=False)
    names.update(new)  # only once the message went through: a failed PREPARE left nothing
    rows: list[list[tuple]] = []
    for i in range(len(parts)):
        if first <= i < first + len(statements):
            rows.append(await cur.fetchall() if cur.description else [])
        if not cur.nextset():
            break
    return rows


async def roll_back(conn: psycopg.AsyncConnection) -> None:
    """End a failed script's transaction, and forget what it may have prepared on the way
    (a failed message can leave some of its PREPAREs done). A connection that cannot be
    rolled back is not reused (``connection`` closes it)."""
    _prepared.pop(conn, None)
    try:
        await conn.execute("ROLLBACK; DEALLOCATE ALL", prepare=False)
    except Exception:  # noqa: BLE001 - broken: ``connection`` will not reuse it
        pass


def _prepares() -> bool:
    """Whether statements may be prepared on a connection for its later transactions: not
    when the prepare threshold is off (settings.py: DB_PREPARE_THRESHOLD=-1, for a pooler in
    transaction mode)."""
    options = django_connection.settings_dict.get("OPTIONS", {})
    return options.get("prepare_threshold", 0) is not None


def _numbered(sql: str) -> str:
    """``%s`` placeholders as ``$1``, ``$2``, ... (and ``%%`` as ``%``), for PREPARE."""
    counter = iter(range(1, 10_000))
    return _PLACEHOLDER.sub(lambda m: "%" if m.group() == "%%" else f"${next(counter)}", sql)
