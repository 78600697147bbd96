"""The CCG's response-window preset endpoint: ``preset`` sent as a list
or an object answered a 500 HTML page, for any signed-in user on any game. It is now an
operation of the typed API like the others: a body of the wrong shape is a JSON 400 naming
the field, and only the players of that CCG game are answered (a stranger 403, a game that
is not a CCG game 404, nobody signed in 401)."""
from __future__ import annotations

import pytest

from decks import services as deck_services
from decks.models import Deck
from games.table import services
from tests.hardening.conftest import assert_json_error, post_json

pytestmark = pytest.mark.django_db


@pytest.fixture
def ccg_game(make_user, cards):
    """(match, player, stranger) of a started CCG game between two people."""
    alice, bob, stranger = make_user(), make_user(), make_user()
    decks = {}
    for user in (alice, bob):
        deck_services.starter_grant(user=user)
        decks[user] = {"deck": Deck.objects.filter(owner=user).order_by("id").first().pk}
    match = services.match_create(creator=alice, kind="ccg", num_seats=2, invite=[bob.username], seed=5,
                                  creator_choice=decks[alice])
    services.match_join(match_id=match.pk, user=bob, choice=decks[bob])
    return match, bob, stranger


def url(match_id) -> str:
    return f"/api/matches/{match_id}/ccg/preset/"


@pytest.mark.parametrize("body", [
    {"preset": ["always_pass"]}, {"preset": {"always_pass": True}}, {"preset": {}}, {"preset": []},
    {"preset": "x" * 20_000}, {}, {"preset": None}, {"preset": 1}, {"preset": True}, {"preset": "sometimes"},
    ["always_pass"], "always_pass",
], ids=["list", "object", "empty object", "empty list", "huge", "absent", "null", "number", "bool", "unknown word",
        "body a list", "body a string"])
def test_a_preset_of_the_wrong_shape_is_a_json_400(ccg_game, logged_in, body):
    match, player, _stranger = ccg_game
    error = assert_json_error(post_json(logged_in(player), url(match.pk), body), 400)
    assert len(error["message"]) < 500, "the answer names the problem, it does not echo the input"
    assert match.seats.get(user=player).choice.get("preset", "ask") == "ask"


def test_only_the_games_players_are_answered(ccg_game, logged_in, make_match, client):
    match, player, stranger = ccg_game
    assert_json_error(logged_in(stranger).get(url(match.pk)), 403)
    assert_json_error(post_json(logged_in(stranger), url(match.pk), {"preset": "always_pass"}), 403)
    assert_json_error(post_json(logged_in(stranger), url(match.pk), {"preset": ["always_pass"]}), 400)
    assert_json_error(client.get(url(match.pk)), 401)
    assert_json_error(post_json(client, url(match.pk), {"preset": "always_pass"}), 401)
    assert_json_error(logged_in(player).get(url(10**12)), 404)
    duel, (duelist, _) = make_match()
    assert_json_error(logged_in(duelist).get(url(duel.pk)), 404)
    assert_json_error(post_json(logged_in(duelist), url(duel.pk), {"preset": "always_pass"}), 404)
    assert match.seats.get(user=player).choice.get("preset", "ask") == "ask"
    # The player is answered, and the change is theirs alone.
    answer = post_json(logged_in(player), url(match.pk), {"preset": "always_pass"})
    assert answer.status_code == 200 and answer.json() == {"preset": "always_pass"}
    assert logged_in(player).get(url(match.pk)).json() == {"preset": "always_pass"}


def test_the_preset_operation_is_in_the_api_document(client):
    paths = client.get("/api/schema/").json()["paths"]
    operation = paths["/api/matches/{id}/ccg/preset/"]
    assert {"get", "post"} <= set(operation)
