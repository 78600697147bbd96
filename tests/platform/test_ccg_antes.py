"""Doubling the ante (16.2) and response windows with real deadlines: acceptance stakes more
cards, conceding puts the player out, and an unanswered offer or window expires through a
real Celery worker on the Redis broker (the pattern of test_timers.py)."""
from datetime import timedelta

import pytest
from django.utils import timezone

from decks import selectors as deck_selectors
from decks.models import AnteStake
from games.inbox import notify
from games.table import services
from games.models import Match, MoveRecord, Notification
from grailsite.celery import app
from tests.celery_worker import wait_for
from tests.platform.ccg_helpers import GAME, drive, ensure_card_database, prepared_player

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


@pytest.fixture
def table(make_user):
    """A started two-player game with doubling on, past the cut; returns (match, users, offerer)."""
    ensure_card_database()
    alice, bob = make_user("alice"), make_user("bob")
    decks = [prepared_player(alice, spare=1), prepared_player(bob)]
    match = services.match_create(creator=alice, kind="ccg", num_seats=2, invite=["bob"], seed=7,
                                  clock_kind="days", clock_amount=3,
                                  creator_choice={"deck": decks[0].pk},
                                  options={"double_the_ante": True, "offer": "2h", "window": "1h"})
    services.match_join(match_id=match.pk, user=bob, choice={"deck": decks[1].pk})
    users = [alice, bob]
    match = drive(match, users, until=lambda m: m.state["phase"] != "cut")
    return match, users, match.state["turn"]


def offer_double(match, users, offerer):
    """The offerer ends the turn doubling, discarding down to seven if asked."""
    services.move_submit(match_id=match.pk, user=users[offerer], move={"type": "end_turn", "double": True},
                         version=match.version)
    return drive(match, users, until=lambda m: any(p.kind == "offer" for p in GAME.pending(m.state)))


def held(match):
    return AnteStake.objects.filter(match_id=str(match.pk), status="held")


def test_accepting_a_double_stakes_as_many_cards_again_from_each_deck(table):
    match, users, offerer = table
    match = offer_double(match, users, offerer)
    other = 1 - offerer
    seat = match.seats.get(index=other)
    assert seat.waiting_for == "offer"
    assert timedelta(hours=1, minutes=59) < seat.deadline - timezone.now() <= timedelta(hours=2)
    assert Notification.objects.filter(user=users[other], kind="your_turn", text__contains="offer").exists()
    services.move_submit(match_id=match.pk, user=users[other], move={"type": "accept"}, version=match.version)
    match.refresh_from_db()
    assert held(match).count() == 4
    assert sorted(held(match).values_list("user_id", flat=True)) == sorted([users[0].pk, users[1].pk] * 2)
    view = GAME.view_for(match.state, other)
    assert view["doubling"] == {"since": [offerer], "count": 1} and len(view["ante"]) == 4
    assert deck_selectors.ledger_discrepancies() == []


def test_conceding_a_double_puts_the_player_out_and_stakes_nothing_more(table):
    match, users, offerer = table
    match = offer_double(match, users, offerer)
    services.move_submit(match_id=match.pk, user=users[1 - offerer], move={"type": "concede"}, version=match.version)
    match.refresh_from_db()
    assert match.state["p"][1 - offerer]["out"] == "conceded the doubled ante"
    assert held(match).count() == 2
    # Alone, the offerer gives up: each ante card goes home.
    services.move_submit(match_id=match.pk, user=users[offerer], move={"type": "give_up"}, version=match.version)
    match.refresh_from_db()
    assert match.status == "finished" and not held(match).exists()
    assert deck_selectors.ledger_discrepancies() == []


def test_an_unanswered_double_concedes_through_the_worker(worker, table):
    match, users, offerer = table
    match = offer_double(match, users, offerer)
    other = 1 - offerer
    deadline = timezone.now() + timedelta(seconds=1)
    match.seats.filter(index=other).update(deadline=deadline)
    notify._schedule(match.pk, match.version, [(other, deadline)])
    assert wait_for(lambda: MoveRecord.objects.filter(match=match, by_timeout=True).exists())
    record = MoveRecord.objects.get(match=match, by_timeout=True)
    assert record.move == {"type": "concede"} and record.seat == other
    match.refresh_from_db()
    assert match.state["p"][other]["out"] == "conceded the doubled ante" and held(match).count() == 2
    assert Notification.objects.filter(user=users[other], kind="timeout").exists()


def test_an_unanswered_response_window_passes_through_the_worker(worker, table):
    match, users, _ = table
    match = drive(match, users, until=lambda m: any(p.kind == "response" for p in GAME.pending(m.state)))
    seat = match.seats.get(waiting_for="response")
    assert timedelta(minutes=59) < seat.deadline - timezone.now() <= timedelta(hours=1)
    deadline = timezone.now() + timedelta(seconds=1)
    match.seats.filter(index=seat.index).update(deadline=deadline)
    notify._schedule(match.pk, match.version, [(seat.index, deadline)])
    assert wait_for(lambda: MoveRecord.objects.filter(match=match, by_timeout=True).exists())
    record = MoveRecord.objects.get(match=match, by_timeout=True)
    assert record.move == {"type": "pass"} and record.seat == seat.index
    assert Match.objects.get(pk=match.pk).version > match.version


def test_three_players_a_seat_out_of_time_leaves_with_its_stake_in_the_ante(make_user):
    """With three players and real antes no computer takes a late seat (it would stake the
    person's cards in a doubled ante without them): at the table's limit the seat leaves, its
    cards stay in the ante as after a resignation, and the game goes on for the other two."""
    from games.models import Seat
    from tests.conftest import seated_players_moved

    ensure_card_database()
    users = [make_user(name) for name in ("alice", "bob", "carol")]
    decks = [prepared_player(user, spare=i) for i, user in enumerate(users)]
    match = services.match_create(creator=users[0], kind="ccg", num_seats=3, invite=[u.username for u in users[1:]],
                                  seed=3, creator_choice={"deck": decks[0].pk}, clock_kind="days", clock_amount=1,
                                  takeover_after=1)
    for user, deck in zip(users[1:], decks[1:]):
        services.match_join(match_id=match.pk, user=user, choice={"deck": str(deck.pk)})
    match = drive(match, users, until=lambda m: GAME.pending(m.state)[0].kind == "turn")
    seated_players_moved(match)
    late = GAME.pending(match.state)[0].seat
    staked = AnteStake.objects.filter(match_id=str(match.pk), user=users[late], status=AnteStake.Status.HELD).count()
    assert staked == 1  # the cut put one of the late player's cards into the ante
    Seat.objects.filter(match=match, index=late).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.deadline_expire(match_id=match.pk, seat_index=late)
    match.refresh_from_db()
    seat = Seat.objects.get(match=match, index=late)
    assert match.status == Match.Status.ACTIVE
    assert (seat.user, seat.computer, seat.left_by, seat.walked_out) == (users[late], "", None, True)
    assert MoveRecord.objects.get(match=match, by_timeout=True).move == {"type": "resign"}
    assert AnteStake.objects.filter(match_id=str(match.pk), user=users[late],
                                    status=AnteStake.Status.HELD).count() == staked
