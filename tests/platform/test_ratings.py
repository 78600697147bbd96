"""Ratings (games/players/ratings.py): a finished rated game moves every player's rating exactly
as openskill's Plackett–Luce computes for the same result, once, in the transaction that
records the end, on the synchronous and the batched path; unrated games move nothing; the
recompute command rebuilds the stored ratings exactly."""
import asyncio
import random
from datetime import timedelta

from types import SimpleNamespace

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone
from openskill.models import PlackettLuce

from games import registry
from games.live import live_moves
from games.players import ratings
from games.table import services
from grailsite.errors import MoveRejected
from games.models import Match, Rating, RatingChange, Seat
from tests.podium_game import everyone_moves

pytestmark = pytest.mark.django_db
# Tests whose rows must be committed (threads, the event loop), as elsewhere in the suite.
committed = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def _end(match, creator, winners, draw=False, key=None):
    everyone_moves(match)
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


def _duel_moves(match, users, count=2):
    """Play ``count`` moves of Grail Duel, each by the seat whose turn it is (its first card)."""
    for _ in range(count):
        match.refresh_from_db()
        turn = match.state["turn"]
        move = registry.get("duel").legal_moves(match.state, turn)[0]
        services.move_submit(match_id=match.pk, user=users[turn], move=move, version=None)


def test_a_resign_and_a_timeout_count_as_losses(make_match):
    match, (alice, bob) = make_match(kind="duel")
    _duel_moves(match, [alice, bob])
    services.match_resign(match_id=match.pk, user=alice)
    assert {c.user_id: c.rank for c in RatingChange.objects.filter(match=match)} == {alice.pk: 2, bob.pk: 1}

    # In a game of two, running out of time on one's own turn after a move of one's own loses it.
    match, (carol, dave) = make_match(kind="duel")
    _duel_moves(match, [carol, dave])
    Seat.objects.filter(match=match, index=0).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.deadline_expire(match_id=match.pk, seat_index=0)
    assert {c.user_id: c.rank for c in RatingChange.objects.filter(match=match)} == {carol.pk: 2, dave.pk: 1}


def test_those_who_leave_rank_below_everyone_who_played_the_game_out(make_match):
    """In a game of four: one wins, two play it out and lose, one walks out (the others play
    on without them): the walker-out ranks alone at the bottom."""
    match, (alice, bob, carol, dave) = make_match(kind="podium", seats=4)
    everyone_moves(match)
    services.match_resign(match_id=match.pk, user=carol)  # walks out: the others play on
    services.move_submit(match_id=match.pk, user=alice, move={"type": "end", "winners": [0], "draw": False}, version=None)
    ranks = {c.user_id: c.rank for c in RatingChange.objects.filter(match=match)}
    assert ranks == {alice.pk: 1, bob.pk: 2, dave.pk: 2, carol.pk: 3}
    assert _stored([alice, bob, carol, dave]) == _library([([alice.pk, bob.pk, carol.pk, dave.pk], [1, 2, 3, 2])])

    # In a draw, those who played it out share the top, the one who left is below them.
    draw, (erin, fred, gina) = make_match(kind="podium", seats=3)
    everyone_moves(draw)
    services.match_resign(match_id=draw.pk, user=gina)
    services.move_submit(match_id=draw.pk, user=erin, move={"type": "end", "winners": [], "draw": True}, version=None)
    assert {c.user_id: c.rank for c in RatingChange.objects.filter(match=draw)} == {erin.pk: 1, fred.pk: 1,
                                                                                   gina.pk: 2}


