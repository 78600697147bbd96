"""Rate limits per person and per address, counted in a sliding window in the shared cache.

Each group has a rate for signed-in users (by user id) and one for addresses (by client IP,
IPv6 by /64; the address is grailsite/client_address.py's, which believes X-Forwarded-For only
from our own proxies): a bot farm on one address and one account spread over many addresses are both
held back. Rates live in ``settings.RATE_LIMITS`` ("60/m", "30/h", "5/10m") and are read per
request, so an operator (or a test) can change them without touching the code that checks
them.

A rate of N a minute lets at most N requests through in ANY minute. Counting in fixed
windows (one counter a calendar minute, as django-ratelimit does) let a burst straddling a
window's edge through twice: N at 0:59, N more at 1:00. Here each key's window is cut into
``SLICES`` slices; a request is let through when the slices from the one a window ago up to
the current one hold fewer than N, and is then counted in the current one. Those slices
cover the whole window before any request (and up to one slice more), so no span of a
window's length ever holds more than N; the price is that a request may be held back up to
a tenth of a window longer than a perfect count would. Refused requests are not counted:
whoever keeps knocking gets N a window, not nothing for ever.

The counters live in Redis when there is one (one script a request: one round trip, and
every web process counts together); otherwise in this process's memory. If Redis is down
the limits fail open: the database, not the counter, is what must keep working during a
Redis outage."""
from __future__ import annotations

import functools
import logging
import math
import re
import threading
import time
from collections import OrderedDict

import redis
from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse

from grailsite.client_address import client_address, counted_as
from grailsite.errors import TooManyRequests

log = logging.getLogger(__name__)
MESSAGE = "Too many requests: wait a little and try again."
SLICES = 10
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smhd])\s*$")

# KEYS[1]: the key's slices (a hash: slice number -> count). ARGV: the current slice, how
# many slices make a window, the limit, the key's lifetime in seconds.
_SLIDING = """
local now, slices, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local fields = redis.call('HGETALL', KEYS[1])
local total = 0
for i = 1, #fields, 2 do
  if tonumber(fields[i]) < now - slices then
    redis.call('HDEL', KEYS[1], fields[i])
  else
    total = total + tonumber(fields[i + 1])
  end
end
if total >= limit then
  return 0
end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1
"""

def clock() -> float:
    return time.time()


@functools.lru_cache(maxsize=64)
def parse_rate(rate: str) -> tuple[int, float]:
    """(requests, window in seconds) of "60/m", "30/h", "5/10m"."""
    match = _RATE.match(rate)
    if not match:
        raise ValueError(f"{rate!r} is not a rate (e.g. 60/m, 30/h, 5/10m)")
    count, times, unit = match.groups()
    return int(count), float(int(times or 1) * _UNITS[unit])


class _Memory:
    """The embedded default's counters (no Redis): the same slices, in this process."""

    MAX_KEYS = 100_000

    def __init__(self):
        self._keys: OrderedDict[str, dict[int, int]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, key: str, now_slice: int, limit: int) -> bool:
        with self._lock:
            counts = self._keys.get(key)
            if counts is None:
                counts = self._keys[key] = {}
                if len(self._keys) > self.MAX_KEYS:
                    self._keys.popitem(last=False)
            self._keys.move_to_end(key)
            for old in [s for s in counts if s < now_slice - SLICES]:
                del counts[old]
            if sum(counts.values()) >= limit:
                return False
            counts[now_slice] = counts.get(now_slice, 0) + 1
            return True

    def clear(self) -> None:
        with self._lock:
            self._keys.clear()


memory = _Memory()


_script = None  # the script above, sent once to each server and then called by its hash


def _redis_client(key: str):
    """The cache's own Redis client for ``key``, or None when the cache is not Redis."""
    backend = getattr(cache, "_cache", None)
    get_client = getattr(backend, "get_client", None)
    return get_client(key, write=True) if get_client is not None else None


def take(key: str, rate: str, now: float | None = None) -> bool:
    """Count one request under ``key`` if ``rate`` lets it through now; False when it does not."""
    limit, window = parse_rate(rate)
    width = window / SLICES
    now_slice = math.floor((clock() if now is None else now) / width)
    full_key = cache.make_and_validate_key(f"rl:{key}:{rate}")
    client = _redis_client(full_key)
    if client is None:
        return memory.take(full_key, now_slice, limit)
    global _script
    if _script is None:
        _script = client.register_script(_SLIDING)
    lifetime = math.ceil(window + width) + 1
    return bool(_script(keys=[full_key], args=[now_slice, SLICES, limit, lifetime], client=client))


def _rate(group: str, scope: str) -> str | None:
    return settings.RATE_LIMITS.get(group, {}).get(scope)


