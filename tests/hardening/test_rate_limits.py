"""Rate limits (sliding windows, counted in Redis): per user and per address on moves and
chat, per address on sign-up and log-in. Each test uses addresses and users of its own, so
counters left by other tests in the same window never meet it."""
import uuid

import pytest

from tests.conftest import PASSWORD
from tests.hardening.conftest import assert_json_error, post_json

pytestmark = pytest.mark.django_db


def address() -> str:
    n = uuid.uuid4().int
    return f"10.{n % 250}.{(n >> 8) % 250}.{(n >> 16) % 250 + 1}"


def test_chat_is_limited_per_user(logged_in, make_match, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "chat": {"user": "3/m"}}
    match, (alice, bob) = make_match()
    client = logged_in(alice)
    sent = [post_json(client, f"/api/matches/{match.pk}/chat/", {"text": f"Ni {i}"}, REMOTE_ADDR=address())
            for i in range(4)]
    assert [r.status_code for r in sent[:3]] == [201, 201, 201]
    assert assert_json_error(sent[3], 429)["code"] == "rate_limited"
    other = post_json(logged_in(bob), f"/api/matches/{match.pk}/chat/", {"text": "Ni"}, REMOTE_ADDR=address())
    assert other.status_code == 201  # another person is not held back


def test_moves_are_limited_per_address_across_accounts(logged_in, make_match, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "move": {"ip": "2/m"}}
    match, (alice, bob) = make_match()
    ip = address()
    answers = []
    for user in (alice, bob, alice):
        match.refresh_from_db()
        seat = 0 if user == alice else 1
        move = {"type": "play", "card": match.state["hands"][seat][0]}
        answers.append(post_json(logged_in(user), f"/api/matches/{match.pk}/moves/",
                                 {"move": move, "version": match.version}, REMOTE_ADDR=ip).status_code)
    assert answers[:2] == [200, 200] and answers[2] == 429


def test_sign_up_and_log_in_are_limited_per_address(client, settings, make_user):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "signup": {"ip": "2/h"}, "login": {"ip": "3/m"}}
    ip = address()
    tries = [client.post("/accounts/signup/", {"username": f"knight{i}{uuid.uuid4().hex[:6]}"}, REMOTE_ADDR=ip)
             for i in range(3)]
    assert [t.status_code for t in tries] == [200, 200, 429]  # two refused forms, then the limit
    user = make_user()
    logins = [client.post("/accounts/login/", {"username": user.username, "password": "wrong"}, REMOTE_ADDR=ip)
              for _ in range(4)]
    assert [r.status_code for r in logins] == [200, 200, 200, 429]
    assert client.get("/accounts/login/", REMOTE_ADDR=ip).status_code == 200  # the form itself still shows


