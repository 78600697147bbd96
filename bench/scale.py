"""Does a page or a move cost more when the database is full? The home page, the lobby, a game
page, the game's JSON and a move (through the service, and as a socket's, in a batch) are timed (server side, in process, through Django's test
client and the service) and their SQL statements counted, first with ten games in the
database, then again after adding 10,000 finished and 1,000 active games with long
histories (default sizes; `--finished`, `--active`, `--history` change them).

    .venv/bin/python bench/scale.py [--finished 10000 --active 1000 --history 60]

It uses the bench database of bench/move_roundtrip.py (`grailsite_bench`), re-created. The
filler games are Cup Quest games copied from a real one (its state, seats and move records),
spread over 500 filler players, so the measured player's own lists stay the same size.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import move_roundtrip  # noqa: E402  (the same database preparation)

REPEAT = 15


def _measure(client, url: str) -> tuple[float, int]:
    """Median milliseconds and the statement count of GET ``url``."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times, count = [], 0
    for _ in range(REPEAT):
        with CaptureQueriesContext(connection) as ctx:
            start = time.perf_counter()
            response = client.get(url)
            times.append(1000 * (time.perf_counter() - start))
        assert response.status_code == 200, (url, response.status_code)
        count = len(ctx.captured_queries)
    return statistics.median(times), count


def _move_ms(match_id: int, users: dict) -> float:
    """Median milliseconds of a legal move through the service on ``match_id``."""
    from games import registry, services
    from games.models import Match

    times = []
    for _ in range(REPEAT):
        match = Match.objects.get(pk=match_id)
        game = registry.get(match.kind)
        pending = game.pending(match.state)[0]
        seat = match.seats.get(index=pending.seat)
        move = game.legal_moves(match.state, pending.seat)[0]
        start = time.perf_counter()
        services.move_submit(match_id=match_id, user=users[seat.user_id], move=move, version=match.version)
        times.append(1000 * (time.perf_counter() - start))
    return statistics.median(times)


def _batched_move_ms(match_id: int, users: dict) -> float:
    """Median milliseconds of a legal move made as a socket's are (games/live_moves.py, a
    batch of one), on ``match_id``."""
    import uvloop
    from asgiref.sync import sync_to_async

    from games import live_moves, registry
    from games.models import Match

    def next_move():
        match = Match.objects.get(pk=match_id)
        game = registry.get(match.kind)
        pending = game.pending(match.state)[0]
        seat = match.seats.get(index=pending.seat)
        return users[seat.user_id], game.legal_moves(match.state, pending.seat)[0], match.version

    async def play():
        times = []
        for _ in range(REPEAT):
            user, move, version = await sync_to_async(next_move)()
            start = time.perf_counter()
            await live_moves.move_submit(match_id=match_id, user=user, move=move, version=version, key=None)
            times.append(1000 * (time.perf_counter() - start))
        return times

    before = dict(live_moves.counts)
    times = uvloop.run(play())
    assert live_moves.counts["batched"] - before["batched"] == REPEAT, "the moves did not go in batches"
    return statistics.median(times)


def _fill(template_id: int, finished: int, active: int, history: int) -> None:
    """Copies of the template game: ``finished`` finished and ``active`` active ones, each with
    ``history`` move records, among 500 filler players."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from games.models import Match, MoveRecord, Seat

    User = get_user_model()
    players = User.objects.bulk_create([User(username=f"filler{i}") for i in range(500)])
    template = Match.objects.get(pk=template_id)
    now = timezone.now()
    batch = 500
    total = finished + active
    for start in range(0, total, batch):
        with transaction.atomic():
            rows = []
            for n in range(start, min(total, start + batch)):
                done = n < finished
                rows.append(Match(kind=template.kind, creator=players[n % 500], options=template.options,
                                  status="finished" if done else "active", num_seats=2, seed=n,
                                  setup_options=template.setup_options, state=template.state, version=history + 1,
                                  move_count=history, started_at=now, finished_at=now if done else None,
                                  outcome={"winners": [0], "draw": False, "reason": "filler"} if done else None))
            made = Match.objects.bulk_create(rows)
            Seat.objects.bulk_create([Seat(match=m, index=i, user=players[(m.seed + 7 * i) % 500], accepted=True,
                                           waiting_for="" if m.status == "finished" or i else "turn")
                                      for m in made for i in range(2)])
            MoveRecord.objects.bulk_create([MoveRecord(match=m, seq=k + 1, seat=k % 2, move={"type": "pass"},
                                                       events=[{"kind": "pass", "text": "Seat 1 passes."}],
                                                       key=f"f{k}", version_after=k + 2)
                                            for m in made for k in range(history)], batch_size=5000)
        print(f"  filled {min(total, start + batch)} of {total} games", file=sys.stderr)


def _round(label: str, game: dict, users: dict) -> dict:
    from django.test import Client

    from games.models import Match

    client = Client()
    client.cookies[game["session_cookie_name"]] = game["players"][0]["cookie"]
    match_id = game["match"]
    out = {"games_in_db": Match.objects.count()}
    for name, url in (("home", "/"), ("lobby", "/lobby/"), ("game page", f"/games/{match_id}/"),
                      ("game JSON", f"/api/matches/{match_id}/")):
        ms, queries = _measure(client, url)
        out[name] = (round(ms, 2), queries)
    out["move"] = (round(_move_ms(match_id, users), 2), None)
    out["move in a batch"] = (round(_batched_move_ms(match_id, users), 2), None)
    print(label, out)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--finished", type=int, default=10_000)
    parser.add_argument("--active", type=int, default=1_000)
    parser.add_argument("--history", type=int, default=60)
    args = parser.parse_args()
    games = move_roundtrip.prepare_database(10, rounds=6, kind="cupquest")
    from django.contrib.auth import get_user_model

    users = {u.pk: u for u in get_user_model().objects.all()}
    small = _round("10 games:", games[0], users)
    _fill(games[1]["match"], args.finished, args.active, args.history)
    big = _round(f"{args.finished} finished + {args.active} active more:", games[2], users)
    print("\n| page or action | 10 games: ms (statements) | full: ms (statements) |")
    print("| --- | --- | --- |")
    for name in ("home", "lobby", "game page", "game JSON", "move", "move in a batch"):
        a, b = small[name], big[name]
        fmt = (lambda v: f"{v[0]} ms" + (f" ({v[1]})" if v[1] is not None else ""))
        print(f"| {name} | {fmt(a)} | {fmt(b)} |")


if __name__ == "__main__":
    main()
