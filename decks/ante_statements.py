"""The ante's ledger writes as single PostgreSQL statements, for the move path.

A CCG move that draws cards into the ante (each round's cut, a doubled stake) stakes them,
and the move that ends a game settles or releases what is staked. ``decks.services`` does
both through the ORM: about fifteen statements, and code that cannot run while the move path
collects its writes on the event loop (games/live/live_moves.py), so such a move used to leave its
batch and take the synchronous path in a worker thread: 16-20 ms alone, 80 ms under load
(docs/performance.md). Here each is one statement (a settlement that may give the winner a
card they never owned, two), which ``games.table.persistence.execute`` runs at once or collects
into the batch like the move's own writes.

They keep every rule of the ledger (decks/services.py):

* holdings are locked in (user id, card id) order, the stakes of a match by id, before any
  is changed (``SELECT ... ORDER BY ... FOR UPDATE``: PostgreSQL sorts, then locks);
* each copy staked, returned, won or lost is one ledger entry with the reason the ORM path
  writes, in the same transaction as the holding it changes;
* the holdings' CHECK constraints stay the backstop, and ``ledger_check`` the proof;
* should a holding that must change not be found, the statement fails (the move with it)
  rather than write a ledger entry without its holding.

The ORM functions stay the definition, used off the move path and on SQLite (the embedded
``make run``); tests play the same antes through both and compare the rows
(tests/decks/test_ante_statements.py).
"""
from __future__ import annotations

from datetime import datetime

from decks.models import AnteStake, Card, Holding, LedgerEntry

HELD = AnteStake.Status.HELD.value
Reason = LedgerEntry.Reason

# Raised inside the statement (a failed cast) when a holding it must change was not locked:
# the transaction fails instead of leaving a ledger entry that no holding matches.
# (The text carries a count read at run time: a constant's cast would fail when planned.)
_MISSING = ("CASE WHEN (SELECT count(*) FROM {changed}) = (SELECT count(*) FROM {wanted}) THEN 0 "
            "ELSE ('ledger: holdings to change not found: ' || "
            "((SELECT count(*) FROM {wanted}) - (SELECT count(*) FROM {changed})))::integer END")


def _tables() -> dict[str, str]:
    return {"holding": Holding._meta.db_table, "ledger": LedgerEntry._meta.db_table,
            "stake": AnteStake._meta.db_table, "card": Card._meta.db_table}


def stake(match_id: str, owed: dict[tuple[int, str], int], now: datetime) -> tuple[str, list]:
    """Stake for ``match_id``, per (user id, card code), as many copies as ``owed`` says the
    ante holds less those already staked for the match, as far as free copies allow (a card
    whose copies are all staked elsewhere waits, as ``services.ante_hold_first_free`` passes
    it over). The statement's one row: how many copies still wait to be staked."""
    t = _tables()
    rows, params = [], []
    for (user_id, code), n in sorted(owed.items()):
        rows.append("(%s::integer, %s::varchar, %s::integer)")
        params += [user_id, code, n]
    params += [match_id, HELD, match_id, now, match_id, HELD, now]
    sql = f"""
WITH owed(user_id, code, n) AS (VALUES {", ".join(rows)}),
want AS (
  SELECT o.user_id, c.id AS card_id, o.n - (
    SELECT count(*) FROM {t["stake"]} a
    WHERE a.match_id = %s AND a.status = %s AND a.user_id = o.user_id AND a.card_id = c.id) AS n
  FROM owed o JOIN {t["card"]} c ON c.code = o.code),
locked AS (
  SELECT h.id, h.user_id, h.card_id, h.quantity FROM {t["holding"]} h
  JOIN want w ON w.user_id = h.user_id AND w.card_id = h.card_id AND w.n > 0
  ORDER BY h.user_id, h.card_id FOR UPDATE OF h),
staked AS (
  SELECT l.id, l.user_id, l.card_id, LEAST(w.n, l.quantity) AS n FROM locked l
  JOIN want w ON w.user_id = l.user_id AND w.card_id = l.card_id WHERE l.quantity > 0),
changed AS (
  UPDATE {t["holding"]} h SET quantity = h.quantity - s.n, held = h.held + s.n
  FROM staked s WHERE h.id = s.id RETURNING h.id),
entries AS (
  INSERT INTO {t["ledger"]} (user_id, card_id, quantity_delta, held_delta, reason, match_id, note, created_at)
  SELECT s.user_id, s.card_id, -1, 1, '{Reason.ANTE_HELD.value}', %s, '', %s
  FROM staked s CROSS JOIN LATERAL generate_series(1, s.n) ORDER BY s.user_id, s.card_id),
stakes AS (
  INSERT INTO {t["stake"]} (match_id, user_id, card_id, status, created_at)
  SELECT %s, s.user_id, s.card_id, %s, %s
  FROM staked s CROSS JOIN LATERAL generate_series(1, s.n) ORDER BY s.user_id, s.card_id)
SELECT (SELECT COALESCE(sum(n), 0) FROM want WHERE n > 0) - (SELECT COALESCE(sum(n), 0) FROM staked),
       {_MISSING.format(changed="changed", wanted="staked")}"""
    return sql, params


