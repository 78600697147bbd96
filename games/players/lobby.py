"""The lobby's open games: filtered, sorted, friends' games first, a page at a time.

Which games are offered is games/table/access.py's rule as a query: public games with a seat
nobody holds (a private game's seats are all given when it is created), and public games
under way whose rules would deal a newcomer in (``Game.add_seat``: Fluxx's late joiners,
``_taking_newcomers``) and that no tournament or ladder drew, listed with them and marked "under way"; none the viewer already sits
at or left, none where a seated player blocked the viewer. Each page costs the same
statements however many games there are: a count, the page's matches (with their open
seats counted and whether a friend sits there, as subqueries), and their seats with players
(bench/scale.py measures it); with "Only tables I may join", one more for the viewer's
reliability (games/table/reliability.py), whose minimum each table shows."""
from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.db.models import BooleanField, Case, Count, Exists, F, IntegerField, OuterRef, Q, Subquery, Value, When
from django.db.models.functions import Coalesce

from games import registry
from games.table import reliability
from games.models import Match, Seat
from grailsite.accounts.models import Follow

PER_PAGE = 25
BIG_COLUMNS = ("state", "state_fixed", "setup_options")

# Clock speeds as a player thinks of them: the clock kinds each one means.
SPEEDS = {"live": ("seconds", "Live (seconds a move)"), "minutes": ("minutes", "Minutes a move"),
          "hours": ("hours", "Hours a move"), "days": ("days", "Days a move"), "none": ("none", "No clock")}
# Fastest first, for sorting by clock.
_CLOCK_ORDER = Case(*(When(clock=kind, then=Value(i)) for i, kind in enumerate(["seconds", "minutes", "hours", "days"])),
                    default=Value(9), output_field=IntegerField())
SORTS = {"newest": ("Newest first", ["-created_at", "-pk"]),
         "oldest": ("Oldest first", ["created_at", "pk"]),
         "fewest_open": ("Closest to starting", ["open_seats", "-created_at", "-pk"]),
         "fastest": ("Fastest clock", [_CLOCK_ORDER.asc(), "clock_amount", "-created_at", "-pk"])}


class LobbyFilter(forms.Form):
    """The lobby's filters, from the query string; anything unknown is ignored, never a 500."""
    kind = forms.ChoiceField(required=False, label="Game")
    speed = forms.ChoiceField(required=False, label="Clock",
                              choices=[("", "Any clock")] + [(k, label) for k, (_, label) in SPEEDS.items()])
    rated = forms.ChoiceField(required=False, label="Rated",
                              choices=[("", "Rated or not"), ("yes", "Rated"), ("no", "Unrated")])
    seats = forms.ChoiceField(required=False, label="Open seats",
                              choices=[("", "Any number"), ("1", "1"), ("2", "2"), ("3", "3"), ("4", "4 or more")])
    sort = forms.ChoiceField(required=False, label="Sort", choices=[(k, label) for k, (label, _) in SORTS.items()])
    # A table may ask for players who finish their games (Match.min_reliability): this hides
    # those whose minimum the viewer's record does not meet.
    joinable = forms.BooleanField(required=False, label="Only tables I may join")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [("", "Every game")] + [(r.kind, r.game.name) for r in registry.rooms()]

    def values(self) -> dict:
        """The valid filters (an invalid one counts as not given)."""
        if self.is_valid():
            return self.cleaned_data
        return {name: value for name, value in self.cleaned_data.items() if name not in self.errors}


@dataclass
class Query:
    kind: str = ""
    speed: str = ""
    rated: str = ""
    seats: str = ""
    sort: str = ""
    joinable: bool = False


def highest_minimum_met(viewer) -> int:
    """The highest reliability a table may ask for that this viewer's record meets (one
    statement)."""
    record = reliability.of(viewer.pk)
    return max(c for c in reliability.CHOICES if record.meets(c))


def _taking_newcomers() -> tuple[Q, Case]:
    """Games under way that would deal a newcomer in now, as a condition on matches, read
    from the columns alone: a kind whose rules have ``add_seat``, a seat fewer than its most
    players, and its table option that lets newcomers in (``Game.newcomer_option``); never a
    tournament's or a ladder's game, whose players the competition chose (access refuses the
    join). And the seats such a game could still deal (its most players less those seated)."""
    takes, most = Q(pk__in=[]), []
    for room in registry.rooms():
        game = room.game
        if not hasattr(game, "add_seat"):
            continue
        kind = Q(kind=room.kind, num_seats__lt=game.max_players)
        if game.newcomer_option:
            kind &= Q(**{f"options__{game.newcomer_option}": True})
        takes |= kind
        most.append(When(kind=room.kind, then=Value(game.max_players) - F("num_seats")))
    return Q(status=Match.Status.ACTIVE, competition="") & takes, Case(*most, default=Value(0), output_field=IntegerField())


def _asking_a_choice() -> Case:
    """Whether joining asks for a choice (the CCG's deck), so the Join button opens the game's
    page rather than joining at once."""
    kinds = [room.kind for room in registry.rooms() if room.seat_form is not None]
    if not kinds:
        return Value(False, output_field=BooleanField())
    return Case(When(kind__in=kinds, then=Value(True)), default=Value(False), output_field=BooleanField())


def open_games(viewer, query: Query | None = None):
    """The games this viewer is offered a seat at, as a queryset to paginate: each match
    carries ``open_seats``, ``friend`` (someone the viewer follows sits there), ``joinable``
    and ``asks_choice``; a game under way (``status`` active) is one that deals newcomers in."""
    query = query or Query()
    free = Seat.objects.filter(match=OuterRef("pk"), user__isnull=True, computer="")
    free_count = free.order_by().values("match").annotate(n=Count("pk")).values("n")
    running, room_left = _taking_newcomers()
    games = (Match.objects.filter(allow_spectators=True)
             .filter((Q(status=Match.Status.OPEN) & Exists(free)) | running)
             .annotate(open_seats=Case(When(status=Match.Status.ACTIVE, then=room_left),
                                       default=Coalesce(Subquery(free_count, output_field=IntegerField()), 0)),
                       joinable=Value(True), asks_choice=_asking_a_choice()))
    signed_in = viewer is not None and viewer.is_authenticated
    if signed_in:
        seated = Seat.objects.filter(match=OuterRef("pk"))
        # Their own tables, and a seat once left stays left (games/table/access.py).
        games = games.exclude(Exists(seated.filter(Q(user=viewer) | Q(left_by=viewer))))
        # A seated player who blocked the viewer: games/table/access.py would refuse the join.
        games = games.exclude(Exists(seated.filter(user__blocking__blocked=viewer)))
        friends = Follow.objects.filter(follower=viewer, followed_id=OuterRef("user_id"))
        games = games.annotate(friend=Exists(seated.filter(Exists(friends))))
    else:
        games = games.annotate(friend=Value(False))
    if query.kind:
        games = games.filter(kind=query.kind)
    if query.speed in SPEEDS:
        games = games.filter(clock=SPEEDS[query.speed][0])
    if query.rated in ("yes", "no"):
        games = games.filter(rated=query.rated == "yes")
    if query.seats:
        n = int(query.seats)
        games = games.filter(open_seats__gte=n) if n >= 4 else games.filter(open_seats=n)
    if query.joinable and signed_in:
        games = games.filter(min_reliability__lte=highest_minimum_met(viewer))
    order = SORTS.get(query.sort or "newest", SORTS["newest"])[1]
    return games.defer(*BIG_COLUMNS).prefetch_related("seats__user").order_by("-friend", *order)
