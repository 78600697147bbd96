"""The site's own Prometheus metrics, beside django-prometheus's request metrics, and the
``/metrics`` page, which answers only the addresses of METRICS_ALLOWED.

Several processes on one host (``make prod``: two web processes, two workers, beat) share
one ``PROMETHEUS_MULTIPROC_DIR``: each writes its own files there, and any web process's
``/metrics`` adds them all up, so one scrape of the host sees every process, and a counter
keeps what a restarted process had counted. Without the variable (tests, ``make run``)
each process keeps its own in memory. A gauge (open sockets) counts live processes only:
``forget_dead_processes`` drops the files of processes that are gone when a new one starts.

A Celery worker in a container of its own (compose) has no web process beside it to read
its files: with METRICS_PORT set it serves them itself (grailsite/celery.py).
"""
from __future__ import annotations

import ipaddress
import os
from pathlib import Path

from django.conf import settings
from prometheus_client import Counter, Gauge, Histogram

MOVES = Counter("grailsite_moves_applied_total", "Moves applied and committed, by game kind and by whom",
                ["kind", "by"])
FRAMES = Counter("grailsite_frames_sent_total", "Frames (whole states and changes) sent on game sockets")
SOCKETS = Gauge("grailsite_sockets_open", "Websockets open, by consumer", ["consumer"], multiprocess_mode="livesum")
TIMERS = Counter("grailsite_deadline_timers_fired_total", "Turn deadlines fired (the rules' timeout move made)")
LATENESS = Histogram("grailsite_deadline_lateness_seconds", "How long after its deadline a timeout move was made",
                     buckets=(0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900, float("inf")))
REMINDERS = Counter("grailsite_reminders_sent_total", "Reminders sent: deadline warnings and notification e-mails",
                    ["kind"])
PUSHES = Counter("grailsite_pushes_sent_total", "Group messages published to the channel layer, by type", ["type"])
WEB_PUSHES = Counter("grailsite_web_pushes_total", "Web Push deliveries tried (games/inbox/push.py), by outcome",
                     ["outcome"])
WEB_PUSH_PAUSES = Counter("grailsite_web_push_endpoint_pauses_total",
                          "Push endpoints paused after failing too many times in a row (games/inbox/push.py)")
TIMERS_SWEEP_AGE = Gauge("grailsite_timers_sweep_age_seconds",
                         "Seconds since Celery beat's timer sweep last ran, as a web process read it at the scrape "
                         "(+Inf: never); alert when above TIMERS_SWEEP_MAX_AGE", multiprocess_mode="mostrecent")


def moved(kind: str, by: str) -> None:
    MOVES.labels(kind, by).inc()


def deadline_fired(late_seconds: float) -> None:
    TIMERS.inc()
    LATENESS.observe(max(0.0, late_seconds))


def pushed(messages) -> None:
    """Count published group messages ((group, message) pairs)."""
    for _group, message in messages:
        PUSHES.labels(message.get("type", "?")).inc()


def forget_dead_processes() -> None:
    """Drop the live-gauge files of processes that are gone (a restarted web process's old
    socket count), so the sum is of processes that still run."""
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not directory:
        return
    from prometheus_client import multiprocess

    for path in Path(directory).glob("gauge_live*_*.db"):
        pid = path.stem.rsplit("_", 1)[-1]
        if pid.isdigit() and not _alive(int(pid)):
            multiprocess.mark_process_dead(int(pid), directory)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def allowed(request) -> bool:
    """Whether this request comes from an address of METRICS_ALLOWED: the client's address as
    grailsite/client_address.py reads it (the proxy's X-Forwarded-For only when the proxy is
    trusted), so a client cannot get in by writing the header itself."""
    from grailsite.client_address import client_address

    return _allowed(client_address(request))


def _allowed(address: str | None) -> bool:
    if address is None:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip.version == net.version and ip in net
               for net in (ipaddress.ip_network(n, strict=False) for n in settings.METRICS_ALLOWED))


def serve_on_port(port: int) -> None:
    """Serve this host's metrics (every process's files) on ``port``: a Celery worker's."""
    from prometheus_client import CollectorRegistry, REGISTRY, multiprocess, start_http_server

    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = REGISTRY
    start_http_server(port, registry=registry)
