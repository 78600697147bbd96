"""Clocks nothing can delay: timers and computer moves have a Celery lane of their own, and a
move's side work (pushes, reminders) is recorded with it and handed on in batches.

With one shared queue, a flood of moves (two side tasks each) and a push endpoint that never
answered once kept the timers' sweep from running for minutes. Here: every task goes to its
lane by name; a worker of the clocks' lane fires a deadline while the side lane holds a
backlog it never reads; and a burst of moves leaves a handful of side messages, not one a
move or a person."""
from __future__ import annotations

import time
from datetime import timedelta

import pytest
import redis
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.utils import timezone

from games import tasks
from games import registry
from games.inbox import push, reminders
from games.models import MoveRecord, Notification, Reminder, Seat
from games.table import services
from grailsite.celery import app
from tests.celery_worker import purge_lanes, wait_for
from tests.conftest import seated_players_moved


def _queued(queue: str) -> int:
    """Messages waiting in a queue of the broker (kombu's Redis transport keeps each as a list)."""
    return redis.Redis.from_url(settings.CELERY_BROKER_URL).llen(queue)


def _route(name: str) -> str:
    return app.amqp.router.route({}, name)["queue"].name


def test_every_task_goes_to_its_lane_by_name():
    app.loader.import_default_modules()
    ours = sorted(name for name in app.tasks if name.startswith("games.tasks."))
    assert ours, "the site's tasks are registered"
    clocks, side = settings.LANE_QUEUES["clocks"], settings.LANE_QUEUES["side"]
    assert {name: _route(name) for name in ours} == {
        name: clocks if name in settings.CLOCK_TASKS else side for name in ours}
    assert set(settings.CLOCK_TASKS) <= set(ours)
    assert clocks != side


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_deadline_fires_while_the_side_lane_is_buried(make_match):
    """A thousand side messages nobody reads: the clocks' own worker fires the deadline at once."""
    match, _ = make_match(clock_kind="minutes", clock_amount=5)
    seated_players_moved(match)  # under way: the late seat loses on time, a move the clock makes
    purge_lanes()
    for _ in range(1000):
        tasks.push_sweep.delay()
    assert _queued(settings.LANE_QUEUES["side"]) == 1000
    seat = Seat.objects.get(match=match, deadline__isnull=False)
    Seat.objects.filter(pk=seat.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    seat.refresh_from_db()
    started = time.monotonic()
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10,
                      queues=[settings.LANE_QUEUES["clocks"]]):
        tasks.deadline_fire.delay(match.pk, seat.index, match.version, seat.deadline.isoformat())
        assert wait_for(lambda: MoveRecord.objects.filter(match=match, by_timeout=True).exists(), timeout=10)
    assert time.monotonic() - started < 10
    # The clocks' worker read none of them (the time-out's own notice adds its hand-off).
    assert _queued(settings.LANE_QUEUES["side"]) >= 1000
    purge_lanes()


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_burst_of_moves_hands_on_a_bounded_batch_of_side_work(make_match, settings):
    """100 moves in 10 games, each a "your move" notice and a new deadline: the side lane gets
    at most one message a batch window from this process, and nothing for the reminders (the
    sweep plans them from the seats' rows). The work itself is all recorded."""
    settings.PUSH_BATCH_SECONDS = 60.0  # one window spans the whole burst
    push.forget_nudges()
    games = [make_match(clock_kind="days", clock_amount=3, options={"rounds": 6})[0] for _ in range(10)]
    purge_lanes()
    moves = 0
    started = time.monotonic()
    while moves < 100:
        for match in games:
            match.refresh_from_db()
            seat = next(s for s in match.seats.all() if s.deadline)
            move = registry.get(match.kind).legal_moves(match.state, seat.index)[0]
            services.move_submit(match_id=match.pk, user=seat.user, move=move, version=match.version)
            moves += 1
    windows = int((time.monotonic() - started) // settings.PUSH_BATCH_SECONDS) + 1
    side, clocks = _queued(settings.LANE_QUEUES["side"]), _queued(settings.LANE_QUEUES["clocks"])
    assert side <= windows, f"{side} side messages for {moves} moves"
    assert clocks == 0  # a days clock's deadlines are the sweep's, not a task a move
    # Recorded with the moves: a waiting notice for each person to move, and their deadlines
    # for the sweep to plan reminders from.
    waiting = Notification.objects.filter(kind="your_turn", pushed_at__isnull=True, read_at__isnull=True)
    assert waiting.count() == sum(1 for m in games for s in m.seats.all() if s.deadline)
    assert not Reminder.objects.exists()
    reminders.plan_missing()
    assert Reminder.objects.filter(before=reminders.PLANNED).count() == waiting.count()
    purge_lanes()
