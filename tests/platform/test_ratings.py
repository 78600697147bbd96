"""Ratings (games/players/ratings.py): a finished rated game moves every player's rating exactly
as openskill's Plackett–Luce computes for the same result, once, in the transaction that
records the end, on the synchronous and the batched path; unrated games move nothing; the
recompute command rebuilds the stored ratings exactly."""
import asyncio
import random
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone
from openskill.models import PlackettLuce

from games.live import live_moves
from games.players import ratings
from games.table import services
from grailsite.errors import MoveRejected
from games.models import Match, Rating, RatingChange, Seat
from tests.conftest import seated_players_moved

pytestmark = pytest.mark.django_db
# Tests whose rows must be committed (threads, the event loop), as elsewhere in the suite.
committed = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def _end(match, creator, winners, draw=False, key=None):
    return services.move_submit(match_id=match.pk, user=creator, move={"type": "end", "winners": winners, "draw": draw},
                                version=None, key=key)


def _library(history: list[tuple[list[int], list[int]]]) -> dict[int, tuple[float, float]]:
    """The library alone, fresh: each game is (players in seat order, their ranks)."""
    model = PlackettLuce()
    now = {}
    for players, ranks in history:
        teams = [[now.get(p, model.rating())] for p in players]
        for p, team in zip(players, model.rate(teams, ranks=ranks)):
            now[p] = team[0]
    return {p: (r.mu, r.sigma) for p, r in now.items()}


def _stored(users) -> dict[int, tuple[float, float]]:
    rows = {r.user_id: (r.mu, r.sigma) for r in Rating.objects.filter(user__in=users)}
    return {u.pk: rows[u.pk] for u in users if u.pk in rows}


def test_a_two_player_game_moves_both_ratings_as_the_library_computes(make_match):
    match, (alice, bob) = make_match(kind="podium", seats=2)
    assert match.rated
    _end(match, alice, [1])
    assert _stored([alice, bob]) == _library([([alice.pk, bob.pk], [2, 1])])
    changes = {c.user_id: c for c in RatingChange.objects.filter(match=match)}
    assert changes[bob.pk].rank == 1 and changes[alice.pk].rank == 2
    assert changes[bob.pk].display_after > ratings.NEW_DISPLAY > changes[alice.pk].display_after
    assert Rating.objects.get(user=bob, kind="podium").games == 1


def test_four_player_games_with_ties_and_draws_move_ratings_as_the_library_computes(make_match, make_user):
    users = [make_user() for _ in range(5)]
    a, b, c, d, e = users
    games = [([a, b, c, d], [2], False),      # one winner, three tied losers
             ([b, c, d, e], [0, 3], False),   # two winners
             ([e, a, c, b], [], True),        # a draw: all tied
             ([d, a, e, c], [1], False)]
    history = []
    for players, winners, draw in games:
        match, _ = make_match(kind="podium", users=players, seats=len(players))
        _end(match, players[0], winners, draw)
        ranks = [1 if draw or i in winners else 2 for i in range(len(players))]
        history.append(([p.pk for p in players], ranks))
    assert _stored(users) == _library(history)
    assert Rating.objects.get(user=a, kind="podium").games == 3


def test_a_resign_and_a_timeout_count_as_losses(make_match):
    match, (alice, bob) = make_match(kind="duel")
    seated_players_moved(match)
    services.match_resign(match_id=match.pk, user=alice)
    assert {c.user_id: c.rank for c in RatingChange.objects.filter(match=match)} == {alice.pk: 2, bob.pk: 1}

    match, (carol, dave, erin) = make_match(kind="podium", seats=3)
    seated_players_moved(match)
    Seat.objects.filter(match=match, index=0).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.deadline_expire(match_id=match.pk, seat_index=0)
    assert {c.user_id: c.rank for c in RatingChange.objects.filter(match=match)} == {carol.pk: 2, dave.pk: 1, erin.pk: 1}


