"""Access control over every URL and socket. The URL resolver is walked, not a list kept by
hand, so a new page or endpoint is covered the day it is added. Each address is asked for,
by GET and by POST, as: anonymous, a stranger, the owner or player, and (for a game without
spectators) a signed-in outsider; the status class must fit the visitor, and no answer to a
visitor may carry the private game's secret cards (it is a Secret Hand game)."""
import asyncio
import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from decks.models import Deck
from games.live.routing import websocket_urlpatterns
from tests.platform.wsclient import communicator, session_cookie
from tests.secret_game import secrets_of

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

PARAM = re.compile(r"<(?:(\w+):)?(\w+)>")
SKIP = ("media/", "admin/(?P", "admin/^")   # DEBUG-only file serving; admin's regex catch-alls
SAFE_FOR_ALL = {"home", "lobby", "card_search", "card_search_api", "api_game_kinds", "openapi-json", "login",
                "signup", "password_reset", "password_reset_done", "password_reset_complete", "logout",
                "password_reset_confirm", "card_detail", "card_face", "card_image"}


def routes():
    def walk(patterns, prefix=""):
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                yield prefix + str(p.pattern), p.name
    seen = set()
    for route, name in walk(get_resolver().url_patterns):
        if route.startswith(SKIP) or route in seen:
            continue
        seen.add(route)
        yield route, name


def fill(route: str, values: dict) -> str:
    return "/" + PARAM.sub(lambda m: str(values.get(m.group(2), values["default"])), route)


@pytest.fixture
def world(make_user, cards):
    from decks import services as deck_services
    from games.table import services
    owner, other, stranger = make_user("owner"), make_user("other"), make_user("stranger")
    staff = make_user("staff", is_staff=True, is_superuser=True)
    match = services.match_create(creator=owner, kind="secret", num_seats=2, invite=[other.username], seed=99,
                                  allow_spectators=False)
    services.match_join(match_id=match.pk, user=other)
    match.refresh_from_db()
    deck_services.starter_grant(user=owner)
    deck = Deck.objects.filter(owner=owner).first()
    values = {"match_id": match.pk, "id": match.pk, "pk": deck.pk, "number": 1, "code": "arthur", "action": "join",
              "object_id": 1, "uidb64": "MQ", "token": "set-password", "default": 1}
    return {"match": match, "deck": deck, "owner": owner, "stranger": stranger, "staff": staff, "values": values}


def client_for(user):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def secret_cards(match) -> list[str]:
    return secrets_of(match.state, None) + list(match.state["hands"][0]) + list(match.state["hands"][1])


def is_private(route: str) -> bool:
    return any(k in route for k in ("<int:match_id>", "<int:id>", "<int:pk>"))


def ask(client, method, url):
    if method == "get":
        return client.get(url)
    if "/api/" in url:
        return client.post(url, data="{}", content_type="application/json")
    return client.post(url, {})


def test_every_url_answers_each_visitor_as_it_should(world):
    match, values = world["match"], world["values"]
    hidden = secret_cards(match)
    visitors = {"anonymous": client_for(None), "stranger": client_for(world["stranger"]),
                "owner": client_for(world["owner"])}
    problems, asked = [], 0
    for route, name in routes():
        url = fill(route, values)
        for who, client in visitors.items():
            for method in ("get", "post"):
                response = ask(client, method, url)
                asked += 1
                status = response.status_code
                body = response.content.decode("utf-8", "replace") if not response.streaming else ""
                # /sweepz says 503 when beat's sweep is late: here no beat runs.
                not_ready = url.rstrip("/").endswith("sweepz") and status == 503
                if status >= 500 and not not_ready:
                    problems.append(f"{who} {method.upper()} {url}: {status}")
                    continue
                if who == "owner":
                    continue  # what a player's own requests may do is the other suites' business
                if route.startswith("admin/"):
                    if status == 200 and "login" not in response.request["PATH_INFO"] and \
                            'name="password"' not in body:
                        problems.append(f"{who} {method.upper()} {url}: admin answered {status}")
                    continue
                leaked = [card for card in hidden if card in body]
                if leaked:
                    problems.append(f"{who} {method.upper()} {url}: shows {leaked[:3]}")
                if is_private(route) and name not in SAFE_FOR_ALL and 200 <= status < 300:
                    problems.append(f"{who} {method.upper()} {url}: {status} for a private resource")
    assert asked > 300
    assert not problems, "\n".join(problems)


def test_a_private_game_is_unchanged_by_every_foreign_request(world):
    """After the walk above, as every visitor but the players: nothing was written."""
    match, values = world["match"], world["values"]
    before = (match.version, match.move_count, match.status)
    for who in (None, world["stranger"]):
        client = client_for(who)
        for route, _name in routes():
            if "<int:match_id>" in route or "<int:id>" in route:
                ask(client, "post", fill(route, values))
    match.refresh_from_db()
    assert (match.version, match.move_count, match.status) == before


def test_sockets_admit_players_and_refuse_outsiders(world):
    match = world["match"]
    cookies = {who: session_cookie(world[who]) for who in ("owner", "stranger")}
    assert {str(p.pattern) for p in websocket_urlpatterns} == {
        "ws/matches/<int:match_id>/", "ws/me/", "ws/presence/", "ws/tournaments/<int:tournament_id>/"}
    from games.tournaments import services as tournaments
    tournament = tournaments.tournament_create(organiser=world["owner"], kind="duel", format="swiss", rounds=1,
                                               max_players=2)

    async def opens(path, cookie) -> bool:
        ws = communicator(path, cookie)
        connected, _ = await ws.connect()
        if connected:
            await ws.disconnect()
        return connected

    async def scenario():
        game = f"/ws/matches/{match.pk}/"
        assert await opens(game, cookies["owner"])
        assert not await opens(game, cookies["stranger"])
        assert not await opens(game, None)
        assert await opens("/ws/me/", cookies["stranger"])
        assert not await opens("/ws/me/", None)
        assert await opens("/ws/presence/", cookies["stranger"])  # only the people one follows
        assert not await opens("/ws/presence/", None)
        # A tournament's entries and results are public: anyone may hear that they changed.
        assert await opens(f"/ws/tournaments/{tournament.pk}/", None)
        assert not await opens(f"/ws/tournaments/{tournament.pk + 1000}/", cookies["owner"])

    asyncio.run(scenario())
