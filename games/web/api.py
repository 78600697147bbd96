"""The JSON API: everything a game page can do, for browsers, bots and other clients.

Each operation declares its input and output once, as typed schemas with bounds; the
OpenAPI document at /api/schema/ is generated from the same declarations (docs/api.md).
Views only translate: services and selectors do the work and raise ``ServiceError``."""
from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, Union

from ninja import Body, Field, Path, Query, Router, Schema, Status
from pydantic import BaseModel, ConfigDict, field_validator
from typing_extensions import TypeAliasType

from games.table import computers, records, selectors, services
from games import registry
from grailsite.api_auth import MaybeViewer, Viewer
from grailsite.api_types import ERRORS, NO_NUL, PUBLIC, Count, ErrorOut, Id, In, JsonObject, MatchId, Username, other_keys
from games.models import Notification
from grailsite import ratelimits

router = Router(auth=Viewer(), tags=["games"])
def _kinds_enum(schema: dict) -> None:
    # Read when the document is made: the registered kinds (tests register their own).
    schema["enum"] = sorted(room.kind for room in registry.rooms())


def _seats_per_kind(schema: dict) -> None:
    """Each kind's number of players, as the service checks it (games/table/services.py)."""
    other_keys(schema)
    schema["allOf"] = [_seats_of(g) for g in sorted(registry.kinds(), key=lambda g: g.kind)]


def _seats_of(game) -> dict:
    then = {"properties": {"seats": {"minimum": game.min_players, "maximum": game.max_players}}}
    if not game.min_players <= MatchCreateIn.model_fields["seats"].default <= game.max_players:
        then["required"] = ["seats"]  # the default number does not fit this kind
    return {"if": {"properties": {"kind": {"const": game.kind}}, "required": ["kind"]}, "then": then}




# -- game kinds -----------------------------------------------------------------------------

class GameKindOut(Schema):
    kind: str
    name: str
    min_players: int
    max_players: int
    options: dict[str, Any]
    spectators: bool
    computer_levels: list[str] = []


class GameKindsOut(Schema):
    games: list[GameKindOut]


@router.get("games/", response={200: GameKindsOut, **ERRORS}, auth=PUBLIC, url_name="api_game_kinds")
def game_kinds(request):
    return {"games": [{"kind": g.kind, "name": g.name, "min_players": g.min_players, "max_players": g.max_players,
                       "options": g.option_schema, "spectators": g.allows_spectators, "computer_levels": computers.levels_for(g.kind)}
                      for g in registry.kinds()]}


# -- matches --------------------------------------------------------------------------------

# A player's share in a committed game's seed (docs/verify.md): 16 bytes from their own random
# source, in lowercase hex. Left out, it is 16 zero bytes (never one the site picks).
Contribution = Annotated[str, Field(min_length=32, max_length=32, pattern=r"^[0-9a-f]{32}$",
                                    description="16 random bytes in hex, from the player's own random source: "
                                                "their share in the game's seed (docs/verify.md). Left out: "
                                                "16 zero bytes.")]

class ClockIn(In):
    kind: Literal["days", "hours", "minutes", "none"] = "days"
    amount: int = Field(3, ge=0, le=1000)
    weekend_pause: bool = False
    vacation_days: int = Field(0, ge=0, le=30)


class ComputerSeatIn(In):
    seat: int = Field(..., ge=1, le=15, description="Seat index (0 is the creator's).")
    level: str = Field(..., min_length=1, max_length=24, pattern=NO_NUL, description="One of the game's computer levels.")


class MatchCreateIn(In):
    model_config = ConfigDict(strict=True, extra="allow", json_schema_extra=_seats_per_kind)

    kind: str = Field(..., min_length=1, max_length=32, json_schema_extra=_kinds_enum,
                      description="One of /api/games/'s kinds.")
    seats: int = Field(2, ge=1, le=16)
    invite: list[Username] = Field(default_factory=list, max_length=16)
    options: JsonObject = Field(default_factory=dict)
    clock: ClockIn = Field(default_factory=ClockIn)
    spectators: bool = True
    title: str = Field("", max_length=80, pattern=NO_NUL)
    choice: JsonObject | None = None
    computers: list[ComputerSeatIn] = Field(default_factory=list, max_length=15,
                                            description="Seats given to computer players.")
    computer_delay: int = Field(2, ge=0, le=60, description="Seconds a computer player waits before moving.")
    computer_takeover: bool = Field(False, description="Games of 3+: a computer takes over a seat left by "
                                                       "resigning.")
    takeover_after: int = Field(2, ge=1, le=5, description="Games of 3+: a seat that runs out of time this many "
                                                           "times in a row is handed to a computer player.")
    rated: bool = Field(True, description="The result moves the players' ratings (kept only when every seat is "
                                          "a person).")
    contribution: Contribution | None = None
    min_reliability: Literal[0, 80, 90, 95] = Field(0, description="Seat only players who finished at least this "
                                                                   "per cent of their recent games (docs/ratings.md).")