def test_a_seat_a_computer_took_over_rates_the_person_who_left_it_as_a_loss():
    """Whatever the computer did in the seat afterwards (here it won), the person who left
    it lost; a computer's own seat is not rated."""
    class S:
        def __init__(self, index, user_id=None, left_by_id=None):
            self.index, self.user_id, self.left_by_id = index, user_id, left_by_id

    seats = [S(0, 10), S(1, None, 11), S(2, 12), S(3)]
    assert ratings.entries({"winners": [1], "draw": False}, seats) == [
        ratings.Entry(10, 0, 2), ratings.Entry(11, 1, 2), ratings.Entry(12, 2, 2)]
    assert [e.rank for e in ratings.entries({"winners": [], "draw": True}, seats)] == [1, 2, 1]


def test_unrated_games_move_nothing(make_match, make_user):
    # The creator turned "rated" off.
    match, (alice, bob) = make_match(kind="podium", rated=False)
    assert not match.rated
    _end(match, alice, [0])
    # A computer seat makes a game unrated, whatever the creator asked.
    carol = make_user()
    vs = services.match_create(creator=carol, kind="duel", num_seats=2, computers_at={1: "random"})
    assert not vs.rated and vs.practice
    services.match_resign(match_id=vs.pk, user=carol)
    # Abandoned before the first move.
    match, (dave, erin) = make_match(kind="podium")
    services.match_abandon(match_id=match.pk, user=dave)
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_a_resent_end_and_a_second_call_change_nothing(make_match):
    match, (alice, bob) = make_match(kind="podium")
    first = _end(match, alice, [0], key="the-end")
    again = _end(match, alice, [0], key="the-end")
    assert again == {**first, "repeated": True}
    with pytest.raises(MoveRejected):
        _end(match, alice, [1])
    before = _stored([alice, bob])
    match.refresh_from_db()
    assert ratings.record_end(match, list(match.seats.all())) == []
    assert _stored([alice, bob]) == before
    assert RatingChange.objects.filter(match=match).count() == 2
    call_command("replay_check")
    assert _stored([alice, bob]) == before


@committed
def test_a_racing_double_end_rates_once(make_match, run_threads):
    match, (alice, bob, carol) = make_match(kind="podium", seats=3)
    results = run_threads(lambda: _end(match, alice, [1], key="one"), lambda: _end(match, alice, [2], key="two"))
    assert sum(isinstance(r, dict) for r in results) == 1
    assert sum(isinstance(r, MoveRejected) for r in results) == 1
    assert RatingChange.objects.filter(match=match).count() == 3
    assert all(r.games == 1 for r in Rating.objects.all())


@committed
def test_two_games_ending_at_once_with_a_player_in_common_both_count(make_match, make_user, run_threads):
    alice = make_user()
    one, (_, bob) = make_match(kind="podium", users=[alice, make_user()])
    two, (_, carol) = make_match(kind="podium", users=[alice, make_user()])
    run_threads(lambda: _end(one, alice, [0]), lambda: _end(two, alice, [0]))
    assert Rating.objects.get(user=alice, kind="podium").games == 2
    call_command("ratings_recompute")  # equal, in the order the updates were made


