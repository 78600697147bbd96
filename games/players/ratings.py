"""Ratings per game kind, computed by openskill's Plackett–Luce model (docs/ratings.md).

One rated game is one call of the library with every player of the game as a team of one,
ranked by the game's outcome: the winners first (tied with each other), those who played it
out after them (tied), and last, tied among themselves, those who left before the end (a
computer player took their seat, or they walked out of a game of three or more); in a draw,
everyone who played it out tied first. Nothing here is a formula of our own: the library
says what the new mu and sigma are, and the number shown is the library's ordinal, scaled
(``display``).

A rated game counts only when it is a real game (``not_counted``): every person who sat at
it, to the end or until they left, made a move of their own; and a game of two counts for
at most ``settings.RATED_PAIR_DAILY`` games between the same two accounts in 24 hours. A
game that does not count says why in its outcome (``outcome["not_rated"]``, in seat words
the pages put in names).

The update happens once per game, in the transaction that records the end
(``record_end``, a listener of the table's ``changes.finished``): it locks the players'
rating rows in user order (after the match and its seats, the house's lock order), stamps
the game's ``finished_at`` under those locks (so games with a player in common are rated in
the order of their ``finished_at``, the order ``recompute`` replays), writes one
``RatingChange`` per player (unique per match and user) and the new ratings. A game that
was already rated (its changes exist) is left alone, so a re-sent end changes nothing.
On the batched socket path (games/live/live_moves.py) the update asks for the synchronous path
(``unit_of_work.require_sync``): ends are rare, and the rating rows are read and locked
through the ORM.

``recompute`` replays every finished rated game in the order they finished with today's
rules, ``differences`` says where the stored ratings differ, and ``rebuild`` stores the
replay (``manage.py ratings_recompute``; the deploy runs it with ``--write``)."""
from __future__ import annotations

from collections import defaultdict, deque
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import F, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from openskill.models import PlackettLuce

from games.table import selectors, unit_of_work
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

# A rating is provisional until this many rated games of its kind (the partial index
# ``rating_board`` has the same 10): leaderboards list such players apart, marked.
PROVISIONAL_GAMES = Rating.PROVISIONAL_GAMES

# Rated games of two between the same two accounts count for at most RATED_PAIR_DAILY
# (settings) in this window; later ones are played but not rated.
PAIR_WINDOW = timedelta(hours=24)

# Ranks before they are made consecutive: winners, those who played it out, those who left.
WIN, LOSS, LEFT = 1, 2, 3


def display(mu: float, sigma: float) -> float:
    return MODEL.rating(mu=mu, sigma=sigma).ordinal(ORDINAL_Z, DISPLAY_ALPHA, DISPLAY_TARGET)


NEW_DISPLAY = display(MU, SIGMA)


@dataclass(frozen=True)
class Entry:
    """One rated player of a finished game: who, in which seat, and their rank."""
    user_id: int
    seat: int
    rank: int


def _person(seat) -> int | None:
    """The person a seat rates: whoever holds it, or who held it until a computer took it."""
    return seat.user_id if seat.user_id is not None else seat.left_by_id


def _left(seat) -> bool:
    """They left before the end: a computer player took their seat, or they walked out."""
    return seat.left_by_id is not None or bool(getattr(seat, "walked_out", False))


def entries(outcome: dict | None, seats) -> list[Entry]:
    """The rated players of a finished game and their ranks, from its outcome and seats
    (anything with ``index``, ``user_id``, ``left_by_id``, ``walked_out``): the winners
    first, then whoever else played the game out, then those who left, each group tied (in
    a draw the first two are one). A computer's own seat is not rated; a seat a computer
    took over rates the person who left it, whatever the seat did afterwards. Ranks are
    consecutive from 1."""
    outcome = outcome or {}
    winners = set(outcome.get("winners") or [])
    draw = bool(outcome.get("draw")) or not winners
    raw = []
    for seat in sorted(seats, key=lambda s: s.index):
        person = _person(seat)
        if person is None:
            continue
        rank = LEFT if _left(seat) else WIN if draw or seat.index in winners else LOSS
        raw.append((person, seat.index, rank))
    # A person at two seats cannot happen (seat_unique_user); one who left a seat and sat in
    # another could not either (a seat once left stays left). Kept strict anyway:
    if len({person for person, _, _ in raw}) != len(raw):
        raise ValueError("a player holds two seats of a rated game")
    dense = {rank: n for n, rank in enumerate(sorted({r for _, _, r in raw}), start=1)}
    return [Entry(person, index, dense[rank]) for person, index, rank in raw]


