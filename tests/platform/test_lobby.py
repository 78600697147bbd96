"""The lobby (games/players/lobby.py): open games filtered by kind, clock speed, rated, open seats;
sorted; friends' games first; paginated at a constant statement count per page."""
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.players import lobby
from games.table import services
from games.players import profiles as players
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def _ids(html: str) -> list[int]:
    section = html.split('data-testid="open-games"')[1].split("</ul>")[0] if 'data-testid="open-games"' in html else ""
    return [int(n) for n in re.findall(r'data-match="(\d+)"', section)]


def _open(creator, kind="podium", seats=2, **kw):
    return services.match_create(creator=creator, kind=kind, num_seats=seats, **kw)


def test_filters_by_kind_clock_rated_and_open_seats(client, make_user):
    a, b, c = make_user(), make_user(), make_user()
    podium_days = _open(a)
    podium_hours_unrated = _open(b, clock_kind="hours", clock_amount=2, rated=False)
    duel_minutes = _open(c, kind="duel", clock_kind="minutes", clock_amount=5)
    four_open = _open(a, seats=5, clock_kind="none", clock_amount=0)
    viewer = make_user()
    client.login(username=viewer.username, password=PASSWORD)

    def shown(**params):
        return set(_ids(client.get("/lobby/", params).content.decode()))

    assert shown() == {podium_days.pk, podium_hours_unrated.pk, duel_minutes.pk, four_open.pk}
    assert shown(kind="duel") == {duel_minutes.pk}
    assert shown(speed="hours") == {podium_hours_unrated.pk}
    assert shown(speed="minutes") == {duel_minutes.pk}
    assert shown(speed="days") == {podium_days.pk}
    assert shown(speed="none") == {four_open.pk}
    assert shown(rated="no") == {podium_hours_unrated.pk}
    assert shown(rated="yes") == {podium_days.pk, duel_minutes.pk, four_open.pk}
    assert shown(seats="4") == {four_open.pk}
    assert shown(seats="1", kind="podium", rated="yes") == {podium_days.pk}
    # Nonsense is ignored, never an error.
    assert client.get("/lobby/", {"kind": "chess", "seats": "x", "sort": "<b>", "page": "zz"}).status_code == 200


def test_sorted_as_asked_with_friends_games_first(client, make_user):
    a, b, friend = make_user(), make_user(), make_user()
    first = _open(a, clock_kind="days", clock_amount=3)
    second = _open(b, clock_kind="minutes", clock_amount=10, seats=3)
    third = _open(a, clock_kind="hours", clock_amount=1)
    viewer = make_user()
    client.login(username=viewer.username, password=PASSWORD)
    page = lambda **p: _ids(client.get("/lobby/", p).content.decode())  # noqa: E731
    assert page() == [third.pk, second.pk, first.pk]
    assert page(sort="oldest") == [first.pk, second.pk, third.pk]
    assert page(sort="fastest") == [second.pk, third.pk, first.pk]
    assert page(sort="fewest_open")[-1] == second.pk  # two open seats: furthest from starting
    friends_game = _open(friend, clock_kind="days", clock_amount=7)
    players.follow(user=viewer, name=friend.username)
    assert page(sort="oldest") == [friends_game.pk, first.pk, second.pk, third.pk]
    html = client.get("/lobby/").content.decode()
    assert 'data-testid="friend-game"' in html
    # A game where a friend sits, though another created it, counts as a friend's too.
    services.match_join(match_id=second.pk, user=friend)
    assert page(sort="oldest")[:2] == [second.pk, friends_game.pk]  # friends first, each part as asked


def test_paginated_with_a_constant_statement_count_per_page(client, make_user):
    viewer, friend = make_user(), make_user()
    players.follow(user=viewer, name=friend.username)
    client.login(username=viewer.username, password=PASSWORD)
    creators = [make_user() for _ in range(6)] + [friend]

    def cost(url):
        with CaptureQueriesContext(connection) as ctx:
            html = client.get(url).content.decode()
        return len(ctx.captured_queries), _ids(html)

    _open(creators[0])
    small, ids = cost("/lobby/")
    assert len(ids) == 1
    for n in range(lobby.PER_PAGE * 2 + 5):
        _open(creators[n % len(creators)], seats=2 + n % 3, kind=["podium", "duel"][n % 2] if n % 3 == 0 else "podium")
    first, ids1 = cost("/lobby/")
    third, ids3 = cost("/lobby/?page=3")
    filtered, _ = cost("/lobby/?kind=podium&sort=fastest&seats=2&page=2")
    assert len(ids1) == lobby.PER_PAGE and len(ids3) == 6
    assert small == first == third == filtered
    assert set(ids1).isdisjoint(ids3)


def test_the_lobby_never_offers_private_games_or_games_a_blocker_sits_at(client, make_user):
    alice, bob, carol = make_user(), make_user(), make_user()
    private = services.match_create(creator=alice, kind="podium", num_seats=2, invite=[carol.username],
                                    allow_spectators=False)
    public = _open(alice)
    mine = _open(bob)
    client.login(username=bob.username, password=PASSWORD)
    assert _ids(client.get("/lobby/").content.decode()) == [public.pk]  # not private, not my own
    players.block(user=alice, name=bob.username)
    assert _ids(client.get("/lobby/").content.decode()) == []
    client.logout()
    assert set(_ids(client.get("/lobby/").content.decode())) == {public.pk, mine.pk}
    assert private.pk not in _ids(client.get("/lobby/").content.decode())
