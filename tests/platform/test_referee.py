"""The clock as referee (games/table/referee.py, docs/rules/*.md "Time").

- A game of two: running out of time on one's own turn loses it, rated as a loss; a whole
  game is never played by the clock.
- Three or more: the clock ends a late seat's turn once; ``takeover_after`` time-outs in a
  row hand the seat to a computer player (or, in a game with no computer player, the seat leaves).
- A person who leaves before their first move of their own (resigning or running out of
  time) aborts the game: no result, not rated. A late joiner never aborts one.
- A wait with a default (a decision, a discard) is answered by the clock and counts for nothing.
- Another player may give a seat more time: the game's own allowance, at most a day.
"""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import registry
from games.models import Match, MoveRecord, Notification, RatingChange, Seat
from games.table import selectors, services
from grailsite.errors import NotAllowed, ServiceError
from tests.conftest import seated_players_moved

pytestmark = pytest.mark.django_db


def _expire(match, seat_index: int) -> bool:
    Seat.objects.filter(match=match, index=seat_index).update(deadline=timezone.now() - timedelta(seconds=1))
    return services.deadline_expire(match_id=match.pk, seat_index=seat_index)


def _to_move(match) -> int:
    match.refresh_from_db()
    return registry.get(match.kind).pending(match.state)[0].seat


def _until_turn_of(match, users, late: int) -> None:
    """The others (and the late seat's own steps within a turn) play on until ``late``'s own
    turn comes round."""
    game = registry.get(match.kind)
    while True:
        match.refresh_from_db()
        owed = game.pending(match.state)[0]
        if owed.seat == late and owed.kind in game.own_turn_waits:
            return
        _play(match, users)


def _play(match, users) -> None:
    """The seat to move plays its first listed move, as its person."""
    seat = _to_move(match)
    move = registry.get(match.kind).legal_moves(match.state, seat)[0]
    services.move_submit(match_id=match.pk, user=users[seat], move=move, version=match.version)


# --- a game of two -------------------------------------------------------------------------

def test_in_a_game_of_two_running_out_of_time_loses_and_is_rated_as_a_loss(make_match):
    match, users = make_match(kind="duel", options={"rounds": 3}, clock_kind="days", clock_amount=1)
    _play(match, users)
    _play(match, users)
    late = _to_move(match)
    assert _expire(match, late)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.outcome["winners"] == [1 - late]
    assert match.outcome["reason"] == f"Seat {late + 1} ran out of time."
    ending = selectors.ending_for(match, 1 - late, selectors.seats_for(match))
    assert (ending["headline"], ending["reason"]) == ("You won", f"{users[late].username} ran out of time.")
    assert {c.user_id: c.rank for c in RatingChange.objects.filter(match=match)} == {
        users[late].pk: 2, users[1 - late].pk: 1}
    seat = Seat.objects.get(match=match, index=late)
    assert seat.ran_out and seat.own_moves == 1
    # The clock made one move, the resignation: it never played the game for the late player.
    assert list(MoveRecord.objects.filter(match=match, by_timeout=True).values_list("move", flat=True)) == [
        {"type": "resign"}]


def test_a_person_who_never_moves_does_not_get_a_whole_game_played_for_them(make_match):
    """Both accept a one-minute rated duel and never touch it: the game is aborted at the
    first deadline, unrated, instead of the clock playing every card for both sides."""
    match, users = make_match(kind="duel", clock_kind="minutes", clock_amount=1)
    first = _to_move(match)
    assert _expire(match, first)
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.outcome["aborted"] is True
    assert match.outcome["winners"] == [] and not match.outcome["draw"]
    assert not MoveRecord.objects.filter(match=match).exists()
    assert not RatingChange.objects.filter(match=match).exists()
    assert not Seat.objects.filter(match=match, deadline__isnull=False).exists()
    ending = selectors.ending_for(match, 0, selectors.seats_for(match))
    assert ending["headline"] == "Aborted"
    assert ending["reason"] == (f"{users[first].username} ran out of time before their first move, so the game is "
                                "aborted: no result, not rated.")
    for user in users:
        assert Notification.objects.filter(user=user, match=match, kind="game_over",
                                           text__startswith=f"Grail Duel #{match.pk} was aborted").exists()
    assert services.deadline_expire(match_id=match.pk, seat_index=1 - first) is False  # nothing more happens


