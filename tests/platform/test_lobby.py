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


def _running_fluxx(make_user, seats=2, **kw):
    players_ = [make_user() for _ in range(seats)]
    match = services.match_create(creator=players_[0], kind="fluxx", num_seats=seats,
                                  invite=[u.username for u in players_[1:]], **kw)
    for user in players_[1:]:
        services.match_join(match_id=match.pk, user=user)
    match.refresh_from_db()
    assert match.status == "active"
    return match, players_


def test_a_game_under_way_that_takes_newcomers_is_offered_with_the_open_ones(client, make_user):
    """A Fluxx game with late joiners is listed among the open games (and by the Fluxx
    filter), marked under way, with a Join button that seats the viewer; one without late
    joiners, a full table, a private one, and one the viewer sits at or was blocked from are
    not."""
    taking, (alice, _) = _running_fluxx(make_user)
    _running_fluxx(make_user, options={"late_joiners": False})
    _running_fluxx(make_user, seats=6)
    _running_fluxx(make_user, allow_spectators=False)
    viewer = make_user()
    client.login(username=viewer.username, password=PASSWORD)
    html = client.get("/lobby/", {"kind": "fluxx"}).content.decode()
    assert _ids(html) == [taking.pk]
    row = html.split(f'data-match="{taking.pk}"')[1].split("</li>")[0]
    assert 'data-testid="under-way"' in row and "4 open" in row  # Fluxx seats up to six
    assert f'action="/games/{taking.pk}/join/"' in row and 'data-testid="lobby-join"' in row
    assert _ids(client.get("/lobby/", {"seats": "4"}).content.decode()) == [taking.pk]
    client.post(f"/games/{taking.pk}/join/")
    assert taking.seats.filter(user=viewer, accepted=True).exists()
    assert _ids(client.get("/lobby/").content.decode()) == []  # now they sit there
    other = make_user()
    players.block(user=alice, name=other.username)
    client.login(username=other.username, password=PASSWORD)
    assert _ids(client.get("/lobby/").content.decode()) == []
    client.logout()  # a visitor is shown the game, and joins from its page
    html = client.get("/lobby/").content.decode()
    assert _ids(html) == [taking.pk] and f'href="/games/{taking.pk}/" data-testid="lobby-join"' in html


def test_games_under_way_cost_no_statement_more(client, make_user, make_match):
    viewer = make_user()
    client.login(username=viewer.username, password=PASSWORD)
    _open(make_user())
    make_match(kind="duel")  # the "Watch" list is not empty either

    def cost(url):
        with CaptureQueriesContext(connection) as ctx:
            html = client.get(url).content.decode()
        return len(ctx.captured_queries), _ids(html)

    before, ids = cost("/lobby/")
    for _ in range(3):
        _running_fluxx(make_user, seats=3)
    after, more = cost("/lobby/")
    filtered, fluxx = cost("/lobby/?kind=fluxx&sort=fewest_open")
    assert len(ids) == 1 and len(more) == 4 and len(fluxx) == 3
    assert before == after == filtered


def test_a_tournament_or_ladder_game_under_way_takes_no_newcomer(client, make_user):
    """A Fluxx game drawn by a tournament or a ladder would deal a newcomer in by its rules,
    but its players were chosen: the lobby does not list it, its page offers no Join, and a
    join (from the page or the API) is refused and changes nothing."""
    ordinary = []
    for competition in ("tournament", "ladder"):
        alice, bob = make_user(), make_user()
        drawn = services.match_create_seated(creator=alice, kind="fluxx", holders=[alice, bob],
                                             competition=competition)
        assert drawn.status == "active" and drawn.options["late_joiners"]
        ordinary.append(_running_fluxx(make_user)[0].pk)
        viewer = make_user()
        client.login(username=viewer.username, password=PASSWORD)
        assert set(_ids(client.get("/lobby/", {"kind": "fluxx"}).content.decode())) == set(ordinary)
        page = client.get(f"/games/{drawn.pk}/").content.decode()
        assert 'data-testid="join-running"' not in page
        before = (drawn.version, drawn.num_seats, drawn.move_count)
        refused = client.post(f"/games/{drawn.pk}/join/", follow=True).content.decode()
        assert "only the players it drew play here" in refused
        api = client.post(f"/api/matches/{drawn.pk}/join/", {}, content_type="application/json")
        assert api.status_code == 403 and "only the players it drew" in api.json()["error"]["message"]
        drawn.refresh_from_db()
        assert (drawn.version, drawn.num_seats, drawn.move_count) == before
        assert not drawn.seats.filter(user=viewer).exists()
        client.logout()
        assert drawn.pk not in _ids(client.get("/lobby/").content.decode())
