"""HTML pages. They translate requests into service calls and render templates; the game
board itself is drawn by the kind's renderer from the JSON API."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from decks import selectors as deck_selectors
from games.inbox import recap
from games.table import access, commitments, computers, reliability, selectors, services
from games import registry
from games.players import lobby as lobby_games
from games.players import profiles
from games.tournaments import selectors as tournament_selectors
from grailsite.errors import NotAllowed, ServiceError
from games.web.forms import MatchCreateForm
from games.kinds.base import raw_values
from games.models import Match, Notification, Rating
from games.rules.base import IllegalMove


def home(request):
    if not request.user.is_authenticated:
        return render(request, "games/landing.html", {"games": registry.kinds(), "rooms": registry.rooms(),
                                                      "live": selectors.live_matches(limit=10)})
    mine = selectors.matches_for_user(request.user)
    for m in mine:
        seats = list(m.seats.all())
        # Said for games over (and games that go on without me, "You resigned"), from the
        # seats alone: lists never read a game's state.
        m.ending = selectors.ending_for(m, selectors.seat_of(m, request.user, seats), seats)
        m.to_move = selectors.to_move(m, request.user, seats)  # whose move, and the time left
    # A game I am out of is over for me, though the others play on: it is listed with the
    # finished ones, not as "In play".
    over_for_me = {m.pk for m in mine if m.status == "active" and m.ending}
    finished = [m for m in mine if m.status in Match.ENDED or m.pk in over_for_me][:30]
    my_moves = sorted((m for m in mine if m.my_turn and m.status == "active"), key=selectors.urgency)
    return render(request, "games/home.html", {
        # The moves I owe, most urgent first; an invitation waits for my answer as much as a move does.
        "my_turn": my_moves + [m for m in mine if m.status == "open" and m.invited],
        "next_game": my_moves[0] if my_moves else None,
        "active": sorted((m for m in mine if not m.my_turn and m.status == "active" and m.pk not in over_for_me),
                         key=selectors.urgency),
        "open": [m for m in mine if m.status == "open" and not m.invited],
        "finished": finished,
        "welcome": _welcome(request.user) if not mine else None,
        "vs_computer": _computer_games(),
        "rooms": registry.rooms(),  # the game list: each game's summary, players and rules page
    })


@login_required
def match_next(request):
    """"Next game where it's my move", from the game ``?after=`` (the game page's button) or
    from anywhere: the next game waiting for my move, most urgent first (lichess and OGS have
    the same button); home, saying so, when none other waits."""
    after = request.GET.get("after", "")
    target = selectors.next_waiting(request.user, after=int(after) if after.isdigit() and len(after) < 18 else None)
    if target is None:
        messages.info(request, "No other game waits for your move.")
        return redirect("home")
    return redirect("match_detail", match_id=target)


def _computer_games() -> list:
    """The games a computer player can play, for "Play against the computer"."""
    return [g for g in registry.kinds() if computers.default_level(g.kind)]


@login_required
@require_POST
def match_vs_computer(request):
    """"Play against the computer": the chosen game, the fewest seats it takes, every other
    seat a computer player of the real level, no clock; the game starts at once. The card
    game needs a deck: the player's first playable one (the deck builder's "Try this deck"
    chooses another)."""
    kind = request.POST.get("kind", "")
    if kind not in {g.kind for g in _computer_games()}:
        messages.error(request, "Choose a game that computer players know.")
        return redirect("home")
    game, room = registry.get(kind), registry.room(kind)
    choice = None
    if room.seat_form is not None:
        playable = [row["deck"] for row in deck_selectors.decks_playability(user=request.user) if row["playable"]]
        if not playable:
            messages.error(request, "You need a playable deck first: build one in the deck builder.")
            return redirect("deck_list")
        choice = {"deck": playable[0].pk}
    level = computers.default_level(kind)
    try:
        match = services.match_create(
            creator=request.user, kind=kind, num_seats=game.min_players, clock_kind="none", clock_amount=0,
            computers_at={i: level for i in range(1, game.min_players)}, creator_choice=choice,
            contribution=request.POST.get("contribution"), deal_after_contribution=True)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("home")
    return redirect("match_detail", match_id=match.pk)


def _welcome(user) -> dict:
    """What a new account has and how to start (a new player used to be told nothing)."""
    decks = deck_selectors.decks_playability(user=user)
    return {"cards": deck_selectors.collection_counts(user=user)["total"],
            "playable": [row["deck"] for row in decks if row["playable"]], "decks": len(decks),
            "games": registry.kinds()}


def lobby(request):
    """Open games, filtered and sorted as asked (games/players/lobby.py), friends' first, a page at a time."""
    filters = lobby_games.LobbyFilter(request.GET or None)
    query = lobby_games.Query(**{k: v or "" for k, v in filters.values().items()}) if request.GET else None
    page = Paginator(lobby_games.open_games(request.user, query), lobby_games.PER_PAGE).get_page(request.GET.get("page"))
    params = request.GET.copy()
    params.pop("page", None)
    return render(request, "games/lobby.html", {"open": page.object_list, "page": page, "filters": filters,
                                                "params": params.urlencode(),
                                                "live": selectors.live_matches(), "rooms": registry.rooms()})


