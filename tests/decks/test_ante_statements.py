"""The ante's ledger writes as single statements (decks/ante_statements.py) leave exactly the
rows the ledger's ORM functions leave: twin players with the same collections stake, settle
and release the same antes, one pair through each, and their holdings, ledger entries and
stakes are compared. The ledger stays sound (``ledger_discrepancies``) throughout."""
from collections import Counter
from types import SimpleNamespace

import pytest
from django.db import DataError, transaction
from django.utils import timezone

from decks import ante_statements
from decks import selectors as deck_selectors
from decks import services as deck_services
from decks.models import AnteStake, Card, Holding, LedgerEntry
from games.table import persistence
from games.kinds.ccg import hooks
from tests.platform.ccg_helpers import ensure_card_database

pytestmark = pytest.mark.django_db

COLLECTIONS = {
    "alice": {"open-field": 3, "arthur": 1, "bristol-downs": 2},
    "bob": {"open-field": 1, "cornwall": 2},
}


@pytest.fixture
def twins(make_user):
    """Two tables of alice and bob with the same collections; bob's one open field is staked
    in another game at each."""
    ensure_card_database()
    tables = []
    for twin in ("orm", "sql"):
        users = {}
        for name, cards in COLLECTIONS.items():
            user = users[name] = make_user(f"{name}-{twin}")
            deck_services.collection_grant(user=user, cards=cards, reason="admin_grant")
        deck_services.ante_hold(user=users["bob"], card_code="open-field", match_id=f"elsewhere-{twin}")
        tables.append(users)
    return dict(zip(("orm", "sql"), tables))


def _table_match(users, match_id, ante):
    """A match-like object and its seats, holding ``ante``: (owner seat, code) per card."""
    state = {"ante": list(range(len(ante))), "own": [seat for seat, _ in ante], "inst": [code for _, code in ante]}
    seats = [SimpleNamespace(index=i, user_id=users[name].pk, user=users[name]) for i, name in enumerate(("alice", "bob"))]
    return SimpleNamespace(pk=match_id, state=state, practice=False), seats


def _rows(users, match_id):
    """What the ledger holds for these players, by name instead of id."""
    name_of = {u.pk: name for name, u in users.items()}
    codes = dict(Card.objects.values_list("pk", "code"))
    holdings = sorted((name_of[h.user_id], codes[h.card_id], h.quantity, h.held)
                      for h in Holding.objects.filter(user__in=users.values()) if h.quantity or h.held)
    entries = Counter((name_of[e.user_id], codes[e.card_id], e.quantity_delta, e.held_delta, e.reason,
                       e.match_id == match_id, e.note, e.actor_id)
                      for e in LedgerEntry.objects.filter(user__in=users.values()))
    stakes = Counter((name_of[s.user_id], codes[s.card_id], s.status, s.match_id == match_id,
                      name_of.get(s.winner_id), s.resolved_at is not None)
                     for s in AnteStake.objects.filter(user__in=users.values()))
    return holdings, entries, stakes


def _stake(twin, users, match_id, ante, monkeypatch):
    monkeypatch.setattr(persistence, "fast", lambda: twin == "sql")
    match, seats = _table_match(users, match_id, ante)
    with transaction.atomic():
        hooks._stake_owed(match, seats)


def _close(twin, users, match_id, winner, monkeypatch):
    """The game's end: the ante to ``winner``, or home with no winner (hooks._close_ante),
    with the note that says how the game ended on every entry."""
    monkeypatch.setattr(persistence, "fast", lambda: twin == "sql")
    with transaction.atomic():
        hooks._close_ante(SimpleNamespace(pk=match_id), winner, CLOSING_NOTE)


CLOSING_NOTE = "Game #7: bob resigned; alice searched on alone (15.3) and gave up the search."


ANTE = [(0, "open-field"), (0, "open-field"), (0, "arthur"), (0, "bristol-downs"), (0, "bristol-downs"),
        (0, "bristol-downs"), (1, "open-field"), (1, "cornwall")]


