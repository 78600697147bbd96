"""A player as every format's pairing or seating sees them, and the order of places."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

PlayerId = int | str


@dataclass(frozen=True)
class Entrant:
    """``score`` in the format's points so far, ``rating`` the openskill ordinal (the order
    within a score), ``had_bye`` whether they ever sat a round out with a bye."""
    id: PlayerId
    score: float
    rating: float
    had_bye: bool = False


def placement(players: Iterable[Entrant]) -> list[Entrant]:
    """Players from first place to last: score, then rating, then id (so ties are stable)."""
    return sorted(players, key=lambda p: (-p.score, -p.rating, p.id))


def check_unique(players: list[Entrant]) -> None:
    if len({p.id for p in players}) != len(players):
        raise ValueError("a player is listed twice")


def bye_candidates(order: list[Entrant]) -> list[Entrant]:
    """Who may sit a round out, in turn: the players who never have, from last place up;
    then (only if none of them will do) those who have, from last place up."""
    fresh = [p for p in reversed(order) if not p.had_bye]
    return fresh + [p for p in reversed(order) if p.had_bye]
