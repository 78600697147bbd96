"""The JSON API: everything a game page can do, for browsers, bots and other clients.
Documented in docs/api.md and served as OpenAPI at /api/schema/."""
from __future__ import annotations

import json
from pathlib import Path

from django.http import JsonResponse

from games import registry, selectors, services
from games.api_auth import api_view, json_body
from games.errors import ServiceError
from games.models import Notification

SCHEMA_PATH = Path(__file__).resolve().parent / "openapi.json"


def _int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ServiceError(f"'{name}' must be a whole number.")
    return value


@api_view(("GET",), login=False)
def game_kinds(request):
    return {"games": [{"kind": g.kind, "name": g.name, "min_players": g.min_players, "max_players": g.max_players,
                       "options": g.option_schema, "spectators": g.allows_spectators} for g in registry.kinds()]}


@api_view(("GET", "POST"))
def matches(request):
    if request.method == "GET":
        return {"matches": [match_summary(m, request.user) for m in selectors.matches_for_user(request.user)]}
    body = json_body(request)
    clock = body.get("clock") or {}
    if not isinstance(clock, dict):
        raise ServiceError("'clock' must be an object.")
    invite = body.get("invite") or []
    if not isinstance(invite, list) or not all(isinstance(n, str) for n in invite):
        raise ServiceError("'invite' must be a list of usernames.")
    options = body.get("options") or {}
    if not isinstance(options, dict):
        raise ServiceError("'options' must be an object.")
    match = services.match_create(
        creator=request.user, kind=str(body.get("kind", "")), num_seats=_int(body.get("seats", 2), "seats"),
        options=options, invite=invite, clock_kind=str(clock.get("kind", "days")),
        clock_amount=_int(clock.get("amount", 3), "clock.amount"),
        weekend_pause=bool(clock.get("weekend_pause", False)),
        vacation_days=_int(clock.get("vacation_days", 0), "clock.vacation_days"),
        allow_spectators=bool(body.get("spectators", True)), title=str(body.get("title", "")),
        creator_choice=body.get("choice") if isinstance(body.get("choice"), dict) else None)
    return JsonResponse(selectors.match_payload(match, request.user), status=201)


def match_summary(match, user) -> dict:
    seats = list(match.seats.all())
    return {"id": match.pk, "kind": match.kind, "name": registry.get(match.kind).name, "title": match.title,
            "status": match.status, "version": match.version,
            "my_turn": any(s.user_id == user.id and s.waiting_for for s in seats),
            "players": [s.user.username if s.user_id else None for s in seats], "updated_at": match.updated_at}


@api_view(("GET",), login=False)
def match_detail(request, match_id):
    return selectors.match_payload(selectors.match_get(match_id), request.user)


@api_view(("POST",))
def match_move(request, match_id):
    body = json_body(request)
    if "move" not in body:
        raise ServiceError("Send the move as {\"move\": {...}, \"version\": N, \"key\": \"...\"}.")
    version = body.get("version")
    if version is not None:
        version = _int(version, "version")
    key = body.get("key")
    if key is not None and (not isinstance(key, str) or not 1 <= len(key) <= 64):
        raise ServiceError("'key' must be a string of 1 to 64 characters.")
    # The service locks and loads the match itself (and says "No such game."): loading it
    # here too would read a whole state a second time on the busiest path.
    result = services.move_submit(match_id=match_id, user=request.user, move=body["move"], version=version, key=key)
    return result


@api_view(("POST",))
def match_join(request, match_id):
    body = json_body(request)
    choice = body.get("choice")
    match = services.match_join(match_id=selectors.match_get(match_id).pk, user=request.user,
                                choice=choice if isinstance(choice, dict) else None)
    return selectors.match_payload(match, request.user)


@api_view(("POST",))
def match_decline(request, match_id):
    services.match_decline(match_id=selectors.match_get(match_id).pk, user=request.user)
    return {"ok": True}


@api_view(("POST",))
def match_resign(request, match_id):
    match = services.match_resign(match_id=selectors.match_get(match_id).pk, user=request.user)
    return {"status": match.status, "version": match.version}


@api_view(("POST",))
def match_abandon(request, match_id):
    match = services.match_abandon(match_id=selectors.match_get(match_id).pk, user=request.user)
    return {"status": match.status}


@api_view(("GET", "POST"), login=False)
def match_chat(request, match_id):
    match = selectors.match_get(match_id)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return JsonResponse({"error": {"code": "unauthenticated", "message": "Log in to chat."}}, status=401)
        body = json_body(request)
        message = services.chat_post(match_id=match.pk, user=request.user, text=str(body.get("text", "")))
        return JsonResponse(selectors.chat_public(message), status=201)
    if not selectors.can_view(match, request.user, selectors.seats_for(match)):
        raise ServiceError("This game has no spectators.")
    try:
        after = int(request.GET.get("after", 0))
    except ValueError:
        raise ServiceError("'after' must be a whole number.") from None
    return {"messages": selectors.chat_for(match, after_id=after)}


@api_view(("GET",), login=False)
def match_replay(request, match_id):
    step, as_seat = request.GET.get("step"), request.GET.get("as")
    try:
        step = None if step in (None, "") else int(step)
        as_seat = None if as_seat in (None, "") else int(as_seat) - 1  # seats are numbered from 1
    except ValueError:
        raise ServiceError("'step' and 'as' must be whole numbers.") from None
    return selectors.replay_frames(selectors.match_get(match_id), request.user, upto=step, as_seat=as_seat)


@api_view(("GET",), login=False)
def match_log(request, match_id):
    match = selectors.match_get(match_id)
    seats = selectors.seats_for(match)
    if not selectors.can_view(match, request.user, seats):
        raise ServiceError("This game has no spectators.")
    seat = selectors.seat_of(match, request.user, seats)
    return {"log": selectors.log_for(match, seat, limit=100000, seats=seats)}


@api_view(("GET",))
def notifications(request):
    rows = Notification.objects.filter(user=request.user).order_by("-created_at")[:100]
    return {"unread": selectors.unread_count(request.user),
            "notifications": [{"id": n.pk, "kind": n.kind, "text": n.text, "match": n.match_id,
                               "read": n.read_at is not None, "at": n.created_at.isoformat()} for n in rows]}


@api_view(("POST",))
def notifications_read(request):
    body = json_body(request)
    ids = body.get("ids")
    if ids is not None and (not isinstance(ids, list) or not all(isinstance(i, int) for i in ids)):
        raise ServiceError("'ids' must be a list of notification ids.")
    return {"marked": services.notifications_mark_read(user=request.user, ids=ids)}


@api_view(("GET",), login=False)
def schema(request):
    return json.loads(SCHEMA_PATH.read_text())
