"""The pages a person uses, and a game page whose query count does not grow with history."""
import re

from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.table import services
from games import registry
from games.models import Match


def test_home_lists_games_waiting_for_me_first(client, make_match, make_user):
    alice = make_user("alice")
    waiting, _ = make_match(users=[alice, make_user()])          # alice (seat 0) to move
    other, _ = make_match(users=[make_user(), alice])             # the other player to move
    client.force_login(alice)
    page = client.get("/")
    assert [m.pk for m in page.context["my_turn"]] == [waiting.pk]
    assert [m.pk for m in page.context["active"]] == [other.pk]


def test_create_a_game_from_the_form_and_join_from_the_lobby(client, make_user):
    alice, bob = make_user(), make_user()
    client.force_login(alice)
    r = client.post("/games/new/", {"kind": "duel", "seats": 2, "clock_kind": "hours", "clock_amount": 8,
                                    "vacation_days": 3, "allow_spectators": "on", "duel-opt-rounds": "3"})
    match = Match.objects.get()
    assert r.status_code == 302 and match.options == {"rounds": 3} and match.clock == "hours"
    client.force_login(bob)
    assert [m.pk for m in client.get("/lobby/").context["open"]] == [match.pk]
    client.post(f"/games/{match.pk}/join/")
    match.refresh_from_db()
    assert match.status == "active"


def test_the_form_shows_service_errors(client, make_user):
    client.force_login(make_user())
    r = client.post("/games/new/", {"kind": "duel", "seats": 2, "clock_kind": "days", "clock_amount": 3,
                                    "vacation_days": 0, "invite": "nobody-here"})
    assert r.status_code == 200 and "No player named nobody-here" in r.content.decode()


def _play(match, users, moves):
    game = registry.get(match.kind)
    for _ in range(moves):
        seat = game.pending(match.state)[0].seat
        services.move_submit(match_id=match.pk, user=users[seat], move=game.legal_moves(match.state, seat)[0],
                             version=match.version)
        match.refresh_from_db()


def _queries(client, url):
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_game_page_and_api_query_counts_do_not_grow_with_history(client, make_match):
    match, users = make_match(kind="secret")
    client.force_login(users[0])
    _play(match, users, 2)
    short = [_queries(client, f"/games/{match.pk}/"), _queries(client, f"/api/matches/{match.pk}/")]
    _play(match, users, 30)
    long = [_queries(client, f"/games/{match.pk}/"), _queries(client, f"/api/matches/{match.pk}/")]
    assert short == long


def test_history_and_replay_pages(client, make_match):
    match, users = make_match()
    _play(match, users, 3)
    client.force_login(users[0])
    history = client.get(f"/games/{match.pk}/history/").content.decode()
    assert history.count("lays a") == 3
    frame = client.get(f"/api/matches/{match.pk}/replay/?step=2").json()
    assert frame["step"] == 2 and frame["total"] == 3 and len(frame["view"]["played"][0]) == 1
    assert client.get(f"/games/{match.pk}/replay/").status_code == 200


def test_the_log_names_people_where_the_rules_say_seat(client, make_match, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match, users = make_match(users=[alice, bob])
    _play(match, users, 2)
    client.force_login(bob)
    log = [line["text"] for line in client.get(f"/api/matches/{match.pk}/").json()["log"]]
    assert log[0].startswith("alice lays a ") and any(line.startswith("bob lays a ") for line in log)
    assert not any("Seat 1" in line or "Seat 2" in line for line in log)
    history = client.get(f"/games/{match.pk}/history/").content.decode()
    assert re.search(r'<a [^>]*href="/players/alice/"[^>]*>alice</a> lays a', history)  # a name links its profile
    services.match_resign(match_id=match.pk, user=alice)
    assert client.get(f"/api/matches/{match.pk}/").json()["outcome"]["reason"] == "alice resigned."


def test_seat_words_in_any_case_become_names_and_other_numbers_stay():
    from types import SimpleNamespace as NS

    from games.table.selectors import with_names
    seats = [NS(index=0, user_id=1, user=NS(username="alice")), NS(index=1, user_id=2, user=NS(username="bob"))]
    text = "Seat 1 looks at seat 2's hand. Seat 3's England, row 2 area 3 is empty."
    assert with_names(text, seats) == "alice looks at bob's hand. Seat 3's England, row 2 area 3 is empty."
