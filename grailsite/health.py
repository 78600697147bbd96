"""The probes.

``/healthz``: the process answers (nothing else is asked): liveness.

``/readyz``: THIS process can serve: PostgreSQL answers, and every Redis it uses answers (the
broker's, and each channel-layer shard). Nothing shared by every web process is asked: a
balancer takes a process out when it is not ready, and a reason that holds for all of them
at once (beat's sweep running late, say) would take the whole site out, when pages can
still be served. The checks are django-health-check's; a failing one answers 503 and logs
one line (no traceback: grailsite/logs.py's ``OneLine``). Which check failed, and the hosts
and ports it asked, are shown only to the addresses allowed /metrics (METRICS_ALLOWED, the
client's address as grailsite/client_address.py reads it); anyone else gets the bare status.

``/sweepz``: beat's timer sweep ran within TIMERS_SWEEP_MAX_AGE seconds (the sweep is the
guarantee behind every deadline and computer move). Beat's health, not a web process's: it
is watched, never a reason to stop serving pages. Asked there, and at every /metrics scrape
(``grailsite_timers_sweep_age_seconds``), a late sweep writes a warning (at most one a
minute a process). ``python -m grailsite.health sweep`` exits 0 when the sweep is fresh:
beat's own healthcheck in compose, where beat has no HTTP server to ask.

The sweep writes when it last ran (``sweep_done``, from games/tasks.py's ``timers_sweep`` and
the embedded worker) into the cache: Redis when there is one, so every web process reads
what the one beat wrote."""
from __future__ import annotations

import logging
import sys
import time

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from health_check.checks import Database
from health_check.views import HealthCheckView

from grailsite import metrics

log = logging.getLogger(__name__)

SWEEP_KEY = "health:timers-sweep"
LATE_NOTE_SECONDS = 60  # a late sweep's warning, at most this often per process
_late_noted = float("-inf")


def sweep_done(now: float | None = None) -> None:
    """Record that the timer sweep just ran. Never fails the sweep: a stamp going stale is
    what tells."""
    try:
        cache.set(SWEEP_KEY, now if now is not None else time.time(), timeout=None)
    except Exception:  # noqa: BLE001 - Redis down: /readyz says so through its own check
        pass


def sweep_age() -> float | None:
    """Seconds since the sweep last ran; None if it never did (as far as the cache knows)."""
    stamp = cache.get(SWEEP_KEY)
    return None if stamp is None else max(0.0, time.time() - float(stamp))


def sweep_watch() -> tuple[float | None, bool]:
    """(the sweep's age, whether it is fresh): the metric set, a warning written when late
    (at most one a minute). Redis out of reach reads as never: /readyz says why."""
    global _late_noted
    try:
        age = sweep_age()
    except Exception:  # noqa: BLE001 - the cache's Redis is down
        age = None
    fresh = age is not None and age <= settings.TIMERS_SWEEP_MAX_AGE
    metrics.TIMERS_SWEEP_AGE.set(age if age is not None else float("inf"))
    now = time.monotonic()
    if not fresh and now - _late_noted >= LATE_NOTE_SECONDS:
        _late_noted = now
        log.warning("the timers' sweep is late: %s (more than %.0f s): deadlines and computer moves wait for it; "
                    "is Celery beat running?", "it never ran" if age is None else f"it last ran {age:.0f} s ago",
                    settings.TIMERS_SWEEP_MAX_AGE)
    return age, fresh


def _redis_checks() -> list:
    from health_check.contrib.redis import Redis
    from redis.asyncio import Redis as AsyncRedis

    urls = list(dict.fromkeys([u for u in (settings.REDIS_URL, *settings.REDIS_URLS) if u]))
    return [(Redis, {"client_factory": (lambda url=url: AsyncRedis.from_url(url, socket_connect_timeout=2,
                                                                              socket_timeout=2))})
            for url in urls]


def _status(ready: bool, words: tuple[str, str]) -> HttpResponse:
    return _said(HttpResponse(f"{words[0] if ready else words[1]}\n", status=200 if ready else 503,
                              content_type="text/plain; charset=utf-8"))


def _said(response: HttpResponse) -> HttpResponse:
    """A probe's 503 is logged where it is found (a check's line, a late sweep's warning):
    not once more by Django as a server error, on every probe."""
    response._has_been_logged = True
    return response


class ReadyView(HealthCheckView):
    def get_checks(self):
        self.checks = [Database, *_redis_checks()]
        return super().get_checks()

    async def get(self, request, *args, **kwargs):
        response = await super().get(request, *args, **kwargs)
        ready = response.status_code == 200
        if not metrics.allowed(request):
            return _status(ready, ("ready", "not ready"))
        if not ready:  # not ready, which is no server error
            response.status_code = 503
        return _said(response)


async def healthz(request):
    return HttpResponse("ok\n", content_type="text/plain")


readyz = ReadyView.as_view()


@never_cache
def sweepz(request):
    age, fresh = sweep_watch()
    if not metrics.allowed(request):
        return _status(fresh, ("ok", "late"))
    return _said(JsonResponse({"fresh": fresh, "age_seconds": None if age is None else round(age, 1),
                               "max_age_seconds": settings.TIMERS_SWEEP_MAX_AGE}, status=200 if fresh else 503))


def main(argv: list[str]) -> int:
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "grailsite.settings")
    django.setup()
    if argv[1:] == ["sweep"]:
        age, fresh = sweep_watch()
        print("never" if age is None else f"{age:.1f} s ago")
        return 0 if fresh else 1
    print("usage: python -m grailsite.health sweep", file=sys.stderr)
    return 2


def metrics_view(request):
    """django-prometheus's page, for the addresses of METRICS_ALLOWED only (``allowed``).
    Anyone else is told there is nothing here."""
    from django_prometheus.exports import ExportToDjangoView

    if not metrics.allowed(request):
        raise Http404()
    sweep_watch()  # the timers' sweep age, as of this scrape
    return ExportToDjangoView(request)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
