"""What each part a move's side work added costs, by itself, in CPU microseconds: the pieces
that hang off a move besides the rules, the frames and the statements (docs/performance.md,
"A move costs less"). In this process, with the site's settings, against the Redis of
REDIS_URL (a Celery message is sent to a queue of this script's own, then dropped).

    DATABASE_URL=... REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python bench/move_parts.py [--calls 20000]

Parts, each timed on its own (CPU time of this process, per call):
* a Celery task message sent (what a move queued before the side lane: a ``reminders_plan``
  per change with a deadline, and a ``push_flush`` per notified person);
* ``push.flush_on_commit`` as a move calls it now (within the batch window: nothing sent);
* ``notify.match_changed_on_commit`` for a two-seat change with no near deadline (the nudge
  registered for after the commit);
* ``metrics.moved`` (one Prometheus counter);
* one request line of ``grailsite.request`` through the site's JSON formatter (an API
  request's; a socket move writes none);
and the fixed pure-Python floor (bench/floor.py) beside them.
"""
from __future__ import annotations

import argparse
import io
import logging
import os
import sys
import time
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from floor import floor_per_second  # noqa: E402


def _per_call(fn, calls: int) -> float:
    """Microseconds of CPU per call."""
    start = time.process_time()
    for _ in range(calls):
        fn()
    return (time.process_time() - start) / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=20000)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "grailsite.settings")
    os.environ.setdefault("TIMERS_USE_CELERY", "true")
    import django

    django.setup()
    from django.conf import settings

    from games.inbox import notify, push
    from games.table import unit_of_work
    from grailsite import metrics
    from grailsite.celery import app
    from grailsite.logs import JsonFormatter

    floor = floor_per_second(2.0)
    rows = []

    queue = "bench-move-parts"
    sends = max(200, args.calls // 20)
    rows.append(("a Celery task message sent", _per_call(
        lambda: app.send_task("games.tasks.reminders_plan", args=(1,), queue=queue), sends)))
    with app.connection_for_write() as conn:
        conn.default_channel.queue_purge(queue)

    settings.TIMERS_USE_CELERY = True
    push.forget_nudges()
    unit = unit_of_work.UnitOfWork()
    with unit_of_work.collecting(unit):
        push.flush_on_commit([1])  # the first of a window asks for a sweep; the rest do not
        rows.append(("push.flush_on_commit (within its window)", _per_call(lambda: push.flush_on_commit([1, 2]),
                                                                          args.calls)))
        seats = [SimpleNamespace(index=i, user_id=i + 1, deadline=None) for i in range(2)]
        match = SimpleNamespace(pk=1, version=5)

        def changed():
            notify.match_changed_on_commit(match, seats, timers=())
            unit.after_commit.clear()
        rows.append(("notify.match_changed_on_commit", _per_call(changed, args.calls)))
    rows.append(("metrics.moved", _per_call(lambda: metrics.moved("ccg", "player"), args.calls)))

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    log = logging.getLogger("bench.move_parts.request")
    log.propagate = False
    log.addHandler(handler)
    log.setLevel(logging.INFO)

    def line():
        log.info("%s %s %s", "POST", "/api/matches/1/moves/", 200,
                 extra={"method": "POST", "path": "/api/matches/1/moves/", "status": 200, "duration_ms": 1.0})
        stream.seek(0)
        stream.truncate()
    rows.append(("a request log line (JSON)", _per_call(line, args.calls)))

    print(f"floor {floor:.1f} runs/s (bench/floor.py)")
    for name, micros in rows:
        print(f"{name:45s} {micros:8.1f} µs  ({micros * floor / 1e6:.4f} floor runs)")


if __name__ == "__main__":
    main()
