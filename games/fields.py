"""Model fields of the shell.

``StateField`` holds a game's state. On PostgreSQL it is a ``json`` column compressed with
lz4, not Django's ``jsonb``: the site never queries inside a state, it writes the whole
state on every move and reads it whole, and for a 60 KB CCG state jsonb's conversion to
and from its binary form (plus pglz) cost PostgreSQL 11 ms an update and 1.4 ms a read,
against 4 ms and 0.5 ms for json with lz4 (docs/performance.md, 2026-11-25). On other
databases (SQLite for ``make run``) it is Django's JSONField as it is.
"""
from __future__ import annotations

import json

import orjson
import psycopg.types.json
from django.db import models

# psycopg decodes json columns itself (Django hands only jsonb over as text): through orjson.
psycopg.types.json.set_json_loads(orjson.loads)


def json_text(value) -> str | None:
    """JSON text for a column (None stays SQL NULL): orjson, or the standard library for what
    orjson refuses (an integer beyond 64 bits). The move path writes through it too."""
    if value is None:
        return None
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"))


class StateField(models.JSONField):
    def db_type(self, connection):
        return "json" if connection.vendor == "postgresql" else super().db_type(connection)

    def get_db_prep_value(self, value, connection, prepared=False):
        if connection.vendor != "postgresql":
            return super().get_db_prep_value(value, connection, prepared)
        if hasattr(value, "as_sql"):  # an expression: Django's own handling
            return super().get_db_prep_value(value, connection, prepared)
        return json_text(value)  # plain text (or NULL): the column's type takes it as json

    def from_db_value(self, value, expression, connection):
        if value is None or not isinstance(value, (str, bytes)):
            return value  # psycopg decoded the json column already
        return super().from_db_value(value, expression, connection)


class MatchStateField(StateField):
    """A match's state: saved without the parts its row keeps in ``state_fixed``
    (games/state_storage.py; ``Match.save`` brings that column up to date first)."""

    def pre_save(self, model_instance, add):
        from games import state_storage

        return state_storage.column_part(getattr(model_instance, self.attname), model_instance.__dict__.get("state_fixed"))