@login_required
def match_new(request):
    """Every game's table options and seat choice come from its room's forms, each in its own
    prefixed fieldset; the chosen game's forms are bound and checked, then the service
    validates the same values again (as it does for the JSON API)."""
    posted = request.method == "POST"
    # A challenge from a profile (?invite=<name>) opens the form with that player invited, on a
    # game for two they played together (games/players/profiles.py).
    invite = request.GET.get("invite", "")[:150]
    kind = request.GET.get("kind") or (profiles.challenge_kind(request.user, invite) if invite and not posted else None)
    form = MatchCreateForm(request.POST or None, initial={"kind": kind, "invite": invite,
                                                          "seats": 2 if invite else None})
    chosen = request.POST.get("kind") if posted else None
    panels = [_RoomPanel(room, request.user, request.POST if room.kind == chosen else None)
              for room in registry.rooms()]
    if posted and form.is_valid():
        panel = next(p for p in panels if p.room.kind == form.cleaned_data["kind"])
        if panel.is_valid():
            try:
                match = services.match_create(
                    creator=request.user, kind=panel.room.kind, num_seats=form.cleaned_data["seats"],
                    options=raw_values(panel.options), invite=form.invitees(), title=form.cleaned_data["title"],
                    clock_kind=form.cleaned_data["clock_kind"], clock_amount=form.cleaned_data["clock_amount"],
                    weekend_pause=form.cleaned_data["weekend_pause"],
                    vacation_days=form.cleaned_data["vacation_days"],
                    allow_spectators=form.cleaned_data["allow_spectators"],
                    creator_choice=raw_values(panel.seat) if panel.seat is not None else None,
                    computers_at=form.computer_seats(), computer_delay=form.cleaned_data["computer_delay"],
                    computer_takeover=form.cleaned_data["computer_takeover"],
                    rated=form.cleaned_data["rated"], takeover_after=form.cleaned_data["takeover_after"],
                    contribution=request.POST.get("contribution"),
                    min_reliability=form.cleaned_data["min_reliability"], deal_after_contribution=True)
            except ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                return redirect("match_detail", match_id=match.pk)
    return render(request, "games/new.html", {"form": form, "panels": panels})


class _RoomPanel:
    """One game's fieldset on the new-game page: its table options and the creator's seat choice."""

    def __init__(self, room, user, data):
        self.room = room
        self.options = room.options_form(data, prefix=f"{room.kind}-opt")
        self.seat = room.seat_form_for(user, data, prefix=f"{room.kind}-seat")

    def is_valid(self) -> bool:
        return all([self.options.is_valid(), self.seat is None or self.seat.is_valid()])