class MatchSummaryOut(Schema):
    id: int
    kind: str
    name: str
    title: str
    status: str
    version: int
    my_turn: bool
    players: list[str | None]
    updated_at: Any


class MatchListOut(Schema):
    matches: list[MatchSummaryOut]


class SeatOut(Schema):
    seat: int
    username: str | None
    computer: str | None = None
    bot: bool = False  # a program plays this account (docs/api.md, "Bots")
    accepted: bool
    to_act: bool
    waiting_for: str | None
    waiting: str | None = None  # what the seat owes, in words ("to discard Keepers ...")
    deadline: str | None
    paused_until: str | None


class LogLineOut(Schema):
    seq: int
    kind: str
    text: str
    timeout: bool
    data: dict | None = Field(None, description="The event's details, for games whose board script reads them "
                                               "(Camelot: the unit moved, from and to); only with such games.")
    provisional: bool = Field(False, description="Said before the game's first record (who goes first); the first "
                                                "record's lines say it again, stored, and replace it.")


class RatingLineOut(Schema):
    """What a finished rated game did to one player's rating: the numbers shown before and
    after, their difference, and whether the rating is still provisional."""
    seat: int
    name: str
    before: int
    after: int
    change: int
    shown: str = Field(..., description='The change as the banner says it: "+12", "−7", "±0".')
    provisional: bool


class EndingOut(Schema):
    """How the game ended, said to this viewer (or, ``result`` "out", that it is over for
    them while the others play on): a headline, the reason, and what else to read (what
    changed hands)."""
    result: Literal["won", "lost", "draw", "decided", "abandoned", "aborted", "out"]
    headline: str
    reason: str
    details: list[str] = []
    over_for_you: bool = False
    ratings: list[RatingLineOut] = []
    rating_note: str | None = Field(None, description="Why a rated game did not count for ratings.")


class RematchOut(Schema):
    id: int
    status: str


class CommitmentOut(Schema):
    """A committed game's promise (docs/verify.md): the commitment and each seat's
    contribution (null while it has none) from the start; the secret and the seed they give
    only once the game is over."""
    commitment: str
    edition: int | str
    contributions: list[str | None]
    secret: str | None
    seed: int | None
    deal_due: datetime | None = Field(None, description="Set while every seat is filled and the game waits for its "
                                                        "creator's contribution (POST .../contribute/): when it is "
                                                        "dealt without one, with 16 zero bytes in its place.")


class MovedSinceTurnOut(Schema):
    upto: int
    units: dict[str, str | None]


class MatchOut(Schema):
    """The game as the viewer may see it: ``view`` and ``legal_moves`` are the rules' own;
    ``ending`` is set once the game is over (for this viewer), ``situation`` says why a game
    goes on after a player left it, ``rematch`` is the game that follows a finished one."""
    id: int
    kind: str
    name: str
    title: str
    status: str
    version: int
    moves: int
    my_seat: int | None
    view: Any
    legal_moves: list[Any]
    outcome: Any
    seats: list[SeatOut]
    clock: dict[str, Any]
    allow_spectators: bool
    practice: bool = False  # against the computer: nothing outside the game is at stake (the CCG's ante)
    creator: str | None
    log: list[LogLineOut]
    ending: EndingOut | None = None
    situation: list[str] = []
    rematch: RematchOut | None = None
    commitment: CommitmentOut | None = Field(None, description="Null for a game set up without a commitment "
                                                               "(every game before they began).")
    moved_since_turn: MovedSinceTurnOut | None = Field(
        None, description="For a player in a game under way whose board marks them (Camelot): the "
                          "pieces other players moved since this player's last turn ended, each with "
                          "the hex it stood on before, as the view's units name hexes (null: brought on), "
                          "as of move ``upto``; the log's later move events add to it.")


@router.get("matches/", response={200: MatchListOut, **ERRORS}, url_name="api_matches")
def match_list(request):
    return {"matches": [match_summary(m, request.user) for m in selectors.matches_for_user(request.user)]}


