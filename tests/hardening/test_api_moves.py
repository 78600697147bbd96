"""The API's token moves answered on the event loop (games/web/api_moves.py) answer as
Django's operation does: the same status, body and headers, for a move made and for each
refusal; anything that path does not answer (no token, an unknown one, a body the API
refuses, a query) reaches Django unchanged. Through a real uvicorn, as a bot meets it."""
import json
import uuid

import httpx
import pytest

from games.models import MoveRecord
from games.web import api_moves

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

# Headers that differ between any two answers (the moment, the request's own id, the size).
_VARYING = {"date", "x-request-id", "content-length"}


def _post(base: str, match_id, body, token: str | None = None, *, path: str | None = None, ip: str | None = None):
    headers = {"Authorization": f"Token {token}"} if token else {}
    if ip:
        headers["X-Forwarded-For"] = ip
    return httpx.post(f"{base}{path or f'/api/matches/{match_id}/moves/'}", json=body, headers=headers, timeout=10)


def _both(base: str, settings, *args, **kwargs):
    """(Django's answer, the loop's answer) to the same request; the loop's must be its own."""
    settings.API_MOVES_ON_LOOP = False
    before = api_moves.counts["answered"]
    django = _post(base, *args, **kwargs)
    assert api_moves.counts["answered"] == before
    settings.API_MOVES_ON_LOOP = True
    loop = _post(base, *args, **kwargs)
    assert api_moves.counts["answered"] == before + 1, "the loop did not answer it"
    return django, loop


def _same(django, loop) -> None:
    assert loop.status_code == django.status_code, (loop.status_code, loop.text, django.status_code, django.text)
    assert loop.content == django.content
    assert {k: v for k, v in loop.headers.items() if k not in _VARYING} == \
        {k: v for k, v in django.headers.items() if k not in _VARYING}
    assert loop.headers["x-request-id"] and loop.headers["content-length"] == str(len(loop.content))


def _card(match, seat: int):
    match.refresh_from_db()
    return {"type": "play", "card": match.state["hands"][seat][0]}


def test_a_token_move_is_made_in_a_batch_and_answered_as_django_answers_it(live_asgi, make_match, api_token,
                                                                           settings):
    assert api_moves.available()
    match, (alice, bob) = make_match()
    tokens = api_token(alice), api_token(bob)
    settings.API_MOVES_ON_LOOP = False
    django = _post(live_asgi, match.pk, {"move": _card(match, 0), "version": match.version}, tokens[0])
    settings.API_MOVES_ON_LOOP = True
    before = api_moves.counts["answered"]
    loop = _post(live_asgi, match.pk, {"move": _card(match, 1), "version": match.version, "key": "bot-1"}, tokens[1])
    assert api_moves.counts["answered"] == before + 1
    assert loop.status_code == django.status_code == 200
    assert set(loop.json()) == set(django.json()) == {"version", "seq", "repeated"}
    assert {k: v for k, v in loop.headers.items() if k not in _VARYING} == \
        {k: v for k, v in django.headers.items() if k not in _VARYING}
    assert loop.headers["x-frame-options"] == "DENY" and loop.headers["x-content-type-options"] == "nosniff"
    records = list(MoveRecord.objects.filter(match=match).order_by("seq").values_list("user_id", "key"))
    assert [r[0] for r in records] == [alice.id, bob.id] and records[1][1] == "bot-1"
    # The same key again: the first answer, nothing made twice.
    again = _post(live_asgi, match.pk, {"move": _card(match, 1), "version": match.version, "key": "bot-1"},
                  tokens[1])
    assert again.status_code == 200 and again.json() == {**loop.json(), "repeated": True}
    assert MoveRecord.objects.filter(match=match).count() == 2


