"""Standings from results, with their tie-breaks (the rules in plain words:
docs/tournaments.md).

Two-player formats (Swiss, round robin): score (win 1, draw 1/2, loss 0, bye 1), then
Buchholz (the sum of the opponents' scores), then Sonneborn-Berger (the sum of the scores of
the opponents beaten plus half the scores of those drawn). A bye counts in both tie-breaks as
a game won against a stand-in opponent whose score is the receiver's score before that round
plus a draw for every later round (the stand-in "lost" the bye game and then drew): the
receiver neither gains nor loses tie-break for having been given it, where counting the bye
as nothing would cost them a whole opponent. A round a player missed without a bye is a loss
that brings no opponent.

Table formats: points by place (``tables.place_points``; a round sat out is worth
``tables.sit_out_points``), then the average final score of every tablemate sat with (one
entry per tablemate per table; an average, not a sum, so short tables and rounds sat out do
not count against anyone), then the number of tables won (a shared first counts).

Players equal on every figure share a rank; the list orders them by id only to be stable.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from games.tournaments.entrants import PlayerId
from games.tournaments.tables import place_points, sit_out_points

WIN, DRAW, LOSS = Fraction(1), Fraction(1, 2), Fraction(0)
BYE_POINTS = WIN


@dataclass(frozen=True)
class Game:
    """A finished two-player game: ``first_points`` is the first player's result (1, 1/2 or
    0); the second player has the rest of the point."""
    first: PlayerId
    second: PlayerId
    first_points: Fraction

    def points(self) -> dict[PlayerId, Fraction]:
        mine = Fraction(self.first_points)
        if mine not in (WIN, DRAW, LOSS):
            raise ValueError(f"a game's result is 1, 1/2 or 0, not {mine}")
        return {self.first: mine, self.second: WIN - mine}


@dataclass(frozen=True)
class Round:
    """A two-player round's games and who, if anyone, had the bye."""
    games: tuple[Game, ...]
    bye: PlayerId | None = None


@dataclass(frozen=True)
class TableRound:
    """A table round: each table as player -> place (1 first, equal numbers tie), the size
    the round was seated at (which sets what sitting out is worth), and who sat out."""
    tables: tuple[Mapping[PlayerId, int], ...]
    size: int
    sitting_out: tuple[PlayerId, ...] = ()


@dataclass(frozen=True)
class Standing:
    """One line of the standings; ``tie_breaks`` in the order they are applied."""
    rank: int
    player: PlayerId
    score: Fraction
    tie_breaks: tuple[Fraction, ...] = field(default=())


def swiss_standings(rounds: Sequence[Round], players: Iterable[PlayerId] = ()) -> list[Standing]:
    """Standings of a two-player event: score, Buchholz, Sonneborn-Berger. ``players`` adds
    anyone who has no result yet.

    Counted in half points (whole numbers) and made fractions only at the end: a large
    event's standings are thousands of additions, and fractions' arithmetic is slow."""
    halves: dict[PlayerId, int] = defaultdict(int)
    for p in players:
        halves[p] += 0
    # Per player, every opponent met: (the opponent, or None for a stand-in; the stand-in's
    # score in half points; the player's result in half points).
    met: dict[PlayerId, list[tuple[PlayerId | None, int, int]]] = defaultdict(list)
    for number, round_ in enumerate(rounds, start=1):
        results = [(game, _first_halves(game)) for game in round_.games]
        for game, first in results:
            met[game.first].append((game.second, 0, first))
            met[game.second].append((game.first, 0, 2 - first))
        if round_.bye is not None:
            later = len(rounds) - number  # a draw, one half point, for every later round
            met[round_.bye].append((None, halves[round_.bye] + later, 2 * BYE_POINTS))
        for game, first in results:
            halves[game.first] += first
            halves[game.second] += 2 - first
        if round_.bye is not None:
            halves[round_.bye] += 2 * BYE_POINTS

    figures = {}
    for p in halves:
        opponents = [(halves[o] if o is not None else stand_in, result) for o, stand_in, result in met[p]]
        buchholz = sum(o for o, _ in opponents)                 # in half points
        sonneborn = sum(o * result for o, result in opponents)  # in quarter points
        figures[p] = (Fraction(halves[p], 2), (Fraction(buchholz, 2), Fraction(sonneborn, 4)))
    return _ranked(figures)


def _first_halves(game: Game) -> int:
    """The first player's result in half points (2, 1 or 0), checked as ``Game.points`` does."""
    halves = game.first_points * 2
    if halves not in (0, 1, 2):
        raise ValueError(f"a game's result is 1, 1/2 or 0, not {Fraction(game.first_points)}")
    return int(halves)


def table_standings(rounds: Sequence[TableRound], players: Iterable[PlayerId] = ()) -> list[Standing]:
    """Standings of a table event: points by place, the tablemates' average score, tables won."""
    score: dict[PlayerId, Fraction] = defaultdict(Fraction)
    for p in players:
        score[p] += 0
    tablemates: dict[PlayerId, list[PlayerId]] = defaultdict(list)
    wins: dict[PlayerId, int] = defaultdict(int)
    for round_ in rounds:
        for places in round_.tables:
            for p, points in place_points(places).items():
                score[p] += points
                tablemates[p].extend(q for q in places if q != p)
                wins[p] += places[p] == min(places.values())
        for p in round_.sitting_out:
            score[p] += sit_out_points(round_.size)
    figures = {}
    for p in score:
        mates = tablemates[p]
        average = Fraction(sum(score[q] for q in mates), len(mates)) if mates else Fraction(0)
        figures[p] = (score[p], (average, Fraction(wins[p])))
    return _ranked(figures)


def _ranked(figures: Mapping[PlayerId, tuple[Fraction, tuple[Fraction, ...]]]) -> list[Standing]:
    order = sorted(figures, key=lambda p: (-figures[p][0], tuple(-t for t in figures[p][1]), p))
    standings: list[Standing] = []
    for position, p in enumerate(order, start=1):
        rank = position
        if standings and figures[standings[-1].player] == figures[p]:
            rank = standings[-1].rank
        standings.append(Standing(rank, p, *figures[p]))
    return standings
