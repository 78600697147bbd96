"""Reading and writing a match on the move path in as few statements as the database allows.

A move used to cost about ten ORM statements, each built by Django's query compiler; the
compiler, not PostgreSQL, was most of a move's server time (bench/move_profile.py). Here, on
PostgreSQL:

* ``lock``: two statements. One ``SELECT ... FOR UPDATE`` of the match row, which carries
  its state only when this process does not already hold it for that exact row (``_Recent``:
  the process that applied a game's last move holds its state; the statement is given the
  version and ``xmin`` held and sends the state only if the row has other ones); then its
  seats joined with their players' names (``FOR UPDATE OF`` the seats), and with them, for
  a move that brings an idempotency key, the earlier move made with that key (this second
  statement runs after the lock is granted, so it sees a submission with the same key that
  committed while this one waited);
* ``write``: the match update, the move record and every changed seat in ONE statement
  (data-modifying CTEs), with the state serialized by orjson; the parts of the state its
  rules keep fixed go to ``state_fixed`` only when they changed (games/state_storage.py).

These statements go through a server-binding cursor (``_cursor``): the parameters travel
beside the SQL instead of being quoted into it by Python, which for a 5–65 KB state was a
tenth of a move's server time, and psycopg prepares each statement once per connection.
Django's own queries keep its default client-side binding.

Every other database (SQLite for the embedded ``make run``) takes the plain ORM path. Both
leave the same rows; the tests run on PostgreSQL and the embedded load test on SQLite.

The lock order is the house's: the match row first, then its seats by index.
"""
from __future__ import annotations

import functools
import threading
import time
from collections import OrderedDict

import orjson
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from games.table import changes, unit_of_work
from games import state_storage
from grailsite.errors import NotFound
from games.fields import json_text
from games.models import Match, MoveRecord, Notification, Seat

# What a move or a seat change may change on these rows. The rest of the match (notably
# ``setup_options``, which holds whole decks for the CCG) is written once and neither re-written
# nor read on every move.
SEAT_WAIT_FIELDS = ["waiting_for", "waiting_key", "deadline", "deadline_warned", "situation_version", "computer_due",
                    "own_moves", "timeouts_in_row"]
CHANGING_FIELDS = ["state", "version", "move_count", "status", "outcome", "started_at", "finished_at", "updated_at"]

_MATCH_COLUMNS = [f.attname for f in Match._meta.concrete_fields
                  if f.attname not in ("state", "state_fixed", "setup_options")]
_SEAT_COLUMNS = [f.attname for f in Seat._meta.concrete_fields]
_JSON_MATCH = {"options", "outcome"}
_JSON_SEAT = {"choice"}


def fast() -> bool:
    return connection.vendor == "postgresql"


# --- the states this process holds ------------------------------------------------------