def not_counted(seats) -> str | None:
    """Why a finished rated game does not count for ratings, in seat words, or None: a
    person who sat at it (to the end, or until they left) made no move of their own. An
    aborted game never gets here (no result)."""
    for seat in sorted(seats, key=lambda s: s.index):
        if _person(seat) is not None and seat.own_moves == 0:
            return f"Seat {seat.index + 1} made no move of their own"
    return None


def pair_words(limit: int) -> str:
    return (f"these two players already had {limit} rated game{'s' if limit != 1 else ''} together in the "
            f"last 24 hours (at most {limit} a day count)")


def note(why: str) -> str:
    """The words a game that does not count keeps in its outcome (``not_rated``)."""
    return f"Not rated: {why}."


def rate(before: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """The library's new (mu, sigma) of each player, each a team of one, for these ranks."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    result = MODEL.rate(teams, ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in result]


# --- the end of a game -------------------------------------------------------------------

def record_end(match: Match, seats) -> list[RatingChange]:
    """Rate a finished game's players, once, inside the transaction recording its end (the
    match and its seats are locked by the caller). Returns the changes written (none for an
    unrated game, one that does not count, or one already rated)."""
    if not match.rated:
        return []
    unit_of_work.require_sync("a rated game's end locks and writes ratings through the ORM")
    players = entries(match.outcome, seats)
    if len(players) < 2:
        return []
    if RatingChange.objects.filter(match_id=match.pk).exists():
        return []  # rated already: the end was recorded before
    why = not_counted(seats)
    if why is not None:
        _not_rated(match, why)
        return []
    ratings = _locked_ratings(match.kind, [e.user_id for e in players])
    # Stamped under the players' locks: of two games with a player in common, the one rated
    # first has the earlier finish, which is the order ``recompute`` replays.
    match.finished_at = timezone.now()
    if _is_pair(match.num_seats, players) and _pair_games(match, players) >= settings.RATED_PAIR_DAILY:
        _not_rated(match, pair_words(settings.RATED_PAIR_DAILY))
        return []
    Match.objects.filter(pk=match.pk).update(finished_at=match.finished_at)
    changes = _apply(match, players, ratings)
    selectors.ratings_note(match, changes, ratings, _usernames(seats, players))
    return changes


def _usernames(seats, players: list[Entry]) -> dict[int, str]:
    """The rated players' names for the banner: from the seats (they come with their users),
    and for a seat a computer took over, of the person who left it (one statement, rarely)."""
    names = {s.user_id: s.user.username for s in seats if s.user_id is not None}
    missing = [e.user_id for e in players if e.user_id not in names]
    if missing:
        names.update(get_user_model().objects.filter(pk__in=missing).values_list("pk", "username"))
    return names


def _not_rated(match: Match, why: str) -> None:
    """The game is over but does not count: it says why (the result banner shows it)."""
    match.outcome = dict(match.outcome or {}, not_rated=note(why))
    Match.objects.filter(pk=match.pk).update(outcome=match.outcome, finished_at=match.finished_at)


def _is_pair(num_seats: int, players: list[Entry]) -> bool:
    """A rated game of two: the daily cap of a pair applies to it."""
    return num_seats == 2 and len(players) == 2


def _pair_games(match: Match, players: list[Entry]) -> int:
    """How many rated games of two these two people had that counted (have changes) and
    finished in the window before this one. Asked under both players' rating locks, so two
    of their games ending at once are counted one after the other."""
    a, b = (e.user_id for e in players)
    return (Match.objects.filter(num_seats=2, finished_at__gte=match.finished_at - PAIR_WINDOW,
                                 rating_changes__user_id=a).filter(rating_changes__user_id=b)
            .exclude(pk=match.pk).count())


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


def leaderboard(kind: str, *, bots: bool = False):
    """Established players of a kind, best first (a queryset, for paginating): people, or
    with ``bots`` the bots, whose rated games are among themselves (a pool of their own)."""
    return (_pool(Rating.objects.filter(kind=kind, games__gte=PROVISIONAL_GAMES), bots)
            .select_related("user").order_by("-display", "user_id"))


def provisional_board(kind: str, *, bots: bool = False, limit: int = 50) -> list[Rating]:
    """The best ``limit`` players of a kind whose rating is still provisional (at least one
    rated game, fewer than PROVISIONAL_GAMES), best first: listed apart on the leaderboard,
    marked, so a young game's board is not empty. People, or with ``bots`` the bots."""
    return list(_pool(Rating.objects.filter(kind=kind, games__gte=1, games__lt=PROVISIONAL_GAMES), bots)
                .select_related("user").order_by("-display", "user_id")[:limit])


