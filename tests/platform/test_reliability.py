"""Reliability (games/table/reliability.py): the share of a player's games ended in the last 90
days that they played out, without running out of time or walking out of a game of three or
more. Profiles show it; a table may ask for a minimum, which joining and accepting enforce
with words that say why; the lobby shows each table's minimum and can hide the tables the
viewer may not join."""
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Match, Seat
from games.table import reliability, services
from grailsite.errors import NotAllowed, ServiceError
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def _say(match, user):
    services.move_submit(match_id=match.pk, user=user, move={"type": "say"}, version=None)


def _finished(make_match, users, **flags):
    """A finished two-seat game of ``users``; ``flags`` set on the first player's seat."""
    match, _ = make_match(kind="podium", users=users)
    for user in users:
        _say(match, user)
    services.move_submit(match_id=match.pk, user=users[0], move={"type": "end", "winners": [1], "draw": False}, version=None)
    if flags:
        Seat.objects.filter(match=match, index=0).update(**flags)
    return match


def _record(user):
    return reliability.of(user.pk)


def test_running_out_walking_out_and_a_taken_seat_count_against_a_player_and_nothing_else_does(make_match,
                                                                                               make_user):
    alice, bob = make_user(), make_user()
    for _ in range(3):
        _finished(make_match, [alice, bob])
    _finished(make_match, [alice, bob], ran_out=True)
    _finished(make_match, [alice, bob], walked_out=True)
    taken = _finished(make_match, [alice, bob])
    Seat.objects.filter(match=taken, index=0).update(user=None, left_by=alice, computer="random")
    assert _record(alice) == reliability.Reliability(games=6, clean=3)
    assert _record(alice).percent == 50
    assert _record(bob) == reliability.Reliability(games=6, clean=6)

    # Games that ended more than 90 days ago, practice games and games under way do not count.
    old = _finished(make_match, [alice, bob], ran_out=True)
    Match.objects.filter(pk=old.pk).update(finished_at=timezone.now() - timedelta(days=91))
    practice = _finished(make_match, [alice, bob], ran_out=True)
    Match.objects.filter(pk=practice.pk).update(practice=True)
    make_match(kind="podium", users=[alice, bob])
    # An aborted game counts (here nobody is to blame for it).
    aborted = _finished(make_match, [alice, bob])
    Match.objects.filter(pk=aborted.pk).update(status=Match.Status.ABORTED)
    assert _record(alice) == reliability.Reliability(games=7, clean=4)
    assert reliability.of_many([alice.pk, bob.pk, make_user().pk]) == {
        alice.pk: reliability.Reliability(7, 4), bob.pk: reliability.Reliability(7, 7),
        max(alice.pk, bob.pk) + 1: reliability.Reliability()}


def test_resigning_out_of_a_game_of_three_that_goes_on_is_walking_out_and_in_a_duel_it_is_a_loss(make_match):
    match, (alice, bob, carol) = make_match(kind="podium", seats=3)
    for user in (alice, bob, carol):
        _say(match, user)
    services.match_resign(match_id=match.pk, user=carol)
    match.refresh_from_db()
    assert match.status == "active"  # the others play on without carol
    assert Seat.objects.get(match=match, index=2).walked_out
    services.match_resign(match_id=match.pk, user=bob)  # the game ends: bob conceded it to alice
    match.refresh_from_db()
    assert match.status == "finished" and match.outcome["winners"] == [0]
    assert [s.walked_out for s in match.seats.order_by("index")] == [False, False, True]

    duel, (dave, erin) = make_match(kind="podium")
    _say(duel, dave)
    _say(duel, erin)
    services.match_resign(match_id=duel.pk, user=erin)
    assert not Seat.objects.filter(match=duel, walked_out=True).exists()
    assert _record(erin) == reliability.Reliability(1, 1) and _record(carol) == reliability.Reliability(1, 0)


def test_a_record_meets_a_minimum_when_it_is_too_short_to_judge_or_high_enough():
    assert reliability.Reliability(4, 0).meets(95)  # fewer than MIN_GAMES: every table takes them
    assert not reliability.Reliability(5, 4).meets(90) and reliability.Reliability(5, 4).meets(80)
    assert reliability.Reliability(10, 9).meets(90) and not reliability.Reliability(10, 9).meets(95)
    assert reliability.Reliability(5, 0).meets(0)
    assert reliability.Reliability(1000, 896).percent == 89  # rounded down: never shown as 90


@pytest.fixture
def unreliable(make_match, make_user):
    """A player who ran out of time in 2 of their 5 games (60 %)."""
    flake, other = make_user("flake"), make_user()
    for n in range(5):
        _finished(make_match, [flake, other], **({"ran_out": True} if n < 2 else {}))
    return flake


