"""Benchmark of the tournament core (games/tournaments/, pure Python, one core).

Pairs a Swiss round of 1,000 players and seats a round of 600 players at tables of 4, each
after a few simulated rounds (random results, seeded) so score groups and earlier opponents
exist, as they do in a real event. Times are CPU seconds of this process (the median of
``--repeat`` runs of the same round); beside them the floor of bench/floor.py measured in the
same run, and each time in floor runs (seconds x floor runs per second), which compares
across machines and busy days. Prints one JSON line.

    .venv/bin/python bench/tournaments.py [--players 1000] [--table-players 600]
        [--rounds 4] [--repeat 3] [--seed 1]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--table-players", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=4, help="simulated rounds before the timed one")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
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