@router.post("matches/", response={201: MatchOut, **ERRORS}, url_name="api_matches_create")
def match_create(request, body: MatchCreateIn):
    ratelimits.check(request, "match_create")
    match = services.match_create(
        creator=request.user, kind=body.kind, num_seats=body.seats, options=body.options, invite=body.invite,
        clock_kind=body.clock.kind, clock_amount=body.clock.amount, weekend_pause=body.clock.weekend_pause,
        vacation_days=body.clock.vacation_days, allow_spectators=body.spectators, title=body.title,
        creator_choice=body.choice, computers_at=_computer_seats(body.computers),
        computer_delay=body.computer_delay, computer_takeover=body.computer_takeover, rated=body.rated,
        takeover_after=body.takeover_after, contribution=body.contribution, min_reliability=body.min_reliability,
        deal_after_contribution=True)
    return Status(201, selectors.match_payload(match, request.user))


def _computer_seats(wanted: list[ComputerSeatIn]) -> dict[int, str]:
    seats = {c.seat: c.level for c in wanted}
    if len(seats) != len(wanted):
        raise services.ServiceError("A seat is given to a computer player twice.")
    return seats


def match_summary(match, user) -> dict:
    seats = list(match.seats.all())
    return {"id": match.pk, "kind": match.kind, "name": registry.get(match.kind).name, "title": match.title,
            "status": match.status, "version": match.version,
            "my_turn": any(s.user_id == user.id and s.waiting_for for s in seats),
            "players": [computers.seat_name(s, seats) for s in seats], "updated_at": match.updated_at}


@router.get("matches/{int:id}/", response={200: MatchOut, **ERRORS}, auth=PUBLIC, url_name="api_match")
def match_detail(request, match_id: MatchId):
    match = selectors.match_get(match_id)
    if services.deal_if_due(match):
        match = selectors.match_get(match_id)
    return selectors.match_payload(match, request.user)


# -- moves ----------------------------------------------------------------------------------

class MoveIn(In):
    move: JsonObject = Field(..., description="One of the match's legal_moves, exactly as listed.")
    version: Count | None = Field(None, description="The version the move was chosen on (stale guard).")
    key: str | None = Field(None, min_length=1, max_length=64, pattern=NO_NUL, description="Idempotency key.")


class MoveOut(Schema):
    version: int
    seq: int | None  # None: the move ended the game with no move recorded (a resignation that aborted it)
    repeated: bool


@router.post("matches/{int:id}/moves/", response={200: MoveOut, 409: ErrorOut, 422: ErrorOut, **ERRORS},
             url_name="api_match_move")
def match_move(request, match_id: MatchId, body: MoveIn):
    ratelimits.check(request, "move")
    # The service locks and loads the match itself (and says "No such game."): loading it
    # here too would read a whole state a second time on the busiest path.
    return services.move_submit(match_id=match_id, user=request.user, move=body.move, version=body.version,
                                key=body.key)


# -- seats and endings ----------------------------------------------------------------------

class JoinIn(In):
    choice: JsonObject | None = None
    contribution: Contribution | None = None


class RematchIn(In):
    contribution: Contribution | None = None


class ContributeIn(In):
    contribution: Contribution


class OkOut(Schema):
    ok: bool


class StatusOut(Schema):
    status: str
    version: int | None = None


@router.post("matches/{int:id}/join/", response={200: MatchOut, **ERRORS}, url_name="api_match_join")
def match_join(request, match_id: MatchId, body: JoinIn = Body(default_factory=JoinIn)):
    match = services.match_join(match_id=selectors.match_get(match_id).pk, user=request.user,
                                choice=body.choice if body else None, contribution=body.contribution if body else None)
    return selectors.match_payload(match, request.user)


@router.post("matches/{int:id}/contribute/", response={200: MatchOut, 409: ErrorOut, **ERRORS}, url_name="api_match_contribute")
def match_contribute(request, match_id: MatchId, body: ContributeIn):
    """The creator's share in the seed of a game waiting for the deal (``commitment.deal_due``
    set), sent after they saw its commitment: the game is dealt with it at once. 409 once
    the game is dealt."""
    match = services.match_contribute(match_id=selectors.match_get(match_id).pk, user=request.user,
                                      contribution=body.contribution)
    return selectors.match_payload(match, request.user)


@router.post("matches/{int:id}/decline/", response={200: OkOut, **ERRORS}, url_name="api_match_decline")
def match_decline(request, match_id: MatchId):
    services.match_decline(match_id=selectors.match_get(match_id).pk, user=request.user)
    return {"ok": True}


@router.post("matches/{int:id}/resign/", response={200: StatusOut, **ERRORS}, url_name="api_match_resign")
def match_resign(request, match_id: MatchId):
    match = services.match_resign(match_id=selectors.match_get(match_id).pk, user=request.user)
    return {"status": match.status, "version": match.version}