@committed
def test_an_end_made_in_a_batch_on_the_socket_path_rates_once(make_match):
    """The batched path (games/live/live_moves.py) hands a rated end to the synchronous path, which
    rates it once; an unrated end stays in the batch."""
    match, (alice, bob) = make_match(kind="podium")
    unrated, (carol, dave) = make_match(kind="podium", rated=False)
    before = dict(live_moves.counts)

    async def ends():
        return await asyncio.gather(
            live_moves.move_submit(match_id=match.pk, user=alice, move={"type": "end", "winners": [1], "draw": False}, version=None,
                                   key="end"),
            live_moves.move_submit(match_id=unrated.pk, user=carol, move={"type": "end", "winners": [1], "draw": False}, version=None,
                                   key="end"))

    answers = asyncio.run(ends())
    assert all(a["repeated"] is False for a in answers)
    assert live_moves.counts["ordinary"] - before["ordinary"] == 1
    assert live_moves.counts["batched"] - before["batched"] == 1
    assert RatingChange.objects.filter(match=match).count() == 2
    assert not RatingChange.objects.filter(match=unrated).exists()
    assert _stored([alice, bob]) == _library([([alice.pk, bob.pk], [2, 1])])
    again = asyncio.run(live_moves.move_submit(match_id=match.pk, user=alice, move={"type": "end", "winners": [1], "draw": False},
                                               version=None, key="end"))
    assert again["repeated"] and RatingChange.objects.filter(match=match).count() == 2


def test_provisional_until_ten_games_and_leaderboard_lists_only_the_established(make_match, make_user):
    alice, bob, carol = make_user(), make_user(), make_user()
    for n in range(ratings.PROVISIONAL_GAMES):
        match, _ = make_match(kind="podium", users=[alice, bob])
        _end(match, alice, [n % 2])
    match, _ = make_match(kind="podium", users=[alice, carol])
    _end(match, alice, [1])
    assert not ratings.is_provisional(Rating.objects.get(user=alice, kind="podium"))
    assert ratings.is_provisional(Rating.objects.get(user=carol, kind="podium"))
    board = list(ratings.leaderboard("podium"))
    assert [r.user_id for r in board] == sorted([alice.pk, bob.pk], key=lambda u: -Rating.objects.get(
        user_id=u, kind="podium").display)


def test_recompute_equals_stored_after_500_random_games_and_finds_a_tampered_rating(make_user):
    rng = random.Random(32)
    users = [make_user() for _ in range(14)]
    for _ in range(500):
        kind = rng.choice(["podium", "duel"])
        if kind == "duel":
            a, b = rng.sample(users, 2)
            match = services.match_create(creator=a, kind="duel", num_seats=2, invite=[b.username], seed=1)
            services.match_join(match_id=match.pk, user=b)
            seated_players_moved(match)
            services.match_resign(match_id=match.pk, user=rng.choice([a, b]))
            continue
        players = rng.sample(users, rng.randint(2, 6))
        match = services.match_create(creator=players[0], kind="podium", num_seats=len(players),
                                      invite=[p.username for p in players[1:]], seed=1)
        for p in players[1:]:
            services.match_join(match_id=match.pk, user=p)
        draw = rng.random() < 0.1
        winners = rng.sample(range(len(players)), rng.choice([1, 1, 1, 2]))
        _end(match, players[0], [] if draw else winners, draw)
    assert Match.objects.filter(rated=True, status="finished").count() == 500
    rebuilt = ratings.recompute()
    assert rebuilt.games == 500 and ratings.differences(rebuilt) == []
    call_command("ratings_recompute")

    Rating.objects.filter(pk=Rating.objects.order_by("pk").first().pk).update(mu=30.0)
    with pytest.raises(CommandError):
        call_command("ratings_recompute")
    call_command("ratings_recompute", "--write")
    call_command("ratings_recompute")


def test_histories_reads_every_kinds_latest_changes_in_one_statement(make_match, make_user):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    alice, bob = make_user(), make_user()
    for n in range(5):
        match, _ = make_match(kind="podium", users=[alice, bob])
        _end(match, alice, [n % 2])
    duel, _ = make_match(kind="duel", users=[alice, bob])
    seated_players_moved(duel)
    services.match_resign(match_id=duel.pk, user=bob)
    with CaptureQueriesContext(connection) as ctx:
        got = ratings.histories(alice.pk, limit=3)
    assert len(ctx.captured_queries) == 1
    assert [c.pk for c in got["podium"]] == [c.pk for c in ratings.history(alice.pk, "podium", limit=3)]
    assert len(got["podium"]) == 3 and len(got["duel"]) == 1
