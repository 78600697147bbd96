"""Rate limits per person and per address (django-ratelimit, counting in the shared cache).

Each group has a rate for signed-in users (by user id) and one for addresses (by client IP,
IPv6 by /64; the address is grailsite/client_address.py's, which believes X-Forwarded-For only
from our own proxies): a bot farm on one address and one account spread over many addresses are both
held back. Rates live in ``settings.RATE_LIMITS`` and are read per request, so an operator
(or a test) can change them without touching the code that checks them.

The counters live in Redis when there is one. If Redis is down the limits fail open: the
database, not the counter, is what must keep working during a Redis outage."""
from __future__ import annotations

import functools
import logging

import redis
from django.conf import settings
from django.http import HttpResponse
from django_ratelimit.core import is_ratelimited

from grailsite.errors import TooManyRequests
from grailsite.client_address import client_address

log = logging.getLogger(__name__)
MESSAGE = "Too many requests: wait a little and try again."


def _rate(group: str, scope: str) -> str | None:
    return settings.RATE_LIMITS.get(group, {}).get(scope)


def _over(request, group: str, scope: str, key: str) -> bool:
    rate = _rate(group, scope)
    if not rate:
        return False
    try:
        return is_ratelimited(request, group=f"{group}:{scope}", key=key, rate=rate,
                              method=is_ratelimited.ALL, increment=True)
    except (redis.RedisError, OSError) as exc:
        log.warning("rate limit counter unavailable, letting the request through: %r", exc)
        return False


def limited(request, group: str) -> bool:
    """Count this request against ``group``'s limits; True when one of them is exceeded."""
    if not settings.RATELIMIT_ENABLE:
        return False
    user = getattr(request, "user", None)
    by_user = user is not None and user.is_authenticated and _over(request, group, "user", "user")
    # No address (a test harness, a unix socket): nothing to count by. django-ratelimit's
    # "ip" key asks client_address too (settings.RATELIMIT_IP_META_KEY).
    by_address = client_address(request) is not None and _over(request, group, "ip", "ip")
    return by_user or by_address


def check(request, group: str) -> None:
    if limited(request, group):
        raise TooManyRequests(MESSAGE)


def ratelimit_view(group: str, *, methods: tuple[str, ...] = ("POST",)):
    """Limit a plain Django view (sign-up, log-in): over the limit, a 429 in words."""

    def decorate(view):
        @functools.wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method in methods and limited(request, group):
                return HttpResponse(MESSAGE, status=429, content_type="text/plain; charset=utf-8")
            return view(request, *args, **kwargs)

        return wrapper

    return decorate

