"""Where a move's server time goes, without HTTP or websockets: N duel moves submitted through
``services.move_submit`` in this process, on the PostgreSQL and Redis of DATABASE_URL and
REDIS_URL, under cProfile. Prints the mean time per move, its split between the rules, the
database (time spent in psycopg's execute) and the rest, and the top functions by own time.

    .venv/bin/python bench/move_profile.py --moves 400 [--kind duel|cupquest|ccg] [--top 25] [--plain]

It uses the bench database of ``bench/move_roundtrip.py`` (``grailsite_bench``), re-created.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import move_roundtrip  # noqa: E402  (the same database preparation as the round-trip bench)


def _play(games: list[dict], moves: int) -> int:
    """Submit ``moves`` legal moves round-robin over the games; returns how many applied."""
    from django.contrib.auth import get_user_model

    from games.table import services
    from games import registry
    from games.models import Match

    User = get_user_model()
    users = {u.username: u for u in User.objects.all()}
    done = 0
    while done < moves:
        progressed = False
        for g in games:
            match = Match.objects.get(pk=g["match"])
            if match.status != "active":
                continue
            game = registry.get(match.kind)
            for p in game.pending(match.state):
                seat = match.seats.get(index=p.seat)
                legal = game.legal_moves(match.state, p.seat)
                if not legal:
                    continue
                services.move_submit(match_id=match.pk, user=users[seat.user.username], move=legal[0],
                                     version=match.version, key=f"p-{match.pk}-{match.version}")
                done += 1
                progressed = True
                break
            if done >= moves:
                break
        if not progressed:
            break
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--kind", default="duel", choices=["duel", "cupquest", "ccg"])
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--plain", action="store_true", help="no profiler: wall and CPU time per move only")
    args = parser.parse_args()
    # A duel lasts 12 moves at 6 rounds: enough games that the run never runs out of moves.
    games = move_roundtrip.prepare_database(args.moves // 10 + 2, rounds=6, kind=args.kind)
    if args.plain:
        start, cpu = time.perf_counter(), time.process_time()
        done = _play(games, args.moves)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        print(f"{done} {args.kind} moves: {1000 * wall / done:.2f} ms wall and {1000 * cpu / done:.2f} ms of this "
              "process's CPU per move (the bench's own reads of the match included)")
        return
    profile = cProfile.Profile()
    start = time.perf_counter()
    profile.enable()
    done = _play(games, args.moves)
    profile.disable()
    wall = time.perf_counter() - start
    stats = pstats.Stats(profile)
    by_name = {f"{k[0]}:{k[2]}": v for k, v in stats.stats.items()}

    def cumulative(fragment: str) -> float:
        return max((v[3] for name, v in by_name.items() if fragment in name), default=0.0)

    db = cumulative("psycopg/cursor.py:execute")
    rules = cumulative("games/rules/base.py:apply")
    print(f"{done} {args.kind} moves in {wall:.2f} s under the profiler: {1000 * wall / done:.2f} ms per move "
          f"(the bench's own reads of the match included)")
    print(f"  in psycopg execute: {1000 * db / done:.2f} ms/move; rules apply: {1000 * rules / done:.2f} ms/move")
    stats.sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
