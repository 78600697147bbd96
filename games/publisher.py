"""Publishing group messages from synchronous code (services' on-commit hooks, Celery tasks).

With the Redis pub/sub channel layer a group message is one PUBLISH, so it is sent here with
a plain, pooled, synchronous Redis client. ``async_to_sync(layer.group_send)`` would instead
start an event loop (and a new Redis connection, since channels_redis pools per loop) for
every message when there is no outer loop: that cost ~8 ms a message (docs/performance.md).
Other layers (the in-memory one of the embedded default) still go through the layer.
"""
from __future__ import annotations

import asyncio
import functools
import weakref

import redis
import redis.asyncio
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from games import unit_of_work
from grailsite import metrics

PUBSUB_BACKEND = "channels_redis.pubsub.RedisPubSubChannelLayer"


@functools.cache
def _redis() -> redis.Redis:
    # Short timeouts: a push is best effort (clients catch up by version), and a move must
    # not wait on a Redis that is restarting. redis-py reconnects by itself afterwards.
    return redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1,
                                health_check_interval=30)


def _uses_pubsub() -> bool:
    return settings.CHANNEL_LAYERS["default"]["BACKEND"] == PUBSUB_BACKEND


def group_channel(group: str) -> str:
    """The Redis channel the pub/sub layer subscribes a group's members to."""
    return f"{settings.CHANNEL_LAYERS['default']['CONFIG']['prefix']}__group__{group}"


def group_send(group: str, message: dict) -> None:
    if _collected([(group, message)]):
        return
    layer = get_channel_layer()
    if layer is None:
        return
    if _uses_pubsub():
        _redis().publish(group_channel(group), layer.serialize(message))
    else:
        async_to_sync(layer.group_send)(group, message)
    metrics.pushed([(group, message)])


def group_send_many(messages: list[tuple[str, dict]]) -> list[int] | None:
    """Several group messages at once: one pipelined round trip to Redis for all of them.
    Returns how many processes listened to each (None when the layer does not say, or the
    messages were collected for an executor to send)."""
    if not messages or _collected(messages):
        return None
    layer = get_channel_layer()
    if layer is None:
        return None
    if _uses_pubsub():
        pipe = _redis().pipeline(transaction=False)
        for group, message in messages:
            pipe.publish(group_channel(group), layer.serialize(message))
        listened = pipe.execute()
        metrics.pushed(messages)
        return listened
    for group, message in messages:
        async_to_sync(layer.group_send)(group, message)
    metrics.pushed(messages)
    return None


def _collected(messages) -> bool:
    """While a unit of work collects (an executor on an event loop, games/unit_of_work.py),
    its messages wait for ``send_collected`` instead of blocking the loop on Redis."""
    unit = unit_of_work.current()
    if unit is None:
        return False
    unit.messages.extend(messages)
    return True


# One asyncio client per event loop: redis.asyncio's connections belong to the loop that
# opened them (uvicorn has one a process; each test has its own).
_async_clients: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _redis_async():
    loop = asyncio.get_running_loop()
    client = _async_clients.get(loop)
    if client is None:
        client = _async_clients[loop] = redis.asyncio.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1, health_check_interval=30)
    return client


async def send_collected(messages: list[tuple[str, dict]]) -> list[int]:
    """Publish collected group messages from an event loop in one pipelined round trip
    (the pub/sub layer only: the only one an executor collects for); how many processes
    listened to each."""
    if not messages:
        return []
    layer = get_channel_layer()
    pipe = _redis_async().pipeline(transaction=False)
    for group, message in messages:
        pipe.publish(group_channel(group), layer.serialize(message))
    listened = await pipe.execute()
    metrics.pushed(messages)
    return listened


def pubsub() -> bool:
    """Whether group messages go through the Redis pub/sub layer."""
    return _uses_pubsub()
