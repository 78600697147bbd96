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


class _Outlook:
    """What ``_score`` looks at, worked out once per choice rather than once per move (the
    benchmark times this player too); the scores are the same as reading the state afresh."""

    __slots__ = ("state", "seat", "mine", "my_creepers", "_wanted")

    def __init__(self, state, seat):
        self.state, self.seat = state, seat
        self.mine = state["tables"][seat]
        self.my_creepers = [c for c in self.mine if TYPE[c] == "creeper"]
        self._wanted = None

    @property
    def wanted(self):
        if self._wanted is None:
            self._wanted = _wanted(self.state)
        return self._wanted


def _score(outlook, move):
    """How much a goal-minded player likes ``move`` (0: no opinion)."""
    kind = move["type"]
    if kind == "play":
        card = move["card"]
        kind_of_card = TYPE[card]
        if kind_of_card == "goal":
            return 2 + _goal_score(outlook.state, outlook.seat, card)
        if kind_of_card == "keeper":
            return 6 if card in outlook.wanted else 1
        if card == "steal-a-keeper":
            mine, wanted = outlook.mine, outlook.wanted
            if any(c in wanted for t in outlook.state["tables"] for c in t if c not in mine):
                return 5
        return CREEPER_CLEARERS.get(card, 0) if outlook.my_creepers else 0
    if kind == "power":
        return 8 if move["target"] in outlook.my_creepers else 0
    if kind == "decide":
        choice = move["choice"]
        if choice in outlook.my_creepers:
            return 2
        return 1 if isinstance(choice, str) and choice in outlook.wanted else 0
    return 0


def goal_seeking(game, state, seat, moves, rng, greed=8):
    """``greed`` in tenths: how often the best-scoring move is chosen over a random one."""
    if rng.below(10) < greed:
        outlook = _Outlook(state, seat)
        scored = [(_score(outlook, m), i) for i, m in enumerate(moves)]
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