def test_a_game_in_which_a_person_made_no_move_of_their_own_is_not_rated_and_says_so(client, make_match):
    match, (alice, bob, carol) = make_match(kind="podium", seats=3)
    services.move_submit(match_id=match.pk, user=bob, move={"type": "say"}, version=None)
    services.move_submit(match_id=match.pk, user=alice, move={"type": "end", "winners": [1], "draw": False}, version=None)
    match.refresh_from_db()
    assert match.status == "finished" and not RatingChange.objects.exists() and not Rating.objects.exists()
    assert match.outcome["not_rated"] == "Not rated: Seat 3 made no move of their own."
    client.force_login(alice)
    ending = client.get(f"/api/matches/{match.pk}/").json()["ending"]
    assert ending["rating_note"] == f"Not rated: {carol.username} made no move of their own."
    assert ending["ratings"] == []
    # A seat left to a computer counts its person's own moves (none here either): entries
    # rate them, the check refuses the game.
    seats = [SimpleNamespace(index=0, user_id=1, left_by_id=None, own_moves=3, walked_out=False),
             SimpleNamespace(index=1, user_id=None, left_by_id=2, own_moves=0, walked_out=False)]
    assert ratings.not_counted(seats) == "Seat 2 made no move of their own"
    seats[1] = SimpleNamespace(index=1, user_id=None, left_by_id=2, own_moves=1, walked_out=False)
    assert ratings.not_counted(seats) is None


def test_a_second_account_that_resigns_twelve_duels_before_its_first_move_moves_nothing(make_user):
    """Each is aborted: no result, no rating."""
    main, alt = make_user("main"), make_user("alt")
    for _ in range(12):
        match = services.match_create(creator=main, kind="duel", num_seats=2, invite=["alt"])
        services.match_join(match_id=match.pk, user=alt)
        match.refresh_from_db()
        if match.state["turn"] == 0:
            _duel_moves(match, [main, alt], count=1)  # the first account plays; the second never does
        services.match_resign(match_id=match.pk, user=alt)
        match.refresh_from_db()
        assert match.status == "aborted"
    assert not RatingChange.objects.exists() and not Rating.objects.filter(user=main).exists()


def test_a_second_account_that_moves_then_resigns_twelve_times_a_day_counts_only_the_daily_cap(client, make_user,
                                                                                                settings):
    settings.RATED_PAIR_DAILY = 3
    main, alt, third = make_user("main"), make_user("alt"), make_user("third")
    games = []
    for _ in range(12):
        match = services.match_create(creator=main, kind="duel", num_seats=2, invite=["alt"])
        services.match_join(match_id=match.pk, user=alt)
        _duel_moves(match, [main, alt])
        services.match_resign(match_id=match.pk, user=alt)
        games.append(match)
    assert Rating.objects.get(user=main, kind="duel").games == 3
    counted = set(RatingChange.objects.values_list("match_id", flat=True))
    assert counted == {g.pk for g in games[:3]}
    last = games[-1]
    last.refresh_from_db()
    assert last.status == "finished" and last.outcome["winners"] == [0]  # played, won, not rated
    assert last.outcome["not_rated"].startswith("Not rated: these two players already had 3 rated games together")
    client.force_login(main)
    assert "already had 3 rated games" in client.get(f"/api/matches/{last.pk}/").json()["ending"]["rating_note"]
    # Another opponent's games still count; a day later the pair's count again.
    other = services.match_create(creator=main, kind="duel", num_seats=2, invite=["third"])
    services.match_join(match_id=other.pk, user=third)
    _duel_moves(other, [main, third])
    services.match_resign(match_id=other.pk, user=third)
    assert RatingChange.objects.filter(match=other).count() == 2
    Match.objects.filter(pk__in=[g.pk for g in games]).update(finished_at=timezone.now() - timedelta(hours=25))
    again = services.match_create(creator=main, kind="duel", num_seats=2, invite=["alt"])
    services.match_join(match_id=again.pk, user=alt)
    _duel_moves(again, [main, alt])
    services.match_resign(match_id=again.pk, user=alt)
    assert RatingChange.objects.filter(match=again).count() == 2


