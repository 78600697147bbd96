"""Websockets. One consumer per open game page. Once it knows the viewer's seat it joins that
seat's own frame group (or the watchers' group) and the match's chat group; the process that
makes a change publishes one ready frame per seat (games/live/frames.py), which the consumer
forwards as it is, so hidden information never crosses a channel its socket hears and a
change costs the receivers no database read.

Moves may come over the same socket (``{"type": "move", "move": {...}, "version": N,
"key": "..."}``, answered with ``{"type": "ack", "key", "version", "seq", "repeated"}`` or
``{"type": "refused", "key", "status", "error": {"code", "message"}}``), through the same
service, idempotency keys and checks as the HTTP endpoint, which stays for API clients. A
move that meets the database out of reach is refused at once with status 503, code
"unavailable" and ``"retry_after"`` (seconds): sent again with the same key, it is made once.

What a client may send is small and bounded: text frames holding JSON, a move of at most
``MAX_MOVE_FRAME`` characters, anything else at most ``MAX_FRAME``:
``{"type": "sync", "version": N}`` (catch up: the state is sent if N is not the latest) or
``{"type": "ping", "version": N}`` (the page's heartbeat: the same, then always a
``{"type": "pong", "version"}``), at most ``WS_MESSAGE_BURST`` at once and
``WS_MESSAGES_PER_SECOND`` after that (moves have their own, larger allowance). Anything
else closes the socket with a code from ``CLOSE`` and a reason, never a traceback."""
from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections import OrderedDict

import redis
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer
from django.conf import settings

from games.live import frames, live_moves, move_trace
from games.table import access, selectors, services
from grailsite.api_auth import bad_text, check_bounds
from grailsite.errors import ServiceError
from games.live.frames import group_for
from games.models import Match, Tournament
from games.live.publisher import match_group, tournament_group, user_group
from grailsite.dbpool import DATABASE_DOWN, RETRY_AFTER, UNAVAILABLE
from grailsite.client_address import client_address
from grailsite import logs, metrics

log = logging.getLogger(__name__)

MAX_FRAME = 1024
MAX_MOVE_FRAME = 8192
# Close codes (4000-4999 are the application's own; 1013 is the standard "try again later").
CLOSE = {
    "unauthenticated": 4401, "forbidden": 4403, "not_found": 4404,
    "bad_frame": 4400, "too_many": 4429, "try_later": 1013,
}
# What a dead Redis looks like from here: the channel layer cannot subscribe.
LAYER_DOWN = (redis.RedisError, OSError, asyncio.TimeoutError)


class ClientGone(Exception):
    """The server could not send to the socket: its client went away (a closed tab, a lost
    network). Raised in place of the server's own error (uvicorn's is an ``OSError``, which
    would otherwise read as the channel layer being down)."""


class TokenBucket:
    """``burst`` messages at once, refilled at ``rate`` a second."""

    def __init__(self, burst: int, rate: float, clock=time.monotonic):
        self.burst, self.rate, self.clock = burst, rate, clock
        self.tokens, self.at = float(burst), clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def parse_frame(text_data, bytes_data) -> dict | str:
    """The client's message as a dict, or the reason it is refused."""
    if bytes_data is not None or text_data is None:
        return "Send text frames holding JSON."
    if len(text_data) > MAX_MOVE_FRAME:
        return f"A message is at most {MAX_MOVE_FRAME} characters."
    try:
        content = json.loads(text_data)
    except (ValueError, RecursionError):
        return "A message must be a JSON object."
    if not isinstance(content, dict) or content.get("type") not in ("sync", "ping", "move"):
        return 'Send {"type": "sync", "ping" or "move", ...}.'
    if content["type"] != "move" and len(text_data) > MAX_FRAME:
        return f"A message is at most {MAX_FRAME} characters."
    version = content.get("version")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int) or version < 0):
        return "'version' must be a whole number."
    return content