def match_detail(request, match_id):
    match, seats = _viewable_or_404(match_id, request.user)
    if services.deal_if_due(match):  # its creator's page never sent a contribution
        match, seats = _viewable_or_404(match_id, request.user)
    my_seat = selectors.seat_of(match, request.user, seats)
    mine = access.seat_of(request.user, seats)
    invited = mine is not None and not mine.accepted
    refusal = access.join_refusal(match, request.user, seats)
    may_join = refusal is None
    if my_seat is not None:
        services.chat_notices_read(match_id=match.pk, user_id=request.user.id)  # the chat is in view
    # What happened while this player was away, then: they have seen it (games/inbox/recap.py).
    since_last = recap.recap_for(match, request.user, seats)
    if my_seat is not None:
        recap.visit_record(match=match, user=request.user)
    for seat in seats:  # named as the board names them ("Computer 2 (Knight)")
        seat.label = computers.seat_name(seat, seats)
    return render(request, "games/match.html", {
        "recap": since_last,
        "match": match, "seats": seats, "game": registry.get(match.kind), "my_seat": my_seat,
        "invited": invited, "can_join": (may_join and match.status == "open"
                                         and (invited or any(s.is_open for s in seats))),
        "can_join_running": may_join and _rules_take_newcomer(match),
        "unreliable": refusal.message if isinstance(refusal, access.Unreliable) else "",
        "reliability_min_games": reliability.MIN_GAMES,
        "left": access.left(request.user, seats),
        "chat": selectors.chat_for(match, player=my_seat is not None, reader=request.user),
        "can_chat": selectors.can_chat(match, request.user, seats), **_room_assets(match.kind),
        "fairness": _fairness(match, seats),
        "send_contribution": (commitments.waiting_for_deal(match) and mine is not None and mine.accepted
                              and not mine.contribution),
        # "Round 2 of the Spring Swiss", linked: a tournament's or a ladder's game says so.
        "competition": tournament_selectors.competition_of(match),
        "seat_form": registry.room(match.kind).seat_form_for(request.user, prefix="seat")
        if request.user.is_authenticated else None, **_table_guide(match)})


@login_required
@require_POST
def match_action(request, match_id, action):
    # Whoever may not see the game is told there is none, before anything is asked of it.
    match, _seats = _viewable_or_404(match_id, request.user)
    seat_form = registry.room(match.kind).seat_form_for(request.user, request.POST, prefix="seat")
    calls = {"join": lambda: services.match_join(match_id=match.pk, user=request.user,
                                                 choice=raw_values(seat_form) if seat_form is not None else None,
                                                 contribution=request.POST.get("contribution")),
             "decline": lambda: services.match_decline(match_id=match.pk, user=request.user),
             "contribute": lambda: services.match_contribute(match_id=match.pk, user=request.user,
                                                             contribution=request.POST.get("contribution")),
             "resign": lambda: services.match_resign(match_id=match.pk, user=request.user),
             "abandon": lambda: services.match_abandon(match_id=match.pk, user=request.user),
             "spectator-chat": lambda: services.chat_spectators_set(match_id=match.pk, user=request.user,
                                                                   allowed=request.POST.get("allowed") == "1")}
    if action not in calls:
        raise Http404()
    try:
        calls[action]()
    except ServiceError as exc:
        messages.error(request, exc.message)
    if not access.can_view(match, request.user, selectors.seats_for(match)):
        return redirect("home")  # an invitation to a private game declined: nothing left to see
    return redirect("match_detail", match_id=match.pk)


def match_history(request, match_id):
    match, seats = _viewable_or_404(match_id, request.user)
    seat = selectors.seat_of(match, request.user, seats)
    log = selectors.log_for(match, seat, limit=100000, seats=seats)
    page = Paginator(log, 200).get_page(request.GET.get("page"))
    return render(request, "games/history.html", {"match": match, "page": page, "seats": seats,
                                                  "game": registry.get(match.kind),
                                                  "ending": selectors.ending_for(match, seat, seats,
                                                                                 ratings=selectors.rating_lines(match)),
                                                  "provisional_games": Rating.PROVISIONAL_GAMES})


