"""Benchmark of the Camelot rules engine (pure Python, one core).

Times are CPU seconds of this process (time.process_time), so a busy shared machine
distorts them less than wall-clock time would. Beside them it prints a *floor*: a fixed
pure-Python workload timed in the same run, so figures from different machines (or from
one machine on a busy and a quiet day) compare as ratios ("games per floor run").

Prints random games per second (6 players by default, basic game and all variations) for
the seeking player of the playout tests and a uniformly random one, through the
contract's copying ``apply`` and in place through ``_apply``; then the cost of
``legal_moves``, ``view_for``, the state copy and a JSON round trip, and the state's size.

    .venv/bin/python bench/camelot_engine.py [--games 40] [--players 6]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.rules.camelot import Camelot  # noqa: E402
from games.rules.camelot.state_copy import copy_state  # noqa: E402
from tests.rules.camelot.playout import play, seeking, uniform  # noqa: E402

GAME = Camelot()
ALL = {"accoutrements": True, "gold": True, "guardians": True}


from floor import floor_per_second  # noqa: E402  (bench/floor.py: the fixed workload)
from cputime import per_call  # noqa: E402


def playouts(games, players, chooser, options, in_place):
    lengths, turns, wins = [], [], 0
    start = time.process_time()
    for seed in range(games):
        state, log = play(GAME, seed, players=players, chooser=chooser, options=options, in_place=in_place)
        lengths.append(len(log))
        turns.append(state["turn_count"])
        wins += bool(GAME.outcome(state).winners)
    seconds = time.process_time() - start
    return games / seconds, sum(lengths) / seconds, statistics.mean(lengths), statistics.mean(turns), wins / games


def sample_states(players, seeds=(12345, 54321)):
    sample = []

    def keep(before, state, seat, move, moves, events):
        sample.append(state if len(sample) % 5 == 0 else None)

    for seed in seeds:
        play(GAME, seed, players=players, options=ALL, on_step=keep)
    return [s for s in sample if s is not None]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per line")
    parser.add_argument("--players", type=int, default=6, choices=range(3, 7))
    args = parser.parse_args()
    floor = floor_per_second(2.0)
    print(f"Camelot engine, {args.players} players, {args.games} seeded games per line (one core), turn cap 400")
    print(f"  floor (fixed pure-Python loop, 2 s): {floor:7.1f} runs/s")
    lines = (("seeking", seeking, {}, False), ("seeking", seeking, {}, True),
             ("seeking", seeking, ALL, False), ("uniform", uniform, {}, False))
    for name, chooser, options, in_place in lines:
        gps, mps, moves, turns, won = playouts(args.games, args.players, chooser, options, in_place)
        how = "in place (_apply)" if in_place else "apply (copies state)"
        which = "all variations" if options else "basic game"
        print(f"  {name:8s} {which:14s} {how:21s}: {gps:6.1f} games/s ({gps / floor:5.2f} per floor run) "
              f"{1000 / gps:6.0f} ms a game, {mps:6.0f} moves/s; {moves:5.0f} moves, {turns:4.0f} turns a game, "
              f"{won:.0%} won")
    sample = sample_states(args.players)
    live = [s for s in sample if GAME.pending(s)]
    print(f"  legal_moves            : {per_call(lambda s: GAME.legal_moves(s, GAME.pending(s)[0].seat), live):8.1f} us")
    print(f"  view_for (a seat)      : {per_call(lambda s: GAME.view_for(s, 0), sample):8.1f} us")
    print(f"  view_for (spectator)   : {per_call(lambda s: GAME.view_for(s, None), sample):8.1f} us")
    print(f"  state copy (apply's)   : {per_call(copy_state, sample):8.1f} us")
    print(f"  JSON round trip        : {per_call(lambda s: json.loads(json.dumps(s)), sample):8.1f} us")
    size = sum(len(json.dumps(s)) for s in sample) / len(sample)
    print(f"  state size (JSON)      : {size:8.0f} bytes on average over {len(sample)} sampled states")
    print(f"  floor again            : {floor_per_second(2.0):8.1f} runs/s")


if __name__ == "__main__":
    main()
