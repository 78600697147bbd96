"""Who may enter a tournament or a ladder, and leaving before the start: a minimum rating and
a minimum reliability refuse a player below them with words that say why (through the API
and the pages), bot accounts stay out of rated tournaments and rated ladders, and a player
who leaves before the start loses their entry, or keeps their invitation in an
invitation-only tournament."""
from __future__ import annotations

import pytest

from games.models import Ladder, LadderRung, Rating, Seat, Tournament, TournamentEntry
from games.players import ratings
from games.table import services as table
from games.tournaments import ladders, services
from grailsite.accounts.models import Profile
from grailsite.errors import ServiceError
from tests.platform.tournament_helpers import commit, rounds_inline  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("rounds_inline")]

DUEL = {"kind": "duel", "format": "swiss", "rounds": 1, "max_players": 8}


def _post(client, url, body=None):
    return client.post(url, body if body is not None else {}, content_type="application/json")


def _error(response) -> str:
    return response.json()["error"]["message"]


def _finished_game(make_match, users, *, ran_out: bool):
    """A finished game of two; the first player ran out of time in it or not."""
    match, _ = make_match(kind="podium", users=users)
    for user in users:
        table.move_submit(match_id=match.pk, user=user, move={"type": "say"}, version=None)
    table.move_submit(match_id=match.pk, user=users[0], move={"type": "end", "winners": [1], "draw": False},
                      version=None)
    if ran_out:
        Seat.objects.filter(match=match, index=0).update(ran_out=True)


@pytest.fixture
def records(make_match, make_user):
    """``flake`` ran out of time in 2 of their 5 games (60 %); ``steady`` played all 5 out."""
    flake, steady = make_user("flake"), make_user("steady")
    for n in range(5):
        _finished_game(make_match, [flake, steady], ran_out=n < 2)
    return flake, steady


# --- reliability ---------------------------------------------------------------------------

def test_a_tournament_asking_for_reliable_players_refuses_one_below_it_through_the_api(client, make_user, records,
                                                                                         commit):
    flake, steady = records
    client.force_login(make_user("merlin"))
    assert _post(client, "/api/tournaments/", {**DUEL, "min_reliability": 42}).status_code == 400
    made = _post(client, "/api/tournaments/", {**DUEL, "min_reliability": 90})
    assert made.status_code == 201 and made.json()["min_reliability"] == 90
    tid = made.json()["id"]
    assert client.get(f"/api/tournaments/{tid}/").json()["min_reliability"] == 90

    client.force_login(flake)
    refused = _post(client, f"/api/tournaments/{tid}/join/")
    assert refused.status_code == 400
    assert _error(refused) == ("This tournament asks for players who finished at least 90 % of their games; you "
                               "finished 60 % of your last 5 (games that ended in the last 90 days).")
    assert not TournamentEntry.objects.filter(tournament_id=tid, user=flake).exists()
    # A record that meets it, and one too short to judge, are let in.
    for user in (steady, make_user("newcomer")):
        client.force_login(user)
        assert commit(_post, client, f"/api/tournaments/{tid}/join/").status_code == 200
    assert TournamentEntry.objects.filter(tournament_id=tid, status="entered").count() == 2


def test_an_invitation_does_not_lift_the_minimum(make_user, records):
    flake, _steady = records
    t = services.tournament_create(organiser=make_user("merlin"), kind="duel", format="swiss", rounds=1,
                                   invitation_only=True, invite=["flake"], min_reliability=80)
    with pytest.raises(ServiceError, match="at least 80 %"):
        services.tournament_join(tournament_id=t.pk, user=flake)
    assert TournamentEntry.objects.get(tournament=t, user=flake).status == "invited"


def test_the_form_asks_for_reliable_players_and_the_page_says_so_and_refuses(client, make_user, records, commit):
    flake, _steady = records
    client.force_login(make_user("merlin"))
    form = client.get("/tournaments/new/").content.decode()
    assert 'name="min_reliability"' in form and "At least 95 % finished" in form
    made = client.post("/tournaments/new/", {"kind": "duel", "format": "swiss", "rounds": 1, "table_size": 2,
                                             "max_players": 8, "clock_kind": "days", "clock_amount": 3,
                                             "round_days": 10, "rated": "on", "min_reliability": "90"})
    t = Tournament.objects.get()
    assert made.status_code == 302 and t.min_reliability == 90
    assert client.post("/tournaments/new/", {"kind": "duel", "format": "swiss", "rounds": 1, "table_size": 2,
                                             "max_players": 8, "clock_kind": "days", "clock_amount": 3,
                                             "round_days": 10, "min_reliability": "42"}).status_code == 200
    assert Tournament.objects.count() == 1, "a minimum the form does not offer is refused"

    client.force_login(flake)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'data-testid="min-reliability"' in page and "at least 90 % of their games" in page
    answer = commit(client.post, f"/tournaments/{t.pk}/join/", follow=True).content.decode()
    assert "you finished 60 % of your last 5" in answer
    assert not TournamentEntry.objects.filter(tournament=t).exists()


