"""A tournament's page, its live part and its API answer read the database the same number of
times however many players and rounds it has (bench/tournaments.py --page has the figures)."""
from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Match, Tournament, TournamentEntry, TournamentGame, TournamentRound

pytestmark = pytest.mark.django_db


def _finished_swiss(make_user, players: int, rounds: int) -> Tournament:
    """A finished Swiss of bare rows: each round pairs neighbours, results at random."""
    rng = random.Random(players * 100 + rounds)
    organiser = make_user()
    now = timezone.now()
    t = Tournament.objects.create(name=f"{players}x{rounds}", kind="duel", format="swiss", organiser=organiser,
                                  rounds=rounds, max_players=players, status="finished", current_round=rounds)
    entries = [TournamentEntry.objects.create(tournament=t, user=make_user()) for _ in range(players)]
    for number in range(1, rounds + 1):
        round_ = TournamentRound.objects.create(tournament=t, number=number, started_at=now, deadline=now,
                                                closed_at=now)
        rng.shuffle(entries)
        for board in range(players // 2):
            match = Match.objects.create(kind="duel", creator=organiser, num_seats=2, seed=0, status="finished",
                                         competition="tournament")
            TournamentGame.objects.create(round=round_, tournament=t, board=board + 1, match=match,
                                          players=[entries[2 * board].pk, entries[2 * board + 1].pk],
                                          places=rng.choice([[1, 2], [2, 1], [1, 1]]), decided_at=now)
    return t


def _statements(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_the_page_reads_the_same_whatever_the_size(client, make_user):
    small, large = _finished_swiss(make_user, 4, 1), _finished_swiss(make_user, 16, 4)
    for url in ("/tournaments/{}/", "/tournaments/{}/?part=live", "/api/tournaments/{}/"):
        counts = [_statements(client, url.format(t.pk)) for t in (small, large)]
        assert counts[0] == counts[1] <= 4, (url, counts)
    client.force_login(make_user())
    assert _statements(client, f"/tournaments/{small.pk}/") == _statements(client, f"/tournaments/{large.pk}/")
