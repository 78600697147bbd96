"""Cup Quest computer players (see games/rules/computer.py for how they are called).

Each level gets the seat's view and the legal moves, nothing else. The map is public, so
the knight loads it by the name the view gives, for distances and the monsters' places.

The knight ("Knight") looks one move ahead. It scores every legal move by what the race
would look like after it, in steps: the steps the nearest opponent still needs to win,
minus the steps the knight still needs (to the Grail and home, or home when carrying it),
with a heavy weight on an opponent who could win on their next turn. Chance is averaged:
a monster beside the landing hex sends it home half the time, a teleport works half the
time, a snipe hits as often as the listed aim hits the goblet where it stands now.
"""
from __future__ import annotations

import math
from functools import lru_cache

from ..computer import random_move
from ..rng import Rng
from . import cards, snipe
from .board import load_board

WIN = 10_000.0
AVERAGE_STEPS = 5.5     # a card moves 2-10, courts 4: about this many steps a turn
FREEZE_STEPS = 2 * AVERAGE_STEPS  # two lost turns
DANGER_STEPS = 10       # an opponent this close to winning may win on their next turn
DANGER_WEIGHT = 3.0     # ... so every step they lose is worth this many of ours
CHASE_PENALTY = 6       # reaching a carried Grail also means knocking its carrier over
FIGHT_WIN = 0.5         # one die each, ties rolled again


@lru_cache(maxsize=4)
def _distances(board_name: str) -> dict:
    """Walking distance between any two walkable cells (monsters' cells excluded)."""
    board = load_board(board_name)
    keys = [c for c in board.cells if c not in board.monster_hexes]
    out = {}
    for a in keys:
        for b in keys:
            d = board.grid.walk_distance(board.hex_of[a], board.hex_of[b])
            out[a, b] = 99 if d is None else d
    return out


@lru_cache(maxsize=8192)
def hit_chance(distance: int, offset: int, angle: float, strength: float) -> float:
    """How often a shot with this aim goes in (two attempts), by a fixed grid over the
    hand's wobble (deterministic: the player's own generator is not spent on it)."""
    n = 24
    zs = [_normal_quantile((i + 0.5) / n) for i in range(n)]
    inside = 0
    for za in zs:
        a = angle + snipe.ANGLE_SD * za
        for zs_ in zs:
            s = max(0.0, strength * (1.0 + snipe.STRENGTH_SD * zs_))
            x, y = snipe.landing(a, s)
            if math.hypot(x - offset, y - distance) <= snipe.CUP_RADIUS:
                inside += 1
    one = inside / (n * n)
    return 1.0 - (1.0 - one) ** snipe.ATTEMPTS


@lru_cache(maxsize=64)
def _normal_quantile(p: float) -> float:
    """Inverse of the standard normal CDF, by bisection on erf (run for a few fixed points)."""
    lo, hi = -8.0, 8.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if 0.5 * (1 + math.erf(mid / math.sqrt(2))) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


