"""Players: profiles, follows and blocks (reads and writes of people's ties to each other).

A profile shows only what its viewer may see of the games: a private game (no spectators,
games/table/access.py) is listed only for the people tied to it and staff, never to anyone else,
and the counts of games played, won and drawn count only the games listed to that viewer.
Every list here costs a fixed number of statements, however many games a player has
(bench/scale.py measures it)."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, OuterRef, Q

from decks.models import Deck
from games.players import ratings as rating_rules
from games import registry
from games.table import reliability
from grailsite.errors import NotAllowed, NotFound, ServiceError
from games.models import Match, Rating, Seat

from grailsite.accounts.models import Block, Follow

User = get_user_model()

RECENT_GAMES = 20
CURRENT_GAMES = 50
# Only the big columns lists never need are left out (the state, its fixed parts, the set-up).
BIG_COLUMNS = ("state", "state_fixed", "setup_options")


def user_named(name: str):
    user = User.objects.filter(username=name, is_active=True).first()
    if user is None:
        raise NotFound("No such player.")
    return user


# --- what a viewer may see ------------------------------------------------------------------

def tied_to(viewer, match_ref="pk"):
    """A condition on seats: this viewer sits (or is invited, or left a seat) at the match."""
    return Seat.objects.filter(match=OuterRef(match_ref)).filter(Q(user=viewer) | Q(left_by=viewer))


def visible(matches, viewer):
    """The matches of ``matches`` this viewer may see (the rule of games/table/access.py, as a query)."""
    if viewer is not None and viewer.is_authenticated and viewer.is_staff:
        return matches
    if viewer is None or not viewer.is_authenticated:
        return matches.filter(allow_spectators=True)
    return matches.filter(Q(allow_spectators=True) | Exists(tied_to(viewer)))


# --- a profile --------------------------------------------------------------------------

@dataclass
class KindRecord:
    kind: str
    name: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    rating: Rating | None = None
    chart: dict | None = None

    @property
    def lost(self) -> int:
        return self.played - self.won - self.drawn

    @property
    def provisional(self) -> bool:
        return rating_rules.is_provisional(self.rating)


@dataclass
class Profile:
    user: object
    kinds: list[KindRecord] = field(default_factory=list)
    current: list = field(default_factory=list)
    recent: list = field(default_factory=list)
    following: bool = False
    blocking: bool = False    # the viewer blocked this person
    blocked_by: bool = False  # this person blocked the viewer: no challenge or follow to offer
    decks: list = field(default_factory=list)
    # How reliably they finish their games (games/table/reliability.py): counted over every
    # game of theirs that ended lately, private ones too, since only the share is shown.
    reliability: reliability.Reliability | None = None


def result_of(outcome: dict | None, index: int, *, left: bool = False) -> str:
    """'won', 'drawn' or 'lost' for the seat ``index`` of a finished game ('lost' for a
    person whose seat a computer took over)."""
    outcome = outcome or {}
    winners = outcome.get("winners") or []
    if left:
        return "lost"
    if outcome.get("draw") or not winners:
        return "drawn"
    return "won" if index in winners else "lost"


def profile(name: str, viewer) -> Profile:
    user = user_named(name)
    out = Profile(user=user)
    records = {room.kind: KindRecord(room.kind, room.game.name) for room in registry.rooms()}
    _count_results(user, viewer, records)
    for rating in Rating.objects.filter(user=user):
        if rating.kind in records:
            records[rating.kind].rating = rating
    charts = rating_rules.histories(user.pk) if any(r.rating for r in records.values()) else {}
    for record in records.values():
        if record.rating is not None:
            record.chart = chart(charts.get(record.kind, []))
    out.kinds = [r for r in records.values() if r.played or r.rating is not None]
    out.reliability = reliability.of(user.pk)
    out.current = _current_games(user, viewer)
    out.recent = _recent_games(user, viewer)
    out.decks = list(Deck.objects.filter(owner=user, public=True).order_by("name").only("id", "name", "cards")[:50])
    if viewer.is_authenticated and viewer.pk != user.pk:
        out.following = Follow.objects.filter(follower=viewer, followed=user).exists()
        ways = set(Block.objects.filter(Q(blocker=viewer, blocked=user) | Q(blocker=user, blocked=viewer))
                   .values_list("blocker_id", flat=True))
        out.blocking, out.blocked_by = viewer.pk in ways, user.pk in ways
    return out


def _count_results(user, viewer, records: dict[str, KindRecord]) -> None:
    """Games played, won and drawn per kind: the finished games this viewer may see."""
    seats = Seat.objects.filter(Q(user=user) | Q(left_by=user), match__status=Match.Status.FINISHED)
    if not (viewer.is_authenticated and (viewer.is_staff or viewer.pk == user.pk)):
        seats = seats.filter(Q(match__allow_spectators=True) | Exists(tied_to(viewer, "match_id"))
                             if viewer.is_authenticated else Q(match__allow_spectators=True))
    for kind, index, outcome, user_id in seats.values_list("match__kind", "index", "match__outcome", "user_id"):
        record = records.get(kind)
        if record is None:
            continue
        result = result_of(outcome, index, left=user_id != user.pk)
        record.played += 1
        record.won += result == "won"
        record.drawn += result == "drawn"


def _with_seats(matches):
    return matches.defer(*BIG_COLUMNS).prefetch_related("seats__user")


def _current_games(user, viewer) -> list:
    playing = Match.objects.filter(status__in=[Match.Status.OPEN, Match.Status.ACTIVE],
                                   pk__in=Seat.objects.filter(user=user, accepted=True).values("match_id"))
    return list(_with_seats(visible(playing, viewer)).order_by("-updated_at")[:CURRENT_GAMES])


def _recent_games(user, viewer) -> list:
    """The latest finished games, each with this player's result in it (``m.result``)."""
    played = Match.objects.filter(status=Match.Status.FINISHED, pk__in=Seat.objects.filter(
        Q(user=user) | Q(left_by=user)).values("match_id"))
    games = list(_with_seats(visible(played, viewer)).order_by("-finished_at", "-pk")[:RECENT_GAMES])
    for match in games:
        seat = next((s for s in match.seats.all() if s.user_id == user.pk or s.left_by_id == user.pk), None)
        match.result = result_of(match.outcome, seat.index, left=seat.user_id != user.pk) if seat else ""
    return games


