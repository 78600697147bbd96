"""Tables by score: score bands at tables of the chosen size, leaders at table 1, repeated
tablemates undone where a near table allows, points by place."""
import itertools
import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from games.tournaments.entrants import Entrant
from games.tournaments import tables
from games.tournaments.tables import (POINTS_BY_PLACE, SWAP_REACH, place_points, seat_round, sit_out_points,
                                      table_sizes)


def field(*scores, sat_out=()):
    """Players 1..n with these scores; rating falls with the number."""
    return [Entrant(n, s, rating=100 - n, had_bye=n in sat_out) for n, s in enumerate(scores, start=1)]


def repeats(tables, met):
    earlier = {frozenset(pair) for table in met for pair in itertools.combinations(table, 2)}
    return sum(frozenset(pair) in earlier for table in tables for pair in itertools.combinations(table, 2))


@pytest.mark.parametrize("players, sizes", [
    (12, [4, 4, 4]),
    (13, [4, 3, 3, 3]),
    (14, [4, 4, 3, 3]),
    (15, [4, 4, 4, 3]),
])
def test_tables_of_one_fewer_take_up_the_remainder(players, sizes):
    assert table_sizes(players, 4, min_size=3) == (sizes, 0)


def test_fewer_players_than_a_table_make_one_table():
    assert table_sizes(5, 6, min_size=3) == ([5], 0)


def test_tables_never_go_below_the_minimum_and_take_one_more_instead():
    assert table_sizes(10, 3, min_size=3, max_size=6) == ([3, 3, 4], 0)
    assert table_sizes(5, 4, min_size=3, max_size=6) == ([5], 0)  # not 3 + 2


def test_when_no_table_can_change_size_the_remainder_sits_out():
    assert table_sizes(10, 3, min_size=3, max_size=3) == ([3, 3, 3], 1)
    assert table_sizes(7, 6, min_size=3, max_size=6) == ([6], 1)  # 4 + 3 would break "one fewer"
    assert table_sizes(5, 4, min_size=3) == ([4], 1)


def test_too_few_players_for_a_table_is_refused():
    with pytest.raises(ValueError):
        table_sizes(2, 4, min_size=3)
    with pytest.raises(ValueError):
        table_sizes(8, 2, min_size=3)


def test_the_last_placed_who_never_sat_out_sits_out():
    seating = seat_round(field(9, 6, 6, 3, 3, 0, 0, sat_out={7}), size=3, min_size=3, max_size=3)
    assert seating.sitting_out == (6,)
    assert seating.tables == ((1, 2, 3), (4, 5, 7))


def test_leaders_sit_at_table_one_and_each_table_is_one_score_band():
    seating = seat_round(field(0, 2, 6, 4, 6, 0, 2, 4), size=4, min_size=3)
    assert seating.tables == ((3, 5, 4, 8), (2, 7, 1, 6))


def test_a_short_table_is_the_last():
    assert [len(t) for t in seat_round(field(*[0] * 7), size=4, min_size=3).tables] == [4, 3]


def test_repeated_tablemates_are_swapped_apart():
    # Nine players on one score, who sat last round exactly as the plain cut would seat them
    # again: nobody sits with an earlier tablemate.
    players = field(*[0] * 9)
    last_round = [(1, 2, 3), (4, 5, 6), (7, 8, 9)]
    seating = seat_round(players, size=3, min_size=3, met=last_round)
    assert repeats(seating.tables, last_round) == 0
    assert sorted(p for t in seating.tables for p in t) == list(range(1, 10))


def test_a_repeat_no_near_table_can_undo_stays():
    # Two tables, and four of the eight sat together: two of them must share a table again.
    players = field(*[0] * 8)
    met = [(1, 2, 3, 4)]
    seating = seat_round(players, size=4, min_size=3, met=met)
    assert repeats(seating.tables, met) == 2


