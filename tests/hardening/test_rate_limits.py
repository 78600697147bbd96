"""Rate limits (django-ratelimit, counted in Redis): per user and per address on moves and
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