def retry_after(rate: str) -> int:
    """Seconds to wait before a refused request may go through: the counts move on a slice
    (a tenth of the window) at a time, so a slice's width, rounded up."""
    _limit, window = parse_rate(rate)
    return max(1, math.ceil(window / SLICES))


def _over(group: str, scope: str, who: str) -> bool:
    rate = _rate(group, scope)
    if not rate:
        return False
    try:
        return not take(f"{group}:{scope}:{who}", rate)
    except (redis.RedisError, OSError) as exc:
        log.warning("rate limit counter unavailable, letting the request through: %r", exc)
        return False


def limited(request, group: str) -> bool:
    """Count this request against ``group``'s limits; True when one of them is exceeded."""
    if not settings.RATELIMIT_ENABLE:
        return False
    user = getattr(request, "user", None)
    by_user = user is not None and user.is_authenticated and _over(group, "user", str(user.pk))
    # No address (a test harness, a unix socket): nothing to count by.
    address = client_address(request)
    by_address = address is not None and _over(group, "ip", counted_as(address))
    return by_user or by_address


_async_clients: dict = {}  # event loop -> (asyncio Redis client, its script)


async def limited_async(user_id: int | None, address: str | None, group: str) -> bool:
    """``limited`` for code on an event loop (games/web/api_moves.py): the same keys, rates
    and script, each limit counted whether or not the other refuses, through an asyncio
    client of the cache's Redis, both in one round trip; fails open as ``_over`` does."""
    if not settings.RATELIMIT_ENABLE:
        return False
    checks = [(f"{group}:{scope}:{who}", rate) for scope, who in
              (("user", None if user_id is None else str(user_id)),
               ("ip", None if address is None else counted_as(address)))
              if who is not None and (rate := _rate(group, scope))]
    if not checks:
        return False
    try:
        return not all(await _take_async(checks))
    except (redis.RedisError, OSError) as exc:
        log.warning("rate limit counter unavailable, letting the request through: %r", exc)
        return False


async def _take_async(checks: list[tuple[str, str]]) -> list[bool]:
    """``take`` for each (key, rate), in one pipelined round trip."""
    now = clock()
    calls = []
    for key, rate in checks:
        limit, window = parse_rate(rate)
        width = window / SLICES
        calls.append((cache.make_and_validate_key(f"rl:{key}:{rate}"), math.floor(now / width), limit,
                      math.ceil(window + width) + 1))
    location = _redis_location()
    if location is None:
        return [memory.take(full_key, now_slice, limit) for full_key, now_slice, limit, _ in calls]
    import asyncio

    import redis.asyncio

    loop = asyncio.get_running_loop()
    held = _async_clients.get(loop)
    if held is None:
        options = settings.CACHES["default"].get("OPTIONS", {})
        client = redis.asyncio.Redis.from_url(location, **{k: v for k, v in options.items() if k.startswith("socket_")})
        held = _async_clients[loop] = (client, client.register_script(_SLIDING))
        for old in [other for other in _async_clients if other.is_closed()]:
            _async_clients.pop(old, None)
    client, script = held
    async with client.pipeline(transaction=False) as pipe:
        for full_key, now_slice, limit, lifetime in calls:
            await script(keys=[full_key], args=[now_slice, SLICES, limit, lifetime], client=pipe)
        return [bool(answer) for answer in await pipe.execute()]


def counts_on_loop() -> bool:
    """Whether ``limited_async`` counts where ``limited`` does: one Redis server, or none."""
    config = settings.CACHES["default"]
    return "redis" not in config.get("BACKEND", "").lower() or _redis_location() is not None


def _redis_location() -> str | None:
    """The cache's one Redis server, or None when the cache is not Redis (or not one server)."""
    config = settings.CACHES["default"]
    location = config.get("LOCATION")
    if "redis" not in config.get("BACKEND", "").lower() or not isinstance(location, str) or "," in location:
        return None
    return location


def refused(group: str) -> TooManyRequests:
    """The refusal of a request over ``group``'s limits, saying how long to wait."""
    rates = [r for r in (_rate(group, "user"), _rate(group, "ip")) if r]
    return TooManyRequests(MESSAGE, retry_after=max((retry_after(r) for r in rates), default=1))


def check(request, group: str) -> None:
    if limited(request, group):
        raise refused(group)


def ratelimit_view(group: str, *, methods: tuple[str, ...] = ("POST",)):
    """Limit a plain Django view (sign-up, log-in): over the limit, a 429 in words."""

    def decorate(view):
        @functools.wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method in methods and limited(request, group):
                response = HttpResponse(MESSAGE, status=429, content_type="text/plain; charset=utf-8")
                response["Retry-After"] = str(max((retry_after(r) for r in (_rate(group, "user"), _rate(group, "ip"))
                                                   if r), default=1))
                return response
            return view(request, *args, **kwargs)

        return wrapper

    return decorate
