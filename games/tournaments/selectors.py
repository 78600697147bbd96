"""Reading tournaments and ladders: the lists, one tournament's rounds and standings, and what
a game's page says of the competition it belongs to.

A tournament's page costs the same few statements whatever its size (bench/tournaments.py,
--page): the tournament, its entries with their players, its rounds and its games, each
one read; standings are worked out from those rows by the pure ``standings`` module."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Count, Q

from games import registry
from games.models import (Ladder, LadderChallenge, LadderRung, Match, Tournament, TournamentEntry, TournamentGame,
                          TournamentRound)
from games.tournaments import results
from games.tournaments.standings import Game, Round, Standing, TableRound, swiss_standings, table_standings
from games.tournaments.tables import place_points

Kind = TournamentGame.Kind
Format = Tournament.Format
# Who counts in the standings: everyone who played, also those who left since.
COUNTED = (TournamentEntry.Status.ENTERED, TournamentEntry.Status.WITHDRAWN, TournamentEntry.Status.REMOVED)


def games_of_two(tournament: Tournament) -> bool:
    """Whether the tournament's games are played by two: a Swiss always; a round robin of a
    game two may play (its group meets in pairs); never tables."""
    if tournament.format == Format.SWISS:
        return True
    if tournament.format == Format.TABLES:
        return False
    return registry.get(tournament.kind).min_players <= 2


# --- the lists ---------------------------------------------------------------------------

SECTIONS = {"open": (Tournament.Status.OPEN,), "running": (Tournament.Status.RUNNING, Tournament.Status.PAUSED),
            "finished": (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)}


def tournament_list(*, kind: str | None = None, format: str | None = None, section: str | None = None,
                    limit: int = 100) -> list[Tournament]:
    """Tournaments, newest first, each with ``players`` (how many entered): filtered by game,
    format and section (open, running, finished)."""
    qs = (Tournament.objects.select_related("organiser")
          .annotate(players=Count("entries", filter=Q(entries__status__in=COUNTED))))
    if kind:
        qs = qs.filter(kind=kind)
    if format:
        qs = qs.filter(format=format)
    if section in SECTIONS:
        qs = qs.filter(status__in=SECTIONS[section])
    return list(qs.order_by("-created_at")[:limit])


# --- one tournament ----------------------------------------------------------------------

@dataclass
class Line:
    """One line of the standings: the pure module's figures, the entry, and its group."""
    standing: Standing
    entry: TournamentEntry
    group: int | None = None


@dataclass
class Detail:
    tournament: Tournament
    entries: dict[int, TournamentEntry]
    rounds: list[TournamentRound]
    games: list[TournamentGame]
    standings: list[Line] = field(default_factory=list)

    def games_of(self, round_: TournamentRound) -> list[TournamentGame]:
        return [g for g in self.games if g.round_id == round_.pk]


def tournament_get(tournament_id: int) -> Tournament | None:
    return Tournament.objects.select_related("organiser").filter(pk=tournament_id).first()


def detail(tournament: Tournament) -> Detail:
    """Everything the tournament's page and API show, in three more statements."""
    entries = {e.pk: e for e in TournamentEntry.objects.filter(tournament=tournament).select_related("user")}
    rounds = list(TournamentRound.objects.filter(tournament=tournament).order_by("number"))
    games = list(TournamentGame.objects.filter(tournament=tournament).order_by("round_id", "board"))
    found = Detail(tournament, entries, rounds, games)
    found.standings = standings_of(tournament, entries, rounds, games)
    return found


def standings_of(tournament: Tournament, entries: dict[int, TournamentEntry], rounds: list[TournamentRound],
                 games: list[TournamentGame]) -> list[Line]:
    """The standings from the decided games (a game still being played counts once decided)."""
    counted = [e for e in entries.values() if e.status in COUNTED]
    number = {r.pk: r.number for r in rounds}
    if tournament.format != Format.ROUND_ROBIN:
        return _lines(_figures(tournament, [e.pk for e in counted], games, number), entries)
    lines = []
    for group in sorted({e.group for e in counted if e.group is not None}):
        members = [e.pk for e in counted if e.group == group]
        inside = set(members)
        mine = [g for g in games if g.players and g.players[0] in inside]
        lines += _lines(_figures(tournament, members, mine, number), entries, group)
    return lines


