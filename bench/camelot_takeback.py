"""What keeping take-backs costs Camelot (games/rules/takeback.py): the engine's CPU time with
the chain of earlier states and without it (edition 3 against edition 2, whose rules differ
in nothing else; runs interleaved in one process so the machine's load falls on both alike), and the size of the state the site
stores after each move. Prints the floor (bench/floor.py) beside the times.

    .venv/bin/python bench/camelot_takeback.py [--games 20] [--rounds 4]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.floor import floor_per_second  # noqa: E402
from games.rules import takeback  # noqa: E402
from games.rules.camelot import Camelot  # noqa: E402
from tests.rules.camelot.playout import play, seeking  # noqa: E402

GAME = Camelot()


def cpu_of(flag: bool, seeds) -> float:
    options = {"edition": 3 if flag else 2}
    start = time.process_time()
    for seed in seeds:
        play(GAME, seed, players=4, chooser=seeking, options=options)
    return time.process_time() - start


def sizes(games: int) -> tuple[list[int], list[int]]:
    kept, bare = [], []

    def step(before, state, *rest):
        kept.append(len(json.dumps(state)))
        bare.append(len(json.dumps(takeback.without_chain(state))))

    for seed in range(games):
        play(GAME, seed, players=4, chooser=seeking, on_step=step)
    return sorted(kept), bare


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="4-player goal-seeking games per side")
    parser.add_argument("--rounds", type=int, default=4, help="alternations of the two sides")
    args = parser.parse_args()
    print(f"floor (fixed pure-Python loop): {floor_per_second(2.0):.1f} runs/s")
    per = max(1, args.games // args.rounds)
    times = {False: 0.0, True: 0.0}
    for r in range(args.rounds):
        seeds = range(100 + r * per, 100 + (r + 1) * per)
        for flag in (False, True):
            times[flag] += cpu_of(flag, seeds)
    games = per * args.rounds
    for flag, label in ((False, "without take-backs"), (True, "with take-backs   ")):
        print(f"  {label}: {games / times[flag]:6.1f} games/s ({times[flag] / games * 1000:.0f} ms a game)")
    print(f"  with / without: {times[True] / times[False]:.3f}")
    kept, bare = sizes(max(1, games // 4))
    print(f"  stored state, JSON bytes after a move: mean {sum(kept) / len(kept):.0f} (without the chain "
          f"{sum(bare) / len(bare):.0f}), median {kept[len(kept) // 2]}, p95 {kept[int(len(kept) * 0.95)]}, "
          f"max {kept[-1]}")
    print(f"floor again: {floor_per_second(2.0):.1f} runs/s")


if __name__ == "__main__":
    main()