class AddTimeIn(In):
    seat: int = Field(..., ge=0, le=7)


@router.post("matches/{int:id}/add-time/", response={200: StatusOut, **ERRORS}, url_name="api_match_add_time")
def match_add_time(request, match_id: MatchId, body: AddTimeIn):
    """Give another seat more time to move: the game's own allowance for a move, at most a
    day (docs/rules: "Time")."""
    match = services.deadline_extend(match_id=selectors.match_get(match_id).pk, user=request.user, seat_index=body.seat)
    return {"status": match.status, "version": match.version}


@router.post("matches/{int:id}/rematch/", response={201: MatchOut, 200: MatchOut, **ERRORS},
             url_name="api_match_rematch")
def match_rematch(request, match_id: MatchId, body: RematchIn = Body(default_factory=RematchIn)):
    """A new game with the same players, seats held by computer players, game and table
    options as this finished one; the other players are invited. Asked again (by anyone of
    the table), it answers with the rematch already made (200)."""
    ratelimits.check(request, "match_create")
    rematch, created = services.match_rematch(match_id=selectors.match_get(match_id).pk, user=request.user,
                                              contribution=body.contribution if body else None,
                                              deal_after_contribution=True)
    return Status(201 if created else 200, selectors.match_payload(rematch, request.user))


@router.post("matches/{int:id}/abandon/", response={200: StatusOut, **ERRORS}, url_name="api_match_abandon")
def match_abandon(request, match_id: MatchId):
    match = services.match_abandon(match_id=selectors.match_get(match_id).pk, user=request.user)
    return {"status": match.status}


# -- chat, replay, log ----------------------------------------------------------------------

class ChatIn(In):
    text: str = Field(..., min_length=1, max_length=services.CHAT_MAX, pattern=NO_NUL)
    key: str | None = Field(None, min_length=1, max_length=64, pattern=NO_NUL,
                            description="The sender's name for this line: sent again (its answer lost), "
                                        "the line is stored once and the first answer comes back.")


class ChatOut(Schema):
    id: int
    seq: int  # the line's number in its channel: a gap says a line was missed
    user: str
    text: str
    at: str
    spectators: bool  # said in the spectators' own channel
    muted: bool = False  # by someone the reader blocked: only its place (user and text empty)


class ChatListOut(Schema):
    messages: list[ChatOut]


class ChatQuery(Schema):
    after: Count = 0


def _viewable(match_id: int, user):
    """The match, if this viewer may read it (the same refusal as the game page: 403)."""
    return selectors.viewable(match_id, user)[0]


@router.get("matches/{int:id}/chat/", response={200: ChatListOut, **ERRORS}, auth=PUBLIC,
            url_name="api_match_chat")
def match_chat(request, match_id: MatchId, query: Query[ChatQuery]):
    """The latest lines, or with ``after`` (a line's id) the lines after it, oldest first: a
    spectator reads the spectators' channel too, as on the game's page."""
    match, seats = selectors.viewable(match_id, request.user)
    player = selectors.seat_of(match, request.user, seats) is not None
    return {"messages": selectors.chat_for(match, after_id=query.after, player=player, reader=request.user)}


@router.post("matches/{int:id}/chat/", response={201: ChatOut, **ERRORS}, url_name="api_match_chat_post")
def match_chat_post(request, match_id: MatchId, body: ChatIn):
    ratelimits.check(request, "chat")
    message = services.chat_post(match_id=selectors.match_get(match_id).pk, user=request.user, text=body.text,
                                 key=body.key)
    return Status(201, selectors.chat_public(message))


class ReplayQuery(Schema):
    step: Count | None = None
    as_seat: int | None = Field(None, alias="as", ge=1, le=16, description="Watch as seat N (from 1).")
    full: bool = Field(False, description="Once the game is over: the rules' whole state at this step too "
                                          "(every hand, every deck order).")


class ReplayOut(Schema):
    step: int
    total: int
    seat: int | None
    view: Any
    events: list[str]
    mover: int | None
    state: Any = None


@router.get("matches/{int:id}/replay/", response={200: ReplayOut, **ERRORS}, auth=PUBLIC,
            url_name="api_match_replay")
def match_replay(request, match_id: MatchId, query: Query[ReplayQuery]):
    as_seat = None if query.as_seat is None else query.as_seat - 1  # seats are numbered from 1
    return selectors.replay_frames(selectors.match_get(match_id), request.user, upto=query.step, as_seat=as_seat,
                                   full=query.full)


