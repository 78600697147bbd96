"""HTML pages. They translate requests into service calls and render templates; the game
board itself is drawn by the kind's renderer from the JSON API."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.core.paginator import Paginator
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from decks import selectors as deck_selectors
from games import registry, selectors, services
from games.errors import NotAllowed, ServiceError
from games.forms import MatchCreateForm
from games.models import Notification


def home(request):
    if not request.user.is_authenticated:
        return render(request, "games/landing.html", {"games": registry.kinds(),
                                                      "live": selectors.live_matches(limit=10)})
    mine = selectors.matches_for_user(request.user)
    finished = [m for m in mine if m.status in ("finished", "abandoned")][:30]
    for m in finished:
        seats = list(m.seats.all())
        m.ending = selectors.ending_for(m, selectors.seat_of(m, request.user, seats), seats)
    return render(request, "games/home.html", {
        # An invitation waits for my answer as much as a move does.
        "my_turn": [m for m in mine if m.status == "open" and m.invited]
                   + [m for m in mine if m.my_turn and m.status == "active"],
        "active": [m for m in mine if not m.my_turn and m.status == "active"],
        "open": [m for m in mine if m.status == "open" and not m.invited],
        "finished": finished,
        "welcome": _welcome(request.user) if not mine else None,
    })


def _welcome(user) -> dict:
    """What a new account has and how to start (issue 11: a new player was told nothing)."""
    decks = deck_selectors.decks_playability(user=user)
    return {"cards": deck_selectors.collection_counts(user=user)["total"],
            "playable": [row["deck"] for row in decks if row["playable"]], "decks": len(decks),
            "games": registry.kinds()}


def lobby(request):
    return render(request, "games/lobby.html", {"open": selectors.open_matches(exclude_user=request.user),
                                                "live": selectors.live_matches()})


@login_required
def match_new(request):
    form = MatchCreateForm(request.POST or None, initial={"kind": request.GET.get("kind")})
    if request.method == "POST" and form.is_valid():
        try:
            match = services.match_create(
                creator=request.user, kind=form.cleaned_data["kind"], num_seats=form.cleaned_data["seats"],
                options=form.options(request.POST), invite=form.invitees(), title=form.cleaned_data["title"],
                clock_kind=form.cleaned_data["clock_kind"], clock_amount=form.cleaned_data["clock_amount"],
                weekend_pause=form.cleaned_data["weekend_pause"], vacation_days=form.cleaned_data["vacation_days"],
                allow_spectators=form.cleaned_data["allow_spectators"],
                creator_choice=_choice_from(request.POST))
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect("match_detail", match_id=match.pk)
    return render(request, "games/new.html", {"form": form, "games": registry.kinds()})


def _choice_from(post) -> dict:
    return {k[len("choice_"):]: v for k, v in post.items() if k.startswith("choice_") and v}


def match_detail(request, match_id):
    match = _match_or_404(match_id)
    seats = selectors.seats_for(match)
    if not selectors.can_view(match, request.user, seats):
        raise Http404("This game has no spectators.")
    my_seat = selectors.seat_of(match, request.user, seats)
    invited = request.user.is_authenticated and any(s.user_id == request.user.id and not s.accepted for s in seats)
    return render(request, "games/match.html", {
        "match": match, "seats": seats, "game": registry.get(match.kind), "my_seat": my_seat,
        "invited": invited, "can_join": (request.user.is_authenticated and match.status == "open" and my_seat is None
                                         and (invited or any(s.user_id is None for s in seats))),
        "chat": selectors.chat_for(match, player=my_seat is not None),
        "can_chat": selectors.can_chat(match, request.user, my_seat),
        "join_template": _join_template(match.kind), **_kind_assets(match.kind)})


@login_required
@require_POST
def match_action(request, match_id, action):
    match = _match_or_404(match_id)
    calls = {"join": lambda: services.match_join(match_id=match.pk, user=request.user,
                                                 choice=_choice_from(request.POST)),
             "decline": lambda: services.match_decline(match_id=match.pk, user=request.user),
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
    return redirect("match_detail", match_id=match.pk)


def match_history(request, match_id):
    match = _match_or_404(match_id)
    seats = selectors.seats_for(match)
    if not selectors.can_view(match, request.user, seats):
        raise Http404("This game has no spectators.")
    seat = selectors.seat_of(match, request.user, seats)
    log = selectors.log_for(match, seat, limit=100000, seats=seats)
    page = Paginator(log, 200).get_page(request.GET.get("page"))
    return render(request, "games/history.html", {"match": match, "page": page, "seats": seats,
                                                  "game": registry.get(match.kind)})


def match_replay(request, match_id):
    match = _match_or_404(match_id)
    if not selectors.can_view(match, request.user, selectors.seats_for(match)):
        raise Http404("This game has no spectators.")
    return render(request, "games/replay.html", {"match": match, "game": registry.get(match.kind),
                                                 **_kind_assets(match.kind)})


@login_required
def notifications(request):
    if request.method == "POST":
        services.notifications_mark_read(user=request.user)
        return redirect("notifications")
    rows = Notification.objects.filter(user=request.user).select_related("match").order_by("-created_at")[:200]
    return render(request, "games/notifications.html", {"notifications": rows})


def _kind_assets(kind: str) -> dict:
    """The kind's renderer script and style, when the game ships them."""
    js, css = f"js/games/{kind}.js", f"css/games/{kind}.css"
    return {"kind_js": js if finders.find(js) else None, "kind_css": css if finders.find(css) else None}


def _join_template(kind: str) -> str | None:
    """A kind may ask for a choice on joining (e.g. a deck): templates/games/join/<kind>.html."""
    name = f"games/join/{kind}.html"
    try:
        get_template(name)
    except TemplateDoesNotExist:
        return None
    return name


def _match_or_404(match_id):
    try:
        return selectors.match_get(match_id)
    except (ServiceError, NotAllowed):
        raise Http404("No such game.") from None