def _figures(tournament, players: list[int], games: list[TournamentGame], number: dict[int, int]) -> list[Standing]:
    by_round: dict[int, list[TournamentGame]] = defaultdict(list)
    for g in games:
        by_round[number[g.round_id]].append(g)
    last = max(by_round, default=0)
    if games_of_two(tournament):
        return swiss_standings([_pair_round(by_round.get(n, ())) for n in range(1, last + 1)], players)
    size = tournament.table_size
    return table_standings([_table_round(by_round.get(n, ()), size) for n in range(1, last + 1)], players)


def _pair_round(games) -> Round:
    played = tuple(Game(g.players[0], g.players[1], results.first_points(g.places)) for g in games
                   if g.kind in (Kind.GAME, Kind.FORFEIT) and g.places is not None and len(g.players) == 2)
    bye = next((g.players[0] for g in games if g.kind == Kind.BYE), None)
    return Round(played, bye)


def _table_round(games, size: int) -> TableRound:
    tables = tuple(dict(zip(g.players, g.places)) for g in games
                   if g.kind in (Kind.GAME, Kind.FORFEIT) and g.places is not None)
    out = tuple(g.players[0] for g in games if g.kind == Kind.SIT_OUT)
    return TableRound(tables, size, out)


def _lines(standings: list[Standing], entries, group: int | None = None) -> list[Line]:
    return [Line(s, entries[s.player], group) for s in standings]


def game_points(tournament: Tournament, game: TournamentGame) -> list[Fraction] | None:
    """What each player of a decided game scored in the tournament, in the order of ``players``."""
    if game.kind == Kind.BYE:
        return [Fraction(1)]
    if game.kind == Kind.SIT_OUT or game.places is None:
        return None
    if len(game.players) == 2 and games_of_two(tournament):
        first = results.first_points(game.places)
        return [first, 1 - first]
    points = place_points(dict(enumerate(game.places)))
    return [Fraction(points[i]) for i in range(len(game.places))]


def scores(tournament: Tournament, entries: dict[int, TournamentEntry], rounds, games) -> dict[int, Fraction]:
    return {line.entry.pk: line.standing.score for line in standings_of(tournament, entries, rounds, games)}


# --- a game's page -----------------------------------------------------------------------

def competition_of(match: Match) -> dict | None:
    """What a game's page says of the competition it is part of: {"text", "url"}, e.g.
    "Round 2 of the Spring Swiss", or None for a game of its own."""
    if match.competition == "tournament":
        tg = (TournamentGame.objects.filter(match_id=match.pk).select_related("round", "tournament")
              .only("round__number", "tournament__name", "tournament_id").first())
        if tg is not None:
            return {"text": f"Round {tg.round.number} of {tg.tournament.name}",
                    "url": f"/tournaments/{tg.tournament_id}/"}
    if match.competition == "ladder":
        challenge = LadderChallenge.objects.filter(match_id=match.pk).select_related("ladder").first()
        if challenge is not None:
            name = registry.get(challenge.ladder.kind).name
            return {"text": f"A challenge on the {name} ladder", "url": f"/ladders/{challenge.ladder.kind}/"}
    return None


# --- ladders -----------------------------------------------------------------------------

def ladder_kinds() -> list:
    """The games that have a ladder: those two may play (a challenge is a game of two)."""
    return [g for g in registry.kinds() if g.min_players <= 2 <= g.max_players]


@dataclass
class LadderView:
    ladder: Ladder | None
    rungs: list[LadderRung]
    open: list[LadderChallenge]
    recent: list[LadderChallenge]


def ladder_view(kind: str) -> LadderView:
    ladder = Ladder.objects.filter(kind=kind).first()
    if ladder is None:
        return LadderView(None, [], [], [])
    rungs = list(LadderRung.objects.filter(ladder=ladder).select_related("user").order_by("position"))
    challenges = LadderChallenge.objects.filter(ladder=ladder).select_related("challenger", "defender", "winner")
    return LadderView(ladder, rungs, list(challenges.filter(status=LadderChallenge.Status.OPEN).order_by("created_at")),
                      list(challenges.filter(status=LadderChallenge.Status.DONE).order_by("-finished_at")[:20]))
