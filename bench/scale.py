"""Does a page or a move cost more when the database is full? The home page, the lobby, a game
page, the game's JSON and a move (through the service, and as a socket's, in a batch) are timed (server side, in process, through Django's test
client and the service) and their SQL statements counted, first with ten games in the
database, then again after adding 10,000 finished and 1,000 active games with long
histories (default sizes; `--finished`, `--active`, `--history` change them).

    .venv/bin/python bench/scale.py [--finished 10000 --active 1000 --history 60]
                                    [--players 10000 --rated 100000 --open 1000]

The players' pages are measured the same way: a profile (the measured player's,
with a few rated games, and in the full database a filler player's of about as many), the
leaderboard (first and last page), the lobby (first page, and a filtered second page) and
the Friends page, first with ten games, then after adding ``--players`` players who played
``--rated`` finished rated games of two to four (Grail Duel, Cup Quest, Fluxx; rated by
the deploy's replay, ``ratings_recompute --write``, whose time is printed) and ``--open``
open games in the lobby. The time of checking them again (``ratings_recompute``) is printed too.

It uses the bench database of bench/move_roundtrip.py (`grailsite_bench`), re-created. The
filler games are Cup Quest games copied from a real one (its state, seats and move records),
spread over 500 filler players, so the measured player's own lists stay the same size.
"""
from __future__ import annotations

import argparse
import datetime
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
    from games.table import services
    from games import registry
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
    """Median milliseconds of a legal move made as a socket's are (games/live/live_moves.py, a
    batch of one), on ``match_id``."""
    import uvloop
    from asgiref.sync import sync_to_async

    from games.live import live_moves
    from games import registry
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


PLAYER_PAGES = ("profile", "profile (filler)", "leaderboard", "leaderboard (last page)", "lobby",
                "lobby (filtered, page 2)", "friends")


def _player_games(me, other, n: int) -> None:
    """``n`` rated Grail Duel games between two people through the service (the real end:
    ratings move there), a few open games, and ``me`` following ``other``."""
    from django.utils import timezone

    from games import registry
    from games.models import Match
    from games.table import services
    from games.players import profiles as players

    for k in range(n):
        a, b = (me, other) if k % 2 else (other, me)
        match = services.match_create(creator=a, kind="duel", num_seats=2, invite=[b.username])
        services.match_join(match_id=match.pk, user=b)
        for _ in range(2):  # each moves once (a game someone never moved in is not rated)
            match.refresh_from_db()
            turn = match.state["turn"]
            services.move_submit(match_id=match.pk, user=[a, b][turn], version=None,
                                 move=registry.get("duel").legal_moves(match.state, turn)[0])
        services.match_resign(match_id=match.pk, user=b)
        # On days gone by: a pair's games count only a few times a day.
        Match.objects.filter(pk=match.pk).update(finished_at=timezone.now() - datetime.timedelta(days=n - k))
    # More than a lobby page of open games, so both rounds render full pages (the rows' own
    # cost is not what is measured).
    for k in range(30):
        services.match_create(creator=other, kind=["duel", "cupquest", "fluxx"][k % 3], num_seats=2 + (k % 3 == 2),
                              clock_kind=["days", "hours", "minutes"][k % 3], clock_amount=3)
    players.follow(user=me, name=other.username)