def _pool(ratings, bots: bool):
    """The bots' ratings, or everyone else's (an account without a profile is a person)."""
    return ratings.filter(user__profile__is_bot=True) if bots else ratings.exclude(user__profile__is_bot=True)


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

@dataclass(frozen=True)
class Change:
    """What a game does to one player's rating, as the replay computes it."""
    seat: int
    rank: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


@dataclass
class Recomputed:
    """What the stored games give under today's rules: per (user, kind) the rating, per
    (match, user) the change, and per finished rated game that does not count, why (seat words)."""
    ratings: dict[tuple[int, str], tuple[float, float, int]] = field(default_factory=dict)
    changes: dict[tuple[int, int], Change] = field(default_factory=dict)
    not_counted: dict[int, str] = field(default_factory=dict)
    # The outcome's stored note of each finished rated game (None: none), to bring in line.
    notes: dict[int, str | None] = field(default_factory=dict)
    games: int = 0


@dataclass(frozen=True)
class _SeatRow:
    index: int
    user_id: int | None
    left_by_id: int | None
    own_moves: int
    walked_out: bool


def rated_games_in_order():
    """The finished rated games in the order they finished (``record_end`` stamps the finish
    under the players' locks, so this is also the order their ratings were updated)."""
    return (Match.objects.filter(rated=True, status=Match.Status.FINISHED)
            .order_by("finished_at", "pk").values_list("pk", "kind", "outcome", "finished_at", "num_seats"))


def recompute() -> Recomputed:
    """Every rating rebuilt from the stored finished games alone (their outcomes and seats),
    in the order they finished, from nothing, with today's rules: which games count (every
    person moved; the daily cap of a pair), the ranks (leavers last), the library."""
    seats: dict[int, list[_SeatRow]] = {}
    for match_id, *row in (Seat.objects.filter(match__rated=True, match__status=Match.Status.FINISHED)
                           .values_list("match_id", "index", "user_id", "left_by_id", "own_moves", "walked_out")
                           .iterator(chunk_size=5000)):
        seats.setdefault(match_id, []).append(_SeatRow(*row))
    out = Recomputed()
    # Per pair of people, the finishes of their rated games of two that counted, oldest first.
    pairs: dict[tuple[int, int], deque] = defaultdict(deque)
    limit = settings.RATED_PAIR_DAILY
    for match_id, kind, outcome, finished_at, num_seats in rated_games_in_order().iterator(chunk_size=2000):
        out.notes[match_id] = (outcome or {}).get("not_rated")
        table = seats.get(match_id, [])
        players = entries(outcome, table)
        if len(players) < 2:
            continue
        why = not_counted(table)
        pair = tuple(sorted(e.user_id for e in players)) if _is_pair(num_seats, players) else None
        if why is None and pair is not None:
            recent = pairs[pair]
            while recent and recent[0] < finished_at - PAIR_WINDOW:
                recent.popleft()
            if len(recent) >= limit:
                why = pair_words(limit)
        if why is not None:
            out.not_counted[match_id] = why
            continue
        if pair is not None:
            pairs[pair].append(finished_at)
        before = [out.ratings.get((e.user_id, kind), (MU, SIGMA, 0)) for e in players]
        after = rate([(mu, sigma) for mu, sigma, _ in before], [e.rank for e in players])
        for entry, (mu0, sigma0, games), (mu, sigma) in zip(players, before, after):
            out.ratings[(entry.user_id, kind)] = (mu, sigma, games + 1)
            out.changes[(match_id, entry.user_id)] = Change(entry.seat, entry.rank, mu0, sigma0, mu, sigma)
        out.games += 1
    return out


