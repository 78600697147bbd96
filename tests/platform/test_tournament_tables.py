"""Tables by score and round robin, run to their end through the JSON API: created, entered
and started at /api/tournaments/, every move posted to /api/matches/<id>/moves/ with its
version, and the seatings and results read back from GET /api/tournaments/<id>/. Nine players
of Fluxx at tables of three, and a round robin of Grail Duel in which a player withdraws."""
from __future__ import annotations

from collections import Counter

import pytest

from games.models import Match, MoveRecord, Notification
from tests.platform.tournament_helpers import ThroughApi, commit, play_out, rounds_inline  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("rounds_inline")]


def _post(client, commit, url, body=None):
    answer = commit(client.post, url, body or {}, content_type="application/json")
    assert answer.status_code in (200, 201), answer.content
    return answer.json()


def _organised(client, commit, make_user, body: dict, players: int):
    """A tournament made by its organiser through the API, and ``players`` people who entered it."""
    organiser = make_user("merlin")
    client.force_login(organiser)
    tid = _post(client, commit, "/api/tournaments/", body)["id"]
    users = [make_user(f"player{n}") for n in range(players)]
    for user in users:
        client.force_login(user)
        _post(client, commit, f"/api/tournaments/{tid}/join/")
    client.force_login(organiser)
    return tid, users


def _round(client, tid, number) -> list[dict]:
    detail = client.get(f"/api/tournaments/{tid}/").json()
    assert detail["current_round"] == number, "the round was paired as the last game of the one before ended"
    return next(r for r in detail["rounds"] if r["number"] == number)["games"]


def _moves_came_by_the_api(tid, moves_api):
    games = Match.objects.filter(tournament_game__tournament_id=tid)
    played = MoveRecord.objects.filter(match__in=games).exclude(move__type="resign").count()
    assert played == moves_api.posted > 0


def test_nine_players_of_fluxx_at_tables_of_three_to_the_end(client, make_user, commit):
    tid, users = _organised(client, commit, make_user, {
        "kind": "fluxx", "format": "tables", "name": "Fluxx Fair", "rounds": 2, "table_size": 3, "max_players": 9},
        players=9)
    started = _post(client, commit, f"/api/tournaments/{tid}/start/")
    assert started["status"] == "running" and started["rounds_total"] == 2
    moves_api = ThroughApi(client)
    met: set = set()
    for number in (1, 2):
        tables = sorted(_round(client, tid, number), key=lambda g: g["board"])
        assert [(g["kind"], len(g["players"])) for g in tables] == [("game", 3)] * 3
        assert sorted(p for g in tables for p in g["players"]) == sorted(u.username for u in users)
        pairs = {frozenset((a, b)) for g in tables for a in g["players"] for b in g["players"] if a != b}
        assert not pairs & met, "nobody sits again with a tablemate of round 1"
        met |= pairs
        if number == 2:
            # Seated by score: the three who won a table in round 1 (4 points each) share table 1.
            standings = client.get(f"/api/tournaments/{tid}/").json()["standings"]
            winners = {line["player"] for line in standings if line["score"] == 4}
            assert len(winners) == 3 and set(tables[0]["players"]) == winners
        for g in tables:
            # Random legal moves, then the players resign one by one (last seat first).
            play_out(g["id"], commit, seed=number * 7 + g["board"], resign_after=30, send=moves_api)

    final = client.get(f"/api/tournaments/{tid}/").json()
    assert final["status"] == "finished" and all(r["closed"] for r in final["rounds"])
    for g in (g for r in final["rounds"] for g in r["games"]):
        assert 1 in g["result"] and sum(g["points"]) == 6, "someone wins each table, which pays 6 points"
    standings = final["standings"]
    assert len(standings) == 9 and sum(line["score"] for line in standings) == 2 * 3 * 6, "each table pays 6 points"
    ranks = [line["rank"] for line in standings]
    assert ranks == sorted(ranks) and ranks[0] == 1
    assert final["tie_breaks"] == ["tablemates' average", "tables won"]
    _moves_came_by_the_api(tid, moves_api)
    ended = Notification.objects.filter(kind="tournament", text__startswith="Fluxx Fair has ended")
    assert sorted(n.user_id for n in ended) == sorted(u.pk for u in users)


def test_a_round_robin_of_grail_duel_with_a_withdrawal(client, make_user, commit):
    tid, users = _organised(client, commit, make_user, {
        "kind": "duel", "format": "round_robin", "table_size": 4, "max_players": 8}, players=4)
    started = _post(client, commit, f"/api/tournaments/{tid}/start/")
    assert started["rounds_total"] == 3, "everyone meets everyone once: three rounds for four"
    # Withdrawing during round 1: their game of round 1 is still theirs to play; the rounds
    # paired after it give their opponents a win without play.
    leaver = users[0].username
    client.force_login(users[0])
    withdrawn = _post(client, commit, f"/api/tournaments/{tid}/leave/")
    assert next(e for e in withdrawn["entrants"] if e["name"] == leaver)["status"] == "withdrawn"
    moves_api = ThroughApi(client)
    for number in (1, 2, 3):
        games = _round(client, tid, number)
        kinds = Counter(g["kind"] for g in games)
        if number == 1:
            assert kinds == {"game": 2}
        else:
            assert kinds == {"game": 1, "forfeit": 1}, "the player who left forfeits the games they were due"
            forfeit = next(g for g in games if g["kind"] == "forfeit")
            assert forfeit["id"] is None and forfeit["result"][forfeit["players"].index(leaver)] == 2
        for g in games:
            if g["kind"] == "game":
                play_out(g["id"], commit, seed=number * 3 + g["board"], send=moves_api)

    final = client.get(f"/api/tournaments/{tid}/").json()
    assert final["status"] == "finished" and final["current_round"] == 3
    pairs = Counter(frozenset(g["players"]) for r in final["rounds"] for g in r["games"])
    assert len(pairs) == 6 and set(pairs.values()) == {1}, "every pair met exactly once"
    standings = final["standings"]
    assert {line["group"] for line in standings} == {1}
    assert sum(line["score"] for line in standings) == 6, "six games, one point each"
    assert next(line for line in standings if line["player"] == leaver)["status"] == "withdrawn"
    _moves_came_by_the_api(tid, moves_api)
