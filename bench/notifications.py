"""Push notifications: how fast one worker pushes, and how long a move waits for
its push, with 1,000 subscribed players.

    .venv/bin/python bench/notifications.py                 # 1,000 players (500 games)
    .venv/bin/python bench/notifications.py --players 200 --window 0

A fresh database ``grailsite_bench_push`` (BENCH_DB) on the PostgreSQL of BENCH_PG, the Redis
of REDIS_URL, one real Celery worker (``--pool solo``: one process, one task at a time) and a
push service on loopback (tests/push_service.py) that takes pywebpush's real requests; every
one is decrypted with its subscriber's key afterwards and checked.

1. Throughput: every player has a notice waiting; one flush task each is queued at once; the
   figure is pushes arriving per second at the push service, first to last.
2. Latency: one move in each game (each notifies the other player, who is subscribed), paced
   at ``--rate`` moves a second; the figure is from the move's commit (its service call
   returning) to its push request arriving: p50 and p95. It includes the batch window
   (PUSH_BATCH_SECONDS, ``--window``), the wait that lets ten changes make one push.

The floor beside them is bench/floor.py's fixed pure-Python workload in this process
(runs/s): pushing is CPU work (an ECDH key, HKDF, AES-GCM and an ES256 signature each), so
pushes/s ÷ floor compares across machines.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from floor import floor_per_second  # noqa: E402  (bench/floor.py)

PG = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
BENCH_DB = os.environ.get("BENCH_DB", "grailsite_bench_push")
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
QUEUE = "bench-push-tasks"


def env_for(window: float, vapid_key: str) -> dict:
    # DB_POOL: connections kept, as production keeps them (a fresh one per task costs more than the push).
    return dict(os.environ, DATABASE_URL=f"{PG}/{BENCH_DB}", REDIS_URL=REDIS_URL, DJANGO_DEBUG="false", DB_POOL="1",
                GRAILSITE_CELERY_QUEUE=QUEUE, GRAILSITE_CHANNEL_PREFIX="bench-push", LOG_LEVEL="ERROR",
                PUSH_ALLOW_LOOPBACK="true", PUSH_BATCH_SECONDS=str(window), VAPID_PRIVATE_KEY=vapid_key,
                SECRET_KEY="bench-only", DJANGO_SETTINGS_MODULE="grailsite.settings", PYTHONPATH=str(ROOT))


def vapid_private_key() -> str:
    """A key of the bench's own (games.inbox.push.generate_private_key's format; Django is not set up yet)."""
    import base64

    from cryptography.hazmat.primitives.asymmetric import ec
    raw = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value.to_bytes(32, "big")
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def prepare(players: int, window: float):
    subprocess.run(["psql", PG + "/postgres", "-qc", f"DROP DATABASE IF EXISTS {BENCH_DB}"], check=True)
    subprocess.run(["psql", PG + "/postgres", "-qc", f"CREATE DATABASE {BENCH_DB}"], check=True)
    env = env_for(window, vapid_private_key())
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    os.environ.update(env)
    import django

    django.setup()
    return env


def make_players(players: int, service):
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db.models.signals import post_save
    from django.utils import timezone

    from games.table import services
    from games.models import Notification
    from grailsite.accounts.models import PushSubscription
    from tests.push_service import BrowserKeys

    post_save.disconnect(sender=settings.AUTH_USER_MODEL, dispatch_uid="decks_starter_grant")
    User = get_user_model()
    users = User.objects.bulk_create([User(username=f"p{i}") for i in range(players)])
    users = list(User.objects.order_by("pk"))
    from grailsite.accounts.models import Profile
    Profile.objects.bulk_create([Profile(user=u) for u in users], ignore_conflicts=True)
    keys = {}
    rows = []
    for user in users:
        keys[user.pk] = BrowserKeys()
        sub = keys[user.pk].subscription(service.url(f"u{user.pk}"))
        rows.append(PushSubscription(user=user, endpoint=sub["endpoint"], p256dh=sub["keys"]["p256dh"],
                                     auth=sub["keys"]["auth"], label="bench"))
    PushSubscription.objects.bulk_create(rows)
    matches = []
    for i in range(0, len(users) - 1, 2):
        a, b = users[i], users[i + 1]
        match = services.match_create(creator=a, kind="duel", num_seats=2, invite=[b.username], seed=i,
                                      clock_kind="days", clock_amount=3)
        services.match_join(match_id=match.pk, user=b)
        matches.append(match.pk)
    # What setting up notified (invitations, first turns) is not what is measured.
    Notification.objects.update(pushed_at=timezone.now())
    return users, keys, matches


def start_worker(env):
    return subprocess.Popen([sys.executable, "-m", "celery", "-A", "grailsite", "worker", "--pool", "solo",
                             "--loglevel", "error", "--without-heartbeat", "--without-mingle", "--without-gossip"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def check_payloads(service, keys, start: int = 0) -> int:
    """Decrypt every request from ``start`` with its subscriber's key; returns how many."""
    checked = 0
    for received in service.received[start:]:
        user_id = int(received.path.rsplit("/u", 1)[1])
        payload = keys[user_id].payload(received)
        assert payload["title"] and payload["url"].startswith("/"), payload
        checked += 1
    return checked