def match_replay(request, match_id):
    """The replay, stepped move by move; ``?at=N`` opens it at move N (0: the setup), a link
    to share. A number beyond the last move opens the last; anything else is refused."""
    match, _seats = _viewable_or_404(match_id, request.user)
    raw = request.GET.get("at")
    at = None
    if raw is not None:
        if not (raw.isascii() and raw.isdigit()):
            return HttpResponseBadRequest(f"?at= takes a move number: 0 for the setup, up to {match.move_count}.",
                                          content_type="text/plain; charset=utf-8")
        # Compared as text first: a number of any length is clamped, never converted whole.
        at = match.move_count if len(raw.lstrip("0")) > 9 else min(int(raw), match.move_count)
    return render(request, "games/replay.html", {"match": match, "game": registry.get(match.kind), "at": at,
                                                 "has_rules": registry.room(match.kind).rules_template is not None,
                                                 **_room_assets(match.kind)})


@login_required
def notifications(request):
    if request.method == "POST":
        services.notifications_mark_read(user=request.user)
        return redirect("notifications")
    rows = Notification.objects.filter(user=request.user).select_related("match").order_by("-created_at")[:200]
    return render(request, "games/notifications.html", {"notifications": rows})


def _rules_take_newcomer(match) -> bool:
    """Whether this game under way would deal a newcomer in now: its rules have ``add_seat``
    and would take one (asked of the pure rules, which change nothing; the service asks
    again under the lock). Whether this visitor may be that newcomer is access's question."""
    if match.status != "active":
        return False
    add_seat = getattr(registry.get(match.kind), "add_seat", None)
    if add_seat is None:
        return False
    try:
        add_seat(match.state)
    except IllegalMove:
        return False
    return True


def game_rules(request, kind):
    """A game's rules page, from its room (``games/kinds/<kind>/templates/<kind>/rules.html``):
    the goal, a turn, the pieces, the variations, the table options read from the same form
    the new-game page draws, and the site's own choices. Public: a visitor learns a game
    before signing up."""
    try:
        room = registry.room(kind)
    except LookupError:
        raise Http404("No such game.") from None
    if room.rules_template is None:
        raise Http404("This game has no rules page yet.")
    return render(request, room.rules_template, {
        "room": room, "game": room.game, "goal": room.how_to_win(), "options": room.option_rows(),
        "levels": [label for _, label in computers.level_choices(kind)]})


def _fairness(match, seats) -> dict:
    """The game page's "Fair shuffle" card (games/table/commitments.py): the commitment and
    each seat's contribution from the start, the secret and seed once the game is over, and
    for an ended game its record and the "Check this game" section."""
    public = commitments.public(match, seats)
    over = commitments.is_over(match)
    contributions = (public or {}).get("contributions") or [None] * len(seats)
    return {"committed": public is not None, "over": over, "set_up": match.started_at is not None,
            "checkable": public is not None and over and match.started_at is not None,
            "seats": [{"label": seat.label, "contribution": c} for seat, c in zip(seats, contributions)],
            **(public or {})}


def _table_guide(match) -> dict:
    """What the game page says about the game itself: the goal of this table (its variations
    and player count), the rules page, and the table's options in words (for an invitee
    deciding whether to accept)."""
    room = registry.room(match.kind)
    return {"how_to_win": room.how_to_win(match.options, match.num_seats), "has_rules": room.rules_template is not None,
            "table_options": room.chosen_options(match.options)}


def _room_assets(kind: str) -> dict:
    """The game's board script and style, from its room's folder."""
    room = registry.room(kind)
    return {"kind_js": room.static_path(room.script), "kind_css": room.static_path(room.style)}


def _viewable_or_404(match_id, user):
    try:
        return selectors.viewable(match_id, user)
    except NotAllowed as exc:
        raise Http404(exc.message) from None
    except ServiceError:
        raise Http404("No such game.") from None