class _Recent:
    """match id -> (version, row stamp, state, fixed) for the last few hundred matches this
    process changed or read for a change: the whole state and the ``state_fixed`` part the
    row holds (games/state_storage.py).

    The state kept is the object the rules made (or the lock read), not a copy: the rules
    never change a state they are given, and nothing after the write changes it either.
    Decoding the written text again instead cost a CCG move 0.15 ms and a few hundred
    short-lived objects for the cycle collector (docs/performance.md, 2026-11-26). With
    ``check`` on (the test suite: GRAILSITE_CHECK_HELD_STATES) each entry keeps its JSON
    text too, and ``take`` fails loudly if the state no longer matches it.

    An entry serves only a lock that reads the same version AND the same stamp from the
    locked row. The stamp is PostgreSQL's ``xmin``, the transaction that last wrote the row,
    so any write by any path (a move, a seat taken, the admin, a raw UPDATE in a test) makes
    the entry miss, as does a change that was later rolled back or one made by another
    process. An entry is taken out by the lock that uses it and put back only when that
    transaction commits."""

    def __init__(self, size: int = 512, ttl: float = 300.0, check: bool | None = None):
        self.size, self.ttl = size, ttl
        self.check = settings.CHECK_HELD_STATES if check is None else check
        self.changed: list[int] = []  # matches whose kept state was found changed (checking only)
        # States served from here, and read from the database by a lock (for the tests and
        # for anyone asking how often the cache pays).
        self.hits = self.misses = 0
        self._items: OrderedDict[int, tuple] = OrderedDict()
        self._lock = threading.Lock()

    def peek(self, match_id: int) -> tuple[int, str] | None:
        """(version, stamp) of the state held for this match, left in place; None if none is,
        or if it is too old for ``take`` to serve: a lock then reads the state with the row,
        instead of learning only after it that it must read it (a statement more)."""
        with self._lock:
            item = self._items.get(match_id)
        return None if item is None or self._expired(item) else item[:2]

    def take(self, match_id: int, version: int, stamp: str) -> tuple | None:
        """(state, fixed) held for exactly this version and stamp, taken out; else None."""
        with self._lock:
            item = self._items.pop(match_id, None)
        if item is None or item[:2] != (version, stamp) or self._expired(item):
            return None
        if item[5] is not None and json_text(item[3]) != item[5]:
            self.changed.append(match_id)  # a batch that fails is retried: the suite asserts this stays empty
            raise AssertionError(f"the state held for match {match_id} was changed after it was kept")
        return item[3:5]

    def _expired(self, item: tuple) -> bool:
        return time.monotonic() - item[2] > self.ttl

    def put(self, match_id: int, version: int, stamp: str, state, fixed) -> None:
        text = json_text(state) if self.check else None
        with self._lock:
            self._items[match_id] = (version, stamp, time.monotonic(), state, fixed, text)
            self._items.move_to_end(match_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


recent = _Recent()


# --- locking ----------------------------------------------------------------------------

def lock(match_id) -> tuple[Match, list[Seat]]:
    """The match and its seats (with their users), locked for a change, in the house order."""
    match, seats, _ = _lock(match_id, None)
    return match, seats


def lock_for_move(match_id, key: str | None) -> tuple[Match, list[Seat], tuple | None]:
    """``lock``, and the move already made in this match with ``key`` if there is one (see
    ``earlier_move``), read in the same statements."""
    return _lock(match_id, key)


def _lock(match_id, key: str | None) -> tuple[Match, list[Seat], tuple | None]:
    match_id = match_id_checked(match_id)
    if not fast():
        match, seats = _lock_orm(match_id)
        return match, seats, (earlier_move(match_id, key) if key else None)
    (match_sql, match_params), (seats_sql, seats_params) = lock_statements(match_id, key)
    with _cursor() as cur:
        cur.execute(match_sql, match_params)
        match, stamp, held = match_from_row(match_id, cur.fetchone())
        if held is None:  # not held, or dropped since the statement (another thread took it)
            cur.execute(STATE_SQL, [match_id])
            held = state_from_row(cur.fetchone())
        cur.execute(seats_sql, seats_params)
        rows = cur.fetchall()
    if key and not rows:  # a match without seats: ask on its own
        match, seats, _ = locked(match, stamp, held, rows, None)
        return match, seats, earlier_move(match_id, key)
    return locked(match, stamp, held, rows, key)


def match_id_checked(match_id) -> int:
    """A match id as the database can hold it; NotFound for anything else."""
    try:
        match_id = int(match_id)
    except (ValueError, TypeError, OverflowError):
        raise NotFound("No such game.") from None
    if not -2**63 <= match_id < 2**63:
        raise NotFound("No such game.")
    return match_id


# The state of a locked match whose row said this process holds it, when it no longer does
# (its two columns: ``state_from_row``).
STATE_SQL = "SELECT state, state_fixed FROM games_match WHERE id = %s"


def state_from_row(row) -> tuple:
    """(state, fixed) from a row's ``state`` and ``state_fixed`` columns: the whole state and
    the fixed part the row holds (games/state_storage.py)."""
    fixed = _json(row[1])
    return state_storage.joined(_json(row[0]), fixed), fixed


def lock_statements(match_id: int, key: str | None) -> list[tuple[str, list]]:
    """The lock's two statements, in the order they must run: the match row (with its state
    unless this process holds that version), then its seats (with the earlier move made with
    ``key``, if one is given). PostgreSQL only."""
    sql = _sql()
    held = recent.peek(match_id)  # (version, stamp) of the state this process holds, if any
    version, stamp = held or (None, None)
    return [(sql["match"], [version, stamp, version, stamp, match_id]),
            (sql["seats_with_key" if key else "seats"], [key, match_id] if key else [match_id])]


def lock_many_statements(match_ids: list[int], keys: list[tuple[int, str]]) -> list[tuple[str, list]]:
    """The statements that lock several matches for a batch of moves (games/live/live_moves.py),
    in the house's order: every match row by id, then their seats by match and index, then
    (a statement of its own, so it sees what committed while the locks were awaited) the
    moves already made with the batch's keys ((match id, key) pairs; none: no statement)."""
    sql = _sql()
    held = [recent.peek(m) or (None, None) for m in match_ids]
    statements = [(sql["matches"], [match_ids, [h[0] for h in held], [h[1] for h in held]]),
                  (sql["seats_of_matches"], [match_ids])]
    if keys:
        statements.append((sql["earlier_moves"], [[m for m, _ in keys], [k for _, k in keys]]))
    return statements


def match_from_row(match_id: int, row) -> tuple[Match, str, tuple | None]:
    """(match, row stamp, (state, fixed)) from the lock's first statement. The pair is None
    when the row did not carry the state and this process no longer holds it: read it with
    ``STATE_SQL``."""
    if row is None:
        raise NotFound("No such game.")
    *columns, stamp, state_text, fixed_text = row
    values = [_json(v) if c in _JSON_MATCH else v for c, v in zip(_MATCH_COLUMNS, columns)]
    match = Match.from_db(connection.alias, _MATCH_COLUMNS, values)
    if state_text is not None:
        recent.misses += 1
        return match, stamp, state_from_row((state_text, fixed_text))
    held = recent.take(match_id, match.version, stamp)
    if held is None:
        recent.misses += 1
    else:
        recent.hits += 1
    return match, stamp, held


def locked(match: Match, stamp: str, held: tuple, rows, key: str | None) -> tuple[Match, list[Seat], tuple | None]:
    """The locked match with its state (``held``: (state, fixed) as ``state_from_row``), its
    seats from the lock's second statement, and the earlier move made with ``key`` (user id,
    version after, seq) or None. Registers keeping the state once the change commits."""
    match.state, match.state_fixed = held
    user_model = get_user_model()
    seats = [_seat(row[:len(_SEAT_COLUMNS) + 1], user_model) for row in rows]
    earlier = None
    if key and rows and rows[0][len(_SEAT_COLUMNS) + 1] is not None:
        earlier = tuple(rows[0][-3:])  # (user id, version after, seq), as earlier_move
    for seat in seats:
        Seat.match.field.set_cached_value(seat, match)
    _remember_on_commit(match, stamp)
    return match, seats, earlier


def _lock_orm(match_id: int) -> tuple[Match, list[Seat]]:
    try:
        match = Match.objects.select_for_update().defer("setup_options").get(pk=match_id)
    except Match.DoesNotExist:
        raise NotFound("No such game.") from None
    seats = list(match.seats.select_related("user").select_for_update(of=("self",)).order_by("index"))
    return match, seats


def _seat(row, user_model) -> Seat:
    values = [_json(v) if c in _JSON_SEAT else v for c, v in zip(_SEAT_COLUMNS, row)]
    seat = Seat.from_db(connection.alias, _SEAT_COLUMNS, values)
    user_id, username = seat.user_id, row[-1]
    user = None
    if user_id is not None:  # the name is all the move path reads of a player
        user = user_model.from_db(connection.alias, ["id", "username"], [user_id, username])
    Seat.user.field.set_cached_value(seat, user)
    return seat


def _remember_on_commit(match: Match, stamp: str) -> None:
    """Once the transaction commits, keep the state the row now holds (see _Recent): the one
    the last ``write`` stored, with the fixed part the row holds after it, or, if nothing was
    written, the one read."""
    read = (match.version, stamp, match.state, match.state_fixed)

    def remember():
        written = match.__dict__.pop("_written", None)
        if written is not None:
            if written[2] is not None:
                recent.put(match.pk, *written)
        elif read[2] is not None:
            recent.put(match.pk, *read)
    unit_of_work.on_commit(remember)


# --- writing ----------------------------------------------------------------------------

# Notifications that say a player must act: they go away once that is no longer so.
CALLS_TO_ACT = ("your_turn", "deadline_near")


def write(match: Match, seats: list[Seat], record: MoveRecord | None, notices=(), withdrawn=()) -> None:
    """Store a change: the match's changing fields, the given (changed) seats, the move record,
    ``notices``, (user id, kind, text) notifications to refresh or add (see ``notify``), and
    for the users in ``withdrawn`` the unread calls to act in this match that no longer apply
    (deleted: a "Your move" after the move was made or the game ended)."""
    match.updated_at = timezone.now()
    notices = list({(user_id, kind): (user_id, kind, text) for user_id, kind, text in notices}.values())
    withdrawn = sorted(set(withdrawn))
    if not fast():
        for seat in seats:
            seat.save(update_fields=SEAT_WAIT_FIELDS)
        match.save(update_fields=CHANGING_FIELDS)
        if record is not None:
            record.save()
        if withdrawn:
            Notification.objects.filter(match_id=match.pk, user_id__in=withdrawn, kind__in=CALLS_TO_ACT,
                                        read_at__isnull=True).delete()
        for user_id, kind, text in notices:
            notify(user_id, match.pk, kind, text)
        return
    if notices:  # each notice may be a push, once the change commits (games/inbox/push.py)
        changes.noticed([user_id for user_id, _kind, _text in notices])
    params: list = []
    parts = [_match_update(match, params)]
    if record is not None:
        parts.append(_record_insert(record, params))
    if seats:
        parts.append(_seats_update(seats, params))
    if withdrawn:
        parts.append(_notices_withdraw(match.pk, withdrawn, params))
    for i, (user_id, kind, text) in enumerate(notices):
        parts += _notice_upsert(f"n{i}", user_id, match.pk, kind, text, params)
    names = [f"w{i}" if isinstance(p, str) else p[0] for i, p in enumerate(parts)]
    parts = [p if isinstance(p, str) else p[1] for p in parts]
    sql = "WITH " + ", ".join(f"{n} AS ({p})" for n, p in zip(names, parts))
    sql += " SELECT (SELECT stamp FROM w0), " + ("(SELECT id FROM w1)" if record is not None else "NULL")
    # What the row holds once this runs: this state, and the fixed part _match_update left
    # in state_fixed (the one it wrote, or the one the row had).
    version, state, fixed = match.version, match.state, match.__dict__.get("state_fixed")

    def written(row):
        match.__dict__["_written"] = (version, row[0], state, fixed)
        if record is not None:
            record.created_at = match.updated_at
            record.pk = row[1]
            record._state.adding, record._state.db = False, connection.alias
    execute(sql, params, written)


def _match_update(match: Match, params: list) -> str:
    # What the row's state_fixed holds, as the lock read it (see Match.save).
    fixed = state_storage.fixed_to_write(match.state, state_storage.fixed_keys(match.kind),
                                         match.__dict__.get("state_fixed"))
    if fixed is not None:
        match.state_fixed = fixed
    column = state_storage.column_part(match.state, match.__dict__.get("state_fixed"))
    params += [json_text(column), json_text(fixed), match.version, match.move_count, match.status,
               json_text(match.outcome), match.started_at, match.finished_at, match.updated_at, match.pk]
    # state_fixed: NULL when unchanged (COALESCE keeps the row's); the statement stays one.
    return ("UPDATE games_match SET state = %s::json, state_fixed = COALESCE(%s::json, state_fixed), "
            "version = %s, move_count = %s, status = %s, "
            "outcome = %s::jsonb, started_at = %s, finished_at = %s, updated_at = %s WHERE id = %s "
            "RETURNING xmin::text AS stamp")


def _record_insert(record: MoveRecord, params: list) -> str:
    params += [record.match_id, record.seq, record.seat, record.user_id, json_text(record.move), json_text(record.events),
               record.key, record.by_timeout, record.version_after, record.match.updated_at]
    return ("INSERT INTO games_moverecord (match_id, seq, seat, user_id, move, events, \"key\", by_timeout, "
            "version_after, created_at) VALUES (%s, %s, %s, %s, %s::jsonb, %s::jsonb, %s, %s, %s, %s) RETURNING id")


def _seats_update(seats: list[Seat], params: list) -> str:
    rows = []
    for seat in seats:
        rows.append("(%s::bigint, %s::varchar, %s::varchar, %s::timestamptz, %s::boolean, %s::integer, "
                    "%s::timestamptz, %s::integer, %s::smallint)")
        params += [seat.pk, seat.waiting_for, seat.waiting_key, seat.deadline, seat.deadline_warned,
                   seat.situation_version, seat.computer_due, seat.own_moves, seat.timeouts_in_row]
    return ("UPDATE games_seat AS s SET waiting_for = v.w, waiting_key = v.k, deadline = v.d, "
            "deadline_warned = v.dw, situation_version = v.sv, computer_due = v.cd, own_moves = v.om, "
            "timeouts_in_row = v.tr FROM (VALUES " +
            ", ".join(rows) + ") AS v(id, w, k, d, dw, sv, cd, om, tr) WHERE s.id = v.id")


def _notices_withdraw(match_id: int, user_ids: list[int], params: list) -> str:
    # Served by the (user, read_at) index. A user withdrawn here is never one the same
    # statement gives a new "Your move" (a seat that stops waiting is not newly due).
    params += [match_id, user_ids, list(CALLS_TO_ACT)]
    return ("DELETE FROM games_notification WHERE match_id = %s AND user_id = ANY(%s::integer[]) "
            "AND kind = ANY(%s::varchar[]) AND read_at IS NULL")


# --- idempotency ------------------------------------------------------------------------

def earlier_move(match_id: int, key: str) -> tuple[int | None, int, int] | None:
    """(user id, version after, seq) of the move already made in this match with this key.
    Asked after the lock, in a statement of its own, so it sees a submission with the same
    key that committed while this one waited for the lock."""
    if not fast():
        row = MoveRecord.objects.filter(match_id=match_id, key=key).values_list("user_id", "version_after", "seq").first()
        return tuple(row) if row else None
    with _cursor() as cur:
        cur.execute('SELECT user_id, version_after, seq FROM games_moverecord WHERE match_id = %s AND "key" = %s',
                    [match_id, key])
        row = cur.fetchone()
    return tuple(row) if row else None


# --- notifications ----------------------------------------------------------------------

def notify(user_id: int, match_id: int, kind: str, text: str) -> None:
    """Refresh the user's unread notification of this kind for this match, or add one
    (services._notify says why one per game and kind). Called under the match's lock, so two
    writers never add the same one. On PostgreSQL one statement; a move's notices go into
    its ``write`` instead."""
    if not fast():
        refreshed = (Notification.objects.filter(user_id=user_id, match_id=match_id, kind=kind, read_at__isnull=True)
                     .update(text=text, created_at=timezone.now(), emailed_at=None, pushed_at=None))
        if not refreshed:
            Notification.objects.create(user_id=user_id, match_id=match_id, kind=kind, text=text)
        changes.noticed([user_id])
        return
    params: list = []
    (refresh_name, refresh), (_, add) = _notice_upsert("n", user_id, match_id, kind, text, params)
    execute(f"WITH {refresh_name} AS ({refresh}) {add}", params)
    changes.noticed([user_id])


def _notice_upsert(name: str, user_id: int, match_id: int, kind: str, text: str, params: list):
    """Two CTE parts, (name, sql) each: refresh the unread notice, else add one. Both see the
    statement's one snapshot, so the insert asks the update's result, not the table."""
    now = timezone.now()
    params += [text, now, user_id, match_id, kind, user_id, match_id, kind, text, now]
    return [(f"{name}r", "UPDATE games_notification SET text = %s, created_at = %s, emailed_at = NULL, pushed_at = NULL "
                         "WHERE user_id = %s AND match_id = %s AND kind = %s AND read_at IS NULL RETURNING 1"),
            # Typed: a PREPAREd statement cannot infer the type of a bare SELECT-list parameter.
            (f"{name}i", "INSERT INTO games_notification (user_id, match_id, kind, text, created_at) "
                         "SELECT %s::integer, %s::bigint, %s::varchar, %s::varchar, %s::timestamptz "
                         f"WHERE NOT EXISTS (SELECT 1 FROM {name}r)")]


# --- helpers ----------------------------------------------------------------------------

def execute(sql: str, params: list, done=None, *, ledger: bool = False) -> None:
    """Run a write of the move path now, or, while a unit of work collects
    (games/table/unit_of_work.py), leave it to the unit's executor. ``done(row)`` gets the
    statement's first row (None if it returns none) either way. ``ledger``: the statement
    locks card holdings (decks/ante_statements.py), which the executor must know to keep
    the ledger's lock order. PostgreSQL only (``fast()``)."""
    unit = unit_of_work.current()
    if unit is not None:
        unit.statements.append((sql, params, done))
        unit.ledger_writes += ledger
        return
    with _cursor() as cur:
        cur.execute(sql, params)
        row = cur.fetchone() if cur.description else None
    if done is not None:
        done(row)


def _cursor():
    """A cursor like ``connection.cursor()`` (health check, error wrapping, query logging
    under tests) whose parameters are bound by the server rather than quoted by Python."""
    from django.db.backends.postgresql.base import TIMESTAMPTZ_OID, ServerBindingCursor, register_tzloader
    from psycopg.pq import Format

    connection.close_if_health_check_failed()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        cursor = ServerBindingCursor(connection.connection)
        # As Django's own create_cursor: the session's time zone if the connection's differs.
        if connection.timezone != connection.connection.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT).timezone:
            register_tzloader(connection.timezone, cursor)
        return connection._prepare_cursor(cursor)