# -- the game's record and its check (docs/verify.md) ---------------------------------------

# The record's parts are plain pydantic models: ninja's Schema reads each object through
# an attribute getter meant for ORM rows, which for a long game's hundreds of moves cost
# more than building the record (docs/performance.md, "A game's record").
class RecordPlayerOut(BaseModel):
    seat: int
    name: str
    held_by: Literal["person", "computer"]
    held_by_at_end: Literal["person", "computer"]


class RecordMoveOut(BaseModel):
    seq: int
    seat: int
    time: str = Field(..., description="When it was made: ISO 8601 in UTC, for reading only.")
    who: Literal["person", "computer", "clock"]
    move: dict[str, Any] = Field(..., description="The move exactly as the rules applied it.")


class RecordResultOut(BaseModel):
    """The outcome as stored, every key kept: an aborted game's ``"aborted": true`` is part of
    what the checker reads."""
    model_config = ConfigDict(extra="allow")

    winners: list[int]
    draw: bool
    reason: str


class RecordOut(Schema):
    """The game's record as docs/verify.md defines it (format 1), checked by
    ``python -m games.rules.verify RECORD.json``. Whole once the game is over (``complete``);
    before, ``secret``, ``seed``, ``setup_options``, ``moves`` and ``result`` are null."""
    record_format: int
    match: int
    kind: str
    edition: int | str
    complete: bool
    status: str
    setup_options: dict[str, Any] | None
    players: list[RecordPlayerOut]
    commitment: str | None = Field(..., description="Null: the game was set up without a commitment.")
    secret: str | None
    contributions: list[str | None]
    seed: int | None
    moves: list[RecordMoveOut] | None
    result: RecordResultOut | None


class CheckOut(Schema):
    """games/rules/verify.py's check of the game's own record: each step that matched
    (``checked``, in order) and the first that did not (``problem``; null when it checks)."""
    ok: bool
    problem: str | None
    checked: list[str]
    moves: int
    seed: int | None
    outcome: RecordResultOut | None
    complete: bool
    commitment: str | None
    secret: str | None
    contributions: list[str | None]


def _record_source(match_id: int, user):
    """The game with its setup options (a record holds them) and its seats, if this viewer
    may see it."""
    return selectors.viewable(match_id, user, setup_options=True)


@router.get("matches/{int:id}/record/", response={200: RecordOut, **ERRORS}, auth=PUBLIC,
            url_name="api_match_record")
def match_record(request, match_id: MatchId):
    """The game's record, for anyone who may see the game (docs/verify.md)."""
    return records.record_for(*_record_source(match_id, request.user))


@router.get("matches/{int:id}/check/", response={200: CheckOut, **ERRORS}, auth=PUBLIC,
            url_name="api_match_check")
def match_check(request, match_id: MatchId):
    """Check the game's own record on the server, as ``python -m games.rules.verify`` would."""
    ratelimits.check(request, "game_check")
    return records.check_for(*_record_source(match_id, request.user))


class LogOut(Schema):
    log: list[LogLineOut]


@router.get("matches/{int:id}/log/", response={200: LogOut, **ERRORS}, auth=PUBLIC, url_name="api_match_log")
def match_log(request, match_id: MatchId):
    match = _viewable(match_id, request.user)
    seats = selectors.seats_for(match)
    seat = selectors.seat_of(match, request.user, seats)
    return {"log": selectors.log_for(match, seat, limit=100000, seats=seats)}


# -- notifications --------------------------------------------------------------------------

class NotificationOut(Schema):
    id: int
    kind: str
    text: str
    match: int | None
    read: bool
    at: str


class NotificationsOut(Schema):
    unread: int
    notifications: list[NotificationOut]


class MarkReadIn(In):
    ids: list[Id] | None = Field(None, max_length=500, description="Omit to mark every notification read.")


class MarkedOut(Schema):
    marked: int


@router.get("notifications/", response={200: NotificationsOut, **ERRORS}, url_name="api_notifications")
def notifications(request):
    rows = Notification.objects.filter(user=request.user).order_by("-created_at")[:100]
    return {"unread": selectors.unread_count(request.user),
            "notifications": [{"id": n.pk, "kind": n.kind, "text": n.text, "match": n.match_id,
                               "read": n.read_at is not None, "at": n.created_at.isoformat()} for n in rows]}


@router.post("notifications/read/", response={200: MarkedOut, **ERRORS}, url_name="api_notifications_read")
def notifications_read(request, body: MarkReadIn = Body(default_factory=MarkReadIn)):
    return {"marked": services.notifications_mark_read(user=request.user, ids=body.ids if body else None)}
