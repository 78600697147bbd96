import json
from collections import Counter

import pytest

from games.rules.rng import Rng, new_rng_state


def test_same_seed_same_draws():
    a, b = new_rng_state(42), new_rng_state(42)
    assert [Rng(a).below(1000) for _ in range(50)] == [Rng(b).below(1000) for _ in range(50)]


def test_different_seeds_differ():
    a, b = Rng(new_rng_state(1)), Rng(new_rng_state(2))
    assert [a.below(10**9) for _ in range(5)] != [b.below(10**9) for _ in range(5)]


def test_state_is_json_and_resumes_exactly():
    state = new_rng_state(7)
    rng = Rng(state)
    rng.shuffle(list(range(10)))
    saved = json.loads(json.dumps(state))
    expected = [rng.die() for _ in range(20)]
    assert [Rng(saved).die() for _ in range(20)] == expected


def test_die_is_roughly_uniform():
    rng = Rng(new_rng_state(3))
    counts = Counter(rng.die() for _ in range(60000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(9000 < c < 11000 for c in counts.values())


def test_shuffle_is_a_permutation_and_random_is_in_range():
    rng = Rng(new_rng_state(9))
    items = list(range(52))
    rng.shuffle(items)
    assert sorted(items) == list(range(52)) and items != list(range(52))
    assert all(0 <= rng.random() < 1 for _ in range(1000))


def test_below_rejects_empty_range():
    with pytest.raises(ValueError):
        Rng(new_rng_state(1)).below(0)


def test_below_draws_exactly_as_its_plain_definition():
    # Small bounds (the engines' cards and seats), 1, and bounds near 2**63 and 2**64 where
    # about half or nearly all of the 64-bit draws are rejected and drawn again.
    # Bounds on both sides of the table of small bounds' limits (rng._SMALL) too.
    bounds = list(range(1, 300)) + [510, 511, 512, 513, 1000] + [2**32 + 1, 2**63 + 1, 2**63 + 12345, 2**64 - 1,
                                                                  2**64, 3 * 2**62 + 7]
    for seed in (0, 1, 2**64 - 1, 987654321):
        fast, plain = new_rng_state(seed), new_rng_state(seed)
        for bound in bounds * 3:
            assert Rng(fast).below(bound) == Rng(plain)._below_plain(bound)
            assert fast == plain
    rejected = new_rng_state(5)
    draws = [Rng(rejected).below(2**63 + 1) for _ in range(200)]
    assert rejected["n"] > 250 and len(set(draws)) == 200  # the rejection path was taken


def test_shuffle_draws_and_swaps_exactly_as_its_plain_definition():
    for seed in range(40):
        for length in list(range(0, 12)) + [52, 100, 311, 600]:  # 600: past the table of small bounds
            fast, plain = new_rng_state(seed * 31 + length), new_rng_state(seed * 31 + length)
            fast["n"] = plain["n"] = seed * 7  # part-way through a game's draws
            a, b = list(range(length)), list(range(length))
            Rng(fast).shuffle(a)
            Rng(plain)._shuffle_plain(b)
            assert a == b and fast == plain


def test_draws_below_and_shuffle_interleave_exactly_as_the_plain_ones():
    fast, plain = new_rng_state(77), new_rng_state(77)
    deck_a, deck_b = list(range(30)), list(range(30))
    for i in range(50):
        Rng(fast).shuffle(deck_a)
        Rng(plain)._shuffle_plain(deck_b)
        assert Rng(fast).below(i + 2) == Rng(plain)._below_plain(i + 2)
        assert Rng(fast).next64() == Rng(plain).next64()
    assert deck_a == deck_b and fast == plain


def test_the_table_of_limits_is_the_plain_limit_for_every_small_bound():
    from games.rules import rng

    assert len(rng._LIMITS) == rng._SMALL
    assert all(rng._LIMITS[b] == rng._MASK - (rng._MASK + 1) % b for b in range(1, rng._SMALL))