def test_resigning_before_ones_first_move_aborts_and_moves_no_rating(make_match):
    """An account that accepts rated duels and resigns each before moving moves nobody's rating."""
    for _ in range(3):
        match, (alice, bob) = make_match(kind="duel")
        services.match_resign(match_id=match.pk, user=bob)
        match.refresh_from_db()
        assert match.status == Match.Status.ABORTED
        assert "resigned before their first move" in match.outcome["reason"]
    assert not RatingChange.objects.exists()


def test_after_a_move_of_ones_own_a_resignation_is_a_loss(make_match):
    match, users = make_match(kind="duel", options={"rounds": 3})
    mover = _to_move(match)
    _play(match, users)
    services.match_resign(match_id=match.pk, user=users[mover])
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.outcome["winners"] == [1 - mover]


def test_a_preset_or_the_clocks_moves_are_not_a_persons_own(make_match):
    """Only moves the person submitted count: a default the clock made does not save a player
    who never moved from aborting the game."""
    match, users = make_match(kind="secret", seats=3, clock_kind="days", clock_amount=1)
    first = _to_move(match)
    _play(match, users)
    assert Seat.objects.get(match=match, index=first).own_moves == 1
    assert set(Seat.objects.filter(match=match).exclude(index=first).values_list("own_moves", flat=True)) == {0}


# --- three or more -------------------------------------------------------------------------

def test_three_or_more_the_clock_ends_the_turn_once_then_a_computer_takes_the_seat(make_match):
    match, users = make_match(kind="cupquest", seats=3, clock_kind="hours", clock_amount=12)
    seated_players_moved(match)
    late = _to_move(match)
    assert _expire(match, late)  # once: the clock ends the turn
    seat = Seat.objects.get(match=match, index=late)
    assert (seat.user, seat.timeouts_in_row, seat.ran_out) == (users[late], 1, True)
    timed_out = MoveRecord.objects.filter(match=match, by_timeout=True).get()
    assert timed_out.events[0]["text"] == f"Seat {late + 1}'s time ran out, so the clock passes for them."
    # The others play on until the late seat's turn comes again, and it runs out again.
    _until_turn_of(match, users, late)
    assert _expire(match, late)
    seat = Seat.objects.get(match=match, index=late)
    assert (seat.user, seat.computer, seat.left_by) == (None, "knight", users[late])
    assert seat.timeouts_in_row == 2
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    log = [line["text"] for line in selectors.log_for(match, None, seats=selectors.seats_for(match))]
    assert any(f"{users[late].username} ran out of time twice in a row" in line and "plays on in their place" in line
               for line in log), log
    assert Notification.objects.filter(user=users[late], kind="timeout", text__contains="plays your seat").exists()


def test_a_move_of_ones_own_ends_a_run_of_time_outs(make_match):
    match, users = make_match(kind="cupquest", seats=3, clock_kind="hours", clock_amount=12)
    seated_players_moved(match)
    late = _to_move(match)
    assert _expire(match, late)
    _until_turn_of(match, users, late)
    _play(match, users)  # the late player is back and moves
    assert Seat.objects.get(match=match, index=late).timeouts_in_row == 0
    _until_turn_of(match, users, late)
    assert _expire(match, late)  # the first of a new run: the clock again, no computer
    seat = Seat.objects.get(match=match, index=late)
    assert (seat.user, seat.computer, seat.timeouts_in_row) == (users[late], "", 1)