@functools.cache
def _sql() -> dict[str, str]:
    """The lock's statements, written once (quoting 36 column names per move showed up in
    the profile)."""
    q = connection.ops.quote_name
    users = get_user_model()._meta.db_table
    seats = (f"SELECT {', '.join('s.' + q(c) for c in _SEAT_COLUMNS)}, u.username{{extra}} FROM games_seat s "
             f"LEFT JOIN {q(users)} u ON u.id = s.user_id {{join}}"
             f"WHERE s.match_id = %s ORDER BY s.{q('index')} FOR UPDATE OF s")
    columns = ', '.join(q(c) for c in _MATCH_COLUMNS)
    return {
        # The state only when the row's (version, xmin) differ from the pair this process
        # holds (NULL, NULL when it holds none). Under FOR UPDATE the row, and so this test,
        # is the version the lock was granted on.
        "match": f"SELECT {columns}, xmin::text, "
                 "CASE WHEN version = %s AND xmin::text = %s THEN NULL ELSE state END, "
                 "CASE WHEN version = %s AND xmin::text = %s THEN NULL ELSE state_fixed END "
                 "FROM games_match WHERE id = %s FOR UPDATE",
        # The same for several matches (ids, held versions, held stamps), locked in id order.
        "matches": f"SELECT {', '.join('m.' + q(c) for c in _MATCH_COLUMNS)}, m.xmin::text, "
                   "CASE WHEN m.version = h.version AND m.xmin::text = h.stamp THEN NULL ELSE m.state END, "
                   "CASE WHEN m.version = h.version AND m.xmin::text = h.stamp THEN NULL ELSE m.state_fixed END "
                   "FROM games_match m JOIN unnest(%s::bigint[], %s::integer[], %s::text[]) AS h(id, version, stamp) "
                   "ON h.id = m.id ORDER BY m.id FOR UPDATE OF m",
        "seats_of_matches": (f"SELECT {', '.join('s.' + q(c) for c in _SEAT_COLUMNS)}, u.username FROM games_seat s "
                             f"LEFT JOIN {q(users)} u ON u.id = s.user_id WHERE s.match_id = ANY(%s::bigint[]) "
                             f"ORDER BY s.match_id, s.{q('index')} FOR UPDATE OF s"),
        "earlier_moves": ('SELECT match_id, "key", user_id, version_after, seq FROM games_moverecord '
                          'WHERE (match_id, "key") IN (SELECT * FROM unnest(%s::bigint[], %s::varchar[]))'),
        "seats": seats.format(extra="", join=""),
        # The earlier move with the key on every seat's row ((match, key) is unique: at most one).
        "seats_with_key": seats.format(
            extra=", r.id, r.user_id, r.version_after, r.seq",
            join='LEFT JOIN games_moverecord r ON r.match_id = s.match_id AND r."key" = %s '),
    }


def _json(value):
    """A jsonb column as Django's PostgreSQL backend hands it over (text), decoded; a json
    column (the state) comes decoded by psycopg already (games/fields.py)."""
    if value is None or not isinstance(value, (str, bytes)):
        return value
    return orjson.loads(value)
