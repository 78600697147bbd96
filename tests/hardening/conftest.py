"""Fixtures of the standing hardening suite: clients as each kind of visitor, and a game
that refuses spectators (the strictest case for access control)."""
import json
import secrets

import pytest
from django.test import Client

from decks import cardformat
from decks import services as deck_services
from decks.models import Card
from grailsite.accounts.models import Profile


def post_json(client, url, body, **extra):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(url, data=data, content_type="application/json", **extra)


def assert_json_error(response, status: int):
    """A refusal in the one documented shape, with a message for a person."""
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    error = response.json()["error"]
    assert error["code"] and error["message"], error
    return error


@pytest.fixture
def logged_in():
    def make(user):
        client = Client()
        client.force_login(user)
        return client
    return make


@pytest.fixture
def api_token():
    """An API token for a user (bots' way in: no CSRF)."""
    def make(user) -> str:
        token = secrets.token_hex(20)
        Profile.objects.update_or_create(user=user, defaults={"api_token": token})
        return token
    return make


@pytest.fixture
def cards(db):
    """The starter set (a transactional test elsewhere may have flushed it)."""
    if not Card.objects.exists():
        deck_services.cards_upsert(cards=cardformat.starter_set(), source="test")


@pytest.fixture
def private_game(make_match, make_user):
    """(match, players, stranger) of a started duel without spectators."""
    match, players = make_match(allow_spectators=False)
    return match, players, make_user()


@pytest.fixture
def live_asgi():
    """The site's ASGI application served by a real uvicorn on a free port, in a thread of
    this process (so its log records reach caplog): what a browser's socket meets, down to
    the server's own "Exception in ASGI application". Yields the base URL (http://...)."""
    import socket
    import threading
    import time

    import uvicorn

    from grailsite.asgi import application

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(application, host="127.0.0.1", port=port, log_config=None,
                                           lifespan="off", ws_per_message_deflate=False))
    thread = threading.Thread(target=server.run, name="live-asgi", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
