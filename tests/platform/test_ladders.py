"""The Grail Duel ladder: joining at the bottom, challenges within reach (three open each way
at most), a challenger's win taking the defender's rung, and running out of time dropping
the late player one rung more; the pages' buttons and a game's page naming the ladder."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import registry
from games.models import Ladder, LadderChallenge, LadderRung, Match
from games.table import services as table
from games.tournaments import ladders
from grailsite.errors import ServiceError

pytestmark = pytest.mark.django_db


def _order(kind="duel"):
    return list(LadderRung.objects.filter(ladder__kind=kind).order_by("position").values_list("user__username",
                                                                                               flat=True))


def _play(match_id, count):
    for _ in range(count):
        match = Match.objects.get(pk=match_id)
        game = registry.get(match.kind)
        seat = match.seats.get(index=game.pending(match.state)[0].seat)
        table.move_submit(match_id=match_id, user=seat.user, move=game.legal_moves(match.state, seat.index)[0],
                          version=match.version)


@pytest.fixture
def ladder(make_user):
    users = {name: make_user(name) for name in ("arthur", "bedevere", "galahad", "lancelot", "robin")}
    for user in users.values():
        ladders.ladder_join(kind="duel", user=user)
    return users


def test_a_challenger_who_wins_takes_the_defenders_rung(ladder):
    assert _order() == ["arthur", "bedevere", "galahad", "lancelot", "robin"]
    challenge = ladders.ladder_challenge(kind="duel", user=ladder["lancelot"], defender_id=ladder["arthur"].pk)
    match = challenge.match
    assert match.status == "active" and match.competition == "ladder" and match.rated
    assert [s.user for s in match.seats.order_by("index")] == [ladder["lancelot"], ladder["arthur"]]
    _play(match.pk, 2)  # each has made a move: resigning now loses the game (not an abort)
    table.match_resign(match_id=match.pk, user=ladder["arthur"])
    assert _order() == ["lancelot", "arthur", "bedevere", "galahad", "robin"]
    challenge.refresh_from_db()
    assert (challenge.status, challenge.winner, challenge.timed_out) == ("done", ladder["lancelot"], None)


def test_running_out_of_time_loses_and_drops_one_rung_more(ladder):
    challenge = ladders.ladder_challenge(kind="duel", user=ladder["galahad"], defender_id=ladder["bedevere"].pk)
    _play(challenge.match_id, 2)  # galahad (seat 1) is to move, and runs out of time
    Seat = challenge.match.seats.model
    Seat.objects.filter(match_id=challenge.match_id, index=0).update(deadline=timezone.now() - timedelta(seconds=1))
    assert table.deadline_expire(match_id=challenge.match_id, seat_index=0)
    assert Seat.objects.get(match_id=challenge.match_id, index=0).ran_out
    # bedevere won (no move); galahad drops below lancelot.
    assert _order() == ["arthur", "bedevere", "lancelot", "galahad", "robin"]
    challenge.refresh_from_db()
    assert (challenge.winner, challenge.timed_out) == (ladder["bedevere"], ladder["galahad"])


def test_a_game_aborted_before_a_first_move_is_lost_by_whoever_left(ladder):
    challenge = ladders.ladder_challenge(kind="duel", user=ladder["bedevere"], defender_id=ladder["arthur"].pk)
    table.match_resign(match_id=challenge.match_id, user=ladder["bedevere"])  # before their first move
    assert Match.objects.get(pk=challenge.match_id).status == "aborted"
    assert _order() == ["arthur", "bedevere", "galahad", "lancelot", "robin"]
    challenge.refresh_from_db()
    assert challenge.status == "done" and challenge.winner == ladder["arthur"]


def test_challenges_are_refused_out_of_reach_and_beyond_three_open(ladder, make_user):
    with pytest.raises(ServiceError, match="at most 3 rungs above"):
        ladders.ladder_challenge(kind="duel", user=ladder["robin"], defender_id=ladder["arthur"].pk)
    with pytest.raises(ServiceError, match="a player above you"):
        ladders.ladder_challenge(kind="duel", user=ladder["arthur"], defender_id=ladder["robin"].pk)
    Ladder.objects.filter(kind="duel").update(reach=10)
    for name in ("bedevere", "galahad", "lancelot"):
        ladders.ladder_challenge(kind="duel", user=ladder[name], defender_id=ladder["arthur"].pk)
    with pytest.raises(ServiceError, match="3 open challenges against them"):
        ladders.ladder_challenge(kind="duel", user=ladder["robin"], defender_id=ladder["arthur"].pk)
    with pytest.raises(ServiceError, match="open challenge with this player"):
        ladders.ladder_challenge(kind="duel", user=ladder["galahad"], defender_id=ladder["arthur"].pk)
    assert LadderChallenge.objects.filter(status="open").count() == 3
    # The challenger made the game, but its result is owed to the ladder: it cannot be called off.
    mine = LadderChallenge.objects.get(challenger=ladder["bedevere"])
    with pytest.raises(ServiceError, match="cannot be abandoned"):
        table.match_abandon(match_id=mine.match_id, user=ladder["bedevere"])


def test_leaving_moves_everyone_below_up_and_a_game_of_a_leaver_moves_nothing(ladder):
    challenge = ladders.ladder_challenge(kind="duel", user=ladder["galahad"], defender_id=ladder["arthur"].pk)
    ladders.ladder_leave(kind="duel", user=ladder["bedevere"])
    assert _order() == ["arthur", "galahad", "lancelot", "robin"]
    ladders.ladder_leave(kind="duel", user=ladder["arthur"])
    _play(challenge.match_id, 2)
    table.match_resign(match_id=challenge.match_id, user=ladder["arthur"])
    assert _order() == ["galahad", "lancelot", "robin"]
    with pytest.raises(ServiceError, match="not on this ladder"):
        ladders.ladder_leave(kind="duel", user=ladder["arthur"])


def test_the_ladder_page_shows_challenge_buttons_within_reach_and_the_game_page_names_it(client, ladder):
    client.force_login(ladder["robin"])
    page = client.get("/ladders/duel/").content.decode()
    assert 'data-testid="challenge-bedevere"' in page and 'data-testid="challenge-arthur"' not in page
    r = client.post("/ladders/duel/challenge/", {"defender": ladder["galahad"].pk})
    challenge = LadderChallenge.objects.get()
    assert r.status_code == 302 and r.url == f"/games/{challenge.match_id}/"
    game_page = client.get(r.url).content.decode()
    assert 'data-testid="competition"' in game_page and "A challenge on the Grail Duel ladder" in game_page
    assert client.get("/ladders/camelot/").status_code == 404, "a game for three or more has no ladder"
    refused = client.post("/ladders/duel/challenge/", {"defender": "nonsense"})
    assert refused.status_code == 302
