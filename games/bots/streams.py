"""The bots' streams: NDJSON over HTTP (one JSON object a line), served by the ASGI server
from an async generator, so an open stream holds no thread and no database connection.

``GET /api/stream/games/<id>/`` — a game as one seat (or a spectator) sees it:

* ``{"type": "gameFull", ...}`` first: what ``GET /api/matches/<id>/`` answers (the seat's
  ``view``, its ``legal_moves``, the ``version``, seats, clock, log);
* ``{"type": "gameState", ...}`` after each change: the frame live publishes to the seat's
  own group (games/live/frames.py), forwarded without a database read: ``version``, ``prev``,
  ``view``, ``legal_moves``, ``seats``, ``status``, ``outcome``, ``ending``, ``events`` (the
  new log lines this seat may see). A view part the page keeps between frames (the CCG's card
  definitions) comes whole here: the stream merges what the frame left out;
* ``{"type": "chatLine", ...}`` for each chat line the seat may read;
* ``{"type": "gameEnd", "status", "outcome", "ending"}`` once the game is over, and the
  stream ends;
* an empty line after ``BOT_STREAM_KEEPALIVE`` quiet seconds.

The stream joins the seat's frame group only after the token's person is known to hold that
seat (the same answer a socket gets), so another seat's hand never reaches it. A change whose
frame did not come (a nudge, a gap in versions, a push lost while Redis restarted: checked
after ``BOT_STREAM_RECHECK`` quiet seconds) is loaded from the database and sent whole. A
second stream of the same game and token (or session) replaces the first, which ends.

``GET /api/stream/events/`` — the account's events: ``{"type": "challenge", "challenge"}``
for an invitation waiting for it, ``{"type": "challengeGone", "challenge": {"id"}}`` when it
is withdrawn or declined, ``{"type": "gameStart", "game"}`` for each game in play (all of
them on connecting), ``{"type": "gameFinish", "game"}`` when one ends. Woken by
``events.py``, it reads the account's invitations and games (two indexed queries) at most
once per wake-up, and every ``BOT_STREAM_RECHECK`` seconds regardless.

Either stream ends when the client goes away: the ASGI handler cancels the generator, whose
``finally`` leaves the groups and unsubscribes its channel."""
from __future__ import annotations

import asyncio
import contextlib
import logging
import time

import orjson
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.http import StreamingHttpResponse

from games import registry
from games.bots.events import events_group
from games.live import frames
from games.live.publisher import match_group
from games.models import Match, Seat
from games.table import access, selectors
from grailsite import ratelimits
from grailsite.api_auth import check_scope, token_auth
from grailsite.errors import NotFound, ServiceError, Unauthenticated, service_error_response

log = logging.getLogger(__name__)

CONTENT_TYPE = "application/x-ndjson"
MAX_ID = 2**63 - 1


def _line(obj) -> bytes:
    return orjson.dumps(obj) + b"\n"


# --- who asks ------------------------------------------------------------------------------

def _viewer(request):
    """(user, the stream's owner key) of a stream request: a token with the read scope, or a
    signed-in session. The owner key names "this token" (or "this session") for replacing a
    stream of the same game."""
    found = token_auth(request)
    if found is not None:
        user, scopes, token_id = found
        check_scope(request, scopes, write=False)
        owner = f"t{token_id}" if token_id is not None else f"k{user.pk}"
    elif request.headers.get("Authorization", "").startswith(("Bearer ", "Token ")):
        raise Unauthenticated("This API token is not valid: it was revoked, or is not one of this site's.")
    else:
        user = request.user
        if not user.is_authenticated:
            raise Unauthenticated("Send an API token with the 'read' scope.")
        owner = f"s{request.session.session_key or user.pk}"
    request.user = user
    ratelimits.check(request, "stream")
    return user, owner


def _game_opening(request, match_id: int):
    user, owner = _viewer(request)
    if not 0 < match_id <= MAX_ID:
        raise NotFound("No such game.")
    match, seats = selectors.viewable(match_id, user)
    payload = selectors.match_payload(match, user, seats=seats)
    return user, owner, payload, access.muted_author_ids(user), registry.get(match.kind).view_lasting


_game_opening_async = sync_to_async(_game_opening, thread_sensitive=False)


def _payload(match_id: int, user) -> dict:
    match, seats = selectors.viewable(match_id, user)
    return selectors.match_payload(match, user, seats=seats)


_payload_async = sync_to_async(_payload, thread_sensitive=False)


def _version(match_id: int) -> int | None:
    return Match.objects.filter(pk=match_id).values_list("version", flat=True).first()


_version_async = sync_to_async(_version, thread_sensitive=False)


# --- the channel layer -----------------------------------------------------------------------

