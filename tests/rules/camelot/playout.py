"""Seeded players for the Camelot playout tests and the benchmark.

``uniform`` picks any legal move with equal chance (pauses aside). ``seeking`` plays like
someone who wants to win: it strikes when it can, declares targets its units stand near,
brings pieces on, walks carriers home and empty-handed units towards the nearest thing to
carry; otherwise it picks at random. Which seat acts next is drawn at random among the
pending seats, so the two token holders' moves interleave in every order.
"""
from __future__ import annotations

from games.rules.camelot.board import load
from games.rules.camelot.pieces import can_carry
from games.rules.rng import Rng

BOARD = load("standard")
_dist = BOARD.distance
NEAR = {h: frozenset(k for k, d in row.items() if d <= 2) for h, row in BOARD.dist.items()}  # within 2


def uniform(game, state, seat, moves, rng):
    calm = [m for m in moves if m["type"] not in ("pause", "resume")] or moves
    return calm[rng.below(len(calm))]


def _score(state, seat, move, near_cache):
    kind = move["type"]
    units = state["units"]
    if kind == "strike":
        return 10
    if kind == "declare":
        if len(move["targets"]) > 1:
            return -5
        mine = near_cache.get("mine")
        if mine is None:  # hexes within 2 of one of my units, worked out once per choice
            mine = near_cache["mine"] = set().union(*(NEAR[u["hex"]] for u in units.values() if u["seat"] == seat))
        return 6 if units[move["targets"][0]]["hex"] in mine else -2
    if kind == "enter":
        return 3 if move["piece"] in ("arthur", "lancelot", "galahad") else 1
    if kind == "move":
        unit = units[move["unit"]]
        if unit["guardian"]:
            return 0
        here, to = unit["hex"], move["to"]
        if unit["carry"]:
            home = state["entries"][seat]
            return 4 * (_dist(here, home) - _dist(to, home))
        return 2 * (_near(state, unit, here, near_cache) - _near(state, unit, to, near_cache))
    if kind == "end_turn":
        return 0.5
    if kind in ("pause", "resume"):
        return -50 if kind == "pause" else 50
    return 0


def _near(state, unit, h, cache):
    """Steps from ``h`` to the nearest thing a unit of this type could carry."""
    kind = unit["type"]
    key = (kind, h)
    if key not in cache:
        spots = cache.get(kind)
        if spots is None:
            spots = cache[kind] = [w for w, things in state["items"].items() if any(can_carry(kind, t) for t in things)]
        row = BOARD.dist[h]
        cache[key] = min((row[w] for w in spots), default=0)
    return cache[key]


def seeking(game, state, seat, moves, rng, greed=8):
    if rng.below(10) < greed:
        cache: dict = {}
        scored = [(_score(state, seat, m, cache), i) for i, m in enumerate(moves)]
        best = max(scored)[0]
        top = [i for s, i in scored if s == best]
        return moves[top[rng.below(len(top))]]
    return uniform(game, state, seat, moves, rng)


def random_options(seed):
    """A seeded mix of variations (and now and then a short turn cap)."""
    rng = Rng({"seed": seed * 31 + 7, "n": 0})
    return {"accoutrements": rng.below(3) == 0, "gold": rng.below(3) == 0, "guardians": rng.below(2) == 0,
            "turn_based": rng.below(5) == 0, "failed_attack_penalty": rng.below(4) != 0,
            "turn_cap": (400, 150, 100, 60)[rng.below(4)]}


def play(game, seed, players=4, chooser=seeking, options=None, on_step=None, in_place=False):
    """One seeded game to its end. Returns (final state, [(seat, move), ...])."""
    state = game.setup(players, options or {}, seed)
    rng = Rng({"seed": seed * 7919 + players, "n": 0})
    log = []
    while game.outcome(state) is None:
        pending = game.pending(state)
        seat = pending[rng.below(len(pending))].seat
        moves = game.legal_moves(state, seat)
        move = chooser(game, state, seat, moves, rng)
        if in_place:
            before = None
            events = game._apply(state, seat, move)
        else:
            before = state
            state, events = game.apply(state, seat, move)
        log.append((seat, move))
        if on_step is not None:
            on_step(before, state, seat, move, moves, events)
    return state, log
