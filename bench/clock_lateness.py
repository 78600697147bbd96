"""Clocks nothing can delay: how late deadlines fire while games move flat out and push
endpoints never answer. Prints one JSON line.

`make prod`'s shape (bench/prod_shape.py: nginx, two web processes, the clocks' worker, two
side workers, beat) on a database and Redis prefix of its own. Then, at once:

- ``--games`` games at a time move flat out over websockets through nginx (bench Players);
- the players of the first games have ``--endpoints`` push subscriptions between them, all
  pointing at a loopback listener of this bench that accepts each connection and never
  answers (a tarpit: the TLS handshake never completes), so every move in those games makes
  pushes that can only time out;
- ``--deadlines`` duels under way (both players have moved) have their deadlines fall due
  between 10 s and ``--seconds`` - 10 s from the start, each with its fast-path task sent as a
  move would.

Each deadline's lateness is the time from the deadline to the clock's move in the database
(a loss on time). The goal (docs/reliability.md): p99 within 5 s, max within 10 s.

    .venv/bin/python bench/clock_lateness.py [--seconds 60] [--games 40] [--deadlines 24] [--endpoints 40]

The site accepts a loopback push endpoint only with PUSH_ALLOW_LOOPBACK, which production
refuses unless GRAILSITE_BENCH says it is a benchmark of the production shape.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
import prod_shape  # noqa: E402  (bench/prod_shape.py)
from floor import floor_per_second  # noqa: E402  (bench/floor.py)

BASE = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/grailsite")
PG = BASE.rsplit("/", 1)[0]
DB_NAME = os.environ.get("CLOCKS_DB", "grailsite_clocks")
REDIS = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


class Tarpit:
    """A TCP listener that accepts every connection and never sends a byte."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(1024)
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self.held: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            self.held.append(conn)  # held open, never answered

    def close(self) -> None:
        self.sock.close()
        for conn in self.held:
            conn.close()


