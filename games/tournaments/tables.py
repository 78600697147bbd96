"""Tables by score for games of three to six players (the rules in plain words:
docs/tournaments.md).

Each round the players, in order of places (score, then rating), are cut into tables in that
order: a player's *band* is the table that plain cut gives them, so a table holds one score
band and the leaders sit at table 1. Two greedy steps then keep players away from earlier
tablemates, neither of them a search:

1. Seating table by table, each seat goes to the best-placed player of this table's band or
   the next ``SWAP_REACH`` ones who has sat with the fewest of the players already seated
   there (players left over from an earlier band are seated first, and a band's players are
   never left over by more than the next table can take, so nobody drifts down).
2. A swap pass: a player who still sits with an earlier tablemate is swapped with a player at
   another table, taking the swap that removes the most repeat meetings and, among those,
   moves scores least, until no swap removes any. Nobody ends more than ``SWAP_REACH`` tables
   from their band, so the bands stay; a repeat no such swap can remove stays.

When the number of players does not divide by the table size, some tables take one player
fewer (never below the game's minimum); where that cannot work, some tables take one more
(never above the game's maximum); where neither can, the last-placed players who have not yet
sat out sit out the round. The odd-sized tables are the last ones.

Points by place: 2 for every tablemate finished ahead of, 1 for every tablemate tied with, so
a table of four pays 6/4/2/0 and tied players share the points of the places they cover.
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from games.tournaments.entrants import Entrant, PlayerId, bye_candidates, check_unique, placement

# How many tables up or down a swap may reach: far enough to find a fresh tablemate, near
# enough that a table's scores stay one band.
SWAP_REACH = 2

# Points for first, second, ... place at a table of each size, no ties (the rule above,
# written out so a player can read it off).
POINTS_BY_PLACE = {
    2: (2, 0),
    3: (4, 2, 0),
    4: (6, 4, 2, 0),
    5: (8, 6, 4, 2, 0),
    6: (10, 8, 6, 4, 2, 0),
}


@dataclass(frozen=True)
class Seating:
    """One round: ``tables`` from table 1 (the leaders) down, each in order of places;
    ``sitting_out`` the players without a seat this round."""
    tables: tuple[tuple[PlayerId, ...], ...]
    sitting_out: tuple[PlayerId, ...] = ()


def place_points(places: Mapping[PlayerId, int]) -> dict[PlayerId, int]:
    """Each player's points from one table's places (1 is first; equal numbers are a tie)."""
    return {p: sum(2 if places[q] > mine else 1 if places[q] == mine else 0 for q in places if q != p)
            for p, mine in places.items()}


def sit_out_points(size: int) -> int:
    """What sitting a round out is worth: a table's average (size - 1), neither a win nor a
    loss, so the seating's choice of who sits out neither lifts nor sinks them."""
    return size - 1


def table_sizes(players: int, size: int, min_size: int, max_size: int | None = None) -> tuple[list[int], int]:
    """The sizes of a round's tables, first to last, and how many players sit out."""
    if not min_size <= size <= (max_size or size):
        raise ValueError("the table size is outside the game's player counts")
    if players < size:
        if players < min_size:
            raise ValueError(f"{players} players are too few for a table")
        return [players], 0  # one table of everyone
    full, rest = divmod(players, size)
    if rest == 0:
        return [size] * full, 0
    tables = math.ceil(players / size)
    short = tables * size - players
    if size - 1 >= min_size and short <= tables:
        return [size] * (tables - short) + [size - 1] * short, 0
    if max_size is not None and size + 1 <= max_size and 0 < rest <= full:
        return [size] * (full - rest) + [size + 1] * rest, 0
    return [size] * full, rest


def seat_round(players: Sequence[Entrant], size: int, min_size: int, max_size: int | None = None,
               met: Iterable[Iterable[PlayerId]] = ()) -> Seating:
    """Seats one round; ``met`` holds every earlier table (any group of players who sat
    together; a pair is a table of two)."""
    order = placement(players)
    check_unique(order)
    sizes, sit_count = table_sizes(len(order), size, min_size, max_size)
    out = {p.id for p in bye_candidates(order)[:sit_count]}
    seated = [p for p in order if p.id not in out]
    plain = _plain_cut(seated, sizes)
    meetings = _meetings(met)
    tables = _fill(seated, sizes, plain, meetings)
    _undo_repeats(tables, plain, meetings)
    place = {p.id: n for n, p in enumerate(order)}
    return Seating(tuple(tuple(sorted((p.id for p in t), key=place.__getitem__)) for t in tables),
                   tuple(p.id for p in order if p.id in out))


