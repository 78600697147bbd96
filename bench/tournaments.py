"""Benchmark of the tournament core (games/tournaments/, pure Python, one core).

Pairs a Swiss round of 1,000 players and seats a round of 600 players at tables of 4, each
after a few simulated rounds (random results, seeded) so score groups and earlier opponents
exist, as they do in a real event. Times are CPU seconds of this process (the median of
``--repeat`` runs of the same round); beside them the floor of bench/floor.py measured in the
same run, and each time in floor runs (seconds x floor runs per second), which compares
across machines and busy days. Prints one JSON line.

    .venv/bin/python bench/tournaments.py [--players 1000] [--table-players 600]
        [--rounds 4] [--repeat 3] [--seed 1]

With ``--page``, instead: what a tournament's page costs the database. In a database of its
own (BENCH_DB, default ``grailsite_bench_tournaments``, dropped and made again on the
PostgreSQL of BENCH_PG), Swiss tournaments of Grail Duel of 16 and 256 players after 3 and 9
rounds (results drawn at random, the pairings the site's own), then the page
(/tournaments/<id>/), its live part (?part=live) and the API's answer
(/api/tournaments/<id>/) are each fetched through Django's test client: the SQL statements
each runs (which must not grow with the players or the rounds) and its median milliseconds of
this process's CPU (the database's own work not included), beside the floor of bench/floor.py.

    .venv/bin/python bench/tournaments.py --page [--repeat 5]
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from floor import floor_per_second  # noqa: E402  (bench/floor.py: the fixed workload)

from games.tournaments.entrants import Entrant  # noqa: E402
from games.tournaments.swiss import pair_round  # noqa: E402
from games.tournaments.tables import place_points, seat_round  # noqa: E402

TABLE_SIZE, MIN_SIZE, MAX_SIZE = 4, 3, 6


def cpu_seconds(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def swiss_field(players: int, rounds: int, rng: random.Random):
    """The entrants and the pairs already played after ``rounds`` simulated Swiss rounds."""
    rating = {n: rng.gauss(0, 10) for n in range(players)}
    score = dict.fromkeys(rating, Fraction(0))
    byes, played = set(), set()
    for _ in range(rounds):
        pairing = pair_round([Entrant(n, score[n], rating[n], n in byes) for n in rating], played)
        for a, b in pairing.pairs:
            played.add(frozenset((a, b)))
            first = rng.choice([Fraction(1), Fraction(1), Fraction(1, 2), Fraction(0), Fraction(0)])
            score[a] += first
            score[b] += 1 - first
        if pairing.bye is not None:
            byes.add(pairing.bye)
            score[pairing.bye] += 1
    return [Entrant(n, score[n], rating[n], n in byes) for n in rating], played


def table_field(players: int, rounds: int, rng: random.Random):
    """The entrants and the earlier tables after ``rounds`` simulated rounds at tables."""
    rating = {n: rng.gauss(0, 10) for n in range(players)}
    score = dict.fromkeys(rating, 0)
    met = []
    for _ in range(rounds):
        seating = seat_round([Entrant(n, score[n], rating[n]) for n in rating], TABLE_SIZE, MIN_SIZE, MAX_SIZE, met)
        for table in seating.tables:
            finish = sorted(table, key=lambda p: rating[p] + rng.gauss(0, 15))
            for p, points in place_points({p: i for i, p in enumerate(finish, start=1)}).items():
                score[p] += points
            met.append(table)
    return [Entrant(n, score[n], rating[n]) for n in rating], met


PAGE_FIELDS = ((16, 3), (16, 9), (256, 3), (256, 9))


def page_costs(repeat: int, seed: int) -> list[dict]:
    """Statements and median milliseconds of a tournament's page, live part and API answer."""
    import os
    import subprocess

    pg = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
    name = os.environ.get("BENCH_DB", "grailsite_bench_tournaments")
    subprocess.run(["psql", pg + "/postgres", "-qc", f"DROP DATABASE IF EXISTS {name}"], check=True)
    subprocess.run(["psql", pg + "/postgres", "-qc", f"CREATE DATABASE {name}"], check=True)
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, DATABASE_URL=f"{pg}/{name}", DJANGO_DEBUG="false", SECRET_KEY="bench-only",
               ALLOWED_HOSTS="testserver", LOG_LEVEL="ERROR")
    env.pop("REDIS_URL", None)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=root, env=env, check=True)
    os.environ.update(env)
    os.environ.pop("REDIS_URL", None)
    os.environ["DJANGO_SETTINGS_MODULE"] = "grailsite.settings"
    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    out = []
    for players, rounds in PAGE_FIELDS:
        tournament_id = _simulated_swiss(players, rounds, random.Random(seed))
        client = Client()
        row = {"players": players, "rounds": rounds}
        for label, url in (("page", f"/tournaments/{tournament_id}/"), ("live", f"/tournaments/{tournament_id}/?part=live"),
                           ("api", f"/api/tournaments/{tournament_id}/")):
            times, count = [], 0
            for _ in range(repeat):
                with CaptureQueriesContext(connection) as ctx:
                    start = time.process_time()
                    response = client.get(url)
                    times.append(1000 * (time.process_time() - start))
                assert response.status_code == 200, (url, response.status_code)
                count = len(ctx.captured_queries)
            row[f"{label}_statements"] = count
            row[f"{label}_cpu_ms"] = round(statistics.median(times), 1)
        out.append(row)
    floor = floor_per_second(2.0)
    for row in out:
        row["floor_runs_per_s"] = round(floor, 1)
    return out


