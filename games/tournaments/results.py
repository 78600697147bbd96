"""A tournament or ladder game's result from how the game ended (the rules in plain words:
docs/tournaments.md, "Results").

Places, one per seat: 1 is first, equal numbers tie. A game's outcome names its winners
only, so its players take two places at most, as the ratings read an ending
(games/players/ratings.py): the winners share first place, everyone else shares the next;
a draw, or an ending with no winner, puts everyone first. An aborted game (a person left it
before their first move: games/table/referee.py) gives whoever left it the last place and
everyone else the first: in a tournament a game not played through is lost by the player
who did not play it.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from games.tournaments.standings import DRAW, LOSS, WIN


def places_from_outcome(outcome: dict | None, seats: int) -> list[int]:
    """Each seat's place at a finished game, from its outcome (``winners``: seat indexes)."""
    outcome = outcome or {}
    winners = {w for w in outcome.get("winners") or () if isinstance(w, int) and 0 <= w < seats}
    if outcome.get("draw") or not winners or len(winners) == seats:
        return [1] * seats
    return [1 if seat in winners else 2 for seat in range(seats)]


def places_after_abort(seats: int, left: Iterable[int]) -> list[int]:
    """Each seat's place at an aborted game: the seats in ``left`` last, the rest first."""
    left = set(left)
    if not left or len(left) == seats:
        return [1] * seats
    return [2 if seat in left else 1 for seat in range(seats)]


def first_points(places: Sequence[int]) -> Fraction:
    """The first player's score in a game of two (win 1, draw 1/2, loss 0)."""
    mine, theirs = places
    return WIN if mine < theirs else DRAW if mine == theirs else LOSS
