"""The tournaments' JSON API (mounted under /api/ by games/web/api_root.py; docs/api.md):
list and create tournaments, read one with its rounds and standings, enter, leave, start,
pause, resume and cancel. Each operation's input is a typed, bounded schema, as the games'
are (games/web/api.py); refusals are the services' ``ServiceError``s, never a 500."""
from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from ninja import Body, Field, Path, Query, Router, Schema, Status

from games import registry
from games.tournaments import selectors, services
from grailsite import ratelimits
from grailsite.api_auth import Viewer
from grailsite.api_types import ERRORS, NO_NUL, PUBLIC, In, JsonObject, Username
from grailsite.errors import NotFound

router = Router(auth=Viewer(), tags=["tournaments"])

TournamentId = Annotated[int, Path(alias="id", ge=1, le=2**63 - 1)]


def _kinds_enum(schema: dict) -> None:
    schema["enum"] = sorted(room.kind for room in registry.rooms())


class TournamentClockIn(In):
    kind: Literal["days", "hours", "minutes"] = "days"
    amount: int = Field(3, ge=1, le=1000)


class TournamentCreateIn(In):
    kind: str = Field(..., min_length=1, max_length=32, json_schema_extra=_kinds_enum,
                      description="One of /api/games/'s kinds.")
    format: Literal["swiss", "tables", "round_robin"]
    name: str = Field("", max_length=80, pattern=NO_NUL)
    rounds: int = Field(3, ge=1, le=services.MAX_ROUNDS, description="Swiss and tables; a round robin's come "
                                                                     "from its schedule.")
    table_size: int = Field(2, ge=2, le=services.MAX_GROUP, description="Swiss: 2. Tables: players at a table "
                                                                       "(3-6). Round robin: players in a group.")
    max_players: int = Field(64, ge=2, le=services.MAX_PLAYERS)
    clock: TournamentClockIn = Field(default_factory=TournamentClockIn)
    round_days: int = Field(14, ge=1, le=services.MAX_ROUND_DAYS,
                            description="Days a round may last; games still running then are settled by the "
                                        "time-out rules.")
    rated: bool = True
    invitation_only: bool = False
    invite: list[Username] = Field(default_factory=list, max_length=services.MAX_PLAYERS)
    min_rating: int | None = Field(None, ge=0, le=services.MAX_RATING)
    min_reliability: Literal[0, 80, 90, 95] = Field(0, description="Only players who finished at least this per "
                                                                   "cent of their recent games may enter "
                                                                   "(docs/ratings.md).")
    starts_at: datetime | None = Field(None, strict=False, description="ISO 8601; the sweep starts it then.")


class TournamentJoinIn(In):
    choice: JsonObject | None = Field(None, description="What the game asks of a player (the CCG's deck).")
    computer: str | None = Field(None, min_length=1, max_length=24, pattern=NO_NUL,
                                 description="The organiser enters a computer player of this level instead "
                                             "(practice tournaments only).")


class ClockOut(Schema):
    kind: str
    amount: int


class TournamentSummaryOut(Schema):
    id: int
    name: str
    kind: str
    game: str
    format: str
    status: str
    organiser: str
    players: int
    max_players: int
    rounds_total: int
    current_round: int
    rated: bool
    invitation_only: bool
    starts_at: str | None


class TournamentListOut(Schema):
    tournaments: list[TournamentSummaryOut]


class TournamentGameOut(Schema):
    id: int | None = Field(..., description="The game's id (GET /api/matches/{id}/); none for a bye, a round "
                                            "sat out or a forfeit.")
    kind: Literal["game", "bye", "sit_out", "forfeit"]
    board: int
    players: list[str]
    result: list[int] | None = Field(..., description="Once decided: each player's place, in the order of "
                                                      "players (1 first; equal numbers tie).")
    points: list[float] | None = Field(..., description="What each player scored in the tournament.")


class RoundOut(Schema):
    number: int
    deadline: str
    closed: bool
    games: list[TournamentGameOut]


class StandingOut(Schema):
    rank: int
    player: str
    score: float
    tie_breaks: list[float]
    group: int | None
    status: str


class EntrantOut(Schema):
    name: str
    status: str
    computer: bool


class TournamentOut(TournamentSummaryOut):
    table_size: int
    clock: ClockOut
    round_days: int
    min_rating: int | None
    min_reliability: int
    note: str
    version: int
    tie_breaks: list[str]
    entrants: list[EntrantOut]
    rounds: list[RoundOut]
    standings: list[StandingOut]


class TournamentQuery(Schema):
    kind: str | None = Field(None, max_length=32, pattern=NO_NUL)
    format: Literal["swiss", "tables", "round_robin"] | None = None
    status: Literal["open", "running", "finished"] | None = None


def _summary(t, players: int) -> dict:
    return {"id": t.pk, "name": t.name, "kind": t.kind, "game": registry.get(t.kind).name, "format": t.format,
            "status": t.status, "organiser": t.organiser.username, "players": players, "max_players": t.max_players,
            "rounds_total": t.rounds, "current_round": t.current_round, "rated": t.rated,
            "invitation_only": t.invitation_only, "starts_at": t.starts_at.isoformat() if t.starts_at else None}


