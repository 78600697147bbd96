"""Publishing group messages from synchronous code (services' on-commit hooks, Celery tasks).

With the Redis pub/sub channel layer a group message is one PUBLISH, so it is sent here with
a plain, pooled, synchronous Redis client. ``async_to_sync(layer.group_send)`` would instead
start an event loop (and a new Redis connection, since channels_redis pools per loop) for
every message when there is no outer loop: that cost ~8 ms a message (docs/performance.md).
Other layers (the in-memory one of the embedded default) still go through the layer.

The layer may be sharded over several Redis servers (REDIS_URLS): channels_redis subscribes
each group's channel on the shard its consistent hash names, so each message is published
on that same shard (``_shard``), and several messages in one pipelined round trip per shard.
"""
from __future__ import annotations

import asyncio
import functools
import logging
import weakref

import redis
import redis.asyncio
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from games.table import unit_of_work
from grailsite import metrics

log = logging.getLogger(__name__)

PUBSUB_BACKEND = "channels_redis.pubsub.RedisPubSubChannelLayer"


def match_group(match_id: int) -> str:
    """Every socket of a game's page: chat lines and nudges that are the same for all."""
    return f"match-{match_id}"


def user_group(user_id: int) -> str:
    """Every socket of one person: their nudges, from any game."""
    return f"user-{user_id}"


def tournament_group(tournament_id: int) -> str:
    """Every socket of a tournament's page: told the tournament's new version after each
    change it shows (its entries, results and rounds are public, so one message serves all)."""
    return f"tournament-{tournament_id}"


def _hosts() -> list[str]:
    """The layer's Redis servers, in the layer's order (its shards)."""
    return [h if isinstance(h, str) else h["address"] for h in settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]]


@functools.cache
def _client(url: str) -> redis.Redis:
    # Short timeouts: a push is best effort (clients catch up by version), and a move must
    # not wait on a Redis that is restarting. redis-py reconnects by itself afterwards.
    return redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1, health_check_interval=30)


def _redis(channel: str | None = None) -> redis.Redis:
    """The synchronous client of the shard ``channel`` lives on (the first without one)."""
    return _client(_shard(channel) if channel is not None else _hosts()[0])


def _shard(channel: str) -> str:
    """The server the pub/sub layer subscribes ``channel`` on: its own consistent hash."""
    from channels_redis.utils import _consistent_hash

    hosts = _hosts()
    return hosts[_consistent_hash(channel, len(hosts))]


def _by_shard(messages, layer) -> dict[str, list[tuple[int, str, bytes]]]:
    """(position, channel, payload) of each message to publish, grouped by the server it goes to."""
    out: dict[str, list[tuple[int, str, bytes]]] = {}
    for i, (group, message) in enumerate(messages):
        channel = group_channel(group)
        out.setdefault(_shard(channel), []).append((i, channel, layer.serialize(message)))
    return out


def _in_order(messages, shards, results: dict[str, list[int]]) -> list[int]:
    """Each shard's answers (how many listened) back in the order of ``messages``."""
    out = [0] * len(messages)
    for url, items in shards.items():
        for (i, _channel, _payload), listened in zip(items, results[url]):
            out[i] = listened
    return out


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
        channel = group_channel(group)
        _redis(channel).publish(channel, layer.serialize(message))
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
        listened = _publish_by_shard(messages, layer)
        metrics.pushed(messages)
        return listened
    for group, message in messages:
        async_to_sync(layer.group_send)(group, message)
    metrics.pushed(messages)
    return None


def _publish_by_shard(messages, layer) -> list[int]:
    """One pipelined round trip per shard; how many listened to each message, in order."""
    shards = _by_shard(messages, layer)
    results = {}
    for url, items in shards.items():
        results[url] = _published(url, items)
    return _in_order(messages, shards, results)


def _published(url: str, items) -> list[int]:
    """PUBLISH ``items`` to one shard in a pipeline, sent a second time on a connection that
    failed: a lost message leaves its pages waiting for their heartbeat (25 s). A connection
    whose health check timed out on a busy machine is left disconnected by redis-py, which
    then fails the same attempt with an AttributeError from its closed reader rather than a
    RedisError; the second attempt connects afresh."""
    try:
        return _pipeline(url, items).execute()
    except (redis.RedisError, AttributeError):
        log.info("publishing to %s failed once; sending again", url, exc_info=True)
    return _pipeline(url, items).execute()


def _pipeline(url: str, items):
    pipe = _client(url).pipeline(transaction=False)
    for _i, channel, payload in items:
        pipe.publish(channel, payload)
    return pipe


def _collected(messages) -> bool:
    """While a unit of work collects (an executor on an event loop, games/table/unit_of_work.py),
    its messages wait for ``send_collected`` instead of blocking the loop on Redis."""
    unit = unit_of_work.current()
    if unit is None:
        return False
    unit.messages.extend(messages)
    return True


# One asyncio client per event loop: redis.asyncio's connections belong to the loop that
# opened them (uvicorn has one a process; each test has its own).
_async_clients: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _redis_async(url: str):
    loop = asyncio.get_running_loop()
    clients = _async_clients.setdefault(loop, {})
    client = clients.get(url)
    if client is None:
        client = clients[url] = redis.asyncio.Redis.from_url(
            url, socket_connect_timeout=1, socket_timeout=1, health_check_interval=30)
    return client


async def send_collected(messages: list[tuple[str, dict]]) -> list[int]:
    """Publish collected group messages from an event loop in one pipelined round trip per
    shard, the shards at once (the pub/sub layer only: the only one an executor collects
    for); how many processes listened to each."""
    if not messages:
        return []
    layer = get_channel_layer()
    shards = _by_shard(messages, layer)

    async def one(url, items):
        pipe = _redis_async(url).pipeline(transaction=False)
        for _i, channel, payload in items:
            pipe.publish(channel, payload)
        return url, await pipe.execute()
    results = dict(await asyncio.gather(*(one(url, items) for url, items in shards.items())))
    metrics.pushed(messages)
    return _in_order(messages, shards, results)


def pubsub() -> bool:
    """Whether group messages go through the Redis pub/sub layer."""
    return _uses_pubsub()