class _Listener:
    """A channel of this process subscribed to some groups. One long-lived task reads the
    channel into a queue (as the sockets' ``dispatch_in_order`` does), so a wait with a
    time-out never cancels a read in progress: cancelling the pub/sub layer's ``receive``
    unsubscribes the channel, which is what ``close`` does at the end."""

    def __init__(self):
        self.layer = get_channel_layer()
        self.channel = None
        self.groups: list[str] = []
        self._queue: asyncio.Queue = asyncio.Queue()
        self._pump = None

    async def open(self, groups) -> None:
        self.channel = await self.layer.new_channel()
        self._pump = asyncio.ensure_future(self._read())
        for group in groups:
            await self.layer.group_add(group, self.channel)
            self.groups.append(group)

    async def _read(self) -> None:
        while True:
            self._queue.put_nowait(await self.layer.receive(self.channel))

    async def get(self, timeout: float):
        """The next message, or None after ``timeout`` quiet seconds."""
        if self._queue.empty() and self._pump.done():
            self._pump.result()  # the layer failed: said as the stream's end
        try:
            return await asyncio.wait_for(self._queue.get(), timeout)
        except asyncio.TimeoutError:
            return None

    async def close(self) -> None:
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(BaseException):
                await self._pump
        for group in self.groups:
            with contextlib.suppress(Exception):
                await self.layer.group_discard(group, self.channel)


def replace_group(match_id: int, owner: str) -> str:
    return f"bot-stream-{match_id}-{owner}"


# --- a game's stream --------------------------------------------------------------------------

def _state_line(kind: str, payload: dict) -> bytes:
    """A gameFull or gameState line: the payload, and ``my_turn`` (the seat owes a move or an
    answer now: the only time a bot should move; some games list a move, such as Camelot's
    pause, to a seat that is not to act)."""
    seat = payload.get("my_seat")
    seats = payload.get("seats") or ()
    my_turn = seat is not None and payload.get("status") == "active" and any(
        s.get("seat") == seat and s.get("to_act") for s in seats)
    return _line({"type": kind, "my_turn": my_turn, **payload})


def _end_line(payload: dict) -> bytes | None:
    if payload.get("status") in Match.ENDED:
        return _line({"type": "gameEnd", "status": payload["status"], "outcome": payload.get("outcome"),
                      "ending": payload.get("ending")})
    return None


class GameStream:
    def __init__(self, match_id: int, user, owner: str, payload: dict, muted, lasting):
        self.match_id, self.user, self.owner = match_id, user, owner
        self.seat = payload["my_seat"]
        self.muted = muted
        self.lasting = tuple(lasting or ())
        self.opening = payload
        self.version = -1
        self.kept: dict[str, dict] = {}

    def _hold(self, view) -> None:
        if self.lasting and isinstance(view, dict):
            self.kept = {k: view[k] for k in self.lasting if isinstance(view.get(k), dict)}

    def _full(self, payload: dict, kind: str) -> bytes:
        self.version = payload["version"]
        self._hold(payload.get("view"))
        return _state_line(kind, payload)

    def _change(self, text: str) -> dict:
        data = orjson.loads(text)["data"]
        kept = data.pop("kept", None)
        view = data.get("view")
        if kept and isinstance(view, dict):
            view = dict(view)
            for key in kept:
                view[key] = {**self.kept.get(key, {}), **(view.get(key) or {})}
            data["view"] = view
        self.version = data["version"]
        self._hold(data.get("view"))
        return data

    async def lines(self):
        listener = _Listener()
        frame_group = frames.group_for(self.match_id, self.seat)
        mine = replace_group(self.match_id, self.owner)
        try:
            await listener.open([frame_group, match_group(self.match_id), mine])
            frames.listening(frame_group)
            # The stream before this one of the same game and owner ends (its process hears this).
            opened_at = time.time_ns()
            await listener.layer.group_send(mine, {"type": "bot.replaced", "channel": listener.channel, "at": opened_at})
            payload = self.opening
            current = await _version_async(self.match_id)
            if current is not None and current > payload["version"]:  # changed while joining
                payload = await _payload_async(self.match_id, self.user)
            yield self._full(payload, "gameFull")
            end = _end_line(payload)
            if end:
                yield end
                return
            quiet_since = time.monotonic()
            while True:
                message = await listener.get(settings.BOT_STREAM_KEEPALIVE)
                if message is None:
                    yield b"\n"
                    if time.monotonic() - quiet_since >= settings.BOT_STREAM_RECHECK:
                        quiet_since = time.monotonic()
                        current = await _version_async(self.match_id)
                        if current is not None and current > self.version:
                            payload = await _payload_async(self.match_id, self.user)
                            yield self._full(payload, "gameState")
                            if end := _end_line(payload):
                                yield end
                                return
                    continue
                quiet_since = time.monotonic()
                kind = message.get("type")
                if kind == "bot.replaced":
                    # A newer stream of this game and owner took over. Newer by its opening
                    # time: a group message may reach this process after a later stream joined.
                    if message.get("channel") != listener.channel and message.get("at", 0) > opened_at:
                        return
                elif kind == "match.frame":
                    if message["version"] <= self.version:
                        continue
                    if message.get("text") is not None and message.get("prev") == self.version:
                        data = self._change(message["text"])
                        yield _state_line("gameState", data)
                        if end := _end_line(data):
                            yield end
                            return
                    else:  # a nudge, or a frame after a gap: the whole state
                        payload = await _payload_async(self.match_id, self.user)
                        yield self._full(payload, "gameState")
                        if end := _end_line(payload):
                            yield end
                            return
                elif kind == "chat.message":
                    line = message["line"]
                    if line.get("spectators") and self.seat is not None:
                        continue
                    if message.get("author") in self.muted:
                        line = selectors.chat_muted(line)
                    yield _line({"type": "chatLine", **line})
        except ServiceError as exc:  # no longer allowed to see it (a private game's seat given up)
            yield _line({"type": "error", "error": {"code": exc.code, "message": exc.message}})
        finally:
            await listener.close()