def throughput(users, keys, service, app) -> tuple[float, int]:
    from games.models import Notification

    # One waiting notice per player: their latest, back in the queue.
    latest = {}
    for notice_id, user_id in Notification.objects.order_by("created_at").values_list("pk", "user_id"):
        latest[user_id] = notice_id
    Notification.objects.filter(pk__in=latest.values()).update(pushed_at=None)
    before = len(service.received)
    for user in users:
        app.send_task("games.tasks.push_flush", args=(user.pk,))
    assert service.wait(before + len(users), timeout=600), f"{len(service.received) - before} of {len(users)} arrived"
    arrived = service.received[before:]
    span = arrived[-1].at - arrived[0].at
    return (len(arrived) - 1) / span if span > 0 else float("inf"), check_payloads(service, keys, before)


def latency(matches, service, keys, rate: float) -> list[float]:
    from games.table import services
    from games.models import Match

    before = len(service.received)
    committed: dict[str, float] = {}
    interval = 1.0 / rate
    next_at = time.monotonic()
    for match_id in matches:
        match = Match.objects.get(pk=match_id)
        seat = match.seats.select_related("user").get(waiting_for="turn")
        other = match.seats.exclude(pk=seat.pk).get()
        services.move_submit(match_id=match_id, user=seat.user, version=match.version,
                             move={"type": "play", "card": match.state["hands"][seat.index][0]})
        committed[f"/push/u{other.user_id}"] = time.time()
        next_at += interval
        time.sleep(max(0.0, next_at - time.monotonic()))
    assert service.wait(before + len(matches), timeout=300), "not every push arrived"
    check_payloads(service, keys, before)
    return [r.at - committed[r.path] for r in service.received[before:] if r.path in committed]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    # Each move also plans its reminders (a task of its own): 10 moves a second keep one worker
    # well inside what it sends, so the figure is the path's, not a queue's.
    parser.add_argument("--rate", type=float, default=10.0, help="moves a second in the latency phase")
    parser.add_argument("--window", type=float, default=2.0, help="PUSH_BATCH_SECONDS")
    args = parser.parse_args()

    from tests.push_service import PushService
    service = PushService().start()
    env = prepare(args.players, args.window)
    from grailsite.celery import app
    users, keys, matches = make_players(args.players, service)
    app.control.purge()
    worker = start_worker(env)
    try:
        time.sleep(3)  # the worker is up
        per_second, checked = throughput(users, keys, service, app)
        delays = sorted(latency(matches, service, keys, args.rate))
    finally:
        worker.terminate()
        worker.wait(timeout=30)
        service.stop()
    floor = floor_per_second()
    q = statistics.quantiles(delays, n=100)
    print(f"players subscribed: {len(users)}; push service on loopback; one Celery worker (solo pool)")
    print(f"throughput: {per_second:.0f} pushes/s ({checked} decrypted and checked)    "
          f"floor: {floor:.1f} runs/s    ratio: {per_second / floor:.2f}")
    print(f"move commit -> push arriving ({len(delays)} moves at {args.rate:g}/s, batch window {args.window:g} s): "
          f"p50 {q[49] * 1000:.0f} ms, p95 {q[94] * 1000:.0f} ms, max {delays[-1] * 1000:.0f} ms    "
          f"(p50 less the window: {(q[49] - args.window) * 1000:.0f} ms)")
    from django.db import connections
    connections.close_all()
    subprocess.run(["psql", PG + "/postgres", "-qc", f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)"], check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
