"""Swiss pairing: same scores meet, then the top half of a score group meets its bottom half;
never twice the same pair; a bye for the lowest placed who has not had one."""
import random
from contextlib import contextmanager
from fractions import Fraction

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournaments.entrants import Entrant
from games.tournaments import swiss
from games.tournaments.swiss import NoPairing, pair_round


def field(*scores, byes=()):
    """Players 1..n with these scores; rating falls with the number, so n's order is their
    place within a score."""
    return [Entrant(n, s, rating=100 - n, had_bye=n in byes) for n, s in enumerate(scores, start=1)]


def test_a_score_group_pairs_its_top_half_against_its_bottom_half():
    assert pair_round(field(*[0] * 8), played=()).pairs == ((1, 5), (2, 6), (3, 7), (4, 8))


def test_players_meet_their_own_score_group():
    players = field(1, 1, 1, 1, 0, 0, 0, 0)
    assert pair_round(players, played=()).pairs == ((1, 3), (2, 4), (5, 7), (6, 8))


def test_an_odd_group_floats_its_last_player_down_to_the_top_of_the_next():
    players = field(1, 1, 1, 0, 0, 0)
    # 3 floats down to 4, the rest pair inside their groups.
    assert pair_round(players, played=()).pairs == ((1, 2), (3, 4), (5, 6))


def test_a_float_goes_one_group_down_rather_than_two():
    # Scores 2, 1, 1, 0: 2-1 and 1-0 (two floats of one point) beat 2-0 and 1-1 (one of two).
    players = field(2, 1, 1, 0)
    pairs = pair_round(players, played=()).pairs
    assert {frozenset(p) for p in pairs} in ({frozenset((1, 2)), frozenset((3, 4))},
                                             {frozenset((1, 3)), frozenset((2, 4))})


def test_a_pair_that_has_played_is_never_paired_again():
    players = field(0, 0, 0, 0)
    assert pair_round(players, played=[(1, 3)]).pairs == ((1, 4), (2, 3))


def test_a_repeat_forces_a_float_rather_than_a_rematch():
    players = field(1, 1, 0, 0)
    pairs = pair_round(players, played=[(1, 2)]).pairs
    assert frozenset((1, 2)) not in {frozenset(p) for p in pairs}
    assert pairs == ((1, 3), (2, 4))


def test_when_no_pairing_avoids_a_rematch_the_round_cannot_be_paired():
    with pytest.raises(NoPairing):
        pair_round(field(0, 0, 0, 0), played=[(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)])


def test_an_even_field_has_no_bye():
    assert pair_round(field(0, 0, 0, 0), played=()).bye is None


def test_the_bye_goes_to_the_lowest_placed_player():
    assert pair_round(field(1, 1, 0, 0, 0), played=()).bye == 5


def test_the_bye_skips_players_who_already_had_one():
    assert pair_round(field(1, 1, 1, 0, 0, byes={4, 5}), played=()).bye == 3


def test_the_bye_moves_up_when_the_lowest_cannot_sit_out_without_a_rematch():
    # If 3 sat out, 1 and 2 would have to meet again.
    assert pair_round(field(1, 0, 0), played=[(1, 2)]).bye == 2


def test_when_everyone_had_a_bye_the_lowest_placed_has_another():
    assert pair_round(field(1, 1, 1, byes={1, 2, 3}), played=()).bye == 3


def test_a_player_listed_twice_is_refused():
    with pytest.raises(ValueError):
        pair_round([Entrant(1, 0, 0), Entrant(1, 0, 0)], played=())


@contextmanager
def exact_up_to(players):
    """Fields above ``swiss.EXACT_UP_TO`` players start from a sparse graph; 0 makes every
    field do so, a large number none."""
    kept = swiss.EXACT_UP_TO
    swiss.EXACT_UP_TO = players
    try:
        yield
    finally:
        swiss.EXACT_UP_TO = kept


SPARSE, COMPLETE = 0, 10_000


def test_the_graph_widens_when_every_pair_near_the_ideal_has_played():
    # 40 players on one score: each has met every player from 14 to 26 places below them,
    # which covers the first (narrow) graph's edges; a wider graph still pairs everyone.
    players = field(*[0] * 40)
    played = [(i, j) for i in range(1, 41) for j in range(i + 14, min(41, i + 27))]
    with exact_up_to(SPARSE):
        pairs = pair_round(players, played).pairs
    assert sorted(p for pair in pairs for p in pair) == list(range(1, 41))
    assert not {frozenset(p) for p in pairs} & {frozenset(p) for p in played}


