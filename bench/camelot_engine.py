"""Benchmark of the Camelot rules engine (pure Python, one core).

Times are CPU seconds of this process (time.process_time), so a busy shared machine
distorts them less than wall-clock time would. Beside them it prints a *floor*: a fixed
pure-Python workload timed in the same run, so figures from different machines (or from
one machine on a busy and a quiet day) compare as ratios ("games per floor run").

Prints random games per second (6 players by default, basic game and all variations) for
the seeking player of the playout tests and a uniformly random one, through the
contract's copying ``apply`` and in place through ``_apply``; then the cost of
``legal_moves``, ``view_for``, the state copy and a JSON round trip, and the state's size;
then how games of the knight level (games/rules/camelot/players.py, every seat) end at 3-6
players: the share that finishes within the turn limit, and their length in turns, moves
and minutes at the computer players' default pace.

    .venv/bin/python bench/camelot_engine.py [--games 40] [--players 6] [--knights 20]
        [--seed-offset 1000] [--tables 4,6]

``--games 0`` skips the engine lines (the knight games only); ``--seed-offset`` plays the
knight games from other seeds (a second sample, so the knight is not tuned to one).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.rules import computer  # noqa: E402
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


# A computer player waits this long before each move by default (games/table/computers.py,
# DEFAULT_DELAY; bench/ stays free of Django, so the figure is repeated here), and two turn
# holders move at once: a game of N moves takes about N * 2 s / 2 of play.
COMPUTER_DELAY = 2


def knight_games(players, games, turn_cap=400, seed_offset=0):
    """Seeded games with the knight in every seat: the (turns, moves) of the finished games,
    every game's turns and moves, and the CPU seconds the games took."""
    finished, turns, moves = [], [], []
    start = time.process_time()
    for seed in range(seed_offset, seed_offset + games):
        state = GAME.setup(players, {"turn_cap": turn_cap}, seed)
        state, made, _ = computer.play_game(GAME, state, ["knight"] * players, seed)
        turns.append(state["turn_count"])
        moves.append(made)
        if GAME.outcome(state).winners:
            finished.append((state["turn_count"], made))
    return finished, turns, moves, time.process_time() - start


def minutes(moves):
    return moves * COMPUTER_DELAY / 2 / 60


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
    parser.add_argument("--knights", type=int, default=20, help="knight games per table size (0: none)")
    parser.add_argument("--seed-offset", type=int, default=0, help="the knight games' first seed")
    parser.add_argument("--tables", default="3,4,5,6", help="table sizes of the knight games, e.g. 4,6")
    args = parser.parse_args()
    if args.games:
        engine_lines(args)
    if args.knights:
        knight_lines(args)


def engine_lines(args):
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


def knight_lines(args):
    first, last = args.seed_offset, args.seed_offset + args.knights - 1
    print(f"Knight level in every seat, basic game, {args.knights} seeded games per table (seeds {first}-{last}), "
          f"turn limit 400; minutes at {COMPUTER_DELAY} s a move, two turns at once; "
          f"CPU per move (the knight's choice and the engine's apply)")
    for players in (int(t) for t in args.tables.split(",")):
        done, turns, moves, seconds = knight_games(players, args.knights, seed_offset=args.seed_offset)
        share = len(done) / args.knights
        line = (f"  {players} players: {share:4.0%} finished; all games {statistics.mean(turns):4.0f} turns, "
                f"{statistics.mean(moves):5.0f} moves (~{minutes(statistics.mean(moves)):3.0f} min), "
                f"{1000 * seconds / sum(moves):4.2f} ms a move")
        if done:
            t = sorted(x for x, _ in done)
            m = statistics.mean(y for _, y in done)
            line += (f"; finished ones: median {statistics.median(t):4.0f} turns, mean {m:5.0f} moves "
                     f"(~{minutes(m):3.0f} min), longest {t[-1]} turns")
        print(line, flush=True)


if __name__ == "__main__":
    main()
