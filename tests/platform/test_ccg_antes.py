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


# --- a late seat of a rated game of three handed to a computer ---------------------------

def _rated_three(make_user, *, seed, takeover_after=2, double=False):
    """A rated CCG game of alice, bob and carol (real antes: prepared decks from their own
    collections), past the cuts, each counted as having moved; returns (match, users, grants)
    where grants[user] is how many cards of each code they own in all."""
    from tests.conftest import seated_players_moved

    ensure_card_database()
    users = [make_user(name) for name in ("alice", "bob", "carol")]
    decks = [prepared_player(user, spare=i) for i, user in enumerate(users)]
    match = services.match_create(creator=users[0], kind="ccg", num_seats=3, invite=[u.username for u in users[1:]],
                                  seed=seed, creator_choice={"deck": decks[0].pk}, clock_kind="days", clock_amount=1,
                                  takeover_after=takeover_after, computer_delay=60,
                                  options={"double_the_ante": double, "offer": "2h", "window": "1h"})
    for user, deck in zip(users[1:], decks[1:]):
        services.match_join(match_id=match.pk, user=user, choice={"deck": str(deck.pk)})
    match = drive(match, users, until=lambda m: m.state["phase"] != "cut")
    seated_players_moved(match)
    return match, users, {u.pk: _owned(u) for u in users}


def _owned(user):
    from decks.models import Holding
    return {code: q + h for code, q, h in Holding.objects.filter(user=user).values_list("card__code", "quantity", "held")}


def _time_out(match, seat_index):
    from games.models import Seat
    Seat.objects.filter(match=match, index=seat_index).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.deadline_expire(match_id=match.pk, seat_index=seat_index)
    match.refresh_from_db()
    return match


def _scripted_computer(game, match, seat):
    """A computer player that only walks to the Grail, as the scripted persons do: the game
    then goes as ``seed_for`` found it."""
    from tests.platform.ccg_helpers import scripted_move
    from games.rules.ccg.game import with_words
    return with_words(match.state, scripted_move(match.state, seat.index, game.legal_moves(match.state, seat.index)))


def _play_out(match, users, *, until=None, limit=800):
    """Every seat to the end (or ``until(match)``): the persons scripted, a computer seat
    through its own service."""
    from games.models import Seat
    from games.rules.ccg.game import with_words
    from tests.platform.ccg_helpers import scripted_move
    for _ in range(limit):
        match.refresh_from_db()
        if match.status != "active" or (until and until(match)):
            return match
        seat = GAME.pending(match.state)[0].seat
        if Seat.objects.get(match=match, index=seat).computer:
            assert services.computer_move_apply(match_id=match.pk, seat_index=seat)
        else:
            move = with_words(match.state, scripted_move(match.state, seat, GAME.legal_moves(match.state, seat)))
            services.move_submit(match_id=match.pk, user=users[seat], move=move, version=match.version)
    raise AssertionError("the game did not end")


def _sound(match, grants):
    """The ledger agrees with the holdings and every card is where it was granted: owned by
    someone, none made or lost (the ante moves cards between the players only)."""
    from collections import Counter
    from decks.models import Holding
    from decks.selectors import ledger_discrepancies
    from games.table.replay import replay_check
    assert ledger_discrepancies() == []
    now = Counter()
    for code, q, h in Holding.objects.filter(user_id__in=list(grants)).values_list("card__code", "quantity", "held"):
        now[code] += q + h
    assert now == sum((Counter(g) for g in grants.values()), Counter())
    assert replay_check(match) is None


def _handed_over_at(match, users, late, *, takeover_after, limit=300):
    """The others play (scripted) and ``late`` lets every clock of theirs run out (a default
    the clock makes does not end a run of time-outs; a move of their own would) until its
    turn has run out ``takeover_after`` times."""
    from games.rules.ccg.game import with_words
    from tests.platform.ccg_helpers import scripted_move
    turns = 0
    for _ in range(limit):
        pend = GAME.pending(match.state)[0]
        if pend.seat == late:
            turns += pend.kind == "turn"
            match = _time_out(match, late)
            if turns == takeover_after:
                return match
            continue
        move = with_words(match.state, scripted_move(match.state, pend.seat, GAME.legal_moves(match.state, pend.seat)))
        services.move_submit(match_id=match.pk, user=users[pend.seat], move=move, version=match.version)
        match.refresh_from_db()
    raise AssertionError("the late seat was not handed over")


