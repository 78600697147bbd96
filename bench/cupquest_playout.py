"""Cup Quest engine speed: random seeded games played to the end, no database.

Prints games/s and moves/s (a move = one apply, with the legal_moves call that chose it)
for the goal-seeking random player the playout tests use, first with cold caches (the
board's walk search learns witness paths as it goes) and then warm.

    .venv/bin/python bench/cupquest_playout.py                 # 300 cold + 1000 warm games
    .venv/bin/python bench/cupquest_playout.py --games 3000 --players 4
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.rules.cupquest import CupQuest  # noqa: E402
from tests.rules.cupquest.playout import play  # noqa: E402


def run(game, seeds, players):
    lengths, wins = [], 0
    wall, cpu = time.perf_counter(), time.process_time()
    for seed in seeds:
        state, log = play(game, seed, players=players)
        lengths.append(len(log))
        wins += bool(game.outcome(state).winners)
    return time.perf_counter() - wall, time.process_time() - cpu, lengths, wins


def report(label, wall, cpu, lengths, wins):
    # CPU time as well as wall time: the machine is shared, and wall time counts the others.
    games, moves = len(lengths), sum(lengths)
    print(f"{label:5} {games:6d} games, {wall:6.2f} s wall / {cpu:6.2f} s CPU: "
          f"{games / wall:6.1f} games/s ({games / cpu:6.1f} per CPU-s), "
          f"{moves / wall:6.0f} moves/s ({moves / cpu:6.0f} per CPU-s); "
          f"{statistics.mean(lengths):4.1f} moves/game (median {statistics.median(lengths):.0f}, "
          f"max {max(lengths)}), {wins / games:.1%} won")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="warm games to time")
    parser.add_argument("--cold", type=int, default=300, help="games with fresh caches first")
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4))
    args = parser.parse_args()
    game = CupQuest()
    report("cold", *run(game, range(args.cold), args.players))
    report("warm", *run(game, range(args.cold, args.cold + args.games), args.players))


if __name__ == "__main__":
    main()
