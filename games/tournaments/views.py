"""The tournaments' and ladders' pages. They translate requests into service calls and render
templates; a tournament's page reloads its standings and rounds when its live group says it
changed (static/js/tournament.js, the fragment ``?part=live``)."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from games import registry
from games.models import Tournament, TournamentEntry
from games.tournaments import ladder as ladder_rules, ladders, selectors, services
from games.tournaments.api import TIE_BREAKS
from games.tournaments.forms import TournamentCreateForm
from games.table import computers
from grailsite.errors import ServiceError


def tournament_list(request):
    kind = request.GET.get("kind") or None
    format_ = request.GET.get("format") or None
    if kind not in {r.kind for r in registry.rooms()}:
        kind = None
    if format_ not in Tournament.Format.values:
        format_ = None
    sections = {name: selectors.tournament_list(kind=kind, format=format_, section=name, limit=50)
                for name in selectors.SECTIONS}
    return render(request, "tournaments/list.html", {"sections": sections, "kind": kind, "format": format_,
                                                     "rooms": registry.rooms(), "formats": Tournament.Format.choices})


@login_required
def tournament_new(request):
    form = TournamentCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = services.tournament_create(
                organiser=request.user, kind=data["kind"], format=data["format"], name=data["name"],
                rounds=data["rounds"], table_size=data["table_size"], max_players=data["max_players"],
                clock_kind=data["clock_kind"], clock_amount=data["clock_amount"], round_days=data["round_days"],
                rated=data["rated"], invitation_only=data["invitation_only"], invite=form.invitees(),
                min_rating=data["min_rating"], min_reliability=data["min_reliability"], starts_at=data["starts_at"])
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect("tournament_detail", tournament_id=tournament.pk)
    return render(request, "tournaments/new.html", {"form": form})


def _page(request, tournament) -> dict:
    found = selectors.detail(tournament)
    user = request.user
    mine = next((e for e in found.entries.values() if user.is_authenticated and e.user_id == user.pk), None)
    organiser = user.is_authenticated and (user.pk == tournament.organiser_id or user.is_staff)
    names = {pk: e.name for pk, e in found.entries.items()}
    # Each row said once in Python (names, result, link): a large event's page has a thousand
    # of them, and template filters and URL lookups per row cost more than the rest of the page.
    rounds = [{"round": r, "games": [_game_row(tournament, g, names) for g in found.games_of(r)]}
              for r in reversed(found.rounds)]
    standings = [{"line": line, "score": _number(line.standing.score),
                  "tie_breaks": [_number(t) for t in line.standing.tie_breaks]} for line in found.standings]
    return {"tournament": tournament, "game": registry.get(tournament.kind), "found": found, "rounds": rounds,
            "standings": standings, "mine": mine, "organiser": organiser,
            "tie_breaks": TIE_BREAKS[selectors.games_of_two(tournament)],
            "grouped": tournament.format == Tournament.Format.ROUND_ROBIN,
            "computer_levels": computers.level_choices(tournament.kind),
            "entered": sum(1 for e in found.entries.values() if e.status == TournamentEntry.Status.ENTERED)}


NOTES = {"bye": ": bye", "sit_out": ": sits out", "forfeit": ": won by forfeit"}


def _game_row(tournament, game, names) -> dict:
    points = selectors.game_points(tournament, game)
    return {"url": f"/games/{game.match_id}/" if game.match_id else "",
            "players": " – ".join(names[p] for p in game.players), "note": NOTES.get(game.kind, ""),
            "result": " – ".join(_number(p) for p in points) if points is not None else "",
            "playing": game.kind == "game" and game.places is None}


def _number(value) -> str:
    """1, 1.5, 0.75: a score or tie-break as the standings print it."""
    if value == int(value):
        return str(int(value))
    return f"{float(value):.2f}".rstrip("0")


def tournament_detail(request, tournament_id):
    tournament = selectors.tournament_get(tournament_id)
    if tournament is None:
        raise Http404("No such tournament.")
    context = _page(request, tournament)
    if request.GET.get("part") == "live":
        return render(request, "tournaments/_live.html", context)
    seat_form = (registry.room(tournament.kind).seat_form_for(request.user, prefix="seat")
                 if request.user.is_authenticated else None)
    return render(request, "tournaments/detail.html", {**context, "seat_form": seat_form})


@login_required
@require_POST
def tournament_action(request, tournament_id, action):
    tournament = selectors.tournament_get(tournament_id)
    if tournament is None:
        raise Http404("No such tournament.")
    user, pk = request.user, tournament.pk
    calls = {
        "join": lambda: services.tournament_join(tournament_id=pk, user=user, choice=_seat_choice(request, tournament)),
        "computer": lambda: services.tournament_add_computer(tournament_id=pk, user=user,
                                                             level=request.POST.get("level", "")),
        "leave": lambda: services.tournament_leave(tournament_id=pk, user=user),
        "start": lambda: services.tournament_start(tournament_id=pk, user=user),
        "pause": lambda: services.tournament_pause(tournament_id=pk, user=user),
        "resume": lambda: services.tournament_resume(tournament_id=pk, user=user),
        "cancel": lambda: services.tournament_cancel(tournament_id=pk, user=user),
        "remove": lambda: services.tournament_remove(entry_id=_int(request.POST.get("entry")), by=user),
    }
    if action not in calls:
        raise Http404("No such action.")
    try:
        calls[action]()
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("tournament_detail", tournament_id=pk)


def _seat_choice(request, tournament) -> dict | None:
    return _posted_choice(request, tournament.kind)


def _posted_choice(request, kind: str) -> dict | None:
    """What the game's seat form (the CCG's deck) was sent, as the form's widgets read it."""
    form = registry.room(kind).seat_form_for(request.user, request.POST, prefix="seat")
    return None if form is None else {name: form[name].data for name in form.fields}


