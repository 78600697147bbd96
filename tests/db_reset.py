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
"""
from __future__ import annotations

import pytest
from django.db import connections, transaction

SNAPSHOT_SCHEMA = "_migrated"


class _Snapshot:
    def __init__(self):
        self.data: str | None = None  # the serialized string the snapshot stands for
        self.tables: list[str] = []


def _quote(connection, name: str) -> str:
    return connection.ops.quote_name(name)


def _install(monkeypatch, connection) -> None:
    creation_cls = type(connection.creation)
    ops_cls = type(connection.ops)
    original_deserialize = creation_cls.deserialize_db_from_string
    original_sql_flush = ops_cls.sql_flush
    snapshot = _Snapshot()

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade or not tables:
            return original_sql_flush(self, style, tables, reset_sequences=reset_sequences,
                                      allow_cascade=allow_cascade)
        # flush runs these in one transaction (execute_sql_flush), where deferred foreign
        # keys are checked only at the commit, when every table is empty.
        return [f"DELETE FROM {self.quote_name(t)};" for t in tables]

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
        if snapshot.data is not None and (data is snapshot.data or data == snapshot.data) and _all_empty(conn, snapshot.tables):
            with transaction.atomic(using=conn.alias), conn.cursor() as cursor:
                for table in snapshot.tables:
                    cursor.execute(f"INSERT INTO {_quote(conn, table)} "
                                   f"SELECT * FROM {SNAPSHOT_SCHEMA}.{_quote(conn, table)}")
                # As Django's loader does: the foreign keys hold now, not just at the commit.
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
                cursor.execute("SET CONSTRAINTS ALL DEFERRED")
            return None
        result = original_deserialize(self, data)
        if snapshot.data is None:
            _take(conn, data)
        return result

    def _take(conn, data) -> None:
        """Copy every table that holds rows just after Django's own reload."""
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

    monkeypatch.setattr(creation_cls, "deserialize_db_from_string", deserialize_db_from_string)
    monkeypatch.setattr(ops_cls, "sql_flush", sql_flush)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, with the faster reset installed for the session."""
    connection = connections["default"]
    if connection.vendor != "postgresql":
        yield
        return
    with pytest.MonkeyPatch.context() as monkeypatch:
        _install(monkeypatch, connection)
        yield