@dataclass
class Report:
    """What a rebuild changes (or would change): every rating that moves, with its shown
    number before and after (user id, kind, stored, rebuilt); the games that no longer count
    and why, and those that count again; changes that differ; notes to bring in line."""
    moved: list[tuple[int, str, float, float]] = field(default_factory=list)
    dropped: list[tuple[int, str]] = field(default_factory=list)
    added: list[int] = field(default_factory=list)
    changes_differ: int = 0
    notes_differ: int = 0

    @property
    def empty(self) -> bool:
        return not (self.moved or self.dropped or self.added or self.changes_differ or self.notes_differ)


def _stored_changes() -> dict[tuple[int, int], Change]:
    return {(m, u): Change(*rest) for m, u, *rest in RatingChange.objects.values_list(
        "match_id", "user_id", "seat", "rank", "mu_before", "sigma_before", "mu_after", "sigma_after")
        .iterator(chunk_size=5000)}


def report(rebuilt: Recomputed) -> Report:
    """Where the stored ratings, changes and notes differ from the rebuilt ones (to the last bit)."""
    out = Report()
    stored = {(r["user_id"], r["kind"]): (r["mu"], r["sigma"], r["games"])
              for r in Rating.objects.values("user_id", "kind", "mu", "sigma", "games").iterator(chunk_size=5000)}
    for key in sorted(set(stored) | set(rebuilt.ratings)):
        was, now = stored.get(key, (MU, SIGMA, 0)), rebuilt.ratings.get(key, (MU, SIGMA, 0))
        if was != now:
            out.moved.append((key[0], key[1], display(*was[:2]), display(*now[:2])))
    changes = _stored_changes()
    rated_before = {m for m, _ in changes}
    rated_now = {m for m, _ in rebuilt.changes}
    out.dropped = sorted((m, rebuilt.not_counted.get(m, "it is no longer a finished rated game"))
                         for m in rated_before - rated_now)
    out.added = sorted(rated_now - rated_before)
    out.changes_differ = sum(1 for key in set(changes) | set(rebuilt.changes) if changes.get(key) != rebuilt.changes.get(key))
    out.notes_differ = sum(1 for m, stored_note in rebuilt.notes.items() if stored_note != _note_of(rebuilt, m))
    return out


def _note_of(rebuilt: Recomputed, match_id: int) -> str | None:
    why = rebuilt.not_counted.get(match_id)
    return note(why) if why is not None else None


def differences(rebuilt: Recomputed, *, limit: int = 50) -> list[str]:
    """The report in lines (at most ``limit``; [] when the stored ratings are what the games give)."""
    found = report(rebuilt)
    lines = [f"user {u} in {kind}: {before:.1f} -> {after:.1f} ({after - before:+.1f})"
             for u, kind, before, after in found.moved]
    lines += [f"game {m} no longer counts: {why}" for m, why in found.dropped]
    lines += [f"game {m} counts now" for m in found.added]
    if found.changes_differ:
        lines.append(f"{found.changes_differ} stored rating change(s) differ from what the games give")
    if found.notes_differ:
        lines.append(f"{found.notes_differ} game(s) say wrongly whether they were rated")
    return lines[:limit]