def move_problem(content: dict) -> str | None:
    """Why a move message cannot be submitted as it is (the socket stays open), or None."""
    key = content.get("key")
    if key is not None and (not isinstance(key, str) or not 1 <= len(key) <= 64):
        return "'key' must be a string of 1 to 64 characters."
    if key is not None and bad_text(key):
        return f"'key': {bad_text(key)}"
    if not isinstance(content.get("move"), dict):
        return "Send the move as {\"type\": \"move\", \"move\": {...}, \"version\": N, \"key\": \"...\"}."
    try:
        check_bounds(content["move"])
    except ServiceError as exc:
        return exc.message
    return None


def _frame(match_id: int, user) -> tuple[int, int | None, str]:
    """(version, seat, serialized state frame) of the match as this user may see it now."""
    match = selectors.match_get(match_id)
    seats = selectors.seats_for(match)
    payload = selectors.match_payload(match, user, seats=seats)
    return payload["version"], payload["my_seat"], json.dumps({"type": "state", "data": payload})


# Not thread-sensitive: loads for many sockets run side by side in the thread pool instead
# of queueing on the one shared thread (docs/performance.md).
_load_frame = database_sync_to_async(_frame, thread_sensitive=False)


def _opening(match_id: int, user) -> tuple[int, int | None, str, frozenset[int]]:
    """What a socket needs as it opens, in one trip to a worker thread: its first frame
    (``_frame``) and the people whose chat lines its viewer does not read (those they
    blocked). A block made while the socket is open applies from the page's next load."""
    version, seat, text = _frame(match_id, user)
    return version, seat, text, access.muted_author_ids(user)


_load_opening = database_sync_to_async(_opening, thread_sensitive=False)


class _Frames:
    """Per-process frames by (match, version, seat), loaded once: when a move reaches 500
    spectators in one process, one of them loads and serializes the frame and the others
    await that same load (single flight), then all send the same text."""

    def __init__(self, size: int = 512):
        self._done: OrderedDict = OrderedDict()
        self._loading: dict = {}
        self._size = size

    async def get(self, match_id: int, version: int, seat: int | None, user) -> tuple[int, str]:
        key = (match_id, version, seat)
        if key in self._done:
            return self._done[key]
        if key in self._loading:
            return await asyncio.shield(self._loading[key])
        future = asyncio.get_running_loop().create_future()
        self._loading[key] = future
        try:
            loaded_version, loaded_seat, text = await _load_frame(match_id, user)
            result = (loaded_version, text)
            if loaded_seat == seat:  # a viewer who just took a seat is not cached under the old one
                self._remember(key, result)
                self._remember((match_id, loaded_version, seat), result)
            future.set_result(result)
            return result
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved here, so an unawaited failure is not reported twice
            raise
        finally:
            del self._loading[key]

    def _remember(self, key, value) -> None:
        self._done[key] = value
        self._done.move_to_end(key)
        while len(self._done) > self._size:
            self._done.popitem(last=False)


_frames = _Frames()


@database_sync_to_async
def _current_version(match_id: int) -> int | None:
    """The match's version alone: one indexed row, no state, so a heartbeat costs little."""
    return Match.objects.filter(pk=match_id).values_list("version", flat=True).first()


def _chat_seen_sync(match_id: int, user_id: int) -> None:
    services.chat_notices_read(match_id=match_id, user_id=user_id)


# One independent UPDATE: any worker thread will do (as _load_frame), not the one thread
# kept for thread-sensitive work, which the socket's own handshake waits on.
_chat_seen = database_sync_to_async(_chat_seen_sync, thread_sensitive=False)


