"""Benchmark of the MPHG CCG rules engine (pure Python, one core).

Times are CPU seconds of this process (time.process_time), so a busy shared machine
distorts them less than wall-clock time would.

Prints: random-playout games per second and moves per second (through the contract's
``apply``, which copies the state, and in place through ``_apply``), the cost of
``view_for``, of ``legal_moves`` and of a JSON round trip of the state. Beside them, the
floor (bench/floor.py, a fixed pure-Python workload measured in the same run), so figures
from different machines and days compare as ratios ("games per floor run").

    .venv/bin/python bench/ccg_engine.py [--games N]      (or the old form: ccg_engine.py N)
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.rules.ccg.game import MPHGGame, with_words  # noqa: E402
from games.rules.rng import Rng  # noqa: E402
from cputime import per_call  # noqa: E402  (bench/cputime.py)
from floor import floor_per_second  # noqa: E402  (bench/floor.py: the fixed workload)

GAME = MPHGGame()
DATA = ROOT / "games" / "rules" / "ccg" / "data"


def starter_decks():
    cards = {c["code"]: c for c in json.loads((DATA / "starter_set.json").read_text())}
    decks = json.loads((DATA / "starter_decks.json").read_text())
    return [[cards[code] for code, n in d["cards"].items() for _ in range(n)] for d in decks]


def random_game(decks, players, seed, in_place, sample=None):
    state = GAME.setup(players, {"decks": [decks[i % 2] for i in range(players)],
                                 "collection_sizes": [1] * players}, seed)
    rng = Rng({"seed": seed + 99, "n": 0})
    moves = 0
    while GAME.outcome(state) is None:
        pend = GAME.pending(state)
        seat = pend[rng.below(len(pend))].seat
        legal = GAME.legal_moves(state, seat)
        move = with_words(state, legal[rng.below(len(legal))])
        if in_place:
            GAME._apply(state, seat, move)
        else:
            state, _ = GAME.apply(state, seat, move)
        moves += 1
        if sample is not None and moves % 7 == 0:
            sample.append(json.loads(json.dumps(state)))
    return moves


def playouts(decks, players, games, in_place, sample=None):
    t = time.process_time()
    moves = sum(random_game(decks, players, seed, in_place, sample) for seed in range(games))
    dt = time.process_time() - t
    return games / dt, moves / dt, moves / games


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("count", nargs="?", type=int, help=argparse.SUPPRESS)  # the old positional form
    parser.add_argument("--games", type=int, default=100, help="random games per line (default 100)")
    args = parser.parse_args()
    games = args.count or args.games
    decks = starter_decks()
    print(f"MPHG CCG engine, starter decks, {games} random games per line (one core)")
    floor = floor_per_second(2.0)
    print(f"  floor (fixed pure-Python loop, 2 s): {floor:7.1f} runs/s")
    for players in (2, 3, 4):
        for in_place in (False, True):
            gps, mps, avg = playouts(decks, players, games, in_place)
            how = "in place (_apply)" if in_place else "apply (copies state)"
            print(f"  {players} players, {how:22s}: {gps:7.1f} games/s ({gps / floor:5.2f} per floor run) "
                  f"{mps:8.0f} moves/s ({avg:.0f} moves/game)")
    sample: list = []
    random_game(decks, 2, 12345, False, sample)
    random_game(decks, 4, 54321, False, sample)
    print(f"  view_for (a seat)      : {per_call(lambda s: GAME.view_for(s, 0), sample):8.1f} us")
    print(f"  view_for (spectator)   : {per_call(lambda s: GAME.view_for(s, None), sample):8.1f} us")
    live = [s for s in sample if GAME.pending(s)]
    print(f"  legal_moves            : {per_call(lambda s: GAME.legal_moves(s, GAME.pending(s)[0].seat), live):8.1f} us")
    print(f"  JSON round trip        : {per_call(lambda s: json.loads(json.dumps(s)), sample):8.1f} us")
    size = sum(len(json.dumps(s)) for s in sample) / len(sample)
    print(f"  state size (JSON)      : {size:8.0f} bytes on average over {len(sample)} sampled states")
    print(f"  floor again            : {floor_per_second(2.0):8.1f} runs/s")


if __name__ == "__main__":
    main()
