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
