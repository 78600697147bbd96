"""The CCG's own endpoint: a seat's response-window preset ('ask' or 'always_pass')."""
from __future__ import annotations

from games import selectors
from games.api_auth import api_view, json_body
from games.errors import ServiceError

from . import hooks


@api_view(("GET", "POST"))
def preset(request, match_id):
    """GET: my preset in this game; POST {"preset": "ask"|"always_pass"}: change it."""
    if request.method == "POST":
        seat = hooks.preset_set(match_id=match_id, user=request.user, preset=json_body(request).get("preset"))
        return {"preset": seat.choice.get("preset", "ask")}
    match = selectors.match_get(match_id)
    seat = match.seats.filter(user=request.user, accepted=True).first()
    if seat is None or match.kind != hooks.KIND:
        raise ServiceError("You are not playing in this CCG game.")
    return {"preset": (seat.choice or {}).get("preset", "ask")}