async def dispatch_in_order(sources, dispatch, *, backlog: int = 64) -> None:
    """Dispatch the messages of several sources (the socket's, the channel layer's) one at a
    time, in the order they arrive, until a source fails or dispatch raises.

    Channels' ``await_many_dispatch`` makes a new task and an ``asyncio.wait`` for every
    message; when a frame reaches 500 spectators that is 500 tasks and waits per process
    (docs/performance.md). Here one long-lived task per source feeds one queue. The queue is
    bounded, so a client that floods its socket waits for its messages to be dispatched, as
    it did before."""
    queue: asyncio.Queue = asyncio.Queue(maxsize=backlog)

    async def pump(source):
        try:
            while True:
                await queue.put((await source(), None))
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # noqa: BLE001 - handed to the dispatching loop
            await queue.put((None, exc))

    pumps = [asyncio.ensure_future(pump(source)) for source in sources]
    try:
        while True:
            message, error = await queue.get()
            if error is not None:
                raise error
            await dispatch(message)
    finally:
        for task in pumps:
            task.cancel()
        for task in pumps:
            try:
                await task
            except asyncio.CancelledError:
                pass


class LiveConsumer(AsyncJsonWebsocketConsumer):
    """A consumer whose socket ends in words, never in a traceback:

    * Redis down (the layer is needed to open the consumer's own channel, before
      ``connect``, and to join its groups, in it): closed with 1013, try again later;
    * the database out of reach (``grailsite.dbpool.DATABASE_DOWN``, at connect or in a
      catch-up): closed with 1013 at once, not left to the handshake's timeout;
    * the client gone while something was being sent to it: nothing to answer, a debug line;
    * the consumer closing the socket (a flood, a bad frame): said once, at info level, and
      whatever the client or the groups send after that is dropped: a second close, or a
      frame after the close, made the server raise "Exception in ASGI application".

    The groups it joined are left however the socket ends."""

    async def __call__(self, scope, receive, send):
        self._accepted = self._connect_seen = self._closed = False
        # Log lines of this socket carry the proxy's request id (grailsite/logs.py).
        headers = dict(scope.get("headers", ()))
        logs.request_id.set(logs.new_request_id(headers.get(b"x-request-id", b"").decode("latin-1")))
        try:
            return await self._serve(scope, receive, send)
        except ClientGone as exc:
            log.debug("websocket %s: the client went away: %r", scope.get("path"), exc.__cause__)
        except LAYER_DOWN as exc:
            log.warning("websocket refused, the channel layer is down: %r", exc)
            await self._try_later(receive, "Live updates are down for a moment.")
        except DATABASE_DOWN as exc:
            log.warning("websocket %s closed, the database is unavailable: %s", scope.get("path"), _first_line(exc))
            await self._try_later(receive, UNAVAILABLE)
        finally:
            if self._accepted:
                metrics.SOCKETS.labels(type(self).__name__).dec()
            await self._leave_groups()
        return None

    async def _try_later(self, receive, reason: str) -> None:
        """Close with 1013 (try again later: the page retries with backoff), after answering
        the handshake if that has not been done."""
        with contextlib.suppress(ClientGone):
            if not self._connect_seen:
                message = await receive()
                if message["type"] != "websocket.connect":
                    return
            if not self._accepted:
                await self.base_send({"type": "websocket.accept"})
            await self.base_send({"type": "websocket.close", "code": CLOSE["try_later"], "reason": reason})

    async def _serve(self, scope, receive, send):
        """Channels' ``AsyncConsumer.__call__``, with ``dispatch_in_order`` for its loop."""
        self.scope = scope
        self.base_send = functools.partial(self._send_to_client, send)
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        sources = [receive]
        if self.channel_layer is not None:
            self.channel_name = await self.channel_layer.new_channel()
            self.channel_receive = functools.partial(self.channel_layer.receive, self.channel_name)
            sources.append(self.channel_receive)
        try:
            await dispatch_in_order(sources, self.dispatch)
        except StopConsumer:
            pass

    async def _send_to_client(self, send, message: dict) -> None:
        """The server's ``send``; nothing goes after a close (the server would raise), and a
        client that went away is ``ClientGone``, not an ``OSError``."""
        if self._closed:
            return
        if message["type"] == "websocket.close":
            self._closed = True
        try:
            await send(message)
        except OSError as exc:
            raise ClientGone() from exc

    async def accept(self, *args, **kwargs):
        await super().accept(*args, **kwargs)
        if not self._accepted:
            metrics.SOCKETS.labels(type(self).__name__).inc()
        self._accepted = True

    async def close(self, code=None, reason=None):
        """Close the socket, saying why in the log (info: a client's misbehaviour or a
        refusal is not the site's error); only the first close counts."""
        if not self._closed and code not in (None, 1000):
            log.info("websocket %s closed with %s (%s): user %s, address %s", self.scope.get("path"), code,
                     reason or _CLOSE_NAMES.get(code, "no reason given"), _user_id(self.scope),
                     client_address(self.scope))
        await super().close(code=code, reason=reason)

    async def dispatch(self, message):
        """Channels' own dispatch first hops to the one shared sync thread to close stale
        database connections, before EVERY message: each frame forwarded to each socket paid
        a thread round trip (a tenth of the server's CPU under load, docs/performance.md).
        These consumers touch the database only through ``database_sync_to_async``, which
        closes stale connections in the worker thread around each call, so the hop guards
        nothing here.

        Once the socket is closed, only the client's disconnect is still handled."""
        kind = message["type"]
        if kind == "websocket.connect":
            self._connect_seen = True
        elif self._closed and kind != "websocket.disconnect":
            return
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {kind}")
        await handler(message)

    async def disconnect(self, code):
        await self._leave_groups()

    async def _leave_groups(self) -> None:
        groups, self.groups_joined = getattr(self, "groups_joined", ()), []
        for group in groups:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except LAYER_DOWN:
                pass  # the subscription went with Redis


