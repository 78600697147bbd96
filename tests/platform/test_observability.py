"""Health, metrics and logs: /healthz answers without asking anyone, /readyz asks
PostgreSQL and every Redis and says 503 when one fails, /metrics counts
the site's own events and answers only allowed addresses (the client's, as
grailsite/client_address.py reads it), and log lines are JSON with the ids that apply."""
from __future__ import annotations

import asyncio
import io
import json
import logging
import time

import pytest
from django.test import Client, override_settings
from prometheus_client import REGISTRY

from games import embedded_worker, tasks
from games.table import services
from grailsite import health, logs
from tests.platform.wsclient import communicator, next_state, session_cookie
from tests.conftest import seated_players_moved


def sample(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


# -- /healthz and /readyz ---------------------------------------------------------------------

@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_healthz_answers_without_asking_the_database(django_assert_num_queries):
    with django_assert_num_queries(0):
        response = Client().get("/healthz")
    assert response.status_code == 200 and response.content == b"ok\n"


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_readyz_is_ready_when_the_database_and_redis_answer():
    response = Client().get("/readyz", HTTP_ACCEPT="application/json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert any(k.startswith("Database") for k in body) and any(k.startswith("Redis") for k in body)
    assert set(body.values()) == {"OK"}


# A late sweep is /sweepz's news, never /readyz's: tests/hardening/test_probes.py.


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_readyz_is_not_ready_when_a_channel_layer_shard_is_down(unused_tcp_port):
    tasks.timers_sweep.run()
    from django.conf import settings

    down = f"redis://127.0.0.1:{unused_tcp_port}/0"
    with override_settings(REDIS_URLS=[settings.REDIS_URL, down]):
        response = Client().get("/readyz", HTTP_ACCEPT="application/json")
    assert response.status_code == 503
    failing = [k for k, v in response.json().items() if v != "OK"]
    assert failing and all(str(unused_tcp_port) in k for k in failing)


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_embedded_sweep_counts_as_beat_for_readiness():
    from django.core.cache import cache

    cache.delete(health.SWEEP_KEY)
    assert embedded_worker.sweep_once() == 0
    assert health.sweep_age() is not None and health.sweep_age() < 5


@pytest.fixture
def unused_tcp_port():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- /metrics ---------------------------------------------------------------------------------

@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("peer,forwarded,trusted,allowed", [
    ("127.0.0.1", None, [], True),
    ("10.1.2.3", None, [], False),
    ("10.1.2.3", "127.0.0.1", [], False),               # a client writing the header itself
    ("127.0.0.1", "10.1.2.3", ["127.0.0.1"], False),    # through the proxy from outside
    ("127.0.0.1", "127.0.0.1", ["127.0.0.1"], True),    # through the proxy from the host
])
def test_metrics_answer_only_allowed_addresses(peer, forwarded, trusted, allowed):
    extra = {"REMOTE_ADDR": peer} | ({"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {})
    with override_settings(TRUSTED_PROXIES=trusted, METRICS_ALLOWED=["127.0.0.1", "::1"]):
        response = Client().get("/metrics", **extra)
    assert response.status_code == (200 if allowed else 404)
    if allowed:
        assert b"grailsite_moves_applied_total" in response.content
        assert b"django_http_requests_total_by_method_total" in response.content
    else:
        assert b"grailsite_" not in response.content


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_moves_deadlines_and_reminders_are_counted(make_match):
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Seat

    match, users = make_match("duel")
    before = sample("grailsite_moves_applied_total", kind="duel", by="player")
    from games.table import selectors

    payload = selectors.match_payload(selectors.match_get(match.pk), users[0])
    mover = next(s["seat"] for s in payload["seats"] if s["to_act"])
    mine = selectors.match_payload(selectors.match_get(match.pk), users[mover])
    services.move_submit(match_id=match.pk, user=users[mover], move=mine["legal_moves"][0], version=mine["version"])
    assert sample("grailsite_moves_applied_total", kind="duel", by="player") == before + 1

    seated_players_moved(match)  # the late one has played too: a loss on time, made as the clock's move
    fired = sample("grailsite_deadline_timers_fired_total")
    late = sample("grailsite_deadline_lateness_seconds_count")
    seat = Seat.objects.filter(match=match).exclude(deadline=None).first()
    Seat.objects.filter(pk=seat.pk).update(deadline=timezone.now() - timedelta(seconds=3))
    assert services.deadline_expire(match_id=match.pk, seat_index=seat.index)
    assert sample("grailsite_deadline_timers_fired_total") == fired + 1
    assert sample("grailsite_deadline_lateness_seconds_count") == late + 1
    assert sample("grailsite_moves_applied_total", kind="duel", by="timeout") >= 1
    # Lateness is from the deadline: 3 s late lands above the 2 s bucket, within 5 s.
    assert sample("grailsite_deadline_lateness_seconds_bucket", le="2.0") < sample(
        "grailsite_deadline_lateness_seconds_bucket", le="5.0")


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_sockets_frames_and_pushes_are_counted(make_match):
    match, users = make_match("duel")
    cookies = [session_cookie(u) for u in users]

    async def scenario():
        comms = [communicator(f"/ws/matches/{match.pk}/", c) for c in cookies]
        for comm in comms:
            assert (await comm.connect())[0]
        open_now = sample("grailsite_sockets_open", consumer="MatchConsumer")
        views = [(await next_state(comm))[0] for comm in comms]
        frames = sample("grailsite_frames_sent_total")
        pushes = sample("grailsite_pushes_sent_total", type="match.frame")
        mover = next(i for i, v in enumerate(views) if v["legal_moves"])
        await comms[mover].send_json_to({"type": "move", "move": views[mover]["legal_moves"][0],
                                         "version": views[mover]["version"], "key": "m1"})
        await next_state(comms[1 - mover])
        for comm in comms:
            await comm.disconnect()
        await asyncio.sleep(0.1)
        return open_now, frames, pushes

    open_now, frames, pushes = asyncio.run(scenario())
    assert open_now >= 2
    assert sample("grailsite_sockets_open", consumer="MatchConsumer") == open_now - 2
    assert sample("grailsite_frames_sent_total") >= frames + 1
    assert sample("grailsite_pushes_sent_total", type="match.frame") >= pushes + 1


# -- logs -------------------------------------------------------------------------------------

@pytest.fixture
def json_lines():
    """Every line the request logger and the site's loggers write, as parsed JSON."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.JsonFormatter())
    handler.addFilter(logs.ContextFilter())
    loggers = [logging.getLogger(n) for n in ("grailsite.request", "games", "tests.observability")]
    saved = [(lg, lg.level) for lg in loggers]
    for lg in loggers:
        lg.addHandler(handler)
        lg.setLevel(logging.INFO)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    for lg, level in saved:
        lg.removeHandler(handler)
        lg.setLevel(level)


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_request_logs_one_json_line_with_its_request_user_and_match(make_match, json_lines):
    match, users = make_match("duel")
    client = Client()
    client.force_login(users[0])
    response = client.get(f"/games/{match.pk}/", HTTP_X_REQUEST_ID="nginx-abc123")
    assert response.status_code == 200 and response["X-Request-ID"] == "nginx-abc123"
    # The API's token path sets the user itself; a made-up id with odd characters is replaced.
    from grailsite.accounts.models import Profile

    Profile.objects.filter(user=users[1]).update(api_token="obs-token-1")
    api = Client().get(f"/api/matches/{match.pk}/", HTTP_AUTHORIZATION="Token obs-token-1",
                       HTTP_X_REQUEST_ID='bad"id\n')
    assert api.status_code == 200
    page, call = [line for line in json_lines() if line["logger"] == "grailsite.request"]
    assert page["request_id"] == "nginx-abc123" and page["user_id"] == users[0].pk
    assert page["match_id"] == match.pk and page["status"] == 200 and page["level"] == "INFO"
    assert call["user_id"] == users[1].pk and call["match_id"] == match.pk
    assert call["request_id"] == api["X-Request-ID"] and len(call["request_id"]) == 32


def test_a_line_without_ids_has_none_and_text_lines_stay_plain(json_lines):
    logging.getLogger("tests.observability").warning("nothing to do with a request")
    (line,) = json_lines()
    assert line["message"] == "nothing to do with a request" and line["level"] == "WARNING"
    assert not {"request_id", "user_id", "match_id"} & set(line), json.dumps(line)
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "plain", (), None)
    with logs.bound(match_id=7):
        logs.ContextFilter().filter(record)
    assert logs.TextFormatter("%(message)s").format(record) == "plain [match_id=7]"


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_celery_task_logs_with_its_id_and_match(make_match, json_lines, monkeypatch):
    match, _users = make_match("duel")

    def expire(**kwargs):
        logging.getLogger("games.tests").info("firing")
        return False
    monkeypatch.setattr(services, "deadline_expire", expire)
    result = tasks.deadline_fire.apply(args=(match.pk, 0, 1), task_id="task-42")
    assert result.successful()
    (line,) = [line for line in json_lines() if line["message"] == "firing"]
    assert line["request_id"] == "task-42" and line["match_id"] == match.pk


def test_uvicorn_log_config_is_the_sites():
    """grailsite/deploy/uvicorn-log.json is what logging_config makes (regenerate it so)."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "grailsite" / "deploy" / "uvicorn-log.json"
    assert json.loads(path.read_text()) == logs.logging_config("json", "INFO", True)
