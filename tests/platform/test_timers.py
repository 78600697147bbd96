"""Turn timers through a real Celery worker on the Redis broker (not eager mode)."""
import time
from datetime import timedelta

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.conf import settings
from django.utils import timezone

from games.inbox import notify
from games.table import services
from games.models import Match, MoveRecord, Notification
from games.tasks import deadline_fire, deadlines_sweep
from grailsite.celery import app
from games import registry
from tests.celery_worker import purge_lanes, wait_for
from tests.conftest import seated_players_moved

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def timed_out_moves(match):
    return MoveRecord.objects.filter(match=match, by_timeout=True)


def _due_in(match, seconds: float):
    deadline = timezone.now() + timedelta(seconds=seconds)
    match.seats.filter(index=0).update(deadline=deadline)
    return deadline


def test_the_fast_path_task_applies_the_timeout_move(worker, make_match):
    """A game of three under way: the fast-path task fires at the deadline and the clock
    plays the late seat's turn (the rules' timeout move)."""
    match, (alice, _, _) = make_match(kind="secret", seats=3, clock_kind="minutes", clock_amount=5)
    seated_players_moved(match)
    timeout_move = registry.get("secret").timeout_move(match.state, 0)
    deadline = _due_in(match, 1.0)
    notify._schedule(match.pk, match.version, [(0, deadline)])
    assert wait_for(lambda: timed_out_moves(match).exists())
    record = timed_out_moves(match).get()
    assert record.move == timeout_move and record.seat == 0 and record.user is None
    match.refresh_from_db()
    assert match.seats.get(index=1).waiting_for == "turn"
    assert Notification.objects.filter(user=alice, kind="timeout").exists()


def test_a_timer_whose_version_moved_on_does_nothing(worker, make_match):
    match, (alice, _) = make_match(clock_kind="minutes", clock_amount=5)
    stale_version = match.version
    services.move_submit(match_id=match.pk, user=alice, move={"type": "play", "card": match.state["hands"][0][0]},
                         version=match.version)
    match.seats.filter(index=1).update(deadline=timezone.now() - timedelta(seconds=1))  # due, but...
    finished = {}

    def record(sender=None, task_id=None, retval=None, **kwargs):
        finished[task_id] = retval

    task_postrun.connect(record, weak=False)
    try:
        sent = deadline_fire.apply_async((match.pk, 1, stale_version))  # ...this timer is for an old version
        assert wait_for(lambda: sent.id in finished)
    finally:
        task_postrun.disconnect(record)
    assert finished[sent.id] is False
    assert not timed_out_moves(match).exists()


def test_the_beat_sweep_catches_a_lost_timer(make_match):
    match, _ = make_match(clock_kind="minutes", clock_amount=5)
    seated_players_moved(match)
    deadline = _due_in(match, 0.2)
    purge_lanes()
    notify._schedule(match.pk, match.version, [(0, deadline)])
    # Redis restarts or the worker dies: the scheduled task is gone.
    assert app.control.purge() >= 1
    time.sleep(0.3)
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10,
                      queues=[settings.LANE_QUEUES["clocks"]]):
        deadlines_sweep.delay()
        assert wait_for(lambda: timed_out_moves(match).exists())
        deadlines_sweep.delay()  # a second sweep finds nothing more to do
        time.sleep(1.5)
    assert timed_out_moves(match).count() == 1


def test_sweep_warns_a_day_ahead_once(make_match):
    match, (alice, _) = make_match(clock_kind="days", clock_amount=3)
    match.seats.filter(index=0).update(deadline=timezone.now() + timedelta(hours=20))
    assert services.deadlines_sweep() == 0
    services.deadlines_sweep()
    warnings = Notification.objects.filter(user=alice, kind="deadline_near")
    assert warnings.count() == 1


def test_vacation_stops_my_clock_within_the_allowance(make_match):
    match, (alice, _) = make_match(clock_kind="days", clock_amount=2, vacation_days=5)
    before = match.seats.get(index=0).deadline
    assert services.vacation_start(user=alice, days=10) == 1
    seat = match.seats.get(index=0)
    assert seat.deadline == before + timedelta(days=5)  # capped by the game's allowance
    assert seat.vacation_days_used == 5
    with pytest.raises(ValueError, match="vacation days left"):
        services.vacation_start(user=alice, days=1)


def test_no_day_ahead_warning_for_a_wait_whose_own_clock_is_short(monkeypatch, make_match):
    from games.table import lifecycle
    from games import registry

    # A 12-hour wait (e.g. a response window) in a 3-days-a-move game: warning a day ahead
    # would warn the moment it opened.
    monkeypatch.setattr(registry.room("secret"), "hooks", lifecycle.Hooks(allowance=lambda match, kind: ("hours", 12)))
    match, (alice, _) = make_match(kind="secret", clock_kind="days", clock_amount=3)
    assert match.seats.get(index=0).deadline - timezone.now() < timedelta(hours=12, minutes=1)
    services.deadlines_sweep()
    assert not Notification.objects.filter(user=alice, kind="deadline_near").exists()


def test_a_seconds_clock_fires_within_about_a_second_of_its_deadline(worker, make_match):
    """Live tables: a 10-seconds-a-move clock, set when the game starts, fired by the Celery
    fast path (the ETA task scheduled on commit), not left for the minute sweep."""
    match, (alice, _, _) = make_match(kind="secret", seats=3, clock_kind="seconds", clock_amount=10)
    seated_players_moved(match)
    deadline = match.seats.get(index=0).deadline
    assert timedelta(seconds=9) < deadline - timezone.now() <= timedelta(seconds=10)
    assert wait_for(lambda: timed_out_moves(match).exists(), timeout=20)
    fired = timed_out_moves(match).get()
    assert timedelta(0) <= fired.created_at - deadline < timedelta(seconds=1.5)
    assert match.seats.get(index=1).deadline is not None  # the next seat's 10 seconds run


def test_seconds_clocks_are_bounded_like_the_others():
    from games.table import clock

    clock.validate("seconds", 10)
    clock.validate("seconds", 600)
    for amount in (9, 601, "30", True):
        with pytest.raises(ValueError):
            clock.validate("seconds", amount)
    assert clock.allowance("seconds", 45) == timedelta(seconds=45)
