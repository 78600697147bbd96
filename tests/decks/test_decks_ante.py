"""Antes: hold, settle, release. No card is ever duplicated or lost."""
import pytest

from decks import selectors, services
from decks.models import AnteStake, Card, Holding, LedgerEntry


@pytest.fixture
def cards(db):
    return list(Card.objects.filter(type="land").order_by("id")[:2])


@pytest.fixture
def players(make_user, cards):
    alice, bob = make_user("alice"), make_user("bob")
    for user in (alice, bob):
        services.collection_grant(user=user, cards={c.code: 2 for c in cards}, reason="admin_grant")
    return alice, bob


def holding(user, card):
    h = Holding.objects.get(user=user, card=card)
    return h.quantity, h.held


def total_copies(card):
    return sum(h.quantity + h.held for h in Holding.objects.filter(card=card))


def test_hold_moves_one_copy_into_the_held_state(players, cards):
    alice, _ = players
    stake = services.ante_hold(user=alice, card_code=cards[0].code, match_id=7)
    assert holding(alice, cards[0]) == (1, 1)
    assert stake.status == AnteStake.Status.HELD and stake.match_id == "7"
    assert LedgerEntry.objects.filter(user=alice, reason="ante_held", match_id="7").count() == 1
    assert selectors.ledger_discrepancies() == []


def test_cannot_stake_a_card_not_owned(make_user, cards):
    nobody = make_user()
    with pytest.raises(services.NotEnoughCards):
        services.ante_hold(user=nobody, card_code=cards[0].code, match_id=1)
    assert not AnteStake.objects.exists()


def test_settle_gives_every_held_card_to_the_winner(players, cards):
    alice, bob = players
    services.ante_hold(user=alice, card_code=cards[0].code, match_id="m1")
    services.ante_hold(user=bob, card_code=cards[1].code, match_id="m1")
    before = [total_copies(c) for c in cards]
    services.ante_settle(match_id="m1", winner=alice)
    assert holding(alice, cards[0]) == (2, 0)      # her own ante came back
    assert holding(alice, cards[1]) == (3, 0)      # and she won bob's
    assert holding(bob, cards[1]) == (1, 0)
    assert [total_copies(c) for c in cards] == before
    reasons = sorted(LedgerEntry.objects.filter(match_id="m1").values_list("reason", flat=True))
    assert reasons == ["ante_held", "ante_held", "ante_lost", "ante_returned", "ante_won"]
    assert selectors.ledger_discrepancies() == []


def test_settle_is_idempotent(players, cards):
    alice, bob = players
    services.ante_hold(user=bob, card_code=cards[0].code, match_id="m2")
    services.ante_settle(match_id="m2", winner=alice)
    entries = LedgerEntry.objects.count()
    assert services.ante_settle(match_id="m2", winner=alice) == []
    assert services.ante_settle(match_id="m2", winner=bob) == []   # a late contrary call changes nothing
    assert services.ante_release(match_id="m2") == []
    assert LedgerEntry.objects.count() == entries
    assert holding(alice, cards[0]) == (3, 0) and holding(bob, cards[0]) == (1, 0)


def test_release_returns_held_cards_to_their_owners(players, cards):
    alice, bob = players
    services.ante_hold(user=alice, card_code=cards[0].code, match_id="m3")
    services.ante_hold(user=bob, card_code=cards[0].code, match_id="m3")
    services.ante_release(match_id="m3")
    assert holding(alice, cards[0]) == (2, 0) and holding(bob, cards[0]) == (2, 0)
    assert set(AnteStake.objects.values_list("status", flat=True)) == {"released"}
    assert services.ante_settle(match_id="m3", winner=alice) == []
    assert selectors.ledger_discrepancies() == []


def test_stakes_of_other_matches_are_untouched(players, cards):
    alice, bob = players
    services.ante_hold(user=alice, card_code=cards[0].code, match_id="a")
    services.ante_hold(user=bob, card_code=cards[0].code, match_id="b")
    services.ante_settle(match_id="a", winner=bob)
    assert holding(bob, cards[0]) == (2, 1)
    assert AnteStake.objects.get(match_id="b").status == "held"
    assert selectors.ledger_discrepancies() == []


def test_a_held_copy_cannot_be_granted_away(players, cards):
    alice, _ = players
    services.ante_hold(user=alice, card_code=cards[0].code, match_id="m4")
    services.ante_hold(user=alice, card_code=cards[0].code, match_id="m4")
    with pytest.raises(services.NotEnoughCards):
        services.admin_grant(user=alice, card_code=cards[0].code, quantity=-1, actor=None)
    with pytest.raises(services.NotEnoughCards):
        services.ante_hold(user=alice, card_code=cards[0].code, match_id="m5")


def test_random_sequences_of_ledger_operations_keep_every_invariant(make_user):
    """Seeded random grants, stakes, settlements, releases and refusals: afterwards the ledger
    check is clean and ante operations never created or destroyed a copy."""
    import random

    rng = random.Random(42)
    users = [make_user() for _ in range(3)]
    cards = list(Card.objects.order_by("id")[:4])
    for user in users:
        services.collection_grant(user=user, cards={c.code: 2 for c in cards}, reason="admin_grant")
    granted = {c.pk: 6 for c in cards}
    open_matches = []
    for step in range(80):
        action = rng.choice(["hold", "hold", "settle", "release", "grant"])
        try:
            if action == "hold":
                match = rng.choice(open_matches + [f"r{step}"])
                services.ante_hold(user=rng.choice(users), card_code=rng.choice(cards).code, match_id=match)
                if match not in open_matches:
                    open_matches.append(match)
            elif action in ("settle", "release") and open_matches:
                match = open_matches.pop(rng.randrange(len(open_matches)))
                if action == "settle":
                    services.ante_settle(match_id=match, winner=rng.choice(users))
                else:
                    services.ante_release(match_id=match)
            elif action == "grant":
                card, n = rng.choice(cards), rng.choice([-2, -1, 1, 2])
                services.collection_grant(user=rng.choice(users), cards={card.code: n}, reason="admin_grant")
                granted[card.pk] += n
        except services.NotEnoughCards:
            pass  # refused: nothing may have changed, which the checks below prove
        assert selectors.ledger_discrepancies() == [], f"after step {step} ({action})"
    for card in cards:
        assert total_copies(card) == granted[card.pk]
