"""Benchmark of the computer players (games/rules/<kind>/players.py), one core.

For each game: the knight against the random level over N seeded games (two seats, Camelot
three; the knight's seat goes round; wins, draws and losses), the knight's mean and slowest thinking
time per move (``computer.choose_move`` whole: building the view and the legal list,
copying them, choosing), and whole games per second with knights in every seat (at the
game's usual table size). Times are CPU seconds of this process (time.process_time); the
*floor* printed first is the fixed pure-Python workload of bench/fluxx_engine.py, so
figures from different machines or busy days compare as ratios.

    .venv/bin/python bench/computer_players.py [--games 1000] [--kinds duel,cupquest,fluxx,ccg]
"""
from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from floor import floor_per_second  # noqa: E402

from games.rules import computer  # noqa: E402
from games.rules.camelot import Camelot  # noqa: E402
from games.rules.ccg.game import MPHGGame  # noqa: E402
from games.rules.cupquest import CupQuest  # noqa: E402
from games.rules.duel.game import GrailDuel  # noqa: E402
from games.rules.fluxx import MontyPythonFluxx  # noqa: E402

GAMES = {"duel": GrailDuel(), "cupquest": CupQuest(), "fluxx": MontyPythonFluxx(), "ccg": MPHGGame(),
         "camelot": Camelot()}
VERSUS = {"camelot": 3}  # seats of the knight-against-random games (else two)
TABLE = {"duel": 2, "cupquest": 3, "fluxx": 4, "ccg": 2, "camelot": 3}  # seats for the all-knights games
CCG_DATA = ROOT / "games" / "rules" / "ccg" / "data"


def starter_decks():
    cards = {c["code"]: c for c in json.loads((CCG_DATA / "starter_set.json").read_text())}
    decks = json.loads((CCG_DATA / "starter_decks.json").read_text())
    return [[cards[code] for code, n in d["cards"].items() for _ in range(n)] for d in decks]


def options(kind: str, players: int, seed: int, double: bool) -> dict:
    if kind == "ccg":
        decks = starter_decks()
        return {"decks": [decks[(seed + i) % 2] for i in range(players)], "collection_sizes": [0] * players,
                "double_the_ante": double}
    return {}


class Timed:
    """choose_move, timing the calls made for seats of one level."""

    def __init__(self, level: str) -> None:
        self.level, self.times = level, []

    def __call__(self, game, state, seat, level, seed):
        if level != self.level:
            return computer.choose_move(game, state, seat, level, seed)
        start = time.process_time()
        got = computer.choose_move(game, state, seat, level, seed)
        self.times.append(time.process_time() - start)
        return got


def knight_vs_random(kind: str, games: int, double: bool = False) -> dict:
    game = GAMES[kind]
    timed = Timed("knight")
    won = drawn = lost = notes = 0
    seats = VERSUS.get(kind, 2)
    for seed in range(games):
        me = seed % seats
        levels = ["random"] * seats
        levels[me] = "knight"
        state = game.setup(seats, options(kind, seats, seed, double), seed)
        final, _, fell_back = computer.play_game(game, state, levels, seed, chooser=timed)
        notes += len(fell_back)
        result = game.outcome(final)
        if me in result.winners:
            won += 1
        elif result.winners:
            lost += 1
        else:
            drawn += 1
    times = sorted(timed.times)
    return {"won": won / games, "drawn": drawn / games, "lost": lost / games, "fallbacks": notes,
            "think_ms": 1000 * statistics.mean(times), "p99_ms": 1000 * times[int(0.99 * (len(times) - 1))],
            "max_ms": 1000 * times[-1], "moves": len(times)}


def all_knights(kind: str, games: int) -> dict:
    game = GAMES[kind]
    players = TABLE[kind]
    moves = 0
    start = time.process_time()
    for seed in range(games):
        state = game.setup(players, options(kind, players, seed, False), seed)
        _, n, _ = computer.play_game(game, state, ["knight"] * players, seed, max_moves=100_000)
        moves += n
    seconds = time.process_time() - start
    return {"games_per_s": games / seconds, "moves_per_game": moves / games, "players": players}


def label(kind: str, extra: str = "") -> str:
    return f"{kind} ({VERSUS.get(kind, 2)} seats){extra}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="knight-against-random games per game kind")
    parser.add_argument("--kinds", default=",".join(GAMES), help="comma-separated game kinds")
    args = parser.parse_args()
    floor = floor_per_second()
    print(f"floor: {floor:.1f} fixed pure-Python runs per CPU second (bench/floor.py)")
    print(f"{'game':26} {'knight won':>10} {'drawn':>6} {'lost':>6} {'fallbacks':>9} {'think ms':>9} "
          f"{'p99 ms':>7} {'max ms':>7} {'games/s (all knights)':>22}")
    for kind in args.kinds.split(","):
        rows = [(label(kind), knight_vs_random(kind, args.games))]
        if kind == "ccg":
            rows.append((label(kind, ", doubling"), knight_vs_random(kind, args.games, double=True)))
        speed = all_knights(kind, max(10, args.games // 20))
        for name, r in rows:
            print(f"{name:26} {r['won']:>10.1%} {r['drawn']:>6.1%} {r['lost']:>6.1%} {r['fallbacks']:>9} "
                  f"{r['think_ms']:>9.2f} {r['p99_ms']:>7.2f} {r['max_ms']:>7.2f} "
                  f"{speed['games_per_s']:>14.1f} ({speed['players']} seats)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
