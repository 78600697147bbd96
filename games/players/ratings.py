"""Ratings per game kind, computed by openskill's Plackett–Luce model (docs/ratings.md).

One rated game is one call of the library with every player of the game as a team of one,
ranked by the game's outcome: the winners first (tied with each other), everyone else
after them (tied); in a draw, everyone tied. A player who left their seat (resigned or ran
out of time, and a computer player took over) is ranked with the losers whatever the seat
did afterwards. Nothing here is a formula of our own: the library says what the new mu and
sigma are, and the number shown is the library's ordinal, scaled (``display``).

The update happens once per game, in the transaction that records the end
(``record_end``, called by services._after_change): it locks the players' rating rows in
user order (after the match and its seats, the house's lock order), writes one
``RatingChange`` per player (unique per match and user) and the new ratings. A game that
was already rated (its changes exist) is left alone, so a re-sent end changes nothing.
On the batched socket path (games/live/live_moves.py) the update asks for the synchronous path
(``unit_of_work.require_sync``): ends are rare, and the rating rows are read and locked
through the ORM.

``recompute`` replays every rated game in the order the updates were made and says where
the stored ratings differ from what the games give (``manage.py ratings_recompute``)."""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import F, Min, Window
from django.db.models.functions import RowNumber
from openskill.models import PlackettLuce

from games.table import unit_of_work
from games.models import Match, Rating, RatingChange, Seat

# The model and its parameters: the library's defaults (mu 25, sigma 25/3, beta 25/6,
# tau 25/300), written out so a change is a visible decision (docs/ratings.md).
MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)

# The displayed number: the library's ordinal mu - 3 sigma (a skill the player has with
# about 99.9 % confidence), scaled by 40 and moved up by 1000; a newcomer shows 1000.
ORDINAL_Z = 3.0
DISPLAY_ALPHA = 40.0
DISPLAY_TARGET = 1000.0

# A rating is provisional until this many rated games of its kind; leaderboards list only
# established players (the partial index ``rating_board`` has the same 10).
PROVISIONAL_GAMES = 10

WIN, LOSS = 1, 2


def display(mu: float, sigma: float) -> float:
    return MODEL.rating(mu=mu, sigma=sigma).ordinal(ORDINAL_Z, DISPLAY_ALPHA, DISPLAY_TARGET)


NEW_DISPLAY = display(MU, SIGMA)


@dataclass(frozen=True)
class Entry:
    """One rated player of a finished game: who, in which seat, and their rank."""
    user_id: int
    seat: int
    rank: int


def entries(outcome: dict | None, seats) -> list[Entry]:
    """The rated players of a finished game and their ranks, from its outcome and seats
    (anything with ``index``, ``user_id``, ``left_by_id``). A seat a computer took over
    rates the person who left it, as a loss; a computer's own seat is not rated."""
    outcome = outcome or {}
    winners = set(outcome.get("winners") or [])
    draw = bool(outcome.get("draw")) or not winners
    out = []
    for seat in sorted(seats, key=lambda s: s.index):
        if seat.user_id is not None:
            rank = WIN if draw or seat.index in winners else LOSS
            out.append(Entry(seat.user_id, seat.index, rank))
        elif seat.left_by_id is not None:
            out.append(Entry(seat.left_by_id, seat.index, LOSS))
    # A person at two seats cannot happen (seat_unique_user); one who left a seat and sat in
    # another could not either (a seat once left stays left). Kept strict anyway:
    if len({e.user_id for e in out}) != len(out):
        raise ValueError("a player holds two seats of a rated game")
    return out