def _int(value) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ServiceError("No such entry.") from None
    if not 1 <= number < 2**63:
        raise ServiceError("No such entry.")
    return number


# --- ladders ---------------------------------------------------------------------------

def ladder_list(request):
    return render(request, "tournaments/ladders.html", {"games": selectors.ladder_kinds()})


def ladder_detail(request, kind):
    game = next((g for g in selectors.ladder_kinds() if g.kind == kind), None)
    if game is None:
        raise Http404("No ladder for that game.")
    view = selectors.ladder_view(kind)
    order = [r.user_id for r in view.rungs]
    me = request.user.pk if request.user.is_authenticated else None
    open_ = [ladder_rules.Challenge(c.challenger_id, c.defender_id) for c in view.open]
    reach = view.ladder.reach if view.ladder else 3
    rungs = [{"rung": r, "refusal": (ladder_rules.challenge_refusal(order, open_, me, r.user_id, reach)
                                     if me in order and r.user_id != me else None)} for r in view.rungs]
    seat_form = (registry.room(kind).seat_form_for(request.user, prefix="seat")
                 if request.user.is_authenticated else None)
    return render(request, "tournaments/ladder.html", {
        "game": game, "view": view, "rungs": rungs, "on_ladder": me in order, "reach": reach,
        "seat_form": seat_form, "max_open": ladder_rules.MAX_OPEN})


@login_required
@require_POST
def ladder_action(request, kind, action):
    if kind not in {g.kind for g in selectors.ladder_kinds()}:
        raise Http404("No ladder for that game.")
    user = request.user
    calls = {
        "join": lambda: ladders.ladder_join(kind=kind, user=user, choice=_ladder_choice(request, kind)),
        "leave": lambda: ladders.ladder_leave(kind=kind, user=user),
        "challenge": lambda: ladders.ladder_challenge(kind=kind, user=user, defender_id=_int(request.POST.get("defender"))),
    }
    if action not in calls:
        raise Http404("No such action.")
    try:
        done = calls[action]()
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("ladder_detail", kind=kind)
    if action == "challenge":
        return redirect("match_detail", match_id=done.match_id)
    return redirect("ladder_detail", kind=kind)


def _ladder_choice(request, kind) -> dict | None:
    return _posted_choice(request, kind)