def test_a_seat_a_computer_took_over_rates_the_person_who_left_it_last():
    """Whatever the computer did in the seat afterwards (here it won), the person who left
    it ranks below everyone who played the game out; a computer's own seat is not rated."""
    class S:
        def __init__(self, index, user_id=None, left_by_id=None, walked_out=False):
            self.index, self.user_id, self.left_by_id, self.walked_out = index, user_id, left_by_id, walked_out

    seats = [S(0, 10), S(1, None, 11), S(2, 12), S(3)]
    assert ratings.entries({"winners": [1], "draw": False}, seats) == [
        ratings.Entry(10, 0, 1), ratings.Entry(11, 1, 2), ratings.Entry(12, 2, 1)]
    assert ratings.entries({"winners": [0], "draw": False}, seats) == [
        ratings.Entry(10, 0, 1), ratings.Entry(11, 1, 3), ratings.Entry(12, 2, 2)]
    assert [e.rank for e in ratings.entries({"winners": [], "draw": True}, seats)] == [1, 2, 1]
    seats = [S(0, 10), S(1, None, 11), S(2, 12, walked_out=True), S(3, 13)]
    assert [e.rank for e in ratings.entries({"winners": [3], "draw": False}, seats)] == [2, 3, 3, 1]


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
    everyone_moves(match)
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


def test_provisional_until_ten_games_and_leaderboard_lists_only_the_established(make_match, make_user, settings):
    settings.RATED_PAIR_DAILY = 100  # the same two play eleven games in a row here
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


def test_recompute_equals_stored_after_120_random_games_and_finds_a_tampered_rating(make_user, settings):
    """Games of two to six, some with a player who walked out, some where someone never
    moved, and pairs that play more than their daily cap (two here, so that few games reach
    it): the replay makes the same choices as the games' ends did, to the last bit."""
    settings.RATED_PAIR_DAILY = 2
    rng = random.Random(32)
    users = [make_user() for _ in range(10)]
    for _ in range(120):
        players = rng.sample(users, rng.choice([2, 2, 2, 3, 4, 6]))
        match = services.match_create(creator=players[0], kind="podium", num_seats=len(players),
                                      invite=[p.username for p in players[1:]], seed=1)
        for p in players[1:]:
            services.match_join(match_id=match.pk, user=p)
        if rng.random() < 0.95:
            everyone_moves(match)
        if len(players) > 2 and rng.random() < 0.3:
            services.match_resign(match_id=match.pk, user=players[-1])  # walks out; the others play on
            if Match.objects.get(pk=match.pk).status != "active":
                continue  # before their first move: aborted
        if len(players) == 2 and rng.random() < 0.3:
            services.match_resign(match_id=match.pk, user=rng.choice(players))
            continue
        draw = rng.random() < 0.1
        winners = rng.sample(range(len(players)), rng.choice([1, 1, 1, 2]))
        services.move_submit(match_id=match.pk, user=players[0], version=None,
                             move={"type": "end", "winners": [] if draw else winners, "draw": draw})
    finished = Match.objects.filter(rated=True, status="finished").count()
    rebuilt = ratings.recompute()
    assert ratings.differences(rebuilt) == []
    rated = RatingChange.objects.values("match").distinct().count()
    assert rebuilt.games == rated and rated + len(rebuilt.not_counted) <= finished
    assert any("made no move" in why for why in rebuilt.not_counted.values())
    assert any("rated games together" in why for why in rebuilt.not_counted.values())
    call_command("ratings_recompute")

    Rating.objects.filter(pk=Rating.objects.order_by("pk").first().pk).update(mu=30.0)
    with pytest.raises(CommandError):
        call_command("ratings_recompute")
    call_command("ratings_recompute", "--write")
    call_command("ratings_recompute")


def test_histories_reads_every_kinds_latest_changes_in_one_statement(make_match, make_user, settings):
    settings.RATED_PAIR_DAILY = 100
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    alice, bob = make_user(), make_user()
    for n in range(5):
        match, _ = make_match(kind="podium", users=[alice, bob])
        _end(match, alice, [n % 2])
    duel, _ = make_match(kind="duel", users=[alice, bob])
    _duel_moves(duel, [alice, bob])
    services.match_resign(match_id=duel.pk, user=bob)
    with CaptureQueriesContext(connection) as ctx:
        got = ratings.histories(alice.pk, limit=3)
    assert len(ctx.captured_queries) == 1
    assert [c.pk for c in got["podium"]] == [c.pk for c in ratings.history(alice.pk, "podium", limit=3)]
    assert len(got["podium"]) == 3 and len(got["duel"]) == 1