def rate(before: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """The library's new (mu, sigma) of each player, each a team of one, for these ranks."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    result = MODEL.rate(teams, ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in result]


# --- the end of a game -------------------------------------------------------------------

def record_end(match: Match, seats) -> list[RatingChange]:
    """Rate a finished game's players, once, inside the transaction recording its end (the
    match and its seats are locked by the caller). Returns the changes written (none for an
    unrated game, or one already rated)."""
    if not match.rated:
        return []
    unit_of_work.require_sync("a rated game's end locks and writes ratings through the ORM")
    players = entries(match.outcome, seats)
    if len(players) < 2:
        return []
    if RatingChange.objects.filter(match_id=match.pk).exists():
        return []  # rated already: the end was recorded before
    ratings = _locked_ratings(match.kind, [e.user_id for e in players])
    return _apply(match, players, ratings)


def _locked_ratings(kind: str, user_ids: list[int]) -> dict[int, Rating]:
    """The players' rating rows of this kind, created if new and locked in user order (two
    games ending at once with a player in common wait for each other, never deadlock)."""
    ordered = sorted(user_ids)
    Rating.objects.bulk_create([Rating(user_id=u, kind=kind, mu=MU, sigma=SIGMA, display=NEW_DISPLAY, games=0)
                                for u in ordered], ignore_conflicts=True)
    rows = Rating.objects.select_for_update().filter(kind=kind, user_id__in=ordered).order_by("user_id")
    return {r.user_id: r for r in rows}


def _apply(match: Match, players: list[Entry], ratings: dict[int, Rating]) -> list[RatingChange]:
    before = [(ratings[e.user_id].mu, ratings[e.user_id].sigma) for e in players]
    after = rate(before, [e.rank for e in players])
    changes = []
    for entry, (mu0, sigma0), (mu1, sigma1) in zip(players, before, after):
        rating = ratings[entry.user_id]
        changes.append(RatingChange(match=match, user_id=entry.user_id, kind=match.kind, seat=entry.seat,
                                    rank=entry.rank, mu_before=mu0, sigma_before=sigma0, mu_after=mu1,
                                    sigma_after=sigma1, display_before=rating.display,
                                    display_after=display(mu1, sigma1)))
        rating.mu, rating.sigma, rating.display = mu1, sigma1, display(mu1, sigma1)
        rating.games += 1
    # The unique (match, user) constraint is the last guard: a second write fails the whole
    # transaction rather than rating anyone twice.
    RatingChange.objects.bulk_create(changes)
    Rating.objects.bulk_update(list(ratings.values()), ["mu", "sigma", "display", "games", "updated_at"])
    return changes


# --- reading -----------------------------------------------------------------------------

def is_provisional(rating: Rating | None) -> bool:
    return rating is None or rating.games < PROVISIONAL_GAMES


def leaderboard(kind: str):
    """Established players of a kind, best first (a queryset, for paginating)."""
    return (Rating.objects.filter(kind=kind, games__gte=PROVISIONAL_GAMES).select_related("user")
            .order_by("-display", "user_id"))


def histories(user_id: int, *, limit: int = 200) -> dict[str, list[RatingChange]]:
    """The latest ``limit`` changes of one person's rating in each kind, oldest first: one
    statement however many kinds they play (the window numbers each kind's rows)."""
    numbered = (RatingChange.objects.filter(user_id=user_id)
                .annotate(n=Window(RowNumber(), partition_by=[F("kind")], order_by=F("id").desc()))
                .filter(n__lte=limit).order_by("kind", "id")
                .only("id", "kind", "match_id", "display_before", "display_after", "rank", "created_at"))
    out: dict[str, list[RatingChange]] = {}
    for change in numbered:
        out.setdefault(change.kind, []).append(change)
    return out


def history(user_id: int, kind: str, *, limit: int = 200) -> list[RatingChange]:
    """The latest ``limit`` changes of one person's rating in one kind, oldest first."""
    rows = (RatingChange.objects.filter(user_id=user_id, kind=kind).order_by("-id")
            .only("id", "match_id", "display_before", "display_after", "rank", "created_at")[:limit])
    return list(reversed(rows))


# --- recompute ---------------------------------------------------------------------------

@dataclass
class Recomputed:
    """What the stored games give: per (user, kind) the rating, and per (match, user) the change."""
    ratings: dict[tuple[int, str], tuple[float, float, int]] = field(default_factory=dict)
    changes: dict[tuple[int, int], tuple[float, float]] = field(default_factory=dict)
    games: int = 0


@dataclass(frozen=True)
class _SeatRow:
    index: int
    user_id: int | None
    left_by_id: int | None


def rated_games_in_order():
    """The finished rated games in the order their updates were made: by their first
    RatingChange (a game whose changes are missing comes last, by when it ended, and the
    comparison reports it)."""
    return (Match.objects.filter(rated=True, status=Match.Status.FINISHED)
            .annotate(first_change=Min("rating_changes__id"))
            .order_by("first_change", "finished_at", "pk").values_list("pk", "kind", "outcome"))


def recompute() -> Recomputed:
    """Every rating rebuilt from the stored finished games alone (their outcomes and seats),
    in order, from nothing."""
    seats: dict[int, list[_SeatRow]] = {}
    for match_id, index, user_id, left_by_id in (Seat.objects.filter(match__rated=True,
                                                                     match__status=Match.Status.FINISHED)
                                                 .values_list("match_id", "index", "user_id", "left_by_id")
                                                 .iterator(chunk_size=5000)):
        seats.setdefault(match_id, []).append(_SeatRow(index, user_id, left_by_id))
    out = Recomputed()
    for match_id, kind, outcome in rated_games_in_order().iterator(chunk_size=2000):
        players = entries(outcome, seats.get(match_id, []))
        if len(players) < 2:
            continue
        before = [out.ratings.get((e.user_id, kind), (MU, SIGMA, 0)) for e in players]
        after = rate([(mu, sigma) for mu, sigma, _ in before], [e.rank for e in players])
        for entry, (_, _, games), (mu, sigma) in zip(players, before, after):
            out.ratings[(entry.user_id, kind)] = (mu, sigma, games + 1)
            out.changes[(match_id, entry.user_id)] = (mu, sigma)
        out.games += 1
    return out


def differences(rebuilt: Recomputed, *, limit: int = 50) -> list[str]:
    """Where the stored ratings and changes differ from the rebuilt ones (at most ``limit``
    lines; [] when they are equal, to the last bit)."""
    problems = []
    stored = {(r["user_id"], r["kind"]): (r["mu"], r["sigma"], r["games"])
              for r in Rating.objects.values("user_id", "kind", "mu", "sigma", "games").iterator(chunk_size=5000)}
    for key in sorted(set(stored) | set(rebuilt.ratings)):
        if stored.get(key) != rebuilt.ratings.get(key) and not _untouched(stored.get(key), rebuilt.ratings.get(key)):
            problems.append(f"user {key[0]} in {key[1]}: stored {stored.get(key)}, games give {rebuilt.ratings.get(key)}")
    changes = {(c[0], c[1]): (c[2], c[3]) for c in RatingChange.objects.values_list(
        "match_id", "user_id", "mu_after", "sigma_after").iterator(chunk_size=5000)}
    for key in sorted(set(changes) | set(rebuilt.changes)):
        if changes.get(key) != rebuilt.changes.get(key):
            problems.append(f"game {key[0]}, user {key[1]}: stored change {changes.get(key)}, "
                            f"games give {rebuilt.changes.get(key)}")
    return problems[:limit]


def _untouched(stored, rebuilt) -> bool:
    """A rating row at its starting values with no games equals no row at all."""
    return rebuilt is None and stored is not None and stored == (MU, SIGMA, 0)


@transaction.atomic
def rebuild(rebuilt: Recomputed) -> int:
    """Store the rebuilt ratings and changes in place of the stored ones (``--write``).
    Returns how many ratings were written."""
    rows = {(r.user_id, r.kind): r for r in Rating.objects.select_for_update().order_by("user_id", "kind")}
    for key, rating in rows.items():
        mu, sigma, games = rebuilt.ratings.get(key, (MU, SIGMA, 0))
        rating.mu, rating.sigma, rating.games, rating.display = mu, sigma, games, display(mu, sigma)
    Rating.objects.bulk_update(list(rows.values()), ["mu", "sigma", "games", "display"], batch_size=2000)
    Rating.objects.bulk_create([Rating(user_id=u, kind=k, mu=mu, sigma=sigma, games=g, display=display(mu, sigma))
                                for (u, k), (mu, sigma, g) in rebuilt.ratings.items() if (u, k) not in rows])
    changes = list(RatingChange.objects.select_for_update())
    for change in changes:
        mu, sigma = rebuilt.changes.get((change.match_id, change.user_id), (change.mu_after, change.sigma_after))
        change.mu_after, change.sigma_after, change.display_after = mu, sigma, display(mu, sigma)
    RatingChange.objects.bulk_update(changes, ["mu_after", "sigma_after", "display_after"], batch_size=2000)
    return len(rebuilt.ratings)
