"""How reliably a person finishes the games they sit down to: of their games that ended in the
last 90 days, the share they played out without running out of time and without walking
out on the table. Profiles show it (games/players/profiles.py); a table may ask for a minimum
(``Match.min_reliability``), which taking a seat and accepting an invitation enforce
(games/table/access.py), and the lobby filters by it (games/players/lobby.py).

The definition in words is in docs/ratings.md ("Reliability"). In short, a game counts when
it ended (finished, or aborted) in the window, was not a practice game against computer
players, and the person held a seat in it (or left one to a computer player); it counts
against them when they ran out of time on their own turn (``Seat.ran_out``), a computer
player took their seat (``Seat.left_by``: they resigned or ran out of time too often), or
they walked out of a game of three or more that went on without them (``Seat.walked_out``).
In a game of two a resignation is an ordinary loss and does not count against anyone.

Every question here is one statement, however many games a person has played."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Count, F, Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.models import Match, Seat

# The games that count: those that ended in this window.
WINDOW = timedelta(days=90)
# With fewer counted games there is no record to judge by: such a player counts as reliable
# enough for any table (a newcomer may join the tables that ask, as on BGA).
MIN_GAMES = 5
# The minimums a table may ask for, in per cent (0: it asks nothing).
CHOICES = (0, 80, 90, 95)


@dataclass(frozen=True)
class Reliability:
    """``clean`` of ``games`` counted games played out without running out of time or walking out."""
    games: int = 0
    clean: int = 0

    @property
    def percent(self) -> int | None:
        """The share in whole per cent, rounded down (so "90 %" never hides 89.6); None
        without a counted game."""
        return None if not self.games else self.clean * 100 // self.games

    @property
    def established(self) -> bool:
        return self.games >= MIN_GAMES

    def meets(self, minimum: int) -> bool:
        """Whether this record satisfies a table that asks for ``minimum`` per cent."""
        return minimum <= 0 or not self.established or self.clean * 100 >= minimum * self.games


def _counted(now=None):
    """The seats that count: a person's (held, or left to a computer player) in games that
    ended within the window, practice games against the computer aside."""
    since = (now or timezone.now()) - WINDOW
    return Seat.objects.filter(match__status__in=[Match.Status.FINISHED, Match.Status.ABORTED],
                               match__finished_at__gte=since, match__practice=False)


# Played out: still in the seat at the end, never out of time on their own turn.
_CLEAN = Q(left_by__isnull=True, ran_out=False, walked_out=False)


def of(user_id: int, *, now=None) -> Reliability:
    """One person's reliability: one aggregate statement."""
    row = (_counted(now).filter(Q(user_id=user_id) | Q(left_by_id=user_id))
           .aggregate(games=Count("pk"), clean=Count("pk", filter=_CLEAN)))
    return Reliability(row["games"] or 0, row["clean"] or 0)


def of_many(user_ids, *, now=None) -> dict[int, Reliability]:
    """Several people's reliability in one grouped statement (everyone asked is in the answer)."""
    ids = sorted(set(user_ids))
    out = {u: Reliability() for u in ids}
    if not ids:
        return out
    rows = (_counted(now).filter(Q(user_id__in=ids) | Q(left_by_id__in=ids))
            .annotate(who=Coalesce(F("user_id"), F("left_by_id"))).order_by().values("who")
            .annotate(games=Count("pk"), clean=Count("pk", filter=_CLEAN)))
    for row in rows:
        if row["who"] in out:
            out[row["who"]] = Reliability(row["games"], row["clean"])
    return out


def choices_in_words() -> list[tuple[int, str]]:
    """The minimums a form offers, in words (a new game's and a tournament's)."""
    return [(c, "Anyone" if not c else f"At least {c} % finished") for c in CHOICES]


def refusal_text(minimum: int, record: Reliability, *, who: str = "you", asker: str = "This table") -> str:
    """The words of a refusal: what the table (or ``asker``: a tournament) asks and what the
    record says."""
    asked = f"{asker} asks for players who finished at least {minimum} % of their games"
    if who == "you":
        return (f"{asked}; you finished {record.percent} % of your last {record.games} "
                f"(games that ended in the last {WINDOW.days} days).")
    return f"{asked}; {who} finished {record.percent} % of their last {record.games}."