def _simulated_swiss(players: int, rounds: int, rng: random.Random) -> int:
    """A finished Swiss of Grail Duel in the database: its rounds paired by the site's pairing,
    its games' results drawn at random (the matches themselves are bare rows: a tournament's
    page reads none of them)."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.models import Match, Tournament, TournamentEntry, TournamentGame, TournamentRound
    from games.tournaments.selectors import scores

    User = get_user_model()
    organiser = User.objects.create(username=f"organiser-{players}-{rounds}")
    users = User.objects.bulk_create([User(username=f"p{players}-{rounds}-{n}") for n in range(players)])
    now = timezone.now()
    tournament = Tournament.objects.create(name=f"Bench Swiss {players}x{rounds}", kind="duel", format="swiss",
                                           organiser=organiser, rounds=rounds, max_players=players, status="finished",
                                           current_round=rounds, started_at=now, finished_at=now)
    entries = TournamentEntry.objects.bulk_create([TournamentEntry(tournament=tournament, user=u,
                                                                   seed_rating=rng.gauss(1000, 100)) for u in users])
    by_id = {e.pk: e for e in entries}
    made: list = []
    round_rows: list = []
    for number in range(1, rounds + 1):
        score = scores(tournament, by_id, round_rows, made)
        byes = {g.players[0] for g in made if g.kind == "bye"}
        played = [g.players for g in made if g.kind == "game"]
        pairing = pair_round([Entrant(e.pk, score.get(e.pk, 0), e.seed_rating, e.pk in byes) for e in entries], played)
        round_ = TournamentRound.objects.create(tournament=tournament, number=number, started_at=now, deadline=now,
                                                closed_at=now)
        round_rows.append(round_)
        matches = Match.objects.bulk_create([Match(kind="duel", creator=organiser, num_seats=2, seed=0, status="finished",
                                                   competition="tournament") for _ in pairing.pairs])
        games = [TournamentGame(round=round_, tournament=tournament, board=b, match=m, players=list(pair),
                                places=rng.choice([[1, 2], [2, 1], [1, 1]]), decided_at=now)
                 for b, (pair, m) in enumerate(zip(pairing.pairs, matches), start=1)]
        if pairing.bye is not None:
            games.append(TournamentGame(round=round_, tournament=tournament, board=len(games) + 1, kind="bye",
                                        players=[pairing.bye], places=[1], decided_at=now))
        made += TournamentGame.objects.bulk_create(games)
    return tournament.pk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--table-players", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=4, help="simulated rounds before the timed one")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--page", action="store_true", help="the tournament page's statements (a database of its own)")
    args = parser.parse_args()
    if args.page:
        for row in page_costs(args.repeat, args.seed):
            print(json.dumps(row))
        return
    rng = random.Random(args.seed)

    entrants, played = swiss_field(args.players, args.rounds, rng)
    swiss = cpu_seconds(lambda: pair_round(entrants, played), args.repeat)
    seated, met = table_field(args.table_players, args.rounds, rng)
    tables = cpu_seconds(lambda: seat_round(seated, TABLE_SIZE, MIN_SIZE, MAX_SIZE, met), args.repeat)
    floor = floor_per_second(2.0)

    print(json.dumps({
        "swiss_players": args.players,
        "swiss_score_groups": len({e.score for e in entrants}),
        "swiss_pair_cpu_s": round(swiss, 4),
        "tables_players": args.table_players,
        "table_size": TABLE_SIZE,
        "tables_seat_cpu_s": round(tables, 4),
        "rounds_before": args.rounds,
        "floor_runs_per_s": round(floor, 1),
        "swiss_pair_floor_runs": round(swiss * floor, 1),
        "tables_seat_floor_runs": round(tables * floor, 1),
    }))


if __name__ == "__main__":
    main()
