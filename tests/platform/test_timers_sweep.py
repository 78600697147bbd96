"""The timers' guarantee fires within seconds: a Redis restart drops the
ETA tasks a worker holds (deadlines and computer moves), and with a sweep once a minute they
fired up to a minute late (49 s seen). Celery beat now runs ``timers_sweep`` every
TIMERS_SWEEP_SECONDS; here a real beat process (the production command) and a real worker
on this run's broker and queue fire a deadline and a computer move whose tasks were lost.
The figure across a real Redis restart is bench/faults.py's ``held_redis``."""
import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone

from games.table import computers, services
from games.models import MoveRecord, Seat
from tests.celery_worker import wait_for
from tests.conftest import seated_players_moved

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

ROOT = Path(__file__).resolve().parents[2]
# What is asserted is "within seconds, not the minute the old sweep took": a run of the whole
# suite on a busy 2-core machine has seen beat's tick, the worker's pickup and the move take
# 9 s, so the bound sits halfway to the old minute (a 60 s schedule still fails it).
BOUND = 30.0


@pytest.fixture
def beat(tmp_path):
    """``celery beat`` as compose runs it, publishing to this run's broker and queue."""
    env = dict(os.environ, REDIS_URL=settings.CELERY_BROKER_URL,
               GRAILSITE_CELERY_QUEUE=settings.CELERY_TASK_DEFAULT_QUEUE, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "celery", "-A", "grailsite", "beat", "--loglevel", "warning",
                             "--schedule", str(tmp_path / "beat-schedule")], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(3)  # started, and past any round it runs as it starts
    yield proc
    proc.terminate()
    proc.wait(timeout=20)


def test_the_beat_schedule_sweeps_due_timers_every_few_seconds():
    entry = settings.CELERY_BEAT_SCHEDULE["fire-due-timers"]
    assert entry["task"] == "games.tasks.timers_sweep"
    assert entry["schedule"] <= 5
    assert entry["options"]["expires"] <= entry["schedule"], "a backlog of sweeps is dropped, not run"


def test_a_deadline_and_a_computer_move_whose_tasks_were_lost_fire_within_seconds(worker, beat, make_match,
                                                                                  make_user, monkeypatch):
    # A turn deadline falling due in a second with no task behind it (lost with Redis).
    timed, _ = make_match(clock_kind="minutes", clock_amount=5)
    seated_players_moved(timed)  # a loss on time, made as the clock's move (an abort leaves none)
    deadline = timezone.now() + timedelta(seconds=1)
    Seat.objects.filter(match=timed, index=0).update(deadline=deadline)
    # A computer player's move due in a second, its task never sent.
    alice = make_user("alice")
    versus = services.match_create(creator=alice, kind="duel", num_seats=2, seed=7, computers_at={1: "knight"},
                                   computer_delay=1, clock_kind="hours", clock_amount=12)
    versus.refresh_from_db()
    monkeypatch.setattr(computers, "_send", lambda *args: None)
    services.move_submit(match_id=versus.pk, user=alice, move={"type": "play", "card": versus.state["hands"][0][0]},
                         version=versus.version)
    due = Seat.objects.get(match=versus, index=1).computer_due

    interval = settings.TIMERS_SWEEP_SECONDS
    timeout = MoveRecord.objects.filter(match=timed, by_timeout=True)
    computer = MoveRecord.objects.filter(match=versus, seat=1)
    assert interval < BOUND
    assert wait_for(lambda: timeout.exists() and computer.exists(), timeout=1 + BOUND)
    late = (timeout.get().created_at - deadline).total_seconds()
    assert 0 <= late <= BOUND, f"the deadline fired {late:.1f} s late"
    late = (computer.get().created_at - due).total_seconds()
    grace = computers.SWEEP_GRACE.total_seconds()
    assert grace <= late <= grace + BOUND, f"the computer moved {late:.1f} s late"