def _site(env: dict, *args: str) -> list:
    """Run this file's ``site`` part in a process on the site's settings; its last line's JSON."""
    out = subprocess.run([sys.executable, str(Path(__file__)), "site", *args], cwd=ROOT,
                         env={**env, "LOG_LEVEL": "WARNING"}, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-3000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def _subscribe(match_ids: list[int], endpoints: int, port: int) -> list:
    """``endpoints`` subscriptions, shared out among the players of these games, all at the tarpit."""
    import django

    django.setup()
    from games.models import Seat
    from grailsite.accounts.models import PushPreferences, PushSubscription
    from tests.push_service import BrowserKeys

    users = [s.user for s in Seat.objects.filter(match_id__in=match_ids).select_related("user").order_by("match_id",
                                                                                                           "index")]
    rows = []
    for i in range(endpoints):
        user = users[i % len(users)]
        keys = BrowserKeys().subscription(f"https://127.0.0.1:{port}/tarpit/{i}")
        rows.append(PushSubscription(user=user, endpoint=keys["endpoint"], p256dh=keys["keys"]["p256dh"],
                                     auth=keys["keys"]["auth"], label=f"tarpit {i}"))
    PushSubscription.objects.bulk_create(rows)  # the site's own check refuses loopback at the door
    for user in {u.pk: u for u in users}.values():
        PushPreferences.objects.update_or_create(user=user, defaults={})
    return [len(rows)]


def _due(n: int, first: float, last: float) -> list:
    """``n`` duels under way whose deadlines fall due between ``first`` and ``last`` seconds
    from now, with their fast-path tasks sent; returns [[match id, deadline epoch], ...]."""
    import django

    django.setup()
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.inbox import notify
    from games.models import Seat
    from games.table import services

    User = get_user_model()
    tag = f"{time.time_ns() % 10**9}"
    now = timezone.now()
    out = []
    for g in range(n):
        a, b = (User.objects.create(username=f"c{tag}_{g}_{s}") for s in range(2))
        match = services.match_create(creator=a, kind="duel", num_seats=2, options={"rounds": 6}, invite=[b.username],
                                      clock_kind="minutes", clock_amount=1)
        services.match_join(match_id=match.pk, user=b)
        Seat.objects.filter(match=match).update(own_moves=1)  # under way: running out loses, as the clock's move
        due = now + timedelta(seconds=first + (last - first) * g / max(1, n - 1))
        seats = list(Seat.objects.filter(match=match).exclude(deadline=None))
        Seat.objects.filter(pk__in=[s.pk for s in seats]).update(deadline=due)
        match.refresh_from_db()
        notify._schedule(match.pk, match.version, [(s.index, due) for s in seats])
        out.append([match.pk, due.timestamp()])
    return out


def _fired(deadlines: list) -> list:
    """For each [match id, deadline]: seconds from the deadline to the clock's move (None: not yet)."""
    import django

    django.setup()
    from games.models import MoveRecord

    first = {}
    for match_id, at in MoveRecord.objects.filter(match_id__in=[m for m, _ in deadlines], by_timeout=True) \
            .order_by("created_at").values_list("match_id", "created_at"):
        first.setdefault(match_id, at.timestamp())
    return [None if m not in first else round(first[m] - due, 3) for m, due in deadlines]


def _paused() -> list:
    import django

    django.setup()
    from django.utils import timezone

    from grailsite.accounts.models import PushSubscription

    return [PushSubscription.objects.filter(paused_until__gt=timezone.now()).count()]


def _site_key() -> str:
    """A VAPID key for the bench's site, made by the site's own function (no database needed)."""
    out = subprocess.run([sys.executable, "-c", "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
                          "'grailsite.settings'); django.setup(); from games.inbox import push; "
                          "print(push.generate_private_key())"], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={k: v for k, v in os.environ.items() if k != "GRAILSITE_PRODUCTION"})
    return out.stdout.strip().splitlines()[-1]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def flood(url: str, games: list[dict], slots: int, seconds: float) -> prod_shape.Player:
    player = prod_shape.Player(url)
    queue = list(games)
    until = time.monotonic() + seconds

    async def slot():
        while queue and time.monotonic() < until:
            await player.play(queue.pop(), until=until)

    await asyncio.gather(*(slot() for _ in range(slots)))
    return player


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--games", type=int, default=40, help="games moving at a time")
    parser.add_argument("--deadlines", type=int, default=24)
    parser.add_argument("--endpoints", type=int, default=40)
    args = parser.parse_args()
    floor = floor_per_second()
    subprocess.run(["psql", f"{PG}/postgres", "-qc", f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)"], check=True)
    tarpit = Tarpit()
    extra = {"PUSH_ALLOW_LOOPBACK": "1", "GRAILSITE_BENCH": "1", "VAPID_PRIVATE_KEY": _site_key(),
             "VAPID_SUBJECT": "mailto:bench@grailsite.local"}
    with tempfile.TemporaryDirectory() as run:
        cfg, env = prod_shape.start(Path(run), f"{PG}/{DB_NAME}", REDIS, extra=extra)
        try:
            games = prod_shape.make_games(env, args.games * 8)
            endpoints = _site(env, "subscribe", str(args.endpoints), str(tarpit.port),
                              *[str(g["match"]) for g in games[:max(1, args.endpoints // 20)]])[0]
            # The pushed games are played first: their players' notices keep the side lane busy.
            pushed, rest = games[:max(1, args.endpoints // 20)], games[max(1, args.endpoints // 20):]
            deadlines = _site(env, "due", str(args.deadlines), "10", str(args.seconds - 10))
            started = time.monotonic()
            player = asyncio.run(flood(cfg.url, rest + pushed, args.games, args.seconds))
            elapsed = time.monotonic() - started
            end = time.monotonic() + 60
            fired = _site(env, "fired", json.dumps(deadlines))
            while None in fired and time.monotonic() < end:
                time.sleep(1)
                fired = _site(env, "fired", json.dumps(deadlines))
            late = [f for f in fired if f is not None]
            paused = _site(env, "paused")[0]
        finally:
            prod_shape.stop(cfg)
            tarpit.close()
    print(json.dumps({
        "deadlines": len(deadlines), "fired": len(late), "missed": len(deadlines) - len(late),
        "lateness_p50_s": round(statistics.median(late), 2) if late else None,
        "lateness_p99_s": round(percentile(late, 0.99), 2) if late else None,
        "lateness_max_s": round(max(late), 2) if late else None,
        "moves_per_s": round(len(player.stats["acked"]) / elapsed, 1),
        "stalled_endpoints": endpoints, "tarpit_connections": tarpit.accepted, "paused_endpoints": paused,
        "games_at_a_time": args.games, "seconds": args.seconds, "floor_runs_per_s": round(floor, 1),
    }))


if __name__ == "__main__":
    if sys.argv[1:2] == ["site"]:
        part, rest = sys.argv[2], sys.argv[3:]
        if part == "subscribe":
            print(json.dumps(_subscribe([int(m) for m in rest[2:]], int(rest[0]), int(rest[1]))))
        elif part == "due":
            print(json.dumps(_due(int(rest[0]), float(rest[1]), float(rest[2]))))
        elif part == "fired":
            print(json.dumps(_fired(json.loads(rest[0]))))
        elif part == "paused":
            print(json.dumps(_paused()))
    else:
        main()
