"""The ledger under concurrent writers on PostgreSQL: nothing lost, nothing duplicated, no deadlock."""
import threading

import pytest
from django.db import connection

from decks import selectors, services
from decks.models import AnteStake, Card, Holding, LedgerEntry

# serialized_rollback: the flush after each test then leaves the migrations' rows (content
# types, the card database) to be restored from the snapshot, instead of re-creating them
# with new ids, which would break every later serialized_rollback test of the suite.
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def run_together(jobs):
    """Start every job at once (a barrier), wait for all; return the exceptions raised."""
    barrier = threading.Barrier(len(jobs))
    errors = []

    def wrap(job):
        try:
            barrier.wait()
            job()
        except Exception as exc:  # collected and asserted on by the test
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=wrap, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return errors


def quantity(user, card):
    holding = Holding.objects.filter(user=user, card=card).first()
    return holding.quantity if holding else 0


def test_concurrent_grants_all_land(make_user):
    user = make_user()  # outside a test transaction the starter grant runs at once: take it as the baseline
    cards = list(Card.objects.order_by("id")[:3])
    before = [quantity(user, c) for c in cards]
    # Each job grants the three cards in a different order: the service must lock in one order.
    jobs = [lambda i=i: services.collection_grant(
        user=user, cards={c.code: 1 for c in (cards[i % 3:] + cards[:i % 3])}, reason="admin_grant")
        for i in range(8)]
    assert run_together(jobs) == []
    assert [quantity(user, c) for c in cards] == [n + 8 for n in before]
    assert LedgerEntry.objects.filter(user=user, reason="admin_grant").count() == 24
    assert selectors.ledger_discrepancies() == []


def test_concurrent_takes_never_go_negative(make_user):
    user = make_user()
    card = Card.objects.order_by("id").first()
    services.collection_grant(user=user, cards={card.code: 3 - quantity(user, card)}, reason="admin_grant")
    jobs = [lambda: services.collection_grant(user=user, cards={card.code: -1}, reason="admin_grant")
            for _ in range(6)]
    errors = run_together(jobs)
    assert len(errors) == 3 and all(isinstance(e, services.NotEnoughCards) for e in errors)
    assert Holding.objects.get(user=user, card=card).quantity == 0
    assert selectors.ledger_discrepancies() == []


def test_concurrent_settles_pay_out_once(make_user):
    alice, bob = make_user(), make_user()
    card = Card.objects.order_by("id").first()
    for user in (alice, bob):
        services.collection_grant(user=user, cards={card.code: 1 - quantity(user, card)}, reason="admin_grant")
        services.ante_hold(user=user, card_code=card.code, match_id="duel")
    jobs = [lambda: services.ante_settle(match_id="duel", winner=alice) for _ in range(4)]
    jobs += [lambda: services.ante_release(match_id="duel")]
    assert run_together(jobs) == []
    total = sum(h.quantity + h.held for h in Holding.objects.filter(card=card, user__in=[alice, bob]))
    assert total == 2
    assert AnteStake.objects.filter(status="held").count() == 0
    assert selectors.ledger_discrepancies() == []


def test_opposite_holds_and_grants_do_not_deadlock(make_user):
    alice, bob = make_user(), make_user()
    cards = list(Card.objects.order_by("id")[:2])
    for user in (alice, bob):
        services.collection_grant(user=user, cards={c.code: 5 - quantity(user, c) for c in cards}, reason="admin_grant")
    jobs = []
    for i in range(4):
        jobs.append(lambda i=i: services.ante_hold(user=(alice, bob)[i % 2], card_code=cards[i % 2].code, match_id=f"m{i}"))
        jobs.append(lambda i=i: services.collection_grant(user=(bob, alice)[i % 2],
                                                          cards={cards[1].code: 1, cards[0].code: -1}, reason="admin_grant"))
    assert run_together(jobs) == []
    for i in range(4):
        services.ante_settle(match_id=f"m{i}", winner=alice)
    assert sum(h.quantity + h.held for h in Holding.objects.filter(card__in=cards, user__in=[alice, bob])) == 20
    assert selectors.ledger_discrepancies() == []


def test_a_starter_grant_racing_itself_grants_once(make_user, django_user_model):
    from django.db.models.signals import post_save
    from django.conf import settings
    post_save.disconnect(sender=settings.AUTH_USER_MODEL, dispatch_uid="decks_starter_grant")
    try:
        user = make_user()
    finally:
        from decks.signals import starter_grant_on_signup
        post_save.connect(starter_grant_on_signup, sender=settings.AUTH_USER_MODEL, dispatch_uid="decks_starter_grant")
    assert run_together([lambda: services.starter_grant(user=user) for _ in range(3)]) == []
    assert user.decks.count() == 2
    expected = services.starter_collection_counts()
    assert sum(h.quantity for h in Holding.objects.filter(user=user)) == sum(expected.values())
    assert selectors.ledger_discrepancies() == []