class DatabaseDownGuard:
    """ASGI middleware around the session and user middleware of the websocket route: they
    read the session and the user from the database before any consumer runs, and a
    database out of reach there failed the handshake with "Exception in ASGI application"
    (after the pool's timeout). Here it is answered as ``LiveConsumer`` answers it: 1013,
    try again later, at once. A consumer handles the database failing later itself, so
    what reaches this came before anything was received or sent."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        try:
            return await self.application(scope, receive, send)
        except DATABASE_DOWN as exc:
            if scope["type"] != "websocket":
                raise
            log.warning("websocket %s refused, the database is unavailable: %s", scope.get("path"), _first_line(exc))
            with contextlib.suppress(OSError):
                if (await receive())["type"] == "websocket.connect":
                    await send({"type": "websocket.accept"})
                    await send({"type": "websocket.close", "code": CLOSE["try_later"], "reason": UNAVAILABLE})
            return None


_CLOSE_NAMES = {code: name.replace("_", " ") for name, code in CLOSE.items()}


def _user_id(scope) -> int | None:
    user = scope.get("user")
    return user.id if user is not None and getattr(user, "is_authenticated", False) else None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


class MatchConsumer(LiveConsumer):
    async def connect(self):
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.user = self.scope.get("user")
        logs.match_id.set(self.match_id)
        logs.user_id.set(getattr(self.user, "pk", None))
        self.sent_version, self.sent_text = -1, None
        self.bucket = TokenBucket(settings.WS_MESSAGE_BURST, settings.WS_MESSAGES_PER_SECOND)
        self.move_bucket = TokenBucket(settings.WS_MOVE_BURST, settings.WS_MOVES_PER_SECOND)
        try:
            version, self.seat, text, self.muted = await _load_opening(self.match_id, self.user)
        except ServiceError as exc:
            await self.close(code=CLOSE["not_found"] if exc.status == 404 else CLOSE["forbidden"])
            return
        # The viewer's own frames (its seat's, or the watchers'), then the game's chat.
        if not await _joined(self, group_for(self.match_id, self.seat)):
            return
        frames.listening(group_for(self.match_id, self.seat))
        if not await _joined(self, match_group(self.match_id)):
            return
        await self.accept()
        await self._send_frame(version, text)

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        content = parse_frame(text_data, bytes_data)
        if isinstance(content, str):
            await self.close(code=CLOSE["bad_frame"], reason=content)
            return
        if content["type"] == "move":
            await self._move(content)
            return
        if not self.bucket.take():
            await self.close(code=CLOSE["too_many"], reason="Too many messages.")
            return
        current = await self._catch_up(content.get("version"))
        if content["type"] == "ping" and current is not None:
            await self.send_json({"type": "pong", "version": current})

    async def _move(self, content: dict) -> None:
        """Submit a move through the service and answer on this socket; the new frames come
        through the groups like anyone else's."""
        key = content.get("key") if isinstance(content.get("key"), str) else None
        refusal = self._move_refusal(content)
        if refusal is None:
            try:
                result = await live_moves.move_submit(match_id=self.match_id, user=self.user, move=content["move"],
                                                      version=content.get("version"), key=key)
            except ServiceError as exc:
                refusal = (exc.status, exc.code, exc.message)
            except DATABASE_DOWN as exc:
                # Not made, or made by a COMMIT whose answer was lost: sent again with the
                # same key once the database is back, it is made once either way.
                log.warning("a socket move in match %s was refused, the database is unavailable: %s",
                            self.match_id, _first_line(exc))
                await self.send_json({"type": "refused", "key": key, "status": 503, "retry_after": RETRY_AFTER,
                                      "error": {"code": "unavailable", "message": UNAVAILABLE}})
                return
            else:
                await self.send_json({"type": "ack", "key": key, **result})
                return
        status, code, message = refusal
        await self.send_json({"type": "refused", "key": key, "status": status,
                              "error": {"code": code, "message": message}})

    def _move_refusal(self, content: dict) -> tuple[int, str, str] | None:
        """(status, code, message) when the move cannot even be submitted, else None."""
        problem = move_problem(content)
        if problem is not None:
            return 400, "bad_request", problem
        if not (self.user and self.user.is_authenticated):
            return 401, "unauthenticated", "Log in to play."
        if not self.move_bucket.take():
            return 429, "too_many_requests", "Too many moves: wait a little and try again."
        return None

    async def _catch_up(self, known: int | None) -> int | None:
        """Send the current state if ``known`` is not it (after a reconnect, a gap, or as the
        page's heartbeat). Usually served without loading the game: the version alone says
        whether the last frame sent is still current. Returns that version."""
        current = await _current_version(self.match_id)
        if current is None:
            await self.close(code=CLOSE["not_found"])
            return None
        if current > self.sent_version:
            # A push went missing (Redis restarted, a dropped message): load it, once per
            # process and version, like a push would have.
            try:
                version, text = await _frames.get(self.match_id, current, self.seat, self.user)
            except ServiceError:
                await self.close(code=CLOSE["forbidden"])
                return None
            await self._send_frame(version, text, force=True)
        elif known != self.sent_version:
            # The page is behind what this socket sent: the whole state again (the last
            # thing sent may have been a change, which only follows the version before it).
            if self.sent_text is None:
                try:
                    _, self.sent_text = await _frames.get(self.match_id, current, self.seat, self.user)
                except ServiceError:
                    await self.close(code=CLOSE["forbidden"])
                    return None
            await self.send(text_data=self.sent_text)
            metrics.FRAMES.inc()
        return current

    async def match_frame(self, event):
        """A change published by the process that made it (games/live/frames.py): forwarded as it
        is when it follows what this socket last sent; after a gap, or when it came without
        a frame (nobody listened to its group last time), the whole state."""
        version = event["version"]
        if version <= self.sent_version:
            return
        if event["text"] is not None and event["prev"] == self.sent_version:
            if move_trace.on():
                move_trace.stamp("forward", self.match_id, version, self.seat, move_trace.now())
            self.sent_version, self.sent_text = version, None
            await self.send(text_data=event["text"])
            metrics.FRAMES.inc()
            return
        try:
            version, text = await _frames.get(self.match_id, version, self.seat, self.user)
        except ServiceError:
            await self.close(code=CLOSE["not_found"])
            return
        await self._send_frame(version, text)

    async def chat_message(self, event):
        # The line comes whole (games/inbox/notify.py); a player never gets the spectators' channel,
        # and a viewer who blocked its author gets only its place in the numbering.
        line = event["line"]
        if line["spectators"] and self.seat is not None:
            return
        if event.get("author") in self.muted:
            await self.send_json({"type": "chat", "message": selectors.chat_muted(line)})
            return
        await self.send_json({"type": "chat", "message": line})
        if self.seat is not None and line["user"] != getattr(self.user, "username", None):
            self._chat_seen_soon()  # on the page: the line is not news

    def _chat_seen_soon(self) -> None:
        """Mark this player's chat notice read beside the socket's other work: one write at a
        time per socket, and one more for the lines that came while it ran (50 lines in a
        burst are two writes, not 50, and never hold up the lines themselves)."""
        task = getattr(self, "seen_task", None)
        self.seen_again = task is not None and not task.done()
        if not self.seen_again:
            self.seen_task = asyncio.ensure_future(self._chat_seen_writes())

    async def _chat_seen_writes(self) -> None:
        try:
            while True:
                self.seen_again = False
                await _chat_seen(self.match_id, self.user.id)
                if not self.seen_again:
                    return
        except Exception:  # noqa: BLE001 - a notice left unread is harmless; the page reads it on load
            log.info("could not mark the chat notice of match %s read", self.match_id, exc_info=True)

    async def disconnect(self, code):
        task = getattr(self, "seen_task", None)
        if task is not None:  # its write finishes with the socket, not after it
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task, timeout=5)
        await super().disconnect(code)

    async def _send_frame(self, version: int, text: str, force: bool = False):
        if version <= self.sent_version and not force:
            return
        self.sent_version, self.sent_text = version, text
        await self.send(text_data=text)
        metrics.FRAMES.inc()