def chart(changes, *, width: int = 320, height: int = 80, pad: int = 6) -> dict | None:
    """A rating's history as an SVG polyline: the shown rating before the first change and
    after each, left to right."""
    if not changes:
        return None
    values = [changes[0].display_before] + [c.display_after for c in changes]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (width - 2 * pad) / max(1, len(values) - 1)
    points = " ".join(f"{pad + i * step:.1f},{pad + (high - v) / span * (height - 2 * pad):.1f}"
                      for i, v in enumerate(values))
    return {"points": points, "width": width, "height": height, "low": round(low), "high": round(high),
            "first": round(values[0]), "last": round(values[-1]), "games": len(changes)}


# --- a challenge ---------------------------------------------------------------------------

CHALLENGE_DEFAULT = "duel"  # the shortest game for two, when two people have never played


def challenge_kind(challenger, name: str) -> str | None:
    """The game a challenge from a profile opens on: the kind of the last game these two
    played together that two can play, else Grail Duel (None when the site has neither)."""
    two = [room.kind for room in registry.rooms() if room.game.min_players <= 2 <= room.game.max_players]
    other = User.objects.filter(username=name, is_active=True).values_list("pk", flat=True).first()
    last = None
    if other is not None and other != challenger.pk:
        last = (Match.objects.filter(kind__in=two)
                .filter(Exists(Seat.objects.filter(match=OuterRef("pk")).filter(Q(user=challenger) | Q(left_by=challenger))))
                .filter(Exists(Seat.objects.filter(match=OuterRef("pk")).filter(Q(user_id=other) | Q(left_by_id=other))))
                .order_by("-created_at", "-pk").values_list("kind", flat=True).first())
    return last or (CHALLENGE_DEFAULT if CHALLENGE_DEFAULT in two else (two[0] if two else None))


# --- follows and blocks -----------------------------------------------------------------

def _other(user, name: str):
    other = user_named(name)
    if other.pk == user.pk:
        raise ServiceError("That is you.")
    return other


def follow(*, user, name: str) -> None:
    other = _other(user, name)
    if Block.objects.filter(Q(blocker=other, blocked=user) | Q(blocker=user, blocked=other)).exists():
        raise NotAllowed(f"You cannot follow {other.username}.")
    Follow.objects.get_or_create(follower=user, followed=other)


def unfollow(*, user, name: str) -> None:
    Follow.objects.filter(follower=user, followed=_other(user, name)).delete()


@transaction.atomic
def block(*, user, name: str) -> None:
    """Block someone: they may no longer invite you, join your games or chat in them
    (games/table/access.py); neither follows the other any more. Games under way go on."""
    other = _other(user, name)
    Block.objects.get_or_create(blocker=user, blocked=other)
    Follow.objects.filter(Q(follower=user, followed=other) | Q(follower=other, followed=user)).delete()


def unblock(*, user, name: str) -> None:
    Block.objects.filter(blocker=user, blocked=_other(user, name)).delete()


def following_ids(user) -> list[int]:
    return list(Follow.objects.filter(follower=user).values_list("followed_id", flat=True))


def follower_ids(user_id: int) -> list[int]:
    return list(Follow.objects.filter(followed_id=user_id).values_list("follower_id", flat=True))


def friends(user) -> list:
    """The people I follow, by name, each with their open games I may join or watch
    (``f.open_games``)."""
    people = list(User.objects.filter(followers__follower=user).order_by("username"))
    games = defaultdict(list)
    opened = visible(Match.objects.filter(status=Match.Status.OPEN, creator__in=people), user)
    for match in _with_seats(opened).order_by("-created_at")[:200]:
        games[match.creator_id].append(match)
    for person in people:
        person.open_games = games.get(person.pk, [])
    return people