class _Race:
    """The public position, as the knight reasons about it."""

    def __init__(self, view: dict) -> None:
        self.me = view["my_seat"]
        self.board = load_board(view["board"]["name"])
        self.dist = _distances(self.board.name)
        self.alcoves = view["alcoves"]
        self.positions = list(view["positions"])
        self.grail = dict(view["grail"])
        self.frozen = view["frozen"]
        self.players = [s for s in range(view["players"]) if not view["resigned"][s]]
        self.others = [s for s in self.players if s != self.me]
        self.goblet = view["goblet"]

    def d(self, a: str, b: str) -> int:
        return 0 if a == b else self.dist.get((a, b), 99)

    def remaining(self, seat: int, positions: list, grail: dict) -> float:
        """Steps ``seat`` still needs to bring the Grail home, in this position."""
        pos, home = positions[seat], self.alcoves[seat]
        carrier = grail["carrier"]
        if carrier == seat:
            return self.d(pos, home)
        if carrier is None:
            return self.d(pos, grail["at"]) + self.d(grail["at"], home)
        at = positions[carrier]
        return self.d(pos, at) + self.d(at, home) + CHASE_PENALTY

    def score(self, positions: list, grail: dict, frozen_extra: dict | None = None) -> float:
        """Higher is better for the knight: its lead in the race after a move."""
        if grail["carrier"] is not None and positions[grail["carrier"]] == self.alcoves[grail["carrier"]]:
            return WIN if grail["carrier"] == self.me else -WIN
        mine = self.remaining(self.me, positions, grail)
        if not self.others:
            return -mine
        frozen_extra = frozen_extra or {}
        theirs = min(self.remaining(s, positions, grail) + FREEZE_STEPS * bool(self.frozen[s]) + frozen_extra.get(s, 0)
                     for s in self.others)
        danger = DANGER_WEIGHT * max(0.0, DANGER_STEPS - theirs)
        return theirs - mine - danger

    # --- what a move leads to -------------------------------------------------------

    def landing(self, seat: int, to: str) -> tuple[list, dict]:
        positions = list(self.positions)
        positions[seat] = to
        grail = dict(self.grail)
        if grail["carrier"] is None and grail["at"] == to:
            grail = {"at": None, "carrier": seat}
        return positions, grail

    def sent_home(self, seat: int, positions: list, grail: dict) -> tuple[list, dict]:
        positions = list(positions)
        if grail["carrier"] == seat:
            grail = {"at": positions[seat], "carrier": None}
        positions[seat] = self.alcoves[seat]
        return positions, grail

    def arrive(self, to: str) -> float:
        """Expected score of the knight standing on ``to`` (monsters fought on arrival)."""
        positions, grail = self.landing(self.me, to)
        won = self.score(positions, grail)
        if won >= WIN:
            return won
        fights = len(self.board.monsters_touching(to))
        if not fights:
            return won
        survive = FIGHT_WIN ** fights
        lost = self.score(*self.sent_home(self.me, positions, grail))
        return survive * won + (1 - survive) * lost

    def value(self, move: dict) -> float:
        kind = move["type"]
        now = self.score(self.positions, self.grail)
        if kind == "move":
            return self.arrive(move["to"])
        if kind == "teleport":
            space = self.board.teleport_for(move["card"])
            home = self.score(*self.sent_home(self.me, self.positions, self.grail))
            return 0.5 * self.arrive(space) + 0.5 * home
        if kind == "freeze":
            if self.frozen[move["target"]]:
                return now - 1  # freezing the frozen again adds nothing worth a card
            return self.score(self.positions, self.grail, {move["target"]: FREEZE_STEPS})
        if kind == "snipe":
            p = hit_chance(int(self.goblet["distance"]), int(self.goblet["offset"]),
                           float(move["angle"]), float(move["strength"]))
            hit = self.score(*self.sent_home(move["target"], self.positions, self.grail))
            # A shot spent is a shot gone: ask that it gains at least a step on average.
            return p * hit + (1 - p) * now - 1.0
        if kind == "attack":
            win = self.score(*self.sent_home(move["target"], self.positions, self.grail))
            lose = self.score(*self.sent_home(self.me, self.positions, self.grail))
            return FIGHT_WIN * win + (1 - FIGHT_WIN) * lose
        if kind == "discard":
            # Worth a little when the card could not move the knight usefully anyway.
            return now + 0.25
        return now  # pass, decline, fight (the only move then)


def random_level(view: dict, legal: list[dict], rng: Rng) -> dict:
    return random_move(legal, rng)


def knight(view: dict, legal: list[dict], rng: Rng) -> dict:
    if len(legal) == 1:
        return legal[0]
    race = _Race(view)
    best_by_card = _best_use_of_cards(race, legal)
    scored = []
    for move in legal:
        v = race.value(move)
        if move["type"] == "discard":
            # Discard the card whose best play is worst; never the one this turn plays.
            v -= 0.01 * _card_rank(move["card"])
            if best_by_card.get(move["card"], -WIN) > race.score(race.positions, race.grail) + 0.5:
                v -= 1.0
        scored.append((v, move))
    top = max(v for v, _ in scored)
    best = [m for v, m in scored if v >= top - 1e-9]
    return best[0] if len(best) == 1 else best[rng.below(len(best))]


def _best_use_of_cards(race: _Race, legal: list[dict]) -> dict:
    out: dict = {}
    for m in legal:
        if m["type"] in ("move", "teleport", "freeze"):
            out[m["card"]] = max(out.get(m["card"], -WIN * 2), race.value(m))
    return out


def _card_rank(card: str) -> int:
    steps = cards.steps(card)
    return 0 if steps is None else steps


LEVELS = {"random": random_level, "knight": knight}