def test_three_players_a_seat_out_of_time_twice_is_played_by_a_computer_that_stakes_nothing(make_user):
    """The late seat's cards in the ante stay there, a computer plays it on, it is never
    offered to double or accept a double (a double made to it is conceded), and the ledger
    stays sound: no card made or lost, the game replays from its log."""
    from games.models import Seat
    match, users, grants = _rated_three(make_user, seed=3, double=True)
    late = GAME.pending(match.state)[0].seat
    staked = held(match).filter(user=users[late]).count()
    assert staked == 1  # the cut put one of the late player's cards into the ante
    match = _handed_over_at(match, users, late, takeover_after=2)
    seat = Seat.objects.get(match=match, index=late)
    assert match.status == Match.Status.ACTIVE
    assert (seat.user, seat.computer, seat.left_by) == (None, "knight", users[late])
    assert match.state["stakes_nothing"] == [late]
    record = MoveRecord.objects.get(match=match, move={"type": "hand_over"})
    assert (record.seat, record.user, record.by_timeout) == (late, None, True)
    assert held(match).filter(user=users[late]).count() == staked
    _sound(match, grants)
    # A person doubles at the end of their turn: the other person accepts, the computer concedes.
    match = _play_out(match, users, until=lambda m: GAME.pending(m.state)[0].kind == "turn"
                      and GAME.pending(m.state)[0].seat != late)
    doubler = GAME.pending(match.state)[0].seat
    assert {"type": "end_turn", "double": True} in GAME.legal_moves(match.state, doubler)
    match = offer_double(match, users, doubler)
    assert GAME.legal_moves(match.state, late) == [{"type": "concede"}]
    other = 3 - doubler - late
    services.move_submit(match_id=match.pk, user=users[other], move={"type": "accept"}, version=match.version)
    assert services.computer_move_apply(match_id=match.pk, seat_index=late)
    match.refresh_from_db()
    assert match.state["p"][late]["out"] == "conceded the doubled ante"
    assert held(match).filter(user=users[late]).count() == staked
    assert held(match).filter(user=users[doubler]).count() == 2 and held(match).filter(user=users[other]).count() == 2
    moves = [r.move for r in MoveRecord.objects.filter(match=match, seat=late, seq__gt=record.seq)]
    assert moves and not any(m.get("double") or m["type"] == "accept" for m in moves)
    _sound(match, grants)
    match = _play_out(match, users)
    assert match.status == Match.Status.FINISHED
    assert not held(match).exists()
    _sound(match, grants)
    from games.players.ratings import entries
    ranks = {e.seat: e.rank for e in entries(match.outcome, list(match.seats.all()))}
    assert ranks[late] == max(ranks.values()) > min(ranks.values())  # below those who played it out


def _seed_where(want):
    from tests.platform.ccg_helpers import seed_for
    return seed_for(want, [40, 41, 42], players=3)


def test_a_computer_seat_that_finds_the_grail_wins_the_game_and_the_ante_goes_home(make_user, monkeypatch):
    from games.table import computers, selectors
    from tests.platform.ccg_helpers import play_out, prepared_card_dicts
    ensure_card_database()
    seed = _seed_where("won")
    state = GAME.setup(3, {"decks": [prepared_card_dicts() for _ in range(3)], "collection_sizes": [40, 41, 42]}, seed)
    finder = play_out(state)[0]["result"]["finder"]
    monkeypatch.setattr(computers, "choose", _scripted_computer)
    match, users, grants = _rated_three(make_user, seed=seed, takeover_after=1)
    match = _handed_over_at(match, users, finder, takeover_after=1)
    assert match.state["stakes_nothing"] == [finder]
    match = _play_out(match, users)
    assert match.outcome["winners"] == [finder]
    assert match.state["result"]["home"] == "computer_found"
    assert not held(match).exists()
    assert _owned(users[finder]) == grants[users[finder].pk]  # nothing won, nothing lost
    _sound(match, grants)
    seats = list(match.seats.all())
    ending = selectors.ending_for(match, 0, seats)
    said = " ".join([ending["reason"], *ending["details"]])
    assert "found the Holy Grail for the player who left it, but a seat played by a computer wins no cards" in said


def test_a_drawn_game_with_a_computer_seat_starts_no_rematch_and_sends_the_ante_home(make_user, monkeypatch):
    from games.table import computers, selectors
    ensure_card_database()
    seed = _seed_where("carried")
    monkeypatch.setattr(computers, "choose", _scripted_computer)
    match, users, grants = _rated_three(make_user, seed=seed, takeover_after=1)
    late = GAME.pending(match.state)[0].seat
    match = _handed_over_at(match, users, late, takeover_after=1)
    match = _play_out(match, users)
    assert match.outcome["draw"] and match.state["result"]["home"] == "computer_seat"
    assert not Match.objects.filter(rematch_of=match).exists()
    assert not held(match).exists()
    _sound(match, grants)
    ending = selectors.ending_for(match, 0, list(match.seats.all()))
    assert any("no rematch starts and nothing is carried over" in d for d in ending["details"])
