"""Benchmark of the Monty Python Fluxx rules engine (pure Python, one core).

Times are CPU seconds of this process (time.process_time), so a busy shared machine
distorts them less than wall-clock time would. Beside them it prints a *floor*: a fixed
pure-Python workload timed in the same run, so figures from different machines (or from
one machine on a busy and a quiet day) compare as ratios ("games per floor run").

Prints random games per second and moves per second for the goal-seeking player of the
playout tests and for a uniformly random one, through the contract's copying ``apply`` and
in place through ``_apply``; then the cost of ``view_for``, ``legal_moves`` and a JSON round
trip of the state, and the state's size.

    .venv/bin/python bench/fluxx_engine.py [--games 300] [--players 4]

On a shared machine the timings swing by a third from run to run; the instructions a game
costs do not. ``--only-play`` plays the goal-seeking games through ``apply`` and prints
nothing else, for counting instructions (docs/rules/fluxx.md, Performance)::

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        .venv/bin/python bench/fluxx_engine.py --only-play --games 30
    # the same with --games 0 gives the start-up cost to subtract; --player uniform and
    # --in-place count the other lines
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.rules.fluxx import MontyPythonFluxx  # noqa: E402
from tests.rules.fluxx.playout import goal_seeking, play, uniform  # noqa: E402

GAME = MontyPythonFluxx()


from floor import floor_per_second  # noqa: E402  (bench/floor.py: the fixed workload)
from cputime import per_call  # noqa: E402


def playouts(games, players, chooser, in_place):
    lengths, turns, wins = [], [], 0
    start = time.process_time()
    for seed in range(games):
        state, log = play(GAME, seed, players=players, chooser=chooser, in_place=in_place)
        lengths.append(len(log))
        turns.append(state["turn"]["number"])
        wins += bool(GAME.outcome(state).winners)
    seconds = time.process_time() - start
    return games / seconds, sum(lengths) / seconds, statistics.mean(lengths), statistics.mean(turns), wins / games


def sample_states(players, seeds=(12345, 54321)):
    sample = []

    def keep(before, state, seat, move, moves, events):
        if len(sample) % 5 == 0:
            sample.append(state)
        else:
            sample.append(None)

    for seed in seeds:
        play(GAME, seed, players=players, on_step=keep)
    return [s for s in sample if s is not None]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per line")
    parser.add_argument("--players", type=int, default=4, choices=range(2, 7))
    parser.add_argument("--only-play", action="store_true",
                        help="play the goal-seeking games through apply, untimed (to count instructions)")
    parser.add_argument("--player", choices=("goal-seeking", "uniform"), default="goal-seeking",
                        help="with --only-play: which player")
    parser.add_argument("--in-place", action="store_true", help="with --only-play: through _apply, not apply")
    args = parser.parse_args()
    if args.only_play:
        chooser = goal_seeking if args.player == "goal-seeking" else uniform
        play(GAME, 10**6, players=args.players, chooser=chooser, in_place=args.in_place)  # warm-up, the same in every run
        for seed in range(args.games):
            play(GAME, seed, players=args.players, chooser=chooser, in_place=args.in_place)
        return
    floor = floor_per_second(2.0)
    print(f"Monty Python Fluxx engine, {args.players} players, {args.games} seeded games per line (one core)")
    print(f"  floor (fixed pure-Python loop, 2 s): {floor:7.1f} runs/s")
    for name, chooser in (("goal-seeking", goal_seeking), ("uniform", uniform)):
        for in_place in (False, True):
            gps, mps, moves, turns, won = playouts(args.games, args.players, chooser, in_place)
            how = "in place (_apply)" if in_place else "apply (copies state)"
            print(f"  {name:12s} {how:22s}: {gps:7.1f} games/s ({gps / floor:5.2f} per floor run) "
                  f"{mps:8.0f} moves/s; {moves:5.1f} moves, {turns:4.1f} turns a game, {won:.0%} won")
    sample = sample_states(args.players)
    live = [s for s in sample if GAME.pending(s)]
    print(f"  view_for (a seat)      : {per_call(lambda s: GAME.view_for(s, 0), sample):8.1f} us")
    print(f"  view_for (spectator)   : {per_call(lambda s: GAME.view_for(s, None), sample):8.1f} us")
    legal = per_call(lambda s: GAME.legal_moves(s, GAME.pending(s)[0].seat), live)
    print(f"  legal_moves            : {legal:8.1f} us")
    print(f"  JSON round trip        : {per_call(lambda s: json.loads(json.dumps(s)), sample):8.1f} us")
    size = sum(len(json.dumps(s)) for s in sample) / len(sample)
    print(f"  state size (JSON)      : {size:8.0f} bytes on average over {len(sample)} sampled states")
    # Measured again at the end: a large change means the machine's load changed meanwhile.
    print(f"  floor again            : {floor_per_second(2.0):8.1f} runs/s")


if __name__ == "__main__":
    main()
