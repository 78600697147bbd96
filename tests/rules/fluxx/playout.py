"""Seeded players for the Fluxx playout tests and the benchmark.

``uniform`` picks any legal move with equal chance. ``goal_seeking`` plays like a person
who wants to win: usually it plays the Goal it is closest to meeting, a Keeper some Goal in
play asks for, or gets rid of its own Creepers, and otherwise picks any legal move
(decisions included) at random. Pure random play wins too, but slowly.
"""
from __future__ import annotations

from games.rules.fluxx.cards import EFFECT, TYPE
from games.rules.rng import Rng


def uniform(game, state, seat, moves, rng):
    return moves[rng.below(len(moves))]


CREEPER_CLEARERS = {"creeper-sweeper": 7, "move-a-creeper": 5, "trash-something": 3}


def _wanted(state):
    """Cards the Goals in play name."""
    return {c for g in state["goals"] for c in EFFECT[g].get("have", ())}


def _goal_score(state, seat, goal):
    have = EFFECT[goal].get("have", ())
    table, hand = state["tables"][seat], state["hands"][seat]
    return 3 * sum(1 for c in have if c in table) + sum(1 for c in have if c in hand)


def _score(state, seat, move):
    """How much a goal-minded player likes ``move`` (0: no opinion)."""
    kind = move["type"]
    mine = state["tables"][seat]
    my_creepers = [c for c in mine if TYPE[c] == "creeper"]
    if kind == "power":
        return 8 if move["target"] in my_creepers else 0
    if kind == "decide":
        choice = move["choice"]
        if choice in my_creepers:
            return 2
        return 1 if isinstance(choice, str) and choice in _wanted(state) else 0
    if kind != "play":
        return 0
    card = move["card"]
    if TYPE[card] == "goal":
        return 2 + _goal_score(state, seat, card)
    if TYPE[card] == "keeper":
        return 6 if card in _wanted(state) else 1
    if card == "steal-a-keeper" and any(c in _wanted(state) for t in state["tables"] for c in t if c not in mine):
        return 5
    return CREEPER_CLEARERS.get(card, 0) if my_creepers else 0


def goal_seeking(game, state, seat, moves, rng, greed=8):
    """``greed`` in tenths: how often the best-scoring move is chosen over a random one."""
    if rng.below(10) < greed:
        scored = [(_score(state, seat, m), i) for i, m in enumerate(moves)]
        best = max(scored)[0]
        if best > 0:
            top = [i for s, i in scored if s == best]
            return moves[top[rng.below(len(top))]]
    return moves[rng.below(len(moves))]


def play(game, seed, players=4, chooser=goal_seeking, options=None, on_step=None, in_place=False):
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
            events = game._apply(state, seat, move)
            before = None
        else:
            before = state
            state, events = game.apply(state, seat, move)
        log.append((seat, move))
        if on_step is not None:
            on_step(before, state, seat, move, moves, events)
    return state, log
