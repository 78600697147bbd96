"""``/healthz``: the process answers (nothing else is asked). ``/readyz``: it can serve:
PostgreSQL answers, every Redis the site uses answers (the broker's, and each channel-layer
shard), and Celery beat's timer sweep ran within READY_SWEEP_MAX_AGE seconds (the sweep is
the guarantee behind every deadline, so a site whose beat stopped is not ready). The checks
are django-health-check's, the sweep's our own; a failing check answers 503.

The sweep writes when it last ran (``sweep_done``, from games/tasks.py's ``timers_sweep`` and
the embedded worker) into the cache: Redis when there is one, so every web process reads
what the one beat wrote.

``python -m grailsite.health sweep`` exits 0 when the sweep is fresh: beat's own healthcheck
in compose, where beat has no HTTP server to ask."""
from __future__ import annotations

import dataclasses
import datetime
import sys
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from health_check.base import HealthCheck
from health_check.checks import Database
from health_check.exceptions import ServiceUnavailable
from health_check.views import HealthCheckView

SWEEP_KEY = "health:timers-sweep"


def sweep_done(now: float | None = None) -> None:
    """Record that the timer sweep just ran. Never fails the sweep: readiness is told by
    the stamp going stale instead."""
    try:
        cache.set(SWEEP_KEY, now if now is not None else time.time(), timeout=None)
    except Exception:  # noqa: BLE001 - Redis down: /readyz says so through its own check
        pass


def sweep_age() -> float | None:
    """Seconds since the sweep last ran; None if it never did (as far as the cache knows)."""
    stamp = cache.get(SWEEP_KEY)
    return None if stamp is None else max(0.0, time.time() - float(stamp))


@dataclasses.dataclass
class TimerSweep(HealthCheck):
    """Beat's sweep ran lately."""

    timeout = datetime.timedelta(seconds=3)

    def run(self):
        age = sweep_age()
        if age is None:
            raise ServiceUnavailable("The timer sweep has not run.")
        if age > settings.READY_SWEEP_MAX_AGE:
            raise ServiceUnavailable(f"The timer sweep last ran {age:.0f} s ago.")


def _redis_checks() -> list:
    from health_check.contrib.redis import Redis
    from redis.asyncio import Redis as AsyncRedis

    urls = list(dict.fromkeys([u for u in (settings.REDIS_URL, *settings.REDIS_URLS) if u]))
    return [(Redis, {"client_factory": (lambda url=url: AsyncRedis.from_url(url, socket_connect_timeout=2,
                                                                              socket_timeout=2))})
            for url in urls]


class ReadyView(HealthCheckView):
    def get_checks(self):
        self.checks = [Database, *_redis_checks(), TimerSweep]
        return super().get_checks()

    async def get(self, request, *args, **kwargs):
        response = await super().get(request, *args, **kwargs)
        if response.status_code == 500:  # not ready, which is no server error
            response.status_code = 503
        return response


async def healthz(request):
    return HttpResponse("ok\n", content_type="text/plain")


readyz = ReadyView.as_view()


def main(argv: list[str]) -> int:
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "grailsite.settings")
    django.setup()
    if argv[1:] == ["sweep"]:
        age = sweep_age()
        print("never" if age is None else f"{age:.1f} s ago")
        return 0 if age is not None and age <= settings.READY_SWEEP_MAX_AGE else 1
    print("usage: python -m grailsite.health sweep", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
