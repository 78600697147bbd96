"""Seats that owe a move at the same time (tests/council_game.py), on a real PostgreSQL: a
move is refused only when it is illegal now or the mover's own situation changed since the
version it was made on, never because another pending seat moved first."""
from datetime import timedelta

import pytest
from django.utils import timezone

from games.table import services
from grailsite.errors import MoveRejected, StaleVersion
from games.models import MoveRecord

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def _vote(match, user, seat, value=2):
    decision = next(d for d in match.state["decisions"][-1] if d["seat"] == seat)
    return {"type": "decide", "id": decision["id"], "choice": value}


def test_two_pending_seats_submitting_at_the_same_instant_both_apply(make_match, run_threads):
    match, (alice, bob, carol) = make_match(kind="council", seats=3)
    seen = match.version

    def submit(user, seat):
        return lambda: services.move_submit(match_id=match.pk, user=user, move=_vote(match, user, seat),
                                            version=seen, key=f"vote-{seat}")

    results = run_threads(submit(alice, 0), submit(bob, 1))
    assert all(isinstance(r, dict) and not r["repeated"] for r in results), results
    match.refresh_from_db()
    assert match.move_count == 2 and match.version == seen + 2
    # Carol never moved, so her own decision still stands: her move on the old version applies too.
    services.move_submit(match_id=match.pk, user=carol, move=_vote(match, carol, 2), version=seen)
    match.refresh_from_db()
    assert match.state["round"] == 2 and [v[-1] for v in match.state["votes"]] == [2, 2, 2]


def test_a_move_that_became_illegal_gets_a_clear_error_not_a_stale_one(make_match, run_threads):
    match, (alice, bob) = make_match(kind="council", options={"tokens": 1})
    seen = match.version

    def take(user, key):
        return lambda: services.move_submit(match_id=match.pk, user=user, move={"type": "take"}, version=seen, key=key)

    results = run_threads(take(alice, "a"), take(bob, "b"))
    wins = [r for r in results if isinstance(r, dict)]
    refused = [r for r in results if isinstance(r, MoveRejected)]
    assert len(wins) == 1 and len(refused) == 1, results
    assert refused[0].message == "The pool is empty." and refused[0].status == 422
    match.refresh_from_db()
    assert match.state["pool"] == 0 and sum(match.state["tokens"]) == 1
    assert MoveRecord.objects.filter(match=match).count() == 1


def test_a_seat_whose_own_situation_changed_is_still_guarded(make_match):
    match, (alice, bob) = make_match(kind="council")
    first = match.version
    services.move_submit(match_id=match.pk, user=alice, move=_vote(match, alice, 0), version=first)
    match.refresh_from_db()
    services.move_submit(match_id=match.pk, user=bob, move=_vote(match, bob, 1), version=first)
    match.refresh_from_db()
    assert match.state["round"] == 2  # a new round: both seats face a new decision
    with pytest.raises(StaleVersion):  # alice looked before her new decision existed
        services.move_submit(match_id=match.pk, user=alice, move=_vote(match, alice, 0), version=first + 1)
    with pytest.raises(StaleVersion):  # a version from the future is never accepted
        services.move_submit(match_id=match.pk, user=alice, move=_vote(match, alice, 0), version=match.version + 5)
    services.move_submit(match_id=match.pk, user=alice, move=_vote(match, alice, 0), version=match.version)


def test_idempotency_keys_stay_per_seat(make_match):
    match, (alice, bob) = make_match(kind="council")
    services.move_submit(match_id=match.pk, user=alice, move=_vote(match, alice, 0), version=None, key="k1")
    with pytest.raises(services.NotAllowed):
        services.move_submit(match_id=match.pk, user=bob, move=_vote(match, bob, 1), version=None, key="k1")
    again = services.move_submit(match_id=match.pk, user=alice, move={"type": "anything"}, version=None, key="k1")
    assert again["repeated"] is True


def test_simultaneous_seats_time_out_independently(make_match):
    match, (alice, bob) = make_match(kind="council", clock_kind="minutes", clock_amount=5)
    seats = {s.index: s for s in match.seats.all()}
    assert seats[0].deadline and seats[1].deadline
    bob_deadline = seats[1].deadline
    services.move_submit(match_id=match.pk, user=alice, move=_vote(match, alice, 0), version=match.version)
    bob_seat = match.seats.get(index=1)
    assert bob_seat.deadline == bob_deadline  # alice's move neither restarts nor clears bob's clock
    assert match.seats.get(index=0).deadline is None
    # A timer set for bob's deadline still fires after alice moved (the version moved on).
    bob_seat.deadline = timezone.now() - timedelta(seconds=1)
    bob_seat.save(update_fields=["deadline"])
    assert services.deadline_expire(match_id=match.pk, seat_index=1, deadline=bob_seat.deadline)
    match.refresh_from_db()
    assert match.state["round"] == 2 and match.state["votes"][1] == [1]  # the default vote
    # A timer for a deadline that was replaced does nothing.
    assert not services.deadline_expire(match_id=match.pk, seat_index=1, deadline=bob_deadline)


def test_a_paused_table_stops_every_clock_and_restarts_them_in_full(make_match):
    match, (alice, bob) = make_match(kind="council", clock_kind="seconds", clock_amount=60)
    before = {s.index: s.deadline for s in match.seats.all()}
    assert all(before.values())
    services.move_submit(match_id=match.pk, user=bob, move={"type": "pause"}, version=match.version)
    seats = {s.index: s for s in match.seats.all()}
    assert [seats[i].deadline for i in (0, 1)] == [None, None]
    assert [seats[i].waiting_for for i in (0, 1)] == ["vote", "vote"]  # still owed, just not timed
    assert not services.deadline_expire(match_id=match.pk, seat_index=0)  # no timer fires while paused
    match.refresh_from_db()
    with pytest.raises(MoveRejected, match="paused"):
        services.move_submit(match_id=match.pk, user=alice, move=_vote(match, alice, 0), version=match.version)
    services.move_submit(match_id=match.pk, user=alice, move={"type": "resume"}, version=match.version)
    after = {s.index: s.deadline for s in match.seats.all()}
    assert all(after[i] is not None and after[i] >= before[i] for i in (0, 1))
    assert all(after[i] - timezone.now() > timedelta(seconds=50) for i in (0, 1))  # a fresh minute each
