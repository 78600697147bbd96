"""Django's PostgreSQL backend, with two changes:

* its connection pool checks a connection on checkout with
  ``grailsite.dbpool.check_pooled_connection`` (a system call) instead of psycopg_pool's
  own check (a round trip to the server on every request and every move), and is
  ``grailsite.dbpool.ConnectionPool``, which gets over dead connections without sleeping
  and fails a request at once when it cannot connect;
* a statement psycopg ran as a prepared statement (the move path's, games/table/persistence.py)
  is logged with its SQL (placeholders and all) rather than as None, so query logs and the
  tests' query counts see it.

Django builds the pool itself and passes ``check=`` from ``CONN_HEALTH_CHECKS``, so the
pool's options cannot carry another check; this wrapper builds the pool the same way with
ours. Everything else is Django's backend unchanged (``vendor`` stays "postgresql").
"""
from __future__ import annotations

from django.db.backends.postgresql import base, operations

from grailsite.dbpool import ConnectionPool, check_pooled_connection


class DatabaseOperations(operations.DatabaseOperations):
    def last_executed_query(self, cursor, sql, params):
        # psycopg keeps no query text for a statement it ran by its prepared name.
        return super().last_executed_query(cursor, sql, params) or sql


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations

    @property
    def pool(self):
        options = self.settings_dict["OPTIONS"].get("pool")
        if self.alias != base.NO_DB_ALIAS and options and self.alias not in self._connection_pools:
            kwargs = self.get_connection_params()
            kwargs["autocommit"] = True  # as Django's: it sets autocommit itself later
            pool = ConnectionPool(kwargs=kwargs, open=False, configure=self._configure_connection,
                                  check=check_pooled_connection, **({} if options is True else options))
            # setdefault: two threads building the first pool at once keep the same one.
            self._connection_pools.setdefault(self.alias, pool)
        return super().pool