def test_staking_the_owed_ante_leaves_the_rows_the_orm_leaves(twins, monkeypatch, caplog):
    """alice's arthur is staked already (a rematch's carried card); she owes three Bristol
    downs and owns two; bob's only open field is staked elsewhere. What has no free copy
    waits; everything else is staked, one entry per copy."""
    for twin, users in twins.items():
        deck_services.ante_hold(user=users["alice"], card_code="arthur", match_id=f"m-{twin}")
        _stake(twin, users, f"m-{twin}", ANTE, monkeypatch)
    orm, sql = _rows(twins["orm"], "m-orm"), _rows(twins["sql"], "m-sql")
    assert sql == orm
    held = Counter((s.user.username, s.card.code) for s in AnteStake.objects.filter(match_id="m-sql"))
    assert held == {("alice-sql", "open-field"): 2, ("alice-sql", "arthur"): 1, ("alice-sql", "bristol-downs"): 2,
                    ("bob-sql", "cornwall"): 1}
    waits = [r.getMessage() for r in caplog.records if "wait to be staked" in r.getMessage()]
    assert len(waits) == 2 and all("2 ante card(s)" in line and "open" not in line for line in waits)
    assert deck_selectors.ledger_discrepancies() == []


def test_staking_again_stakes_only_what_is_owed(twins, monkeypatch):
    """The same ante staked twice (the next draw, the end): the second finds nothing owed,
    until a copy comes home."""
    users = twins["sql"]
    for _ in range(2):
        _stake("sql", users, "m", ANTE, monkeypatch)
    assert AnteStake.objects.filter(match_id="m").count() == 6  # all but bob's open field and a Bristol downs
    deck_services.ante_release(match_id="elsewhere-sql")
    _stake("sql", users, "m", ANTE, monkeypatch)
    assert AnteStake.objects.filter(match_id="m", user=users["bob"], card__code="open-field").count() == 1
    assert deck_selectors.ledger_discrepancies() == []


@pytest.mark.parametrize("winner", ["alice", "bob", None])
def test_settling_or_releasing_leaves_the_rows_the_orm_leaves(twins, monkeypatch, winner):
    """The winner's own cards come home, the loser's go to the winner (alice has never owned
    a cornwall: her holding is made), or, with no winner, every card goes home."""
    for twin, users in twins.items():
        _stake(twin, users, f"m-{twin}", ANTE, monkeypatch)
        _close(twin, users, f"m-{twin}", users[winner] if winner else None, monkeypatch)
    assert _rows(twins["sql"], "m-sql") == _rows(twins["orm"], "m-orm")
    users = twins["sql"]
    closing = LedgerEntry.objects.filter(match_id="m-sql").exclude(reason="ante_held")
    assert closing.exists() and set(closing.values_list("note", flat=True)) == {CLOSING_NOTE}
    if winner == "alice":
        assert Holding.objects.get(user=users["alice"], card__code="cornwall").quantity == 1
    assert not AnteStake.objects.filter(match_id="m-sql", status="held").exists()
    assert deck_selectors.ledger_discrepancies() == []


def test_closing_twice_finds_nothing_left_to_do(twins, monkeypatch):
    users = twins["sql"]
    _stake("sql", users, "m", ANTE, monkeypatch)
    for _ in range(2):
        _close("sql", users, "m", users["bob"], monkeypatch)
    assert LedgerEntry.objects.filter(match_id="m", reason="ante_won").count() == 5  # alice's open fields, arthur and Bristol downs, once
    assert deck_selectors.ledger_discrepancies() == []


def test_a_settlement_without_the_winners_holding_fails_and_writes_nothing(twins, monkeypatch):
    """The backstop: a ledger entry is never written without its holding. Skipping
    ``winner_holdings`` leaves alice no cornwall row to change, so the statement fails."""
    users = twins["sql"]
    _stake("sql", users, "m", ANTE, monkeypatch)
    before = _rows(users, "m")
    with pytest.raises(DataError, match="holdings to change not found"):
        with transaction.atomic():
            persistence.execute(*ante_statements.close("m", users["alice"].pk, timezone.now()))
    assert _rows(users, "m") == before
    assert deck_selectors.ledger_discrepancies() == []