def test_where_no_computer_may_inherit_the_seat_the_late_player_leaves(make_match):
    """The test game has no computer player: at the table's limit the seat leaves the game."""
    match, users = make_match(kind="secret", seats=3, clock_kind="days", clock_amount=1, takeover_after=1)
    seated_players_moved(match)
    late = _to_move(match)
    assert _expire(match, late)
    record = MoveRecord.objects.get(match=match, by_timeout=True)
    assert record.move == {"type": "resign"}
    assert record.events[0]["text"] == f"Seat {late + 1} ran out of time, and leaves the game."


def test_a_seat_the_clock_sends_out_ranks_below_the_others_when_its_leaving_ends_the_game(make_match):
    """In the test game a resignation ends the game: the clock's leave is its last move, and
    the game is rated there. The late player walked out all the same, and ranks last."""
    match, users = make_match(kind="secret", seats=3, clock_kind="days", clock_amount=1, takeover_after=1)
    seated_players_moved(match)
    late = _to_move(match)
    assert _expire(match, late)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert Seat.objects.get(match=match, index=late).walked_out
    assert not Seat.objects.filter(match=match, walked_out=True).exclude(index=late).exists()
    ranks = {c.user_id: c.rank for c in RatingChange.objects.filter(match=match)}
    assert ranks == {u.pk: 2 if i == late else 1 for i, u in enumerate(users)}


def test_a_late_joiner_who_leaves_at_once_does_not_abort_the_game(make_match, make_user):
    match, users = make_match(kind="fluxx", seats=2, options={"late_joiners": True})
    seated_players_moved(match)
    newcomer = make_user("newcomer")
    services.match_join(match_id=match.pk, user=newcomer)
    seat = Seat.objects.get(match=match, user=newcomer)
    assert seat.joined_late and seat.own_moves == 0
    services.match_resign(match_id=match.pk, user=newcomer)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE


# --- more time ----------------------------------------------------------------------------------

def test_the_opponent_may_give_more_time_the_games_own_allowance_at_most_a_day(make_match, make_user):
    match, (alice, bob) = make_match(kind="duel", clock_kind="hours", clock_amount=6)
    late = _to_move(match)
    giver, receiver = (alice, bob)[1 - late], (alice, bob)[late]
    before = Seat.objects.get(match=match, index=late).deadline
    services.deadline_extend(match_id=match.pk, user=giver, seat_index=late)
    assert Seat.objects.get(match=match, index=late).deadline == before + timedelta(hours=6)
    assert Notification.objects.filter(user=receiver, text__contains=f"{giver.username} gave you 6 hours more").exists()
    with pytest.raises(ServiceError, match="cannot give yourself"):
        services.deadline_extend(match_id=match.pk, user=receiver, seat_index=late)
    with pytest.raises(NotAllowed):
        services.deadline_extend(match_id=match.pk, user=make_user("stranger"), seat_index=late)
    table, trio = make_match(kind="secret", seats=3, clock_kind="days", clock_amount=1)
    idle = next(s for s in Seat.objects.filter(match=table) if s.deadline is None)
    giver = next(u for u in trio if u.pk != idle.user_id)
    with pytest.raises(ServiceError, match="not running"):
        services.deadline_extend(match_id=table.pk, user=giver, seat_index=idle.index)

    days, (carol, dave) = make_match(kind="duel", clock_kind="days", clock_amount=3)
    late = _to_move(days)
    before = Seat.objects.get(match=days, index=late).deadline
    client = Client()
    client.force_login((carol, dave)[1 - late])
    answer = client.post(f"/api/matches/{days.pk}/add-time/", {"seat": late}, content_type="application/json")
    assert answer.status_code == 200, answer.content
    assert Seat.objects.get(match=days, index=late).deadline == before + timedelta(days=1)  # at most a day
    assert client.post(f"/api/matches/{days.pk}/add-time/", {"seat": 99},
                       content_type="application/json").status_code == 400


