"""Websockets. One consumer per open game page: it joins the match's group, and on every
``{match, version}`` message loads the view for its own viewer's seat and sends that, so
hidden information never crosses a shared channel. Moves are submitted over HTTP."""
from __future__ import annotations

import asyncio
import json
from collections import OrderedDict

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games import selectors
from games.errors import ServiceError
from games.notify import match_group, user_group

def _frame(match_id: int, user) -> tuple[int, int | None, str]:
    """(version, seat, serialized state frame) of the match as this user may see it now."""
    match = selectors.match_get(match_id)
    seats = selectors.seats_for(match)
    payload = selectors.match_payload(match, user, seats=seats)
    return payload["version"], payload["my_seat"], json.dumps({"type": "state", "data": payload})


# Not thread-sensitive: loads for many sockets run side by side in the thread pool instead
# of queueing on the one shared thread (docs/performance.md).
_load_frame = database_sync_to_async(_frame, thread_sensitive=False)


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
def _load_chat(match_id: int, message_id: int, seat: int | None) -> list[dict]:
    match = selectors.match_get(match_id)
    return selectors.chat_for(match, after_id=message_id - 1, limit=1, player=seat is not None)


class MatchConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self):
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.user = self.scope.get("user")
        self.sent_version = -1
        try:
            version, self.seat, text = await _load_frame(self.match_id, self.user)
        except ServiceError:
            await self.close(code=4403)
            return
        self.group = match_group(self.match_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._send_frame(version, text)

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs):
        # The client asks to catch up (after a reconnect or a gap in versions).
        if isinstance(content, dict) and content.get("type") == "sync":
            known = content.get("version")
            version, self.seat, text = await _load_frame(self.match_id, self.user)
            if not isinstance(known, int) or version != known:
                await self._send_frame(version, text, force=True)

    async def match_update(self, event):
        if event["version"] <= self.sent_version:
            return
        try:
            version, text = await _frames.get(self.match_id, event["version"], self.seat, self.user)
        except ServiceError:
            await self.close(code=4404)
            return
        await self._send_frame(version, text)

    async def chat_message(self, event):
        rows = await _load_chat(self.match_id, event["id"], self.seat)
        for row in rows:
            await self.send_json({"type": "chat", "message": row})

    async def _send_frame(self, version: int, text: str, force: bool = False):
        if version <= self.sent_version and not force:
            return
        self.sent_version = version
        await self.send(text_data=text)


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
