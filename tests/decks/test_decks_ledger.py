"""Holdings change only through the ledger; constraints refuse negatives; ledger_check proves it."""
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, transaction

from decks import selectors, services
from decks.models import Card, Holding, LedgerEntry


@pytest.fixture
def card(db):
    return Card.objects.filter(type="land").order_by("id").first()


def test_starter_set_is_loaded_by_the_migration(db):
    assert Card.objects.filter(review=Card.Review.OFFICIAL, set_code="base").count() >= 150
    assert Card.objects.filter(tags__contains=["arthur"]).exists()
    assert Card.objects.filter(type="write_yer_own").exists()
    assert all(card.revisions.exists() for card in Card.objects.all()[:20])


def test_grant_updates_holding_and_appends_entry(make_user, card):
    user = make_user()
    services.collection_grant(user=user, cards={card.code: 3}, reason="admin_grant")
    services.collection_grant(user=user, cards={card.code: -1}, reason="admin_grant")
    holding = Holding.objects.get(user=user, card=card)
    assert (holding.quantity, holding.held) == (2, 0)
    assert [e.quantity_delta for e in LedgerEntry.objects.filter(user=user).order_by("id")] == [3, -1]
    assert selectors.ledger_discrepancies() == []


def test_taking_more_than_owned_is_refused_and_changes_nothing(make_user, card):
    user = make_user()
    services.collection_grant(user=user, cards={card.code: 1}, reason="admin_grant")
    with pytest.raises(services.NotEnoughCards):
        services.collection_grant(user=user, cards={card.code: -2}, reason="admin_grant")
    assert Holding.objects.get(user=user, card=card).quantity == 1
    assert LedgerEntry.objects.filter(user=user).count() == 1


def test_database_refuses_negative_holdings(make_user, card):
    user = make_user()
    holding = Holding.objects.create(user=user, card=card, quantity=0)
    holding.quantity = -1
    with pytest.raises(IntegrityError), transaction.atomic():
        holding.save()
    holding.quantity, holding.held = 0, -1
    with pytest.raises(IntegrityError), transaction.atomic():
        holding.save()


def test_database_refuses_empty_and_unknown_ledger_entries(make_user, card):
    user = make_user()
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerEntry.objects.create(user=user, card=card, reason="admin_grant")
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerEntry.objects.create(user=user, card=card, quantity_delta=1, reason="found_in_a_ditch")


def test_ledger_entries_are_append_only(make_user, card):
    user = make_user()
    (entry,) = services.collection_grant(user=user, cards={card.code: 1}, reason="admin_grant")
    entry = LedgerEntry.objects.get(pk=entry.pk)
    entry.quantity_delta = 5
    with pytest.raises(ValueError):
        entry.save()
    with pytest.raises(ValueError):
        entry.delete()


def test_database_refuses_out_of_range_grail_numbers(card):
    with pytest.raises(IntegrityError), transaction.atomic():
        Card.objects.filter(pk=card.pk).update(grail=8)


def test_ledger_check_passes_and_catches_a_tampered_holding(make_user, card, capsys):
    user = make_user()
    services.starter_grant(user=user)
    call_command("ledger_check")
    assert "passed" in capsys.readouterr().out
    Holding.objects.filter(user=user, card=card).update(quantity=99)
    with pytest.raises(CommandError):
        call_command("ledger_check")
    assert "ledger says" in capsys.readouterr().err


def test_ledger_check_catches_a_held_copy_without_a_stake(make_user, card):
    user = make_user()
    services.collection_grant(user=user, cards={card.code: 1}, reason="admin_grant")
    Holding.objects.filter(user=user, card=card).update(quantity=0, held=1)
    LedgerEntry.objects.create(user=user, card=card, quantity_delta=-1, held_delta=1, reason="ante_held")
    problems = selectors.ledger_discrepancies()
    assert len(problems) == 1 and "open stake" in problems[0]


def test_starter_grant_gives_collection_and_two_playable_decks_once(make_user):
    user = make_user()
    services.starter_grant(user=user)
    services.starter_grant(user=user)  # a second call must not grant twice
    expected = services.starter_collection_counts()
    owned = {h.card.code: h.quantity for h in Holding.objects.filter(user=user).select_related("card")}
    assert owned == {code: n for code, n in expected.items() if n}
    decks = selectors.decks_for(user=user)
    assert len(decks) == 2
    for deck in decks:
        analysis = selectors.deck_analysis(user=user, cards=deck.cards)
        assert analysis["valid"], analysis["problems"]
    assert selectors.ledger_discrepancies() == []


def test_new_account_gets_the_starter_grant_on_commit(django_user_model, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        user = django_user_model.objects.create_user(username="newcomer", password="pw-x9-grail")
    assert LedgerEntry.objects.filter(user=user, reason="starter_grant").exists()
    assert user.decks.count() == 2
