"""Personal API tokens: made and revoked on the settings' tokens page, shown once, kept as a
digest, with scopes that say what a program may do."""
from __future__ import annotations

import re

from django.test import Client

from grailsite.accounts import tokens
from grailsite.accounts.models import ApiToken
from tests.conftest import PASSWORD


def test_a_token_is_made_shown_once_kept_hashed_and_revoked(make_user, make_match):
    alice = make_user()
    match, _ = make_match(users=[alice, make_user()])
    page = Client()
    page.login(username=alice.username, password=PASSWORD)
    assert "api-tokens" in page.get("/accounts/settings/").content.decode()
    made = page.post("/accounts/settings/tokens/", {"name": "my bot", "scope_read": "1", "scope_play": "1"}).content.decode()
    key = re.search(r'data-testid="new-token-key">(gb_[A-Za-z0-9_-]+)<', made).group(1)
    row = ApiToken.objects.get(user=alice)
    assert row.digest == tokens.digest(key) and key not in (row.digest, row.prefix) and key.startswith(row.prefix)
    assert not ApiToken.objects.filter(digest=key).exists()
    assert key not in page.get("/accounts/settings/tokens/").content.decode()  # once only
    bot = Client(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert bot.get(f"/api/matches/{match.pk}/").json()["my_seat"] == 0
    page.post("/accounts/settings/tokens/", {"revoke": str(row.pk)})
    answer = bot.get(f"/api/matches/{match.pk}/")
    assert answer.status_code == 401 and answer.json()["error"]["code"] == "unauthenticated"


def test_scopes_say_what_a_token_may_do(make_user, make_match):
    alice, bob = make_user(), make_user()
    match, _ = make_match(users=[alice, bob])
    _t, reader = tokens.token_create(user=alice, name="reader", scopes=["read"])
    _t, player = tokens.token_create(user=alice, name="player", scopes=["play"])
    move = {"move": {"type": "draw"}, "version": match.version, "key": "k1"}
    read_only = Client(HTTP_AUTHORIZATION=f"Bearer {reader}")
    assert read_only.get(f"/api/matches/{match.pk}/").status_code == 200
    refused = read_only.post(f"/api/matches/{match.pk}/moves/", move, content_type="application/json")
    assert refused.status_code == 403 and refused.json()["error"] == {
        "code": "scope", "message": "This token lacks the 'play' scope."}
    play_only = Client(HTTP_AUTHORIZATION=f"Bearer {player}")
    assert play_only.get(f"/api/matches/{match.pk}/").json()["error"]["code"] == "scope"
    legal = read_only.get(f"/api/matches/{match.pk}/").json()["legal_moves"]
    answer = play_only.post(f"/api/matches/{match.pk}/moves/", {**move, "move": legal[0]},
                            content_type="application/json")
    assert answer.status_code == 200, answer.content


def test_tokens_are_checked_when_made(make_user):
    alice = make_user()
    for name, scopes, why in [("", ["read"], "Name the token"), ("x", [], "scopes"), ("x", ["admin"], "scopes")]:
        try:
            tokens.token_create(user=alice, name=name, scopes=scopes)
        except Exception as exc:  # noqa: BLE001 - the message is the point
            assert why in str(exc)
        else:
            raise AssertionError(f"made a token named {name!r} with {scopes}")
    for i in range(tokens.MAX_TOKENS):
        tokens.token_create(user=alice, name=f"t{i}", scopes=["read"])
    try:
        tokens.token_create(user=alice, name="one more", scopes=["read"])
    except Exception as exc:  # noqa: BLE001
        assert "at most" in str(exc)
    else:
        raise AssertionError("made more tokens than an account keeps")


def test_a_move_refused_says_why_and_a_limit_says_how_long_to_wait(make_user, make_match, settings):
    alice, bob = make_user(), make_user()
    match, _ = make_match(users=[alice, bob])
    _t, key = tokens.token_create(user=alice, name="bot", scopes=["read", "play"])
    bot = Client(HTTP_AUTHORIZATION=f"Bearer {key}")
    url = f"/api/matches/{match.pk}/moves/"
    stale = bot.post(url, {"move": {"type": "x"}, "version": match.version - 1, "key": "a"}, content_type="application/json")
    assert stale.status_code in (409, 422) and stale.json()["error"]["message"]
    illegal = bot.post(url, {"move": {"type": "fly"}, "version": match.version, "key": "b"},
                       content_type="application/json")
    assert illegal.status_code == 422 and illegal.json()["error"]["code"] == "illegal_move"
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "move": {"user": "2/m"}}
    answers = [bot.post(url, {"move": {"type": "fly"}, "version": match.version, "key": f"c{i}"},
                        content_type="application/json") for i in range(3)]
    assert answers[2].status_code == 429
    assert answers[2]["Retry-After"] == "6" and answers[2].json()["error"]["retry_after"] == 6