def rebuild() -> tuple[Recomputed, Report]:
    """Replay the stored games with today's rules and store the result in place of the
    stored ratings, changes and notes; a second run changes nothing.

    The usual deploy changes nothing: a first replay, taking no lock, finds the stored
    ratings equal and stops, and games go on ending meanwhile. Only when something differs
    is the replay made again, under a lock on the ratings table that games ending meanwhile
    wait for (``record_end`` locks rating rows), so nothing is written from a history that
    changed under it. (A game ending during the first replay can only make it look
    different, which costs the second replay, never a wrong write.)"""
    rebuilt = recompute()
    found = report(rebuilt)
    if found.empty:
        return rebuilt, found
    return _rebuild_locked()


@transaction.atomic
def _rebuild_locked() -> tuple[Recomputed, Report]:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"LOCK TABLE {Rating._meta.db_table} IN EXCLUSIVE MODE")
    rebuilt = recompute()
    found = report(rebuilt)
    if found.empty:
        return rebuilt, found
    _store_ratings(rebuilt)
    _store_changes(rebuilt)
    _store_notes(rebuilt)
    return rebuilt, found


def _store_ratings(rebuilt: Recomputed) -> None:
    rows = {(r.user_id, r.kind): r for r in Rating.objects.order_by("user_id", "kind")}
    for key, rating in rows.items():
        mu, sigma, games = rebuilt.ratings.get(key, (MU, SIGMA, 0))
        rating.mu, rating.sigma, rating.games, rating.display = mu, sigma, games, display(mu, sigma)
    Rating.objects.bulk_update(list(rows.values()), ["mu", "sigma", "games", "display"], batch_size=2000)
    Rating.objects.bulk_create([Rating(user_id=u, kind=k, mu=mu, sigma=sigma, games=g, display=display(mu, sigma))
                                for (u, k), (mu, sigma, g) in rebuilt.ratings.items() if (u, k) not in rows])


def _store_changes(rebuilt: Recomputed) -> None:
    """Each game's changes as the replay computed them: gone for a game that no longer
    counts, written for one that counts now, brought in line where they differ."""
    stored = {(c.match_id, c.user_id): c for c in RatingChange.objects.all()}
    RatingChange.objects.filter(pk__in=[c.pk for key, c in stored.items() if key not in rebuilt.changes]).delete()
    kinds = dict(Match.objects.filter(pk__in={m for m, _ in rebuilt.changes}).values_list("pk", "kind"))
    fields = ["seat", "rank", "mu_before", "sigma_before", "mu_after", "sigma_after"]
    changed, new = [], []
    for (match_id, user_id), change in rebuilt.changes.items():
        row = stored.get((match_id, user_id)) or RatingChange(match_id=match_id, user_id=user_id, kind=kinds[match_id])
        for name in fields:
            setattr(row, name, getattr(change, name))
        row.display_before = display(change.mu_before, change.sigma_before)
        row.display_after = display(change.mu_after, change.sigma_after)
        (changed if row.pk else new).append(row)
    RatingChange.objects.bulk_update(changed, [*fields, "display_before", "display_after"], batch_size=2000)
    RatingChange.objects.bulk_create(new, batch_size=2000)


def _store_notes(rebuilt: Recomputed) -> None:
    """Each finished rated game says truly whether it counted (``outcome["not_rated"]``)."""
    wrong = [m for m, stored_note in rebuilt.notes.items() if stored_note != _note_of(rebuilt, m)]
    matches = list(Match.objects.filter(pk__in=wrong).only("pk", "outcome"))
    for match in matches:
        outcome = dict(match.outcome or {})
        outcome.pop("not_rated", None)
        if _note_of(rebuilt, match.pk) is not None:
            outcome["not_rated"] = _note_of(rebuilt, match.pk)
        match.outcome = outcome
    Match.objects.bulk_update(matches, ["outcome"], batch_size=2000)