def test_a_table_asking_for_90_percent_refuses_a_player_below_it_at_the_seat_and_the_invitation(
        make_user, unreliable, client):
    host, newcomer = make_user("host"), make_user("newcomer")
    table = services.match_create(creator=host, kind="podium", num_seats=3, min_reliability=90)
    with pytest.raises(NotAllowed) as refused:
        services.match_join(match_id=table.pk, user=unreliable)
    assert str(refused.value.message).startswith(
        "This table asks for players who finished at least 90 % of their games; you finished 60 % of your last 5")
    services.match_join(match_id=table.pk, user=newcomer)  # no record yet: welcome
    # By the page: the refusal is said there, not a 500 or a silent no.
    client.login(username="flake", password=PASSWORD)
    page = client.get(reverse("match_detail", args=[table.pk])).content.decode()
    assert "finished at least 90 %" in page
    answer = client.post(reverse("match_action", args=[table.pk, "join"]), follow=True).content.decode()
    assert "you finished 60 %" in answer
    assert not Seat.objects.filter(match=table, user=unreliable).exists()

    # Nobody invites a player who could not accept; a table asking nothing takes them.
    with pytest.raises(ServiceError, match="flake finished 60 %"):
        services.match_create(creator=host, kind="podium", num_seats=2, invite=["flake"], min_reliability=90)
    with pytest.raises(ServiceError, match="reliability"):
        services.match_create(creator=host, kind="podium", num_seats=2, min_reliability=50)
    invited = services.match_create(creator=host, kind="podium", num_seats=2, invite=["flake"], min_reliability=0)
    services.match_join(match_id=invited.pk, user=unreliable)
    # An invitation accepted after the record fell is refused too.
    later = services.match_create(creator=host, kind="podium", num_seats=2, invite=["newcomer"], min_reliability=80)
    Seat.objects.filter(user=newcomer).update(ran_out=True)
    for _ in range(reliability.MIN_GAMES):
        _finished_between(newcomer, host)
    with pytest.raises(NotAllowed, match="at least 80 %"):
        services.match_join(match_id=later.pk, user=newcomer)


def _finished_between(user, other):
    match = services.match_create(creator=user, kind="podium", num_seats=2, invite=[other.username])
    services.match_join(match_id=match.pk, user=other)
    services.move_submit(match_id=match.pk, user=user, move={"type": "end", "winners": [0], "draw": False}, version=None)
    Seat.objects.filter(match=match, user=user).update(ran_out=True)


def _lobby_ids(html):
    section = html.split('data-testid="open-games"')[1].split("</ul>")[0] if 'data-testid="open-games"' in html else ""
    return {int(n) for n in re.findall(r'data-match="(\d+)"', section)}


def test_the_lobby_shows_each_tables_minimum_and_hides_those_i_may_not_join_when_asked(client, make_user,
                                                                                      unreliable):
    host = make_user("host")
    anyone = services.match_create(creator=host, kind="podium", num_seats=2)
    some = services.match_create(creator=host, kind="podium", num_seats=2, min_reliability=80)
    strict = services.match_create(creator=host, kind="podium", num_seats=2, min_reliability=95)
    client.login(username="flake", password=PASSWORD)
    page = client.get("/lobby/").content.decode()
    assert _lobby_ids(page) == {anyone.pk, some.pk, strict.pk}
    assert page.count('data-testid="min-reliability"') == 2 and "finishes ≥ 95 %" in page
    assert _lobby_ids(client.get("/lobby/", {"joinable": "on"}).content.decode()) == {anyone.pk}
    client.logout()
    client.login(username=make_user("fresh").username, password=PASSWORD)  # no record: every table
    assert _lobby_ids(client.get("/lobby/", {"joinable": "on"}).content.decode()) == {anyone.pk, some.pk, strict.pk}


def test_the_new_game_form_and_the_api_set_a_minimum(client, make_user):
    host = make_user("host")
    client.login(username="host", password=PASSWORD)
    form = client.get(reverse("match_new")).content.decode()
    assert 'name="min_reliability"' in form and "At least 90 % finished" in form
    client.post(reverse("match_new"), {"kind": "podium", "seats": 2, "clock_kind": "days", "clock_amount": 3,
                                       "vacation_days": 0, "rated": "on", "allow_spectators": "on",
                                       "min_reliability": "90"})
    assert Match.objects.get(creator=host).min_reliability == 90
    made = client.post("/api/matches/", {"kind": "podium", "seats": 2, "min_reliability": 95},
                       content_type="application/json")
    assert made.status_code == 201 and Match.objects.get(pk=made.json()["id"]).min_reliability == 95
    assert client.post("/api/matches/", {"kind": "podium", "seats": 2, "min_reliability": 42},
                       content_type="application/json").status_code == 400


def test_a_profile_says_how_reliably_a_player_finishes(client, make_user, unreliable):
    page = client.get(reverse("player_profile", args=["flake"])).content.decode()
    shown = re.search(r'data-testid="reliability".*?</p>', page, re.S).group(0)
    assert 'data-testid="reliability-percent">60 %' in shown and "3 of 5" in shown
    fresh = client.get(reverse("player_profile", args=[make_user("fresh").username])).content.decode()
    assert "no reliability yet" in fresh