def test_the_admin_log_in_is_limited_with_the_site_s_by_the_client_s_address(client, settings, make_user):
    """150 wrong passwords from one address in 67 s, then the right one, signed in: the
    admin's log-in had no limit. It now counts against the site's log-in limit ("login"),
    by the address client_address reads (a forwarded header from an untrusted peer is the
    client's own words, so changing it changes nothing)."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "login": {"ip": "3/m"}}
    make_user("arthur", is_staff=True, is_superuser=True)
    ip = address()
    site = client.post("/accounts/login/", {"username": "arthur", "password": "wrong"}, REMOTE_ADDR=ip)
    assert site.status_code == 200
    tries = [client.post("/admin/login/", {"username": "arthur", "password": "wrong"}, REMOTE_ADDR=ip,
                         HTTP_X_FORWARDED_FOR=address()).status_code for _ in range(3)]
    assert tries == [200, 200, 429]
    right = client.post("/admin/login/?next=/admin/", {"username": "arthur", "password": PASSWORD}, REMOTE_ADDR=ip)
    assert right.status_code == 429
    assert "_auth_user_id" not in client.session
    assert client.get("/admin/login/", REMOTE_ADDR=ip).status_code == 200  # the form itself still shows
    # Another address is not held back.
    other = client.post("/admin/login/?next=/admin/", {"username": "arthur", "password": PASSWORD},
                        REMOTE_ADDR=address())
    assert other.status_code == 302 and client.session["_auth_user_id"]


# -- sliding windows --------------------------------------------------------------------------

def _admitted_in_bursts(monkeypatch, settings, rate: str, limit: int, gap: float, trials: int,
                        period: float) -> list[int]:
    """Two bursts of ``limit`` requests ``gap`` seconds apart, from one address, in
    ``trials`` trials long apart whose start moves a second further into the minute each
    time, so that one of them straddles any edge a window may have. How many of each
    trial's requests got through."""
    import time as time_module

    from django.test import RequestFactory

    from grailsite import ratelimits

    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "login": {"ip": rate}}
    request = RequestFactory().post("/accounts/login/", REMOTE_ADDR=address())
    request.user = None
    start = (int(time_module.time() // period) + 10) * period
    now = [start]
    monkeypatch.setattr(time_module, "time", lambda: now[0])
    admitted = []
    for trial in range(trials):
        passed = 0
        for offset in (0.0, gap):
            now[0] = start + trial * (3 * period + 1) + offset
            passed += sum(not ratelimits.limited(request, "login") for _ in range(limit))
        admitted.append(passed)
    return admitted


def test_a_burst_straddling_a_window_edge_gets_no_more_than_the_limit(monkeypatch, settings):
    """3 a minute: a burst of 3 and another a second later never both pass, wherever the
    second falls in the minute (fixed one-minute windows let one pair straddling an edge
    through: 6 in a second)."""
    admitted = _admitted_in_bursts(monkeypatch, settings, "3/m", 3, gap=1.0, trials=60, period=60)
    assert max(admitted) == 3 and min(admitted) == 3, admitted


def test_the_allowance_comes_back_a_window_and_a_slice_later(monkeypatch, settings):
    admitted = _admitted_in_bursts(monkeypatch, settings, "3/m", 3, gap=60 + 6, trials=3, period=60)
    assert admitted == [6, 6, 6]


def test_without_redis_the_same_windows_are_kept_in_memory(monkeypatch, settings):
    from grailsite import ratelimits

    monkeypatch.setattr(ratelimits, "_redis_client", lambda key: None)
    ratelimits.memory.clear()
    admitted = _admitted_in_bursts(monkeypatch, settings, "3/m", 3, gap=1.0, trials=60, period=60)
    assert max(admitted) == 3, admitted
    assert ratelimits.take("k", "2/10s", now=0.0) and ratelimits.take("k", "2/10s", now=5.0)
    assert not ratelimits.take("k", "2/10s", now=10.5)
    assert ratelimits.take("k", "2/10s", now=11.0)  # the first slice has gone out of the window


@pytest.mark.parametrize("rate, parsed", [("60/m", (60, 60.0)), ("30/h", (30, 3600.0)), ("5/10m", (5, 600.0)),
                                          ("100/s", (100, 1.0)), ("1000/d", (1000, 86400.0))])
def test_rates_read_as_count_per_window(rate, parsed):
    from grailsite import ratelimits

    assert ratelimits.parse_rate(rate) == parsed


def test_the_event_loop_counts_where_the_request_path_counts(settings, rf):
    """The API's moves on the loop (games/web/api_moves.py) count in the same windows as a
    request through Django: two on the loop, and Django's third is over a limit of two."""
    import asyncio
    from types import SimpleNamespace

    from grailsite import ratelimits

    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "move": {"user": "2/m"}}
    user_id = uuid.uuid4().int % 2**31
    assert [asyncio.run(ratelimits.limited_async(user_id, address(), "move")) for _ in range(2)] == [False, False]
    request = rf.post("/api/matches/1/moves/", REMOTE_ADDR=address())
    request.user = SimpleNamespace(pk=user_id, is_authenticated=True)
    assert ratelimits.limited(request, "move")
    assert asyncio.run(ratelimits.limited_async(user_id, address(), "move"))  # the window is full for the loop too


def test_the_event_loop_s_count_lets_moves_through_when_redis_is_down(settings, monkeypatch, caplog):
    import asyncio

    import redis

    from grailsite import ratelimits

    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "move": {"user": "1/m", "ip": "1/m"}}

    async def down(checks):
        raise redis.ConnectionError("Redis is down")
    monkeypatch.setattr(ratelimits, "_take_async", down)
    # A server an earlier test of this process started may have configured logging over
    # this logger (dictConfig disables the loggers it does not name, raises their levels, or
    # stops them short of the root): the capture listens on the logger itself, at WARNING.
    import logging

    monkeypatch.setattr(ratelimits.log, "disabled", False)
    monkeypatch.setattr(logging.root.manager, "disable", logging.NOTSET)
    caplog.set_level(logging.WARNING, logger=ratelimits.log.name)
    ratelimits.log.addHandler(caplog.handler)
    try:
        assert asyncio.run(ratelimits.limited_async(1, address(), "move")) is False
    finally:
        ratelimits.log.removeHandler(caplog.handler)
    assert "rate limit counter unavailable" in caplog.text
