"""What ``Game.offered`` costs per call: asked before every person's move.

For the CCG (the costliest listing) and each other kind, states are sampled from seeded
games of computer players; in each, every pending seat's listed moves (as posted, through
JSON) are asked about, and a move no list holds (the listed move with ``"timed_out": true``).
Beside them, ``legal_moves`` (what answering from the whole listing would cost at least),
and the floor (bench/floor.py), so figures compare across machines as ratios.

    .venv/bin/python bench/move_offered.py [--games N]
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.rules import computer  # noqa: E402
from games.rules.camelot import Camelot  # noqa: E402
from games.rules.ccg.game import MPHGGame  # noqa: E402
from games.rules.cupquest import CupQuest  # noqa: E402
from games.rules.duel.game import GrailDuel  # noqa: E402
from games.rules.fluxx import MontyPythonFluxx  # noqa: E402
from cputime import per_call  # noqa: E402  (bench/cputime.py)
from floor import floor_per_second  # noqa: E402  (bench/floor.py: the fixed workload)

DATA = ROOT / "games" / "rules" / "ccg" / "data"
KINDS = {"ccg": MPHGGame(), "camelot": Camelot(), "cupquest": CupQuest(), "fluxx": MontyPythonFluxx(),
         "duel": GrailDuel()}
PLAYERS = {"ccg": 3, "camelot": 4, "cupquest": 3, "fluxx": 3, "duel": 2}


def options(kind: str, players: int) -> dict:
    if kind == "ccg":
        cards = {c["code"]: c for c in json.loads((DATA / "starter_set.json").read_text())}
        decks = [[cards[code] for code, n in d["cards"].items() for _ in range(n)]
                 for d in json.loads((DATA / "starter_decks.json").read_text())]
        return {"decks": [decks[i % 2] for i in range(players)], "collection_sizes": [1] * players}
    return {"turn_cap": 60} if kind == "camelot" else {"round_limit": 25} if kind == "cupquest" else {}


def sampled(kind: str, games: int) -> list[tuple]:
    """(state, seat, move) to ask about: every 5th state of each game, each pending seat's
    listed moves and one move with an unknown field."""
    game = KINDS[kind]
    out = []
    for seed in range(games):
        state = game.setup(PLAYERS[kind], options(kind, PLAYERS[kind]), seed)
        for n in range(2000):
            if game.outcome(state) is not None:
                break
            if n % 5 == 0:
                for seat in sorted({p.seat for p in game.pending(state)}):
                    listed = json.loads(json.dumps(game.legal_moves(state, seat)))
                    out += [(state, seat, m) for m in listed]
                    if listed:
                        out.append((state, seat, dict(listed[0], timed_out=True)))
            seat = game.pending(state)[0].seat
            move, _ = computer.choose_move(game, state, seat, "random", computer.seed_for(kind, seed, n))
            state, _ = game.apply(state, seat, move)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2, help="seeded games sampled per kind (default 2)")
    args = parser.parse_args()
    floor = floor_per_second(2.0)
    print(f"Game.offered, per call (CPU time, one core); floor {floor:.1f} runs/s (bench/floor.py)")
    for kind, game in KINDS.items():
        asks = sampled(kind, args.games)
        offered = per_call(lambda a: game.offered(*a), asks)
        listing = per_call(lambda a: game.legal_moves(a[0], a[1]), asks)
        print(f"  {kind:8s}: offered {offered:7.1f} us   legal_moves {listing:7.1f} us   "
              f"({len(asks)} moves asked about; offered = {offered * floor / 1e6:.4f} floor runs)")
    print(f"  floor again: {floor_per_second(2.0):.1f} runs/s")


if __name__ == "__main__":
    main()