TIE_BREAKS = {True: ["Buchholz", "Sonneborn-Berger"], False: ["tablemates' average", "tables won"]}


def tournament_payload(tournament) -> dict:
    found = selectors.detail(tournament)
    names = {pk: e.name for pk, e in found.entries.items()}
    counted = [e for e in found.entries.values() if e.status in selectors.COUNTED]
    rounds = []
    for r in found.rounds:
        rounds.append({"number": r.number, "deadline": r.deadline.isoformat(), "closed": r.closed_at is not None,
                       "games": [{"id": g.match_id, "kind": g.kind, "board": g.board,
                                  "players": [names[p] for p in g.players], "result": g.places,
                                  "points": _floats(selectors.game_points(tournament, g))}
                                 for g in found.games_of(r)]})
    return {**_summary(tournament, len(counted)), "table_size": tournament.table_size,
            "clock": {"kind": tournament.clock, "amount": tournament.clock_amount},
            "round_days": tournament.round_days, "min_rating": tournament.min_rating,
            "min_reliability": tournament.min_reliability, "note": tournament.note,
            "version": tournament.version, "tie_breaks": TIE_BREAKS[selectors.games_of_two(tournament)],
            "entrants": [{"name": e.name, "status": e.status, "computer": bool(e.computer)}
                         for e in found.entries.values()],
            "rounds": rounds,
            "standings": [{"rank": line.standing.rank, "player": line.entry.name,
                           "score": float(line.standing.score),
                           "tie_breaks": [float(t) for t in line.standing.tie_breaks], "group": line.group,
                           "status": line.entry.status} for line in found.standings]}


def _floats(values) -> list[float] | None:
    return None if values is None else [float(v) for v in values]


def _get(tournament_id: int):
    tournament = selectors.tournament_get(tournament_id)
    if tournament is None:
        raise NotFound("No such tournament.")
    return tournament


@router.get("tournaments/", response={200: TournamentListOut, **ERRORS}, auth=PUBLIC, url_name="api_tournaments")
def tournament_list(request, query: Query[TournamentQuery]):
    """Tournaments, newest first: filtered by game (``kind``), ``format`` and ``status``
    (open: taking entries; running, paused included; finished, cancelled included)."""
    found = selectors.tournament_list(kind=query.kind, format=query.format, section=query.status)
    return {"tournaments": [_summary(t, t.players) for t in found]}


@router.post("tournaments/", response={201: TournamentOut, **ERRORS}, url_name="api_tournaments_create")
def tournament_create(request, body: TournamentCreateIn):
    ratelimits.check(request, "match_create")
    tournament = services.tournament_create(
        organiser=request.user, kind=body.kind, format=body.format, name=body.name, rounds=body.rounds,
        table_size=body.table_size, max_players=body.max_players, clock_kind=body.clock.kind,
        clock_amount=body.clock.amount, round_days=body.round_days, rated=body.rated,
        invitation_only=body.invitation_only, invite=body.invite, min_rating=body.min_rating,
        min_reliability=body.min_reliability, starts_at=body.starts_at)
    return Status(201, tournament_payload(_get(tournament.pk)))


@router.get("tournaments/{int:id}/", response={200: TournamentOut, **ERRORS}, auth=PUBLIC, url_name="api_tournament")
def tournament_detail(request, tournament_id: TournamentId):
    return tournament_payload(_get(tournament_id))


@router.post("tournaments/{int:id}/join/", response={200: TournamentOut, **ERRORS}, url_name="api_tournament_join")
def tournament_join(request, tournament_id: TournamentId, body: TournamentJoinIn = Body(default_factory=TournamentJoinIn)):
    if body is not None and body.computer:
        services.tournament_add_computer(tournament_id=tournament_id, user=request.user, level=body.computer)
    else:
        services.tournament_join(tournament_id=tournament_id, user=request.user,
                                 choice=body.choice if body is not None else None)
    return tournament_payload(_get(tournament_id))


def _action(name: str, call):
    @router.post(f"tournaments/{{int:id}}/{name}/", response={200: TournamentOut, **ERRORS},
                 url_name=f"api_tournament_{name}", operation_id=f"tournament_{name}")
    def act(request, tournament_id: TournamentId):
        call(tournament_id=tournament_id, user=request.user)
        return tournament_payload(_get(tournament_id))
    act.__doc__ = {"leave": "Leave before the start, or withdraw from a running tournament.",
                   "start": "The organiser starts it: players seeded, round 1 paired.",
                   "pause": "The organiser pauses it: no round closes or is paired until it resumes.",
                   "resume": "The organiser resumes it: the round's deadline moves on by the time paused.",
                   "cancel": "The organiser calls it off."}[name]
    return act


for _name, _call in (("leave", services.tournament_leave), ("start", services.tournament_start),
                     ("pause", services.tournament_pause), ("resume", services.tournament_resume),
                     ("cancel", services.tournament_cancel)):
    _action(_name, _call)