async def game_stream(request, match_id: int):
    if request.method != "GET":
        return service_error_response(_method_not_allowed())
    try:
        user, owner, payload, muted, lasting = await _game_opening_async(request, match_id)
    except ServiceError as exc:
        return service_error_response(exc)
    stream = GameStream(match_id, user, owner, payload, muted, lasting)
    return _streaming(stream.lines())


# --- the account's events -----------------------------------------------------------------------

def _challenge(seat: Seat) -> dict:
    match = seat.match
    return {"id": match.pk, "kind": match.kind, "name": registry.get(match.kind).name, "seats": match.num_seats,
            "seat": seat.index, "clock": {"kind": match.clock, "amount": match.clock_amount},
            "rated": match.rated, "from": match.creator.username if match.creator_id else None,
            "title": match.title}


def _events_now(user) -> tuple[dict[int, dict], dict[int, dict]]:
    """(invitations waiting for this person, games in play with them seated), by game id."""
    challenges = {s.match_id: _challenge(s) for s in
                  Seat.objects.filter(user=user, accepted=False, match__status=Match.Status.OPEN)
                  .select_related("match", "match__creator").order_by("match_id")[:200]}
    games = {mid: {"id": mid, "kind": kind, "seat": index} for mid, kind, index in
             Seat.objects.filter(user=user, accepted=True, match__status=Match.Status.ACTIVE)
             .order_by("match_id").values_list("match_id", "match__kind", "index")[:1000]}
    return challenges, games


_events_now_async = sync_to_async(_events_now, thread_sensitive=False)


def _ended(match_ids) -> dict[int, dict]:
    return {mid: {"id": mid, "kind": kind, "status": status} for mid, kind, status in
            Match.objects.filter(pk__in=list(match_ids)).values_list("pk", "kind", "status")}


_ended_async = sync_to_async(_ended, thread_sensitive=False)


async def _event_lines(user):
    listener = _Listener()
    challenges: dict[int, dict] = {}
    games: dict[int, dict] = {}
    try:
        await listener.open([events_group(user.pk)])
        quiet_since = time.monotonic()
        wake = True
        while True:
            if wake:
                wake, quiet_since = False, time.monotonic()
                now_challenges, now_games = await _events_now_async(user)
                for mid, challenge in now_challenges.items():
                    if mid not in challenges:
                        yield _line({"type": "challenge", "challenge": challenge})
                for mid in challenges.keys() - now_challenges.keys():
                    if mid not in now_games:
                        yield _line({"type": "challengeGone", "challenge": {"id": mid}})
                for mid, game in now_games.items():
                    if mid not in games:
                        yield _line({"type": "gameStart", "game": game})
                gone = games.keys() - now_games.keys()
                if gone:
                    for mid, game in sorted((await _ended_async(gone)).items()):
                        yield _line({"type": "gameFinish", "game": {**games[mid], **game}})
                challenges, games = now_challenges, now_games
            message = await listener.get(settings.BOT_STREAM_KEEPALIVE)
            if message is None:
                yield b"\n"
                wake = time.monotonic() - quiet_since >= settings.BOT_STREAM_RECHECK
                continue
            # Several wake-ups in a row (a game's start notices everyone): one read for all.
            while (more := await listener.get(0.02)) is not None:
                message = more
            wake = True
    finally:
        await listener.close()


async def event_stream(request):
    if request.method != "GET":
        return service_error_response(_method_not_allowed())
    try:
        user, _owner = await sync_to_async(_viewer, thread_sensitive=False)(request)
    except ServiceError as exc:
        return service_error_response(exc)
    return _streaming(_event_lines(user))


# --- shared -------------------------------------------------------------------------------------

def _method_not_allowed() -> ServiceError:
    error = ServiceError("Streams are read with GET.")
    error.status, error.code = 405, "method_not_allowed"
    return error


def _streaming(lines) -> StreamingHttpResponse:
    response = StreamingHttpResponse(lines, content_type=CONTENT_TYPE)
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx passes each line on at once
    return response
