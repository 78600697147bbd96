"""Round robin: snake-seeded groups; in a two-player group everyone meets everyone once; a
group of a multi-player game is one table whose seats turn."""
import itertools
from collections import Counter

import pytest

from games.tournaments.entrants import Entrant
from games.tournaments.round_robin import pair_schedule, snake_groups, table_schedule


def rated(count):
    """Players 1..count, 1 the strongest."""
    return [Entrant(n, 0, rating=1000 - n) for n in range(1, count + 1)]


def test_groups_are_seeded_like_a_snake():
    assert snake_groups(rated(8), group_size=4) == [[1, 4, 5, 8], [2, 3, 6, 7]]
    assert snake_groups(rated(9), group_size=3) == [[1, 6, 7], [2, 5, 8], [3, 4, 9]]


@pytest.mark.parametrize("players, size", [(10, 4), (11, 3), (7, 6), (25, 5), (2, 4)])
def test_groups_hold_everyone_and_differ_in_size_by_at_most_one(players, size):
    groups = snake_groups(rated(players), group_size=size)
    assert sorted(p for g in groups for p in g) == list(range(1, players + 1))
    assert max(map(len, groups)) <= size
    assert max(map(len, groups)) - min(map(len, groups)) <= 1


def test_groups_too_small_for_the_game_are_refused():
    with pytest.raises(ValueError):
        snake_groups(rated(7), group_size=6, min_size=4)  # 4 + 3
    assert [len(g) for g in snake_groups(rated(8), group_size=6, min_size=4)] == [4, 4]


@pytest.mark.parametrize("players", range(2, 15))
def test_every_pair_meets_exactly_once(players):
    schedule = pair_schedule(list(range(players)))
    assert len(schedule) == (players if players % 2 else players - 1)
    met = Counter(frozenset(p) for r in schedule for p in r.pairs)
    assert set(met) == {frozenset(p) for p in itertools.combinations(range(players), 2)}
    assert set(met.values()) == {1}


@pytest.mark.parametrize("players", range(2, 15))
def test_everyone_plays_once_a_round_and_an_odd_group_sits_out_once_each(players):
    schedule = pair_schedule(list(range(players)))
    for r in schedule:
        seated = [p for pair in r.pairs for p in pair] + ([r.sitting_out] if r.sitting_out is not None else [])
        assert sorted(seated) == list(range(players))
    outs = [r.sitting_out for r in schedule]
    if players % 2:
        assert sorted(outs) == list(range(players))
    else:
        assert outs == [None] * len(schedule)


@pytest.mark.parametrize("players", range(2, 15))
def test_everyone_plays_first_in_half_their_games(players):
    schedule = pair_schedule(list(range(players)))
    first = Counter(a for r in schedule for a, _ in r.pairs)
    games = players - 1
    assert all(abs(2 * first[p] - games) <= 1 for p in range(players))


def test_a_group_of_one_has_no_rounds():
    assert pair_schedule(["solo"]) == []


def test_a_table_group_takes_every_seat_once_each():
    schedule = table_schedule(["a", "b", "c", "d"])
    assert schedule[0] == ("a", "b", "c", "d")
    assert len(schedule) == 4
    for seat in range(4):
        assert sorted(r[seat] for r in schedule) == ["a", "b", "c", "d"]
    assert all(sorted(r) == ["a", "b", "c", "d"] for r in schedule)


def test_a_table_group_can_play_a_chosen_number_of_rounds():
    assert table_schedule(["a", "b", "c"], rounds=2) == [("a", "b", "c"), ("b", "c", "a")]
