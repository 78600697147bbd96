"""What committed shuffles and game records cost (docs/verify.md).

- Creating a game: a committed game (secret drawn, commitment hashed and written: one more
  UPDATE) against one given its own seed (not committed); median ms and statements.
- A long game's record, ``GET /api/matches/{id}/record/``: median ms and statements.
- Its check, ``GET /api/matches/{id}/check/``: the first (a whole replay by
  games/rules/verify.py) and a kept one (read from the cache).

The long game is a Camelot game of three people playing random legal moves through the
services (``--moves``, default 400) and then resigning, so the record holds every kind of
entry a real one does. It uses its own database (``BENCH_DB``, default
``grailsite_bench_record``, re-created) on the PostgreSQL of ``BENCH_PG``.

    .venv/bin/python bench/game_record.py [--moves 400] [--repeat 9]
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

PG = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
BENCH_DB = os.environ.get("BENCH_DB", "grailsite_bench_record")


def _prepare() -> None:
    subprocess.run(["psql", PG + "/postgres", "-qc", f"DROP DATABASE IF EXISTS {BENCH_DB}"], check=True)
    subprocess.run(["psql", PG + "/postgres", "-qc", f"CREATE DATABASE {BENCH_DB}"], check=True)
    env = dict(os.environ, DATABASE_URL=f"{PG}/{BENCH_DB}", DJANGO_DEBUG="false", LOG_LEVEL="ERROR",
               SECRET_KEY="bench-only", ALLOWED_HOSTS="testserver", RATELIMIT_ENABLE="false")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "grailsite.settings"
    import django

    django.setup()


def _timed(call, repeat: int) -> tuple[float, int]:
    """Median ms of ``call()`` and the statements of its last run."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times, count = [], 0
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as ctx:
            start = time.perf_counter()
            call()
            times.append(1000 * (time.perf_counter() - start))
        count = len(ctx.captured_queries)
    return statistics.median(times), count


def _long_game(users, moves: int):
    from games import registry
    from games.models import Match
    from games.rules import computer as pure
    from games.table import services

    game = registry.get("camelot")
    match = services.match_create(creator=users[0], kind="camelot", num_seats=3, clock_kind="none", clock_amount=0,
                                  invite=[u.username for u in users[1:]])
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user)
    for step in range(moves):
        match = Match.objects.get(pk=match.pk)
        if match.status != "active":
            break
        seat = game.pending(match.state)[0].seat
        move, _ = pure.choose_move(game, match.state, seat, "random", pure.seed_for("bench", step))
        services.move_submit(match_id=match.pk, user=users[seat], move=move, version=None)
    match = Match.objects.get(pk=match.pk)
    for user in users[:2]:
        if match.status == "active":
            services.match_resign(match_id=match.pk, user=user)
            match = Match.objects.get(pk=match.pk)
    return match


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    _prepare()
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.test import Client

    from games.table import records, services

    User = get_user_model()
    users = [User.objects.create(username=f"record{i}") for i in range(3)]
    opponent = users[1]

    def create(**extra):
        return lambda: services.match_create(creator=users[0], kind="duel", num_seats=2, invite=[opponent.username],
                                             **extra)

    create()(), create(seed=1234)()  # warm: the first game of a process pays for imports and caches
    # Interleaved, so a busy moment of the machine falls on both alike.
    committed, seeded = [], []
    for _ in range(args.repeat):
        committed.append(_timed(create(), 1))
        seeded.append(_timed(create(seed=1234), 1))
    committed_ms, committed_n = statistics.median(t for t, _ in committed), committed[-1][1]
    seeded_ms, seeded_n = statistics.median(t for t, _ in seeded), seeded[-1][1]
    print(f"Creating a game: committed {committed_ms:.2f} ms, {committed_n} statements; "
          f"with its own seed (not committed) {seeded_ms:.2f} ms, {seeded_n} statements")

    start = time.perf_counter()
    match = _long_game(users, args.moves)
    print(f"A Camelot game of {match.move_count} moves ({match.status}), played in "
          f"{time.perf_counter() - start:.1f} s")
    client = Client()
    client.force_login(users[0])
    url = f"/api/matches/{match.pk}/"
    size = len(client.get(url + "record/").content)
    record_ms, record_n = _timed(lambda: client.get(url + "record/"), args.repeat)
    print(f"GET record/: {record_ms:.1f} ms, {record_n} statements, {size / 1024:.0f} KiB")
    key = records.check_key(match)

    def check_afresh():
        cache.delete(key)
        answer = client.get(url + "check/").json()
        assert answer["ok"], answer["problem"]

    first_ms, first_n = _timed(check_afresh, max(3, args.repeat // 3))
    kept_ms, kept_n = _timed(lambda: client.get(url + "check/"), args.repeat)
    print(f"GET check/: {first_ms:.1f} ms, {first_n} statements replaying; {kept_ms:.1f} ms, {kept_n} statements kept")


if __name__ == "__main__":
    main()
