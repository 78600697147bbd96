"""Tables by score and round robin, run to their end: nine players of Fluxx at tables of three,
and a round robin of Grail Duel in which a player withdraws."""
from __future__ import annotations

from collections import Counter

import pytest

from games.models import Notification, Tournament, TournamentGame
from games.tournaments import selectors, services
from tests.platform.tournament_helpers import commit, play_out, rounds_inline  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("rounds_inline")]


def _entered(commit, make_user, tournament, count):
    users = [make_user(f"player{n}") for n in range(count)]
    for user in users:
        commit(services.tournament_join, tournament_id=tournament.pk, user=user)
    return users


def test_nine_players_of_fluxx_at_tables_of_three_to_the_end(make_user, commit):
    organiser = make_user("merlin")
    t = services.tournament_create(organiser=organiser, kind="fluxx", format="tables", name="Fluxx Fair",
                                   rounds=2, table_size=3, max_players=9)
    users = _entered(commit, make_user, t, 9)
    commit(services.tournament_start, tournament_id=t.pk, user=organiser)
    for number in (1, 2):
        tables = list(TournamentGame.objects.filter(tournament=t, round__number=number).order_by("board"))
        assert [(g.kind, len(g.players)) for g in tables] == [("game", 3)] * 3
        assert sorted(p for g in tables for p in g.players) == sorted(t.entries.values_list("pk", flat=True))
        if number == 2:
            # Seated by score: the three best after round 1 share table 1 (each won a table).
            before = _scores(t, upto=1)
            best = sorted(before, key=lambda p: -before[p])[:3]
            assert {before[p] for p in best} == {4} and sorted(tables[0].players) == sorted(best)
            met = {frozenset((a, b)) for g in TournamentGame.objects.filter(tournament=t, round__number=1)
                   for a in g.players for b in g.players if a != b}
            assert not any(frozenset((a, b)) in met for g in tables for a in g.players for b in g.players if a != b), \
                "nobody sits again with a tablemate of round 1"
        for g in tables:
            # Random legal moves, then the players resign one by one (last seat first).
            play_out(g.match_id, commit, seed=number * 7 + g.board, resign_after=30)
            g.refresh_from_db()
            assert g.places is not None and g.places.count(1) >= 1
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    found = selectors.detail(t)
    assert len(found.standings) == 9
    assert sum(line.standing.score for line in found.standings) == 2 * 3 * 6, "each table of three pays 6 points"
    assert [line.standing.rank for line in found.standings] == sorted(line.standing.rank for line in found.standings)
    ended = Notification.objects.filter(kind="tournament", text__startswith="Fluxx Fair has ended")
    assert sorted(n.user_id for n in ended) == sorted(u.pk for u in users)


def _scores(t, upto):
    points = Counter()
    for g in TournamentGame.objects.filter(tournament=t, round__number__lte=upto, kind="game"):
        for player, p in zip(g.players, selectors.game_points(t, g)):
            points[player] += p
    return points


def test_a_round_robin_of_grail_duel_with_a_withdrawal(make_user, commit):
    organiser = make_user("merlin")
    t = services.tournament_create(organiser=organiser, kind="duel", format="round_robin", table_size=4,
                                   max_players=8)
    users = _entered(commit, make_user, t, 4)
    commit(services.tournament_start, tournament_id=t.pk, user=organiser)
    t.refresh_from_db()
    assert t.rounds == 3, "everyone meets everyone once: three rounds for four"
    # Withdrawing during round 1: their game of round 1 is still theirs to play; the rounds
    # paired after it give their opponents a win without play.
    leaver = t.entries.get(user=users[0])
    commit(services.tournament_leave, tournament_id=t.pk, user=users[0])
    for g in TournamentGame.objects.filter(tournament=t, round__number=1):
        assert g.kind == "game"
        play_out(g.match_id, commit, seed=g.board)
    for number in (2, 3):
        games = list(TournamentGame.objects.filter(tournament=t, round__number=number))
        kinds = Counter(g.kind for g in games)
        assert kinds == {"game": 1, "forfeit": 1}, "the player who left forfeits the games they were due"
        forfeit = next(g for g in games if g.kind == "forfeit")
        assert leaver.pk in forfeit.players and forfeit.places[forfeit.players.index(leaver.pk)] == 2
        for g in games:
            if g.kind == "game":
                play_out(g.match_id, commit, seed=number)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    pairs = Counter(frozenset(g.players) for g in TournamentGame.objects.filter(tournament=t))
    assert len(pairs) == 6 and set(pairs.values()) == {1}, "every pair met exactly once"
    found = selectors.detail(t)
    assert {line.group for line in found.standings} == {1}
    assert sum(line.standing.score for line in found.standings) == 6