def winner_holdings(match_id: str, winner_id: int) -> tuple[str, list]:
    """The winner's holding rows, at zero, of every card they are about to win and have never
    owned. A statement of its own: rows it inserts are visible to the next statement only."""
    t = _tables()
    sql = f"""
INSERT INTO {t["holding"]} (user_id, card_id, quantity, held)
SELECT DISTINCT %s::integer, a.card_id, 0, 0 FROM {t["stake"]} a
WHERE a.match_id = %s AND a.status = %s AND a.user_id <> %s
ORDER BY 2 ON CONFLICT (user_id, card_id) DO NOTHING"""
    return sql, [winner_id, match_id, HELD, winner_id]


def close(match_id: str, winner_id: int | None, now: datetime, note: str = "") -> tuple[str, list]:
    """Close every held stake of the match: each goes to ``winner_id`` (``ante_settle``: the
    winner's own cards come home, the others' are lost by them and won by the winner; run
    ``winner_holdings`` first), or, with no winner, home to its owner (``ante_release``).
    ``note`` (how the game ended) goes on every ledger entry, as the ORM path writes it."""
    t = _tables()
    if winner_id is None:
        changes = (f"SELECT user_id, card_id, 1 AS dq, -1 AS dh, '{Reason.ANTE_RELEASED.value}' AS reason, id, 0 AS part "
                   "FROM stakes")
        params: list = [match_id, HELD]
        status = AnteStake.Status.RELEASED.value
    else:
        changes = (f"SELECT user_id, card_id, 1 AS dq, -1 AS dh, '{Reason.ANTE_RETURNED.value}' AS reason, id, 0 AS part "
                   "FROM stakes WHERE user_id = %s "
                   f"UNION ALL SELECT user_id, card_id, 0, -1, '{Reason.ANTE_LOST.value}', id, 0 "
                   "FROM stakes WHERE user_id <> %s "
                   f"UNION ALL SELECT %s::integer, card_id, 1, 0, '{Reason.ANTE_WON.value}', id, 1 "
                   "FROM stakes WHERE user_id <> %s")
        params = [match_id, HELD, winner_id, winner_id, winner_id, winner_id]
        status = AnteStake.Status.SETTLED.value
    params += [match_id, note[:200], now, status, winner_id, now]
    sql = f"""
WITH stakes AS (
  SELECT id, user_id, card_id FROM {t["stake"]} WHERE match_id = %s AND status = %s ORDER BY id FOR UPDATE),
changes AS ({changes}),
sums AS (SELECT user_id, card_id, sum(dq) AS dq, sum(dh) AS dh FROM changes GROUP BY user_id, card_id),
locked AS (
  SELECT h.id, h.user_id, h.card_id FROM {t["holding"]} h
  JOIN sums s ON s.user_id = h.user_id AND s.card_id = h.card_id
  ORDER BY h.user_id, h.card_id FOR UPDATE OF h),
changed AS (
  UPDATE {t["holding"]} h SET quantity = h.quantity + s.dq, held = h.held + s.dh
  FROM locked l JOIN sums s ON s.user_id = l.user_id AND s.card_id = l.card_id
  WHERE h.id = l.id RETURNING h.id),
entries AS (
  INSERT INTO {t["ledger"]} (user_id, card_id, quantity_delta, held_delta, reason, match_id, note, created_at)
  SELECT user_id, card_id, dq, dh, reason, %s, %s, %s FROM changes ORDER BY id, part),
closed AS (
  UPDATE {t["stake"]} a SET status = %s, winner_id = %s, resolved_at = %s FROM stakes s WHERE a.id = s.id)
SELECT (SELECT count(*) FROM stakes), {_MISSING.format(changed="changed", wanted="sums")}"""
    return sql, params
