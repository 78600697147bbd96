"""Django's PostgreSQL backend, whose connection pool checks a connection on checkout with
``grailsite.dbpool.check_pooled_connection`` (a system call) instead of psycopg_pool's own
check (a round trip to the server on every request and every move).

Django builds the pool itself and passes ``check=`` from ``CONN_HEALTH_CHECKS``, so the
pool's options cannot carry another check; this wrapper builds the pool the same way with
ours. Everything else is Django's backend unchanged (``vendor`` stays "postgresql").
"""
from __future__ import annotations

from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool

from grailsite.dbpool import check_pooled_connection


class DatabaseWrapper(base.DatabaseWrapper):
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
