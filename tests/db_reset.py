"""A faster reset between transactional tests (a plugin of tests/conftest.py).

Tests that need committed rows (threads, the Celery worker, websockets, the live server)
run as Django's TransactionTestCase with ``serialized_rollback``: after each one, ``flush``
empties every table with one TRUNCATE, and before the next, the rows the migrations left
(content types, permissions and the starter card set, some 1,300 rows) are loaded back from
JSON, one ``save()`` at a time. On PostgreSQL the TRUNCATE of every table (each gets new
files) and the JSON reload took about 1.5 s per test, over a hundred tests.

Here the same two steps are done in SQL, with the same outcome:
- flush: DELETE FROM every table in one transaction (the foreign keys Django makes are
  deferred, so the order does not matter; sequences are not reset by either, as before);
- reload: the first reload in a session runs Django's own deserializer, after which the
  tables it filled are copied into a schema of their own (``_migrated``); every later reload
  of the same serialized data copies those rows back with INSERT ... SELECT.

The reload falls back to Django's own when it finds rows already in those tables (then an
INSERT would not be what ``save()`` does), or when asked to load any other data.

And the flush leaves the database as the migrations left it, not empty: the same statement
that empties the tables puts the snapshot's rows back. So no test depends on the order tests
run in (a test on its own transaction, run after a transactional test in the same process,
still finds the starter card set): the suite's processes each run files in whatever order
they are handed them (tests/parallel.py), not Django's "plain tests first". The snapshot is
taken once the test database is made, and the reload that follows such a flush has nothing
left to do.
"""
from __future__ import annotations

import pytest
from django.db import connections, transaction

SNAPSHOT_SCHEMA = "_migrated"


class _Snapshot:
    def __init__(self):
        self.data: str | None = None  # the serialized string the snapshot stands for
        self.tables: list[str] = []
        self.taken = False
        self.in_place = False  # the last flush put the snapshot's rows back


def _quote(connection, name: str) -> str:
    return connection.ops.quote_name(name)


def _install(monkeypatch, connection) -> None:
    """Install the faster flush and reload; take the snapshot at once when the database was
    just made and serialized (its rows are then exactly the migrations')."""
    creation_cls = type(connection.creation)
    ops_cls = type(connection.ops)
    original_deserialize = creation_cls.deserialize_db_from_string
    original_sql_flush = ops_cls.sql_flush
    snapshot = _Snapshot()

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade or not tables:
            snapshot.in_place = False
            return original_sql_flush(self, style, tables, reset_sequences=reset_sequences,
                                      allow_cascade=allow_cascade)
        # flush runs these in one transaction (execute_sql_flush), where deferred foreign
        # keys are checked only at the commit, when every table holds what it will keep.
        statements = [f"DELETE FROM {self.quote_name(t)};" for t in tables]
        if snapshot.taken and set(snapshot.tables) <= set(tables):
            statements += [f"INSERT INTO {self.quote_name(t)} SELECT * FROM {SNAPSHOT_SCHEMA}.{self.quote_name(t)};"
                           for t in snapshot.tables]
            snapshot.in_place = True
        else:
            snapshot.in_place = False
        return statements

    def _all_empty(conn, tables) -> bool:
        with conn.cursor() as cursor:
            for table in tables:
                cursor.execute(f"SELECT EXISTS (SELECT 1 FROM {_quote(conn, table)})")
                if cursor.fetchone()[0]:
                    return False
        return True

    def deserialize_db_from_string(self, data):
        conn = self.connection
        if conn.alias != "default":
            return original_deserialize(self, data)
        same = snapshot.data is not None and (data is snapshot.data or data == snapshot.data)
        if same and snapshot.in_place:
            snapshot.in_place = False  # the flush before this test put the rows back already
            return None
        if same and _all_empty(conn, snapshot.tables):
            with transaction.atomic(using=conn.alias), conn.cursor() as cursor:
                for table in snapshot.tables:
                    cursor.execute(f"INSERT INTO {_quote(conn, table)} "
                                   f"SELECT * FROM {SNAPSHOT_SCHEMA}.{_quote(conn, table)}")
                # As Django's loader does: the foreign keys hold now, not just at the commit.
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
                cursor.execute("SET CONSTRAINTS ALL DEFERRED")
            return None
        result = original_deserialize(self, data)
        if not snapshot.taken:
            _take(conn, data)
        return result

    def _take(conn, data) -> None:
        """Copy every table that holds rows: as the migrations left them, or just after
        Django's own reload of ``data``."""
        tables = conn.introspection.django_table_names(only_existing=True, include_views=False)
        with transaction.atomic(using=conn.alias), conn.cursor() as cursor:
            cursor.execute(f"DROP SCHEMA IF EXISTS {SNAPSHOT_SCHEMA} CASCADE")
            cursor.execute(f"CREATE SCHEMA {SNAPSHOT_SCHEMA}")
            filled = []
            for table in tables:
                cursor.execute(f"SELECT EXISTS (SELECT 1 FROM {_quote(conn, table)})")
                if cursor.fetchone()[0]:
                    cursor.execute(f"CREATE TABLE {SNAPSHOT_SCHEMA}.{_quote(conn, table)} AS "
                                   f"SELECT * FROM {_quote(conn, table)}")
                    filled.append(table)
        snapshot.tables = filled
        snapshot.data = data
        snapshot.taken = True

    monkeypatch.setattr(creation_cls, "deserialize_db_from_string", deserialize_db_from_string)
    monkeypatch.setattr(ops_cls, "sql_flush", sql_flush)
    # The serialized rows, when some test of this run asked for them; the snapshot either way.
    _take(connection, getattr(connection, "_test_serialized_contents", None))


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, with the faster reset installed for the session."""
    connection = connections["default"]
    if connection.vendor != "postgresql":
        yield
        return
    with pytest.MonkeyPatch.context() as monkeypatch:
        with django_db_blocker.unblock():
            _install(monkeypatch, connection)
        yield
