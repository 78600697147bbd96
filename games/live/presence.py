"""Who is online: a small socket of its own (``/ws/presence/``), opened by every page a
signed-in person has open (static/js/presence.js).

Counting: each person's open presence sockets are a counter in the shared cache (Redis when
there is one, so every web process counts together), ``presence:<user id>``, which expires
``TTL`` seconds after its last refresh; each socket refreshes it every ``HEARTBEAT`` seconds
while it is open. A socket that closes takes itself off the count; a process that dies
leaves its sockets counted only until the counter expires.

Telling: when a person's first socket opens (0 to 1) their followers' presence sockets are
told at once ("presence" frames through the channel layer, group ``friends.<follower id>``);
when the last one closes they are told, after ``GRACE`` seconds, that the person left, if
no socket opened meanwhile (going from one page to the next closes one socket and opens
another: no flicker of "offline" for that). A new socket is first sent who of the people it
follows is online now. No page polls for any of this."""
from __future__ import annotations

import asyncio
import logging

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache

from games.live.consumers import CLOSE, LAYER_DOWN, LiveConsumer, _joined

log = logging.getLogger(__name__)

TTL = 90
HEARTBEAT = 30


def grace() -> float:
    return float(getattr(settings, "PRESENCE_GRACE_SECONDS", 5.0))


def _key(user_id: int) -> str:
    return f"presence:{user_id}"


def friends_group(user_id: int) -> str:
    return f"friends.{user_id}"


# --- the counts (synchronous: the cache's client) --------------------------------------------

def arrive(user_id: int) -> bool:
    """Count one more open socket; True when the person just came online."""
    key = _key(user_id)
    cache.add(key, 0, TTL)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.add(key, 1, TTL)
        count = 1
    cache.touch(key, TTL)
    return count == 1


def leave(user_id: int) -> bool:
    """Count one socket fewer; True when none is left."""
    key = _key(user_id)
    try:
        count = cache.decr(key)
    except ValueError:
        return True
    if count <= 0:
        cache.delete(key)
        return True
    return False


def refresh(user_id: int) -> None:
    """A socket still open: keep the count from expiring (and count it again if it had)."""
    if not cache.touch(_key(user_id), TTL):
        cache.add(_key(user_id), 1, TTL)


def is_online(user_id: int) -> bool:
    return (cache.get(_key(user_id)) or 0) > 0


def online_among(user_ids) -> set[int]:
    """Which of these people have a page open now: one round trip."""
    ids = list(user_ids)
    if not ids:
        return set()
    counts = cache.get_many([_key(u) for u in ids])
    return {u for u in ids if (counts.get(_key(u)) or 0) > 0}


def _followed(user_id: int) -> list[tuple[int, str]]:
    from grailsite.accounts.models import Follow
    return list(Follow.objects.filter(follower_id=user_id).values_list("followed_id", "followed__username"))


def online_friends(user_id: int) -> list[str]:
    followed = _followed(user_id)
    online = online_among(u for u, _ in followed)
    return sorted(name for u, name in followed if u in online)


def _followers(user_id: int) -> list[int]:
    from grailsite.accounts.models import Follow
    return list(Follow.objects.filter(followed_id=user_id).values_list("follower_id", flat=True))


_arrive = sync_to_async(arrive, thread_sensitive=False)
_leave = sync_to_async(leave, thread_sensitive=False)
_refresh = sync_to_async(refresh, thread_sensitive=False)
_is_online = sync_to_async(is_online, thread_sensitive=False)
_online_friends = sync_to_async(online_friends, thread_sensitive=True)
_followers_async = sync_to_async(_followers, thread_sensitive=True)


async def announce(channel_layer, user_id: int, name: str, online: bool) -> None:
    """Tell everyone who follows this person that they came or went."""
    for follower in await _followers_async(user_id):
        try:
            await channel_layer.group_send(friends_group(follower), {"type": "friend.presence", "name": name,
                                                                     "online": online})
        except LAYER_DOWN as exc:
            log.warning("presence not told, the channel layer is down: %r", exc)
            return


async def _announce_left_later(channel_layer, user_id: int, name: str) -> None:
    await asyncio.sleep(grace())
    if not await _is_online(user_id):
        await announce(channel_layer, user_id, name, False)


# Tasks telling followers that someone left, kept so the loop does not drop them unfinished.
_pending: set[asyncio.Task] = set()


class PresenceConsumer(LiveConsumer):
    """One per open page of a signed-in person. Sends ``{"type": "online", "names": [...]}``
    (the people they follow who are online) once, then ``{"type": "presence", "name",
    "online"}`` as those people come and go. It takes no messages: anything sent closes it."""

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE["unauthenticated"])
            return
        if not await _joined(self, friends_group(user.id)):
            return
        await self.accept()
        self.counted = True
        if await _arrive(user.id):
            await announce(self.channel_layer, user.id, user.username, True)
        await self.send_json({"type": "online", "names": await _online_friends(user.id)})
        self.heartbeat = asyncio.get_running_loop().create_task(self._beat(user.id))

    async def _beat(self, user_id: int) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT)
            await _refresh(user_id)

    async def disconnect(self, code):
        beat = getattr(self, "heartbeat", None)
        if beat is not None:
            beat.cancel()
        for group in getattr(self, "groups_joined", ()):
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except LAYER_DOWN:
                pass
        user = self.scope.get("user")
        if getattr(self, "counted", False) and await _leave(user.id):
            task = asyncio.get_running_loop().create_task(
                _announce_left_later(self.channel_layer, user.id, user.username))
            _pending.add(task)
            task.add_done_callback(_pending.discard)

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        await self.close(code=CLOSE["bad_frame"], reason="This socket takes no messages.")

    async def friend_presence(self, event):
        await self.send_json({"type": "presence", "name": event["name"], "online": event["online"]})
