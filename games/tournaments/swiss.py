"""Swiss pairing for two-player games (the rules in plain words: docs/tournaments.md).

One round at a time: players of the same score meet, never the same two twice, and when the
number is odd the lowest-placed player who has not had a bye gets one (a bye counts as a win:
see ``standings.BYE_POINTS``).

The pairing is one maximum-weight matching of maximum cardinality (networkx's blossom
algorithm), so the search is theirs; this module only chooses the graph and the weights:

- a pair that has already played has no edge, so it can never be chosen;
- every edge's weight is dominated by its score term, which falls with the square of the two
  scores' difference: the matching first minimises the sum of squared score differences
  (floating one player down one score group twice beats floating one down two groups once);
- within that, a player who floats is the lowest of their score group (by rating) and meets
  the highest of the group below;
- within that, the conventional Swiss shape: in a score group ordered by rating, the top half
  meets the bottom half (first against first below the middle, second against second, and so
  on), which keeps the group's strongest apart until the scores separate them. Pairs inside
  one half are avoided first; then the pairs closest to that shape are preferred (so a
  rematch that blocks 1-3 in a group of four gives 1-4 and 2-3, not 1-2 and 3-4).

  ``_Weights`` has the exact tiers.

Speed: blossom on a complete graph of 1,000 players (half a million edges) takes far too
long, so above ``EXACT_UP_TO`` players the graph starts sparse (each player's edges near
their ideal partner, and the edges between the ends of neighbouring score groups) and is
widened, up to the complete graph, only while its best matching leaves someone unpaired. The
first sparse graph that pairs everyone wins, so a large field's pairing can in principle
float more than the complete graph's would (docs/tournaments.md has what was measured).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

from games.tournaments.entrants import Entrant, PlayerId, bye_candidates, check_unique, placement


@dataclass(frozen=True)
class Pairing:
    """One round: ``pairs`` top board first, each as (higher placed, lower placed); ``bye`` the
    player who sits out with a win, or None when the number is even."""
    pairs: tuple[tuple[PlayerId, PlayerId], ...]
    bye: PlayerId | None


class NoPairing(ValueError):
    """No pairing of everyone exists without two players meeting again (too many rounds for
    the field: the caller ends the event or changes format)."""


# Up to this many players the graph is complete from the start: exact, and blossom takes a
# few tenths of a second on it. Larger fields start sparse.
EXACT_UP_TO = 150

# The graph's widening steps: (how far from the ideal partner within a score group, and from
# the end of the group across groups; how many score groups apart an edge may reach). None
# means no limit; the last step is the complete graph of pairs that have not played.
COMPLETE = ((None, None),)
SPARSE_FIRST = ((4, 1), (12, 2), (None, 3), *COMPLETE)


def pair_round(players: Sequence[Entrant], played: Iterable[Iterable[PlayerId]]) -> Pairing:
    """Pairs one round of ``players``; ``played`` holds every pair that has already met."""
    order = placement(players)
    check_unique(order)
    met = {frozenset(pair) for pair in played}
    if len(order) % 2 == 0:
        pairs = _pair_everyone(order, met)
        if pairs is None:
            raise NoPairing("every pairing repeats a game")
        return Pairing(pairs, None)
    for candidate in bye_candidates(order):
        pairs = _pair_everyone([p for p in order if p.id != candidate.id], met)
        if pairs is not None:
            return Pairing(pairs, candidate.id)
    raise NoPairing("every pairing repeats a game, whoever has the bye")


def _pair_everyone(order: list[Entrant], met: set[frozenset]) -> tuple | None:
    if not order:
        return ()
    groups = _score_groups(order)
    weights = _Weights(order)
    last_size = -1
    for window, reach in COMPLETE if len(order) <= EXACT_UP_TO else SPARSE_FIRST:
        graph = _graph(groups, met, window, reach, weights)
        if graph.number_of_edges() == last_size:
            continue  # widening added nothing: the same graph fails the same way
        last_size = graph.number_of_edges()
        if graph.number_of_nodes() < len(order):
            continue  # someone has no edge at all at this width
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) == len(order):
            return _boards(matching, order)
    return None


def _score_groups(order: list[Entrant]) -> list[list[Entrant]]:
    groups: list[list[Entrant]] = []
    for player in order:
        if groups and groups[-1][0].score == player.score:
            groups[-1].append(player)
        else:
            groups.append([player])
    return groups


class _Weights:
    """Integer weights (blossom is exact on integers) in four tiers, each step of a tier
    outweighing anything the tiers below can add up to over a whole matching:

    1. the squared score difference (how far anyone floats);
    2. for a pair across score groups, the square of how far it is from the bottom of the
       upper group and the top of the lower one (who floats, and whom they meet: when two
       float together, the higher meets the higher);
    3. for a pair inside a score group, whether both come from the same half of it (the
       top-half-against-bottom-half shape broken);
    4. for a pair inside a score group, the squared distance from the ideal partner.
    """

    def __init__(self, order: list[Entrant]):
        pairs = len(order) // 2 + 1
        most = len(order) ** 2  # a distance is at most the field's size; squared, this
        self.half_step = pairs * most + 1
        self.float_step = pairs * self.half_step + 1
        self.score_step = pairs * most * self.float_step + 1
        widest = round(2 * (order[0].score - order[-1].score))  # in half points
        # Every weight stays positive, so the matching never prefers leaving an edge out.
        self.base = self.score_step * widest * widest + self.float_step * most + self.half_step + most + 1

    def within(self, same_half: bool, distance: int) -> int:
        return self.base - self.half_step * same_half - distance * distance

    def across(self, half_points_apart: int, distance: int) -> int:
        return self.base - self.score_step * half_points_apart ** 2 - self.float_step * distance * distance


def _graph(groups, met, window, reach, weights) -> nx.Graph:
    graph = nx.Graph()
    for a, upper in enumerate(groups):
        _within(graph, upper, met, window, weights)
        last = len(groups) if reach is None else min(len(groups), a + reach + 1)
        for lower in groups[a + 1:last]:
            _across(graph, upper, lower, met, window, weights)
    return graph


def _within(graph, group, met, window, weights) -> None:
    """Edges inside one score group, near the top-half-against-bottom-half shape: position i
    ideally meets position i + half (positions by rating; the odd one out is the last)."""
    half = len(group) // 2
    for i, p in enumerate(group):
        if window is None:
            partners = range(i + 1, len(group))
        else:
            partners = range(max(i + 1, i + half - window), min(len(group), i + half + window + 1))
        for j in partners:
            q = group[j]
            if frozenset((p.id, q.id)) not in met:
                graph.add_edge(p.id, q.id, weight=weights.within((i < half) == (j < half), j - i - half))


def _across(graph, upper, lower, met, window, weights) -> None:
    """Edges between two score groups, best between the bottom of the upper group and the top
    of the lower one: a pair's distance is how far each is from that end of their group."""
    gap = round(2 * (upper[0].score - lower[0].score))  # in half points, so draws stay exact
    for i in range(len(upper) - 1, -1, -1):
        from_bottom = len(upper) - 1 - i
        if window is not None and from_bottom > window:
            break
        for j, q in enumerate(lower):
            distance = from_bottom + j
            if window is not None and distance > window:
                break
            p = upper[i]
            if frozenset((p.id, q.id)) not in met:
                graph.add_edge(p.id, q.id, weight=weights.across(gap, distance))


def _boards(matching, order: list[Entrant]) -> tuple:
    place = {p.id: n for n, p in enumerate(order)}
    pairs = [tuple(sorted(pair, key=place.__getitem__)) for pair in matching]
    return tuple(sorted(pairs, key=lambda pair: place[pair[0]]))
