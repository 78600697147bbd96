"""Websockets. One consumer per open game page: it joins the match's group, and on every
``{match, version}`` message loads the view for its own viewer's seat and sends that, so
hidden information never crosses a shared channel. Moves are submitted over HTTP."""
from __future__ import annotations

from collections import OrderedDict

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games import selectors
from games.errors import ServiceError
from games.notify import match_group, user_group

class _PayloadCache:
    """Per-process cache of payloads by (match, version, seat): 500 spectators of one game
    in one process cost one load per version, not 500."""

    def __init__(self, size: int = 512):
        self._items: OrderedDict = OrderedDict()
        self._size = size

    def get(self, key):
        item = self._items.get(key)
        if item is not None:
            self._items.move_to_end(key)
        return item

    def put(self, key, value):
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self._size:
            self._items.popitem(last=False)


_cache = _PayloadCache()


def _payload(match_id: int, user) -> dict:
    match = selectors.match_get(match_id)
    seats = selectors.seats_for(match)
    seat = selectors.seat_of(match, user, seats)
    key = (match.pk, match.version, seat)
    cached = _cache.get(key)
    if cached is None:
        cached = selectors.match_payload(match, user, seats=seats)
        _cache.put(key, cached)
    return cached


# Not thread-sensitive: payload loads of many sockets run side by side in the thread pool
# instead of queueing on the one shared thread (docs/performance.md).
_load_payload = database_sync_to_async(_payload, thread_sensitive=False)


@database_sync_to_async
def _load_chat(match_id: int, message_id: int) -> list[dict]:
    match = selectors.match_get(match_id)
    return selectors.chat_for(match, after_id=message_id - 1, limit=1)


class MatchConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self):
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.user = self.scope.get("user")
        self.sent_version = -1
        try:
            payload = await _load_payload(self.match_id, self.user)
        except ServiceError:
            await self.close(code=4403)
            return
        self.group = match_group(self.match_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._send_state(payload)

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs):
        # The client asks to catch up (after a reconnect or a gap in versions).
        if isinstance(content, dict) and content.get("type") == "sync":
            known = content.get("version")
            payload = await _load_payload(self.match_id, self.user)
            if not isinstance(known, int) or payload["version"] != known:
                await self._send_state(payload, force=True)

    async def match_update(self, event):
        if event["version"] <= self.sent_version:
            return
        try:
            payload = await _load_payload(self.match_id, self.user)
        except ServiceError:
            await self.close(code=4404)
            return
        await self._send_state(payload)

    async def chat_message(self, event):
        rows = await _load_chat(self.match_id, event["id"])
        for row in rows:
            await self.send_json({"type": "chat", "message": row})

    async def _send_state(self, payload: dict, force: bool = False):
        if payload["version"] <= self.sent_version and not force:
            return
        self.sent_version = payload["version"]
        await self.send_json({"type": "state", "data": payload})


class UserConsumer(AsyncJsonWebsocketConsumer):
    """A signed-in person's own channel: tells open pages that one of their games changed."""

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.group = user_group(user.id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def user_update(self, event):
        count = await database_sync_to_async(selectors.unread_count)(self.scope["user"])
        await self.send_json({"type": "update", "match": event["match"], "unread": count})