def simulate(players, rounds, seed):
    """Plays ``rounds`` Swiss rounds with random results; yields (entrants, played, pairing)
    for each, the pairing None (and the last) when the round cannot be paired."""
    rng = random.Random(seed)
    rating = {n: rng.gauss(0, 10) for n in range(players)}
    score = dict.fromkeys(rating, Fraction(0))
    byes, played = set(), set()
    for _ in range(rounds):
        entrants = [Entrant(n, score[n], rating[n], n in byes) for n in rating]
        try:
            pairing = pair_round(entrants, played)
        except NoPairing:
            yield entrants, set(played), None
            return
        yield entrants, set(played), pairing
        for a, b in pairing.pairs:
            played.add(frozenset((a, b)))
            first = rng.choice([Fraction(1), Fraction(1, 2), Fraction(0)])
            score[a] += first
            score[b] += 1 - first
        if pairing.bye is not None:
            byes.add(pairing.bye)
            score[pairing.bye] += 1


def perfect_matching_exists(ids, played):
    graph = nx.Graph()
    graph.add_nodes_from(ids)
    graph.add_edges_from((a, b) for a in ids for b in ids if a < b and frozenset((a, b)) not in played)
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(ids)


def least_score_penalty(entrants, played):
    """The smallest sum of squared score differences of any pairing without a rematch, by
    trying them all (small fields only)."""
    score = {e.id: e.score for e in entrants}

    def best(ids):
        """The least penalty pairing ``ids``, or None if they cannot all be paired."""
        if not ids:
            return 0
        first, rest = ids[0], ids[1:]
        options = []
        for i, q in enumerate(rest):
            if frozenset((first, q)) not in played:
                others = best(rest[:i] + rest[i + 1:])
                if others is not None:
                    options.append((score[first] - score[q]) ** 2 + others)
        return min(options, default=None)

    return best(sorted(score))


@settings(max_examples=40, deadline=None)
@given(players=st.integers(min_value=2, max_value=30), seed=st.integers(0, 10_000), sparse=st.booleans())
def test_many_simulated_rounds_never_repeat_and_seat_everyone_once(players, seed, sparse):
    with exact_up_to(SPARSE if sparse else COMPLETE):
        rounds = list(simulate(players, min(players - 1, 7), seed))
    for entrants, played, pairing in rounds:
        ids = [e.id for e in entrants]
        if pairing is None:
            # Only when no pairing at all avoids a rematch (a corner of small fields).
            candidates = [ids] if len(ids) % 2 == 0 else [[i for i in ids if i != out] for out in ids]
            assert not any(perfect_matching_exists(c, played) for c in candidates)
            continue
        seated = [p for pair in pairing.pairs for p in pair] + ([pairing.bye] if pairing.bye is not None else [])
        assert sorted(seated) == sorted(ids)
        assert (pairing.bye is not None) == (players % 2 == 1)
        assert not {frozenset(p) for p in pairing.pairs} & played


@settings(max_examples=40, deadline=None)
@given(players=st.integers(min_value=3, max_value=9), seed=st.integers(0, 10_000))
def test_the_pairing_floats_as_little_as_any_pairing_could(players, seed):
    for entrants, played, pairing in simulate(players, min(players - 2, 4), seed):
        if pairing is None:
            continue  # the test above checks that such a round really has no pairing
        score = {e.id: e.score for e in entrants}
        rest = [e for e in entrants if e.id != pairing.bye]
        chosen = sum((score[a] - score[b]) ** 2 for a, b in pairing.pairs)
        assert chosen == least_score_penalty(rest, played)


@settings(max_examples=40, deadline=None)
@given(players=st.integers(min_value=3, max_value=25).filter(lambda n: n % 2), seed=st.integers(0, 10_000))
def test_the_bye_goes_to_the_lowest_placed_who_can_take_one(players, seed):
    for entrants, played, pairing in simulate(players, min(players - 2, 6), seed):
        if pairing is None:
            continue  # the test above checks that such a round really has no pairing
        order = sorted(entrants, key=lambda e: (-e.score, -e.rating, e.id))
        fresh = [e for e in reversed(order) if not e.had_bye]
        ids = [e.id for e in entrants]
        for candidate in fresh:
            if candidate.id == pairing.bye:
                break
            # Everyone placed below the bye who had none could not sit out without a rematch.
            assert not perfect_matching_exists([i for i in ids if i != candidate.id], played)
        else:
            # Nobody without a bye could take it: a second bye, to someone who had one.
            assert next(e for e in entrants if e.id == pairing.bye).had_bye


@pytest.mark.parametrize("seed", range(3))
def test_in_a_large_field_the_sparse_graph_floats_as_little_as_the_complete_one(seed):
    # 60 players, nine rounds, starting sparse; each round is also paired on the complete
    # graph, and it floats no less.
    with exact_up_to(SPARSE):
        rounds = list(simulate(60, 9, seed))
    for entrants, played, pairing in rounds:
        score = {e.id: e.score for e in entrants}
        with exact_up_to(COMPLETE):
            complete = pair_round(entrants, played)
        assert (sum((score[a] - score[b]) ** 2 for a, b in pairing.pairs)
                == sum((score[a] - score[b]) ** 2 for a, b in complete.pairs))
