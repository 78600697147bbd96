"""A Swiss of Grail Duel run to its end through the JSON API: entered, started, each round's
games played by legal moves posted to the moves API, the next round paired in the
after-commit work of the round's last game (no sweep), and every pairing checked (no
rematch, score groups, byes with an odd field or after a withdrawal)."""
from __future__ import annotations

from collections import Counter
from itertools import accumulate

import pytest

from games.models import Match, MoveRecord, Notification, RatingChange, Tournament, TournamentGame
from games.tournaments import selectors, services
from tests.platform.tournament_helpers import ThroughApi, commit, play_out, rounds_inline  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("rounds_inline")]


def _post(client, commit, url, body=None):
    return commit(client.post, url, body or {}, content_type="application/json")


def _scores_before(detail, number):
    """Each player's score from the rounds before ``number``, as the API shows the games."""
    score = Counter({p["name"]: 0 for p in detail["entrants"]})
    for r in detail["rounds"]:
        if r["number"] < number:
            for g in r["games"]:
                for name, points in zip(g["players"], g["points"]):
                    score[name] += points
    return score


def _least_floats(score, players) -> int:
    """How few pairs must join two score groups: one for each group that leaves a player over
    (an odd number of players down to and including it)."""
    sizes = Counter(score[p] for p in players)
    counts = [sizes[s] for s in sorted(sizes, reverse=True)]
    return sum(1 for total in accumulate(counts) if total % 2)


def _check_round(detail, number, played: set):
    round_ = next(r for r in detail["rounds"] if r["number"] == number)
    games = [g for g in round_["games"] if g["kind"] == "game"]
    byes = [g["players"][0] for g in round_["games"] if g["kind"] == "bye"]
    seated = [p for g in games for p in g["players"]] + byes
    assert len(seated) == len(set(seated)), "nobody plays twice in a round"
    for g in games:
        pair = frozenset(g["players"])
        assert len(pair) == 2 and pair not in played, f"round {number} repeats {sorted(pair)}"
        played.add(pair)
    return games, byes


def test_an_eight_player_swiss_of_grail_duel_runs_to_its_end_through_the_api(client, make_user, commit):
    merlin = make_user("merlin")
    knights = [make_user(name) for name in ("arthur", "bedevere", "galahad", "lancelot", "robin", "gawain",
                                             "tristan", "percival")]
    client.force_login(merlin)
    made = _post(client, commit, "/api/tournaments/", {
        "kind": "duel", "format": "swiss", "name": "Spring Swiss", "rounds": 3, "max_players": 8,
        "clock": {"kind": "days", "amount": 3}, "rated": True})
    assert made.status_code == 201, made.content
    tid = made.json()["id"]
    for knight in knights:
        client.force_login(knight)
        assert _post(client, commit, f"/api/tournaments/{tid}/join/").status_code == 200
    client.force_login(make_user("mordred"))
    full = _post(client, commit, f"/api/tournaments/{tid}/join/")
    assert full.status_code == 400 and "full" in full.json()["error"]["message"]
    client.force_login(knights[0])
    assert _post(client, commit, f"/api/tournaments/{tid}/start/").status_code == 403, "only the organiser starts"
    client.force_login(merlin)
    started = _post(client, commit, f"/api/tournaments/{tid}/start/")
    assert started.status_code == 200 and started.json()["current_round"] == 1

    played: set = set()
    moves_api = ThroughApi(client)
    for number in (1, 2, 3):
        detail = client.get(f"/api/tournaments/{tid}/").json()
        assert detail["current_round"] == number, "the round was paired as its last game ended"
        games, byes = _check_round(detail, number, played)
        assert len(games) == 4 and byes == []
        score = _scores_before(detail, number)
        # Score groups: no more pairs across groups than their sizes force (round 3 may need
        # more, where rematches rule the best pairs out), and never more than a point apart.
        across = sum(1 for g in games if score[g["players"][0]] != score[g["players"][1]])
        if number == 2:
            assert across == _least_floats(score, score.keys())
        assert all(abs(score[g["players"][0]] - score[g["players"][1]]) <= 1 for g in games)
        for n, g in enumerate(games):
            assert g["result"] is None
            play_out(g["id"], commit, seed=number * 10 + n, send=moves_api)

    final = client.get(f"/api/tournaments/{tid}/").json()
    assert final["status"] == "finished" and final["current_round"] == 3
    assert all(r["closed"] for r in final["rounds"])
    standings = final["standings"]
    assert len(standings) == 8 and sum(line["score"] for line in standings) == 12, "4 games a round, 3 rounds"
    ranks = [(line["rank"], -line["score"], *(-t for t in line["tie_breaks"])) for line in standings]
    assert ranks == sorted(ranks) and standings[0]["rank"] == 1
    assert final["tie_breaks"] == ["Buchholz", "Sonneborn-Berger"]
    # Each game is an ordinary rated game of the tournament, and says so.
    matches = Match.objects.filter(tournament_game__tournament_id=tid)
    assert matches.count() == 12 and all(m.competition == "tournament" and m.rated for m in matches)
    assert MoveRecord.objects.filter(match__in=matches).count() == moves_api.posted > 0, "every move came by the API"
    assert RatingChange.objects.filter(match__in=matches).count() == 24
    # Everyone was told of each round's game and of their place at the end.
    for knight in knights:
        said = list(Notification.objects.filter(user=knight, kind="tournament").values_list("text", flat=True))
        assert sum("your game against" in t for t in said) == 3
        place = next(line for line in standings if line["player"] == knight.username)["rank"]
        assert any(t.startswith("Spring Swiss has ended: you placed ") and t.endswith("of 8.") for t in said), said
        assert any(f"placed {place}" in t for t in said)