def _fill_players(n_players: int, n_games: int, n_open: int) -> str:
    """``n_players`` players, ``n_games`` finished rated games among them with their rating
    changes and ratings (computed in order by games/players/ratings.py, as the site does), and
    ``n_open`` open games. Returns a filler player's name whose profile is measured."""
    import random

    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from games.players import ratings
    from games.models import Match, Seat

    User = get_user_model()
    rng = random.Random(32)
    start = time.perf_counter()
    people = []
    for first in range(0, n_players, 5000):
        people += User.objects.bulk_create([User(username=f"player{i}", password="!")
                                            for i in range(first, min(n_players, first + 5000))])
    kinds = [("duel", 2, 2), ("cupquest", 2, 4), ("fluxx", 2, 4)]
    now = timezone.now()
    chunk = 5000
    for first in range(0, n_games, chunk):
        plans = []
        for n in range(first, min(n_games, first + chunk)):
            kind, low, high = kinds[n % 3]
            seated = rng.sample(people, rng.randint(low, high))
            draw = rng.random() < 0.05
            winners = [] if draw else [rng.randrange(len(seated))]
            plans.append((kind, seated, winners, draw, now - datetime.timedelta(seconds=n_games - n)))
        with transaction.atomic():
            made = Match.objects.bulk_create([Match(
                kind=kind, creator=seated[0], status="finished", num_seats=len(seated), seed=0, rated=True,
                outcome={"winners": winners, "draw": draw, "reason": "filler"}, started_at=at, finished_at=at)
                for kind, seated, winners, draw, at in plans])
            # Every player moved (or the game would not count for ratings).
            Seat.objects.bulk_create([Seat(match=m, index=i, user=u, accepted=True, own_moves=1)
                                      for m, (_, seated, _, _, _) in zip(made, plans) for i, u in enumerate(seated)],
                                     batch_size=5000)
        print(f"  played {min(n_games, first + chunk)} of {n_games} games", file=sys.stderr)
    # Rated as the site rates them: the deploy's replay (ratings_recompute --write), timed.
    rated_at = time.perf_counter()
    rebuilt, _ = ratings.rebuild()
    print(f"  ratings_recompute --write over {rebuilt.games} rated games ({len(rebuilt.not_counted)} not counted): "
          f"{time.perf_counter() - rated_at:.1f} s", file=sys.stderr)
    opened = Match.objects.bulk_create([Match(
        kind=kinds[n % 3][0], creator=people[n], status="open", num_seats=2 + n % 2, seed=0, rated=n % 4 != 0,
        clock=["days", "hours", "minutes", "none"][n % 4], clock_amount=3) for n in range(n_open)])
    Seat.objects.bulk_create([Seat(match=m, index=i, user=m.creator if i == 0 else None, accepted=i == 0)
                              for m in opened for i in range(m.num_seats)], batch_size=5000)
    # As autovacuum would have by then: the planner's statistics know the tables' sizes
    # (without them it hashes 110,000 finished games for a profile of twenty).
    from django.db import connection
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(f"  filled players in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return people[1].username


def _players_round(client, me: str, filler: str | None, out: dict) -> None:
    from games.models import Rating
    from games.players.rating_views import PER_PAGE

    established = Rating.objects.filter(kind="duel", games__gte=10).count()
    last = max(1, -(-established // PER_PAGE))
    for name, url in (("profile", f"/players/{me}/"), ("profile (filler)", f"/players/{filler or me}/"),
                      ("leaderboard", "/ratings/duel/"), ("leaderboard (last page)", f"/ratings/duel/?page={last}"),
                      ("lobby", "/lobby/"), ("lobby (filtered, page 2)", "/lobby/?kind=duel&sort=fastest&rated=yes&page=2"),
                      ("friends", "/friends/")):
        ms, queries = _measure(client, url)
        out[name] = (round(ms, 2), queries)


def _round(label: str, game: dict, users: dict, *, me: str = "", me_cookie: str = "",
           filler: str | None = None) -> dict:
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
    if me:
        player = Client()  # the measured player's own session (bench0_0, of the first game)
        player.cookies[game["session_cookie_name"]] = me_cookie
        _players_round(player, me, filler, out)
    out["move"] = (round(_move_ms(match_id, users), 2), None)
    out["move in a batch"] = (round(_batched_move_ms(match_id, users), 2), None)
    print(label, out)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--finished", type=int, default=10_000)
    parser.add_argument("--active", type=int, default=1_000)
    parser.add_argument("--history", type=int, default=60)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--rated", type=int, default=100_000)
    parser.add_argument("--open", type=int, default=1_000)
    args = parser.parse_args()
    games = move_roundtrip.prepare_database(10, rounds=6, kind="cupquest")
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    users = {u.pk: u for u in get_user_model().objects.all()}
    # The measured player (the one whose session the rounds use) and their friend.
    me, friend = [u for u in users.values() if u.username in ("bench0_0", "bench0_1")]
    me, friend = (me, friend) if me.username == "bench0_0" else (friend, me)
    _player_games(me, friend, 10)  # both established: on the leaderboard in both rounds
    me_cookie = games[0]["players"][0]["cookie"]
    small = _round("10 games:", games[0], users, me=me.username, me_cookie=me_cookie, filler=friend.username)
    _fill(games[1]["match"], args.finished, args.active, args.history)
    filler = _fill_players(args.players, args.rated, args.open)
    big = _round(f"{args.finished} finished + {args.active} active + {args.rated} rated finished among "
                 f"{args.players} players + {args.open} open more:", games[2], users, me=me.username,
                 me_cookie=me_cookie, filler=filler)
    start = time.perf_counter()
    call_command("ratings_recompute")
    print(f"ratings_recompute over {args.rated + 10} rated games: {time.perf_counter() - start:.1f} s, equal")
    print("\n| page or action | 10 games: ms (statements) | full: ms (statements) |")
    print("| --- | --- | --- |")
    for name in ("home", "lobby", *PLAYER_PAGES[:4], *PLAYER_PAGES[5:], "game page", "game JSON", "move",
                 "move in a batch"):
        a, b = small[name], big[name]
        fmt = (lambda v: f"{v[0]} ms" + (f" ({v[1]})" if v[1] is not None else ""))
        print(f"| {name} | {fmt(a)} | {fmt(b)} |")


if __name__ == "__main__":
    main()
