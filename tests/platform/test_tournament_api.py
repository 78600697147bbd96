"""The tournaments' API and pages at their edges: bounded input refused with a 4xx (never a
500), who may do what, computer players only in practice tournaments, the pages and what a
tournament game's page says of it, and where a tournament's notice leads (a push, the e-mail
digest)."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games.inbox import emails, push
from games.models import Notification, Tournament, TournamentEntry, TournamentGame, TournamentRound
from games.tournaments import services
from tests.platform.tournament_helpers import commit, rounds_inline  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("rounds_inline")]

GOOD = {"kind": "duel", "format": "swiss", "rounds": 3, "max_players": 8}


def _clock(html: str, testid: str) -> tuple[str, str, str]:
    """The clock marked ``testid``: its moment, how it is said ("left", "in"), its words."""
    tag = re.search(rf'<time class="clock"[^>]*data-testid="{testid}"[^>]*>([^<]*)</time>', html)
    assert tag, f"no clock {testid}"
    attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', tag.group(0).split(">")[0]))
    assert attrs["data-deadline"] == attrs["datetime"]
    return attrs["datetime"], attrs.get("data-how", "left"), tag.group(1)


def _post(client, url, body=None):
    return client.post(url, body if body is not None else {}, content_type="application/json")


@pytest.mark.parametrize("change, words", [
    ({"kind": "chess"}, "Unknown game"),
    ({"kind": ""}, "kind"),
    ({"format": "knockout"}, "format"),
    ({"rounds": 0}, "rounds"),
    ({"rounds": 21}, "rounds"),
    ({"rounds": "3"}, "rounds"),
    ({"rounds": 8, "max_players": 8}, "more players than rounds"),
    ({"max_players": 257}, "max_players"),
    ({"max_players": 1}, "max_players"),
    ({"format": "tables"}, "Grail Duel is not played at tables"),
    ({"kind": "fluxx", "format": "tables", "table_size": 7}, "seat 3 to 6 players"),
    ({"kind": "duel", "format": "round_robin", "table_size": 17}, "table_size"),
    ({"kind": "camelot"}, "not played by two"),
    ({"clock": {"kind": "none", "amount": 0}}, "clock"),
    ({"clock": {"kind": "days", "amount": 1001}}, "clock.amount"),
    ({"round_days": 61}, "round_days"),
    ({"min_rating": -1}, "min_rating"),
    ({"starts_at": "yesterday"}, "starts_at"),
    ({"starts_at": "2001-01-01T00:00:00Z"}, "in the future"),
    ({"invite": ["nobody"]}, "invitation-only"),
    ({"invitation_only": True, "invite": ["nobody"]}, "No player named nobody"),
    ({"name": "x" * 81}, "name"),
])
def test_bad_input_is_refused_with_a_400(client, make_user, change, words):
    client.force_login(make_user("merlin"))
    response = _post(client, "/api/tournaments/", {**GOOD, **change})
    assert response.status_code == 400, response.content
    assert words in response.json()["error"]["message"]
    assert not Tournament.objects.exists()


def test_a_start_time_without_a_zone_is_utc(client, make_user):
    client.force_login(make_user("merlin"))
    made = _post(client, "/api/tournaments/", {**GOOD, "starts_at": "2030-01-31T18:00:00"})
    assert made.status_code == 201 and made.json()["starts_at"] == "2030-01-31T18:00:00+00:00"


def test_who_may_do_what(client, make_user, commit):
    merlin, arthur = make_user("merlin"), make_user("arthur")
    assert _post(client, "/api/tournaments/", GOOD).status_code == 401
    client.force_login(merlin)
    tid = _post(client, "/api/tournaments/", {**GOOD, "invitation_only": True, "invite": ["arthur"]}).json()["id"]
    assert client.get("/api/tournaments/999999/").status_code == 404
    assert _post(client, "/api/tournaments/999999/join/").status_code == 404
    client.force_login(make_user("mordred"))
    assert _post(client, f"/api/tournaments/{tid}/join/").status_code == 403, "by invitation only"
    assert _post(client, f"/api/tournaments/{tid}/leave/").status_code == 400
    assert _post(client, f"/api/tournaments/{tid}/pause/").status_code == 403
    client.force_login(arthur)
    assert Notification.objects.filter(user=arthur, kind="tournament", text__contains="invites you").exists()
    joined = commit(_post, client, f"/api/tournaments/{tid}/join/")
    assert joined.status_code == 200 and [e["name"] for e in joined.json()["entrants"]] == ["arthur"]
    assert _post(client, f"/api/tournaments/{tid}/join/").status_code == 400, "entered already"
    client.force_login(merlin)
    refused = _post(client, f"/api/tournaments/{tid}/start/")
    assert refused.status_code == 400 and "at least 4 players" in refused.json()["error"]["message"]
    assert _post(client, f"/api/tournaments/{tid}/pause/").status_code == 400
    assert commit(_post, client, f"/api/tournaments/{tid}/cancel/").json()["status"] == "cancelled"
    assert Notification.objects.filter(user=arthur, text__contains="was cancelled").exists()
    listed = client.get("/api/tournaments/?status=finished&kind=duel&format=swiss").json()["tournaments"]
    assert [t["id"] for t in listed] == [tid]
    assert client.get("/api/tournaments/?status=open").json()["tournaments"] == []
    assert client.get("/api/tournaments/?format=knockout").status_code == 400


def test_computer_players_enter_only_practice_tournaments(client, make_user, commit):
    merlin = make_user("merlin")
    client.force_login(merlin)
    rated = _post(client, "/api/tournaments/", GOOD).json()["id"]
    refused = _post(client, f"/api/tournaments/{rated}/join/", {"computer": "knight"})
    assert refused.status_code == 400 and "practice" in refused.json()["error"]["message"]
    practice = _post(client, "/api/tournaments/", {**GOOD, "rounds": 1, "rated": False}).json()["id"]
    assert _post(client, f"/api/tournaments/{practice}/join/", {"computer": "grandmaster"}).status_code == 400
    commit(_post, client, f"/api/tournaments/{practice}/join/", {"computer": "knight"})
    commit(_post, client, f"/api/tournaments/{practice}/join/")
    client.force_login(make_user("arthur"))
    assert _post(client, f"/api/tournaments/{practice}/join/", {"computer": "knight"}).status_code == 403, \
        "only the organiser enters computer players"
    client.force_login(merlin)
    started = commit(_post, client, f"/api/tournaments/{practice}/start/").json()
    (game,) = started["rounds"][0]["games"]
    computer = TournamentEntry.objects.get(tournament_id=practice, computer="knight")
    assert sorted(game["players"]) == sorted([f"Computer {computer.pk} (Knight)", "merlin"])
    tg = TournamentGame.objects.get(tournament_id=practice)
    match = tg.match
    assert match.practice and not match.rated and sorted(s.computer for s in match.seats.all()) == ["", "knight"]
    page = client.get(f"/games/{match.pk}/").content.decode()
    assert 'data-testid="competition"' in page and f"Round 1 of {match.title}" in page


def test_the_pages_list_create_and_show_a_tournament(client, make_user, commit):
    merlin = make_user("merlin")
    client.force_login(merlin)
    r = client.post("/tournaments/new/", {"kind": "fluxx", "format": "tables", "rounds": 2, "table_size": 3,
                                          "max_players": 9, "clock_kind": "days", "clock_amount": 3, "round_days": 10,
                                          "rated": "on"})
    t = Tournament.objects.get()
    assert r.status_code == 302 and r.url == f"/tournaments/{t.pk}/"
    assert client.post("/tournaments/new/", {"kind": "duel", "format": "tables", "rounds": 2, "table_size": 3,
                                             "max_players": 9, "clock_kind": "days", "clock_amount": 3,
                                             "round_days": 10}).status_code == 200
    for n in range(3):
        client.force_login(make_user(f"p{n}"))
        assert commit(client.post, f"/tournaments/{t.pk}/join/").status_code == 302
    assert TournamentEntry.objects.filter(tournament=t, status="entered").count() == 3
    client.force_login(merlin)
    starts = timezone.now() + timedelta(days=2, hours=3)
    Tournament.objects.filter(pk=t.pk).update(starts_at=starts)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'data-testid="start"' in page and 'data-testid="standings"' in page
    # Moments are clocks (static/js/clocks.js): relative, and in the viewer's own zone on hover.
    at, how, text = _clock(page, "starts-at")
    assert (at, how) == (starts.isoformat(), "in") and text.startswith("in 2")
    assert " UTC." not in page
    commit(client.post, f"/tournaments/{t.pk}/start/")
    live = client.get(f"/tournaments/{t.pk}/?part=live").content.decode()
    assert 'data-testid="round-1"' in live and "/games/" in live and "<html" not in live
    deadline = TournamentRound.objects.get(tournament=t, number=1).deadline
    at, how, text = _clock(live, "round-deadline")
    assert (at, how) == (deadline.isoformat(), "left") and text.endswith(" left")
    assert " UTC." not in live
    listing = client.get("/tournaments/?kind=fluxx&format=tables").content.decode()
    assert t.name in listing
    assert t.name not in client.get("/tournaments/?kind=duel").content.decode()
    assert client.get("/tournaments/?kind=../../x&format=<b>").status_code == 200
    assert client.post(f"/tournaments/{t.pk}/explode/").status_code == 404
    assert client.get("/tournaments/999999/").status_code == 404


def test_staff_remove_a_player_whose_game_is_then_resigned(client, make_user, commit):
    merlin, admin = make_user("merlin"), make_user("admin", is_staff=True)
    t = services.tournament_create(organiser=merlin, kind="duel", format="swiss", rounds=1, max_players=2)
    players = [make_user(f"p{n}") for n in range(2)]
    for p in players:
        commit(services.tournament_join, tournament_id=t.pk, user=p)
    commit(services.tournament_start, tournament_id=t.pk, user=merlin)
    entry = t.entries.get(user=players[0])
    client.force_login(merlin)
    client.post(f"/tournaments/{t.pk}/remove/", {"entry": entry.pk})
    entry.refresh_from_db()
    assert entry.status == "entered", "only an administrator removes a player"
    client.force_login(admin)
    commit(client.post, f"/tournaments/{t.pk}/remove/", {"entry": entry.pk})
    entry.refresh_from_db()
    tg = TournamentGame.objects.get(tournament=t)
    assert entry.status == "removed" and tg.match.status == "aborted"
    assert tg.places[tg.players.index(entry.pk)] == 2, "a game resigned before a first move is lost"
    t.refresh_from_db()
    assert t.status == "finished"


def test_a_tournament_notice_leads_to_the_tournament(make_user, commit):
    merlin, _arthur = make_user("merlin"), make_user("arthur")
    t = services.tournament_create(organiser=merlin, kind="duel", format="swiss", rounds=1, max_players=2,
                                   invitation_only=True, invite=["arthur"])
    notice = Notification.objects.get(kind="tournament")
    assert notice.match_id is None and push._url_for(notice) == f"/tournaments/{t.pk}/"
    assert "Tournament news" in push.payload_for([notice])


def test_the_email_digest_links_a_tournament_notice_to_the_tournament(settings, make_user):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    merlin, arthur = make_user("merlin"), make_user("arthur")
    t = services.tournament_create(organiser=merlin, kind="duel", format="swiss", rounds=1, max_players=2,
                                   invitation_only=True, invite=["arthur"])
    assert emails.notification_emails_send() == 1
    [message] = [m for m in mail.outbox if m.to == [arthur.email]]
    assert "invites you" in message.body
    assert f"{settings.SITE_URL}/tournaments/{t.pk}/\n" in message.body