def _plain_cut(seated: list[Entrant], sizes: list[int]) -> dict[PlayerId, int]:
    """Each player's table if the order of places were simply cut into tables: their band."""
    plain, start = {}, 0
    for t, n in enumerate(sizes):
        for p in seated[start:start + n]:
            plain[p.id] = t
        start += n
    return plain


def _meetings(met: Iterable[Iterable[PlayerId]]) -> dict[PlayerId, Counter]:
    counts: dict[PlayerId, Counter] = defaultdict(Counter)
    for table in met:
        table = list(table)
        for p in table:
            for q in table:
                if p != q:
                    counts[p][q] += 1
    return counts


def _repeats(player: Entrant, others: Iterable[Entrant], meetings) -> int:
    seen = meetings.get(player.id)
    return sum(seen[q.id] for q in others if q is not player) if seen else 0


def _spread(player: Entrant, others: Iterable[Entrant]) -> float:
    return sum((player.score - q.score) ** 2 for q in others if q is not player)


def _fill(seated: list[Entrant], sizes: list[int], plain, meetings) -> list[list[Entrant]]:
    """Seats table by table, in order of places: first anyone whose band is an earlier table,
    then, seat by seat, the best-placed player of the bands from this table's to
    ``SWAP_REACH`` tables on who has sat with the fewest of those already there. Players of
    this band or earlier are taken instead whenever those left over would not all fit at the
    next table, so nobody sits more than one table below their band."""
    waiting, tables = list(seated), []
    for t, n in enumerate(sizes):
        next_size = sizes[t + 1] if t + 1 < len(sizes) else 0
        table = [p for p in waiting if plain[p.id] < t]
        candidates = [p for p in waiting if t <= plain[p.id] <= t + SWAP_REACH]
        due = sum(1 for p in candidates if plain[p.id] == t)  # band t players still waiting
        while len(table) < n:
            if due - next_size >= n - len(table):
                choice = [k for k, p in enumerate(candidates) if plain[p.id] == t]
            else:
                choice = range(len(candidates))
            pick = min(choice, key=lambda k: (_repeats(candidates[k], table, meetings), k))
            due -= plain[candidates[pick].id] == t
            table.append(candidates.pop(pick))
        taken = {p.id for p in table}
        waiting = [p for p in waiting if p.id not in taken]
        tables.append(table)
    return tables


def _undo_repeats(tables: list[list[Entrant]], plain, meetings) -> None:
    """The swap pass described above, in place. Each swap removes at least one repeat
    meeting, so it ends."""
    if not meetings:
        return
    improved = True
    while improved:
        improved = False
        for t, table in enumerate(tables):
            while any(_repeats(p, table, meetings) for p in table):
                swap = _best_swap(tables, t, plain, meetings)
                if swap is None:
                    break
                i, u, j = swap
                table[i], tables[u][j] = tables[u][j], table[i]
                improved = True


def _best_swap(tables, t, plain, meetings):
    """The swap of a player at table t who has a repeat there with a player at another table,
    both staying within ``SWAP_REACH`` tables of their band, that removes the most repeat
    meetings (then moves scores least), or None."""
    table, best, best_key = tables[t], None, None
    for i, p in enumerate(table):
        p_here = _repeats(p, table, meetings)
        if not p_here:
            continue
        rest_here = [x for x in table if x is not p]
        for u in range(max(0, plain[p.id] - SWAP_REACH), min(len(tables), plain[p.id] + SWAP_REACH + 1)):
            if u == t:
                continue
            other = tables[u]
            for j, q in enumerate(other):
                if abs(plain[q.id] - t) > SWAP_REACH:
                    continue
                rest_there = [x for x in other if x is not q]
                gained = (p_here + _repeats(q, other, meetings)
                          - _repeats(p, rest_there, meetings) - _repeats(q, rest_here, meetings))
                if gained <= 0:
                    continue
                moved = (_spread(p, rest_there) + _spread(q, rest_here)
                         - _spread(p, rest_here) - _spread(q, rest_there))
                key = (-gained, moved, u, j)
                if best_key is None or key < best_key:
                    best, best_key = (i, u, j), key
    return best