def test_swaps_prefer_players_of_the_same_score():
    # 1 and 2 sat together; 2 swaps with the other 4-point player rather than a 0-point one.
    players = field(4, 4, 0, 0, 4, 0, 0, 0)
    seating = seat_round(players, size=2, min_size=2, met=[(1, 2)])
    assert seating.tables[0] == (1, 5)


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 100_000))
@example(seed=1406)  # once left player 7 two tables below their band
def test_the_first_seating_leaves_nobody_more_than_one_table_below_their_band(seed):
    rng = random.Random(seed)
    players, size = rng.randint(9, 30), rng.choice([3, 4])
    met = []
    for _ in range(rng.randint(1, 8)):  # random earlier rounds, so many seats are contested
        ids = list(range(players))
        rng.shuffle(ids)
        met += [ids[i:i + size] for i in range(0, players, size)]
    order = [Entrant(n, 0, rating=-n) for n in range(players)]
    sizes, _ = table_sizes(players, size, min_size=3, max_size=6)
    band = tables._plain_cut(order, sizes)
    seated = tables._fill(order, sizes, band, tables._meetings(met))
    assert [len(t) for t in seated] == sizes
    assert all(-SWAP_REACH <= number - band[p.id] <= 1 for number, table in enumerate(seated) for p in table)


@settings(max_examples=30, deadline=None)
@given(players=st.integers(6, 60), size=st.integers(3, 6), rounds=st.integers(1, 6), seed=st.integers(0, 10_000))
def test_simulated_rounds_keep_bands_and_seat_everyone_once(players, size, rounds, seed):
    rng = random.Random(seed)
    rating = {n: rng.gauss(0, 10) for n in range(players)}
    score = dict.fromkeys(rating, 0)
    out, met = set(), []
    for _ in range(rounds):
        entrants = [Entrant(n, score[n], rating[n], n in out) for n in rating]
        seating = seat_round(entrants, size, min_size=3, max_size=6, met=met)
        seated = [p for t in seating.tables for p in t]
        assert sorted(seated + list(seating.sitting_out)) == sorted(rating)
        assert all(3 <= len(t) <= 6 for t in seating.tables)
        # Everyone sits within SWAP_REACH tables of where the plain cut by places put them.
        order = sorted((e for e in entrants if e.id not in seating.sitting_out),
                       key=lambda e: (-e.score, -e.rating, e.id))
        plain, start = {}, 0
        for number, table in enumerate(seating.tables):
            for e in order[start:start + len(table)]:
                plain[e.id] = number
            start += len(table)
        for number, table in enumerate(seating.tables):
            assert all(abs(plain[p] - number) <= SWAP_REACH for p in table)
        for table in seating.tables:
            finish = sorted(table, key=lambda p: rating[p] + rng.gauss(0, 15))
            for p, points in place_points({p: i for i, p in enumerate(finish, start=1)}).items():
                score[p] += points
            met.append(table)
        for p in seating.sitting_out:
            out.add(p)
            score[p] += sit_out_points(size)


@pytest.mark.parametrize("size", sorted(POINTS_BY_PLACE))
def test_points_by_place_without_ties_follow_the_table(size):
    places = {f"p{n}": n for n in range(1, size + 1)}
    assert [place_points(places)[f"p{n}"] for n in range(1, size + 1)] == list(POINTS_BY_PLACE[size])


def test_tied_players_share_the_points_of_the_places_they_cover():
    assert place_points({"a": 1, "b": 2, "c": 2, "d": 4}) == {"a": 6, "b": 3, "c": 3, "d": 0}
    assert place_points({"a": 1, "b": 1, "c": 3}) == {"a": 3, "b": 3, "c": 0}


@given(places=st.lists(st.integers(1, 6), min_size=2, max_size=6))
def test_a_table_always_pays_out_the_same_total(places):
    table = dict(enumerate(places))
    assert sum(place_points(table).values()) == len(table) * (len(table) - 1)


def test_sitting_out_is_worth_a_tables_average():
    assert sit_out_points(4) == sum(POINTS_BY_PLACE[4]) / 4