# --- rating ---------------------------------------------------------------------------------

def test_a_minimum_rating_refuses_a_player_below_it_at_the_join(client, make_user, commit):
    strong = make_user("strong")
    Rating.objects.create(user=strong, kind="duel", mu=35, sigma=2, display=ratings.display(35, 2), games=20)
    client.force_login(make_user("merlin"))
    tid = _post(client, "/api/tournaments/", {**DUEL, "min_rating": 1100}).json()["id"]
    client.force_login(make_user("newcomer"))  # a newcomer shows 1000
    refused = _post(client, f"/api/tournaments/{tid}/join/")
    assert refused.status_code == 400
    assert _error(refused) == "This tournament wants a rating of at least 1100 in Grail Duel."
    client.force_login(strong)
    assert commit(_post, client, f"/api/tournaments/{tid}/join/").status_code == 200
    assert [e.user for e in TournamentEntry.objects.filter(tournament_id=tid)] == [strong]


# --- bot accounts ---------------------------------------------------------------------------

def _bot(make_user, name="robot"):
    bot = make_user(name)
    Profile.objects.filter(user=bot).update(is_bot=True)
    return bot


def test_a_bot_account_enters_only_practice_tournaments(client, make_user, commit):
    bot = _bot(make_user)
    client.force_login(make_user("merlin"))
    rated = _post(client, "/api/tournaments/", DUEL).json()["id"]
    practice = _post(client, "/api/tournaments/", {**DUEL, "rated": False}).json()["id"]
    client.force_login(bot)
    refused = _post(client, f"/api/tournaments/{rated}/join/")
    assert refused.status_code == 400 and "Bot accounts enter only practice (unrated) tournaments" in _error(refused)
    assert not TournamentEntry.objects.filter(tournament_id=rated).exists()
    assert commit(_post, client, f"/api/tournaments/{practice}/join/").status_code == 200


def test_a_bot_account_may_not_join_a_rated_ladder(client, make_user):
    bot = _bot(make_user)
    with pytest.raises(ServiceError, match="Bot accounts may not join a rated ladder"):
        ladders.ladder_join(kind="duel", user=bot)
    client.force_login(bot)
    answer = client.post("/ladders/duel/join/", follow=True).content.decode()
    assert "Bot accounts may not join a rated ladder" in answer
    assert not LadderRung.objects.exists()
    Ladder.objects.update_or_create(kind="duel", defaults={"rated": False})
    assert ladders.ladder_join(kind="duel", user=bot).position == 1


# --- leaving before the start ----------------------------------------------------------------

def test_leaving_an_open_tournament_before_the_start_removes_the_entry(client, make_user, commit):
    client.force_login(make_user("merlin"))
    tid = _post(client, "/api/tournaments/", DUEL).json()["id"]
    arthur = make_user("arthur")
    client.force_login(arthur)
    commit(_post, client, f"/api/tournaments/{tid}/join/")
    left = commit(_post, client, f"/api/tournaments/{tid}/leave/")
    assert left.status_code == 200 and left.json()["entrants"] == [] and left.json()["players"] == 0
    assert not TournamentEntry.objects.filter(tournament_id=tid).exists()
    assert _post(client, f"/api/tournaments/{tid}/leave/").status_code == 400, "no entry left to leave"
    assert commit(_post, client, f"/api/tournaments/{tid}/join/").status_code == 200, "they may enter again"


def test_leaving_an_invitation_only_tournament_before_the_start_keeps_the_invitation(client, make_user, commit):
    arthur = make_user("arthur")
    client.force_login(make_user("merlin"))
    tid = _post(client, "/api/tournaments/", {**DUEL, "invitation_only": True, "invite": ["arthur"]}).json()["id"]
    client.force_login(arthur)
    commit(_post, client, f"/api/tournaments/{tid}/join/")
    left = commit(_post, client, f"/api/tournaments/{tid}/leave/").json()
    assert left["entrants"] == [{"name": "arthur", "status": "invited", "computer": False}] and left["players"] == 0
    assert TournamentEntry.objects.get(tournament_id=tid, user=arthur).status == "invited"
    again = commit(_post, client, f"/api/tournaments/{tid}/join/")
    assert again.status_code == 200, "the invitation can still be taken up"
    assert TournamentEntry.objects.get(tournament_id=tid, user=arthur).status == "entered"