def test_a_no_show_who_aborts_a_game_by_the_clock_has_run_out_of_time(make_match):
    """Aborting by never moving counts against one's reliability (Seat.ran_out)."""
    match, users = make_match(kind="duel", clock_kind="minutes", clock_amount=1)
    late = _to_move(match)
    assert _expire(match, late)
    assert Match.objects.get(pk=match.pk).status == Match.Status.ABORTED
    assert Seat.objects.get(match=match, index=late).ran_out


def test_a_resignation_sent_as_a_move_is_no_move_of_ones_own(make_match):
    """Sent through the moves endpoint, a resignation before one's first move aborts the game
    as the resign button does; later it is a loss, and never counts as a move of one's own."""
    match, (alice, bob) = make_match(kind="duel")
    client = Client()
    client.force_login(bob)
    answer = client.post(f"/api/matches/{match.pk}/moves/", {"move": {"type": "resign"}, "version": match.version},
                         content_type="application/json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["seq"] is None
    assert Match.objects.get(pk=match.pk).status == Match.Status.ABORTED

    match, users = make_match(kind="duel", options={"rounds": 3})
    mover = _to_move(match)
    _play(match, users)
    match.refresh_from_db()
    services.move_submit(match_id=match.pk, user=users[mover], move={"type": "resign"}, version=match.version)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.outcome["winners"] == [1 - mover]
    assert Seat.objects.get(match=match, index=mover).own_moves == 1


# --- seats stored before the referee counted them (migration 0024) ----------------------------

def test_a_seat_taken_over_counts_its_persons_moves_and_time_outs_after_the_backfill(make_match):
    """Migration 0018 counted own moves only for seats a person still held: a seat a computer
    took over kept 0, and its rated game was refused by the ratings ("made no move of their
    own"). The backfill counts them from the log, and marks the time-outs on the seat's own
    turn that the log shows (replayed: the log does not say which wait the clock answered)."""
    import importlib

    from django.apps import apps

    from games.players import ratings

    backfill = importlib.import_module("games.migrations.0024_seat_backfill")
    match, users = make_match(kind="cupquest", seats=3, clock_kind="hours", clock_amount=12)
    late = _to_move(match)
    others = [u for i, u in enumerate(users) if i != late]
    seated_players_moved(match, *others)
    _play(match, users)  # the late player's one move of their own
    _until_turn_of(match, users, late)
    assert _expire(match, late)

    # A game in play, as stored before the referee: the run of time-outs comes back from the log.
    Seat.objects.filter(match=match, index=late).update(ran_out=False, timeouts_in_row=0)
    assert backfill.mark_time_outs(apps) == 1
    seat = Seat.objects.get(match=match, index=late)
    assert (seat.ran_out, seat.timeouts_in_row) == (True, 1)

    _until_turn_of(match, users, late)
    assert _expire(match, late)  # the second in a row: a computer player takes the seat
    seat = Seat.objects.get(match=match, index=late)
    assert (seat.user, seat.left_by, seat.own_moves) == (None, users[late], 1)
    Seat.objects.filter(pk=seat.pk).update(own_moves=0, ran_out=False)  # as 0018 left such a seat
    for other in others:  # the others leave too: the game ends, rated, with the taken-over seat in it
        services.match_resign(match_id=match.pk, user=other)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.rated
    assert match.outcome["not_rated"] == f"Not rated: Seat {late + 1} made no move of their own."
    assert ratings.recompute().not_counted[match.pk] == f"Seat {late + 1} made no move of their own"

    assert backfill.count_left_seats_moves(apps) == 1
    assert backfill.mark_time_outs(apps) == 1
    seat = Seat.objects.get(match=match, index=late)
    assert (seat.own_moves, seat.ran_out) == (1, True)
    assert ratings.not_counted(Seat.objects.filter(match=match)) is None
    rebuilt = ratings.recompute()
    assert match.pk not in rebuilt.not_counted
    # Rated now: the three people, the one a computer replaced among them.
    assert {u for (m, u) in rebuilt.changes if m == match.pk} == {u.pk for u in users}