async def _joined(consumer, group: str) -> bool:
    """Join ``group``; if Redis is down, refuse the socket cleanly (1013, try again later:
    the page retries with backoff) instead of failing the handshake with a 500."""
    try:
        await consumer.channel_layer.group_add(group, consumer.channel_name)
    except LAYER_DOWN as exc:
        log.warning("websocket refused, the channel layer is down: %r", exc)
        await consumer.accept()
        await consumer.close(code=CLOSE["try_later"], reason="Live updates are down for a moment.")
        return False
    consumer.groups_joined = [*getattr(consumer, "groups_joined", ()), group]
    return True


class UserConsumer(LiveConsumer):
    """A signed-in person's own channel: tells open pages that one of their games changed.
    It takes no messages: anything sent closes it."""

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE["unauthenticated"])
            return
        if await _joined(self, user_group(user.id)):
            await self.accept()

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        await self.close(code=CLOSE["bad_frame"], reason="This socket takes no messages.")

    async def user_update(self, event):
        count = await database_sync_to_async(selectors.unread_count)(self.scope["user"])
        await self.send_json({"type": "update", "match": event["match"], "unread": count})


def _tournament_version(tournament_id: int) -> int | None:
    return Tournament.objects.filter(pk=tournament_id).values_list("version", flat=True).first()


class TournamentConsumer(LiveConsumer):
    """A tournament's page: its entries, results and rounds are public, so every socket of it
    hears the same message, "the tournament is at version N", and the page reloads what it
    shows (static/js/tournament.js). On connect it is told the version at once, so a change
    made between loading the page and opening the socket is not missed. It takes no messages."""

    async def connect(self):
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        version = await database_sync_to_async(_tournament_version)(self.tournament_id)
        if version is None:
            await self.close(code=CLOSE["not_found"])
            return
        if await _joined(self, tournament_group(self.tournament_id)):
            await self.accept()
            await self.send_json({"type": "update", "version": version})

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        await self.close(code=CLOSE["bad_frame"], reason="This socket takes no messages.")

    async def tournament_update(self, event):
        await self.send_json({"type": "update", "version": event["version"]})
