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


CREEPER_CLEARERS = {"creeper-sweeper": 7, "move-a-creeper": 5, "move-a-creeper-2008": 5, "trash-something": 3}
CREEPERS = frozenset(card for card, kind in TYPE.items() if kind == "creeper")


def _wanted(state):
    """Cards the Goals in play name."""
    return {c for g in state["goals"] for c in EFFECT[g].get("have", ())}


def _goal_score(state, seat, goal):
    have = EFFECT[goal].get("have", ())
    table, hand = state["tables"][seat], state["hands"][seat]
    return 3 * sum(1 for c in have if c in table) + sum(1 for c in have if c in hand)


def goal_seeking(game, state, seat, moves, rng, greed=8):
    """``greed`` in tenths: how often the best-scoring move is chosen over a random one.

    A move's score (0: no opinion): a Goal 2 + ``_goal_score``; a Keeper some Goal in play
    names 6, any other Keeper 1; Steal a Keeper 5 while someone else holds a named card;
    while the player has Creepers, the cards that clear them (``CREEPER_CLEARERS``), a
    power aimed at one of them 8, a decision choosing one 2; a decision choosing a named
    card 1. Written as one loop over the moves with the table looked at once (the
    benchmark times this player too); the plain scorer ``_score`` gives the same numbers
    (tests/rules/fluxx/test_fx_fast_paths.py)."""
    if rng.below(10) < greed:
        mine = state["tables"][seat]
        # "one of my Creepers": a card on my table that is a Creeper (no list of them made)
        wanted = None
        best, top = 0, None  # the best score so far (> 0) and the indices of the moves that have it
        for i, move in enumerate(moves):
            kind = move["type"]
            score = 0
            if kind == "play":
                card = move["card"]
                kind_of_card = TYPE[card]
                if kind_of_card == "goal":
                    # 2 + _goal_score, unfolded
                    score = 2
                    hand = state["hands"][seat]
                    for c in HAVE[card]:
                        if c in mine:
                            score += 3
                        if c in hand:
                            score += 1
                elif kind_of_card == "keeper":
                    if wanted is None:
                        wanted = _wanted_now(state)
                    score = 6 if card in wanted else 1
                else:
                    if card == "steal-a-keeper":
                        if wanted is None:
                            wanted = _wanted_now(state)
                        if any(c in wanted for t in state["tables"] for c in t if c not in mine):
                            score = 5
                    if not score and card in CREEPER_CLEARERS and not CREEPERS.isdisjoint(mine):
                        score = CREEPER_CLEARERS[card]
            elif kind == "power":
                target = move["target"]
                score = 8 if target in CREEPERS and target in mine else 0  # the set first: seldom a Creeper
            elif kind == "decide":
                choice = move["choice"]
                if isinstance(choice, str):  # a card (or a direction); seats and lists score 0
                    if choice in CREEPERS and choice in mine:  # the set first: seldom a Creeper
                        score = 2
                    else:
                        if wanted is None:
                            wanted = _wanted_now(state)
                        score = 1 if choice in wanted else 0
            if score and score >= best:  # most moves score 0: asked first
                if score == best:
                    top.append(i)
                else:
                    best, top = score, [i]
        if top is not None:
            return moves[top[rng.below(len(top))]]
    return moves[rng.below(len(moves))]


# The cards each Goal names, and the last Goals-in-play seen with the cards they name:
# ``_wanted`` builds a set each time, and the Goals in play change a few times a game.
HAVE = {card: tuple(EFFECT[card].get("have", ())) for card in TYPE if TYPE[card] == "goal"}
_last_wanted = [None, frozenset()]


def _wanted_now(state):
    """``_wanted(state)``, remembered for the last list of Goals in play (compared by value)."""
    goals = state["goals"]
    last = _last_wanted
    if goals != last[0]:
        last[1] = frozenset(_wanted(state))
        last[0] = goals[:]
    return last[1]


def _score(state, seat, move):
    """How much a goal-minded player likes ``move``: the plain definition of the scores
    ``goal_seeking`` works out in its loop (0: no opinion)."""
    mine = state["tables"][seat]
    my_creepers = [c for c in mine if TYPE[c] == "creeper"]
    wanted = _wanted(state)
    kind = move["type"]
    if kind == "play":
        card = move["card"]
        if TYPE[card] == "goal":
            return 2 + _goal_score(state, seat, card)
        if TYPE[card] == "keeper":
            return 6 if card in wanted else 1
        if card == "steal-a-keeper" and any(c in wanted for t in state["tables"] for c in t if c not in mine):
            return 5
        return CREEPER_CLEARERS.get(card, 0) if my_creepers else 0
    if kind == "power":
        return 8 if move["target"] in my_creepers else 0
    if kind == "decide":
        choice = move["choice"]
        if choice in my_creepers:
            return 2
        return 1 if isinstance(choice, str) and choice in wanted else 0
    return 0


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