def test_a_personal_token_that_may_play_moves_on_the_loop_and_one_that_may_only_read_is_django_s(
        live_asgi, make_match, settings):
    from grailsite.accounts import tokens
    from grailsite.accounts.models import ApiToken

    match, (alice, bob) = make_match()
    player, key = tokens.token_create(user=alice, name="my bot", scopes=["read", "play"])
    _, reader = tokens.token_create(user=bob, name="watcher", scopes=["read"])
    settings.API_MOVES_ON_LOOP = True
    before = api_moves.counts["answered"]
    made = _post(live_asgi, match.pk, {"move": _card(match, 0), "version": match.version}, key)
    assert made.status_code == 200, made.text
    assert api_moves.counts["answered"] == before + 1
    assert ApiToken.objects.get(pk=player.pk).last_used_at is not None  # as Django's path marks it
    settings.API_MOVES_ON_LOOP = False
    django = _post(live_asgi, match.pk, {"move": _card(match, 1), "version": made.json()["version"]}, reader)
    settings.API_MOVES_ON_LOOP = True
    loop = _post(live_asgi, match.pk, {"move": _card(match, 1), "version": made.json()["version"]}, reader)
    assert api_moves.counts["answered"] == before + 1  # the read-only token's move went to Django
    _same(django, loop)
    assert loop.status_code == 403 and "play" in loop.json()["error"]["message"]
    assert MoveRecord.objects.filter(match=match).count() == 1


def test_refusals_are_django_s_word_for_word(live_asgi, make_match, make_user, api_token, settings):
    match, (alice, bob) = make_match()
    token, stranger = api_token(alice), api_token(make_user())
    move = _card(match, 0)
    # Stale (a version from the future), not in the hand, not a player, no such game.
    _same(*_both(live_asgi, settings, match.pk, {"move": move, "version": match.version + 5}, token))
    _same(*_both(live_asgi, settings, match.pk, {"move": {"type": "play", "card": "nothing"}}, token))
    _same(*_both(live_asgi, settings, match.pk, {"move": move}, stranger))
    _same(*_both(live_asgi, settings, 2**62, {"move": move}, token))
    assert MoveRecord.objects.filter(match=match).count() == 0


def test_the_move_limit_counts_on_the_loop_as_in_django(live_asgi, make_match, api_token, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "move": {"user": "1/m"}}
    match, (alice, bob) = make_match()
    token = api_token(bob)
    first = _post(live_asgi, match.pk, {"move": {"type": "play", "card": "nothing"}}, token)
    assert first.status_code == 422  # refused by the rules, but counted
    settings.API_MOVES_ON_LOOP = False
    django = _post(live_asgi, match.pk, {"move": _card(match, 1)}, token)
    settings.API_MOVES_ON_LOOP = True
    loop = _post(live_asgi, match.pk, {"move": _card(match, 1)}, token)
    _same(django, loop)
    assert loop.status_code == 429 and loop.json()["error"]["code"] == "rate_limited"


@pytest.mark.parametrize("case", ["no token", "unknown token", "not an object", "unknown field type", "query",
                                  "nested"])
def test_what_the_loop_does_not_answer_reaches_django(live_asgi, make_match, api_token, settings, case):
    match, (alice, _) = make_match()
    token = api_token(alice)
    body, path = {"move": _card(match, 0)}, None
    if case == "no token":
        token = None
    elif case == "unknown token":
        token = uuid.uuid4().hex
    elif case == "not an object":
        body = {"move": "play"}
    elif case == "unknown field type":
        body = {"move": _card(match, 0), "version": "3"}
    elif case == "query":
        path = f"/api/matches/{match.pk}/moves/?x=1"
    elif case == "nested":
        body = {"move": _card(match, 0), "deep": json.loads("[" * 20 + "1" + "]" * 20)}
    settings.API_MOVES_ON_LOOP = False
    django = _post(live_asgi, match.pk, body, token, path=path)
    settings.API_MOVES_ON_LOOP = True
    before = api_moves.counts["answered"]
    loop = _post(live_asgi, match.pk, body, token, path=path)
    assert api_moves.counts["answered"] == before
    if case == "query":  # made by Django both times: the second finds the card played
        assert django.status_code == 200 and MoveRecord.objects.filter(match=match).count() == 1
        return
    _same(django, loop)
    assert loop.status_code in (400, 401, 422), loop.text
