"""Round robin: players split into groups, and everyone in a group meets everyone else in it
(the rules in plain words: docs/tournaments.md).

Groups are seeded like a snake by rating: the strongest go to groups 1, 2, ..., n, the next
ones to n, ..., 2, 1, and so on, so every group gets a fair share of the field; their sizes
differ by at most one.

Two-player games: the circle method. One player stays put while the rest turn around them one
place a round, so a group of n plays n - 1 rounds (n rounds when n is odd: a stand-in fills
the gap and whoever meets it sits that round out) and every pair meets exactly once. Who
plays first alternates, so everyone plays first in half their games (one more or less).

Games of three or more players: a group is one table. "Everyone meets everyone" is then true
of every round, so the schedule's job is fairness of seats: the seats turn one place a round,
and over as many rounds as there are players each player takes every seat once (first to
play included).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from games.tournaments.entrants import Entrant, PlayerId


@dataclass(frozen=True)
class PairRound:
    """One round of a two-player group: (plays first, plays second) pairs and who sits out."""
    pairs: tuple[tuple[PlayerId, PlayerId], ...]
    sitting_out: PlayerId | None = None


def snake_groups(players: Sequence[Entrant], group_size: int, min_size: int = 2) -> list[list[PlayerId]]:
    """The players in as few groups of at most ``group_size`` as will hold them, snake-seeded
    by rating (ties by id). Raises if the smallest group would fall below ``min_size``."""
    if group_size < min_size:
        raise ValueError("the group size is below the minimum")
    count = math.ceil(len(players) / group_size)
    if count == 0:
        return []
    if len(players) // count < min_size:
        raise ValueError(f"{len(players)} players cannot make groups of at least {min_size}")
    seeded = sorted(players, key=lambda p: (-p.rating, p.id))
    groups: list[list[PlayerId]] = [[] for _ in range(count)]
    for n, player in enumerate(seeded):
        lap, step = divmod(n, count)
        groups[step if lap % 2 == 0 else count - 1 - step].append(player.id)
    return groups


def pair_schedule(group: Sequence[PlayerId]) -> list[PairRound]:
    """Every round of a two-player group by the circle method (none for a group of one)."""
    if len(group) < 2:
        return []
    circle: list[PlayerId | None] = list(group)
    if len(circle) % 2:
        # The stand-in (meeting it is sitting out) takes the fixed place: the alternation of
        # who plays first then balances for every real player.
        circle.insert(0, None)
    rounds = []
    for number in range(len(circle) - 1):
        pairs, out = [], None
        for i in range(len(circle) // 2):
            a, b = circle[i], circle[-1 - i]
            if a is None or b is None:
                out = b if a is None else a
                continue
            # The fixed player alternates; for the others the side of the circle they are on
            # decides, and turning the circle moves them across every other round.
            first_is_a = number % 2 == 0 if i == 0 else i % 2 == 1
            pairs.append((a, b) if first_is_a else (b, a))
        rounds.append(PairRound(tuple(pairs), out))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def table_schedule(group: Sequence[PlayerId], rounds: int | None = None) -> list[tuple[PlayerId, ...]]:
    """Seat orders of a group that plays as one table, round after round (by default as many
    rounds as players, so each takes every seat once)."""
    count = len(group) if rounds is None else rounds
    return [tuple(group[(n + k) % len(group)] for k in range(len(group))) for n in range(count)]