def test_seven_players_get_a_bye_each_round_never_twice(make_user, commit):
    organiser = make_user("merlin")
    t = services.tournament_create(organiser=organiser, kind="duel", format="swiss", rounds=3, max_players=8)
    for n in range(7):
        commit(services.tournament_join, tournament_id=t.pk, user=make_user(f"knight{n}"))
    commit(services.tournament_start, tournament_id=t.pk, user=organiser)
    byes = []
    for number in (1, 2, 3):
        round_games = TournamentGame.objects.filter(tournament=t, round__number=number)
        bye = round_games.get(kind="bye")
        assert bye.places == [1] and bye.match_id is None
        byes.append(bye.players[0])
        for tg in round_games.filter(kind="game"):
            play_out(tg.match_id, commit, seed=number)
    assert len(set(byes)) == 3, "a bye goes to someone who has not had one"
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    found = selectors.detail(t)
    assert sum(line.standing.score for line in found.standings) == 3 * 3 + 3, "three games and a bye a round"


def test_a_withdrawal_leaves_an_odd_field_and_the_next_round_has_a_bye(make_user, commit):
    organiser = make_user("merlin")
    t = services.tournament_create(organiser=organiser, kind="duel", format="swiss", rounds=2, max_players=8)
    players = [make_user(f"knight{n}") for n in range(8)]
    for p in players:
        commit(services.tournament_join, tournament_id=t.pk, user=p)
    commit(services.tournament_start, tournament_id=t.pk, user=organiser)
    first = list(TournamentGame.objects.filter(tournament=t, round__number=1))
    assert [g.kind for g in first] == ["game"] * 4
    commit(services.tournament_leave, tournament_id=t.pk, user=players[0])
    for tg in first:
        play_out(tg.match_id, commit, seed=tg.board)
    second = list(TournamentGame.objects.filter(tournament=t, round__number=2))
    leaver = t.entries.get(user=players[0]).pk
    assert [g.kind for g in second].count("bye") == 1 and len(second) == 4
    assert all(leaver not in g.players for g in second), "a player who withdrew is not paired again"
    found = selectors.detail(t)
    line = next(line for line in found.standings if line.entry.pk == leaver)
    assert line.entry.status == "withdrawn", "their results so far stay in the standings"
