"""The JSON API: clear 4xx errors for bad input, nothing written."""
import json

import pytest

from games.models import Match, MoveRecord
from tests.conftest import PASSWORD


@pytest.fixture
def client_for(client):
    def login(user):
        client.force_login(user)
        return client
    return login


def post(client, url, body, **extra):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(url, data=data, content_type="application/json", **extra)


def test_full_flow_over_the_api(client_for, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    c = client_for(alice)
    created = post(c, "/api/matches/", {"kind": "duel", "seats": 2, "invite": ["bob"],
                                        "clock": {"kind": "hours", "amount": 6}})
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    c.force_login(bob)
    assert post(c, f"/api/matches/{match_id}/join/", {}).status_code == 200
    c.force_login(alice)
    data = c.get(f"/api/matches/{match_id}/").json()
    assert data["status"] == "active" and data["my_seat"] == 0 and data["legal_moves"]
    moved = post(c, f"/api/matches/{match_id}/moves/", {"move": data["legal_moves"][0], "version": data["version"],
                                                         "key": "abc"})
    assert moved.status_code == 200 and moved.json()["seq"] == 1
    listing = c.get("/api/matches/").json()["matches"]
    assert [m["id"] for m in listing] == [match_id]


@pytest.mark.parametrize("body,status,code", [
    ("{not json", 400, "bad_request"),
    ("[1, 2]", 400, "bad_request"),
    ({"version": 1}, 400, "bad_request"),
    ({"move": {"type": "teleport"}}, 422, "illegal_move"),
    ({"move": "play"}, 400, "bad_request"),  # not an object: refused by the schema
    ({"move": {"type": "play", "card": 0}, "version": "x"}, 400, "bad_request"),
    ({"move": {"type": "play", "card": 0}, "version": 0}, 409, "stale"),
    ({"move": {"type": "play", "card": 0}, "key": "k" * 65}, 400, "bad_request"),
])
def test_bad_move_requests_get_clear_errors_and_write_nothing(client_for, make_match, body, status, code):
    match, (alice, _) = make_match()
    response = post(client_for(alice), f"/api/matches/{match.pk}/moves/", body)
    assert response.status_code == status, response.content
    assert response.json()["error"]["code"] == code
    assert response.json()["error"]["message"]
    assert not MoveRecord.objects.filter(match=match).exists()


def test_moves_out_of_turn_and_in_other_peoples_games(client_for, make_match, make_user):
    match, (alice, bob) = make_match()
    move = {"type": "play", "card": match.state["hands"][1][0]}
    r = post(client_for(bob), f"/api/matches/{match.pk}/moves/", {"move": move})
    assert r.status_code == 422 and "not your turn" in r.json()["error"]["message"]
    r = post(client_for(make_user()), f"/api/matches/{match.pk}/moves/", {"move": move})
    assert r.status_code == 403
    assert post(client_for(alice), "/api/matches/999999/moves/", {"move": move}).status_code == 404


def test_anonymous_writes_are_refused(client, make_match):
    match, _ = make_match()
    r = post(client, f"/api/matches/{match.pk}/moves/", {"move": {"type": "play", "card": 1}})
    assert r.status_code == 401


def test_session_writes_need_the_csrf_token(make_match):
    from django.test import Client

    match, (alice, _) = make_match()
    c = Client(enforce_csrf_checks=True)
    c.force_login(alice)
    r = post(c, f"/api/matches/{match.pk}/chat/", {"text": "hello"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf"


def test_api_token_lets_a_bot_play_without_csrf(make_match):
    from django.test import Client

    from grailsite.accounts.models import Profile

    match, (alice, _) = make_match()
    Profile.objects.filter(user=alice).update(api_token="bot-token-1")
    c = Client(enforce_csrf_checks=True)
    move = {"type": "play", "card": match.state["hands"][0][0]}
    r = post(c, f"/api/matches/{match.pk}/moves/", {"move": move}, HTTP_AUTHORIZATION="Token bot-token-1")
    assert r.status_code == 200, r.content
    r = post(c, f"/api/matches/{match.pk}/moves/", {"move": move}, HTTP_AUTHORIZATION="Token wrong")
    assert r.status_code == 401


def test_wrong_methods_and_bad_creation(client_for, make_user):
    c = client_for(make_user())
    assert c.delete("/api/matches/").status_code == 405
    r = post(c, "/api/matches/", {"kind": "duel", "seats": "two"})
    assert r.status_code == 400 and "seats" in r.json()["error"]["message"]
    r = post(c, "/api/matches/", {"kind": "duel", "seats": 2, "invite": "bob"})
    assert r.status_code == 400
    assert not Match.objects.exists()


def test_chat_is_bounded_and_escaped_in_html(client_for, make_match):
    match, (alice, _) = make_match()
    c = client_for(alice)
    assert post(c, f"/api/matches/{match.pk}/chat/", {"text": "x" * 501}).status_code == 400
    assert post(c, f"/api/matches/{match.pk}/chat/", {"text": "<script>alert(1)</script>"}).status_code == 201
    page = c.get(f"/games/{match.pk}/").content.decode()
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert c.get(f"/api/matches/{match.pk}/chat/").json()["messages"][0]["text"] == "<script>alert(1)</script>"


def test_private_games_are_closed_to_spectators(client, make_match, make_user):
    match, _ = make_match(allow_spectators=False)
    assert client.get(f"/api/matches/{match.pk}/").status_code == 403
    client.force_login(make_user())
    assert client.get(f"/games/{match.pk}/").status_code == 404


def test_schema_and_kinds_are_published(client):
    schema = client.get("/api/schema/").json()
    assert schema["openapi"].startswith("3.") and "/api/matches/{id}/moves/" in schema["paths"]
    kinds = {g["kind"] for g in client.get("/api/games/").json()["games"]}
    assert "duel" in kinds


def test_an_invited_player_reaches_a_private_game_to_answer(client, make_user):
    from games.table import services

    alice, bob, carol = make_user(), make_user(), make_user()
    match = services.match_create(creator=alice, kind="duel", num_seats=2, invite=[bob.username],
                                  allow_spectators=False)
    client.force_login(bob)
    page = client.get(f"/games/{match.pk}/")
    assert page.status_code == 200 and 'data-testid="join"' in page.content.decode()
    client.force_login(carol)
    assert client.get(f"/games/{match.pk}/").status_code == 404
