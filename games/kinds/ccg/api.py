"""The CCG's own operation of the JSON API: a seat's response-window preset. Mounted with the
shell's routes (games/web/api_root.py adds every room's ``api`` router), so it is validated by its
typed schema, answers refusals in the one JSON shape, and is in the generated document."""
from __future__ import annotations

from typing import Literal

from ninja import Router, Schema

from grailsite.api_types import ERRORS, In, MatchId
from grailsite.api_auth import Viewer

from . import hooks

router = Router(auth=Viewer(), tags=["ccg"])
Preset = Literal["ask", "always_pass"]


class PresetIn(In):
    preset: Preset


class PresetOut(Schema):
    preset: Preset


@router.get("matches/{int:id}/ccg/preset/", response={200: PresetOut, **ERRORS}, url_name="api_ccg_preset")
def preset(request, match_id: MatchId):
    """My preset in this CCG game: 'ask' in every response window, or 'always_pass'."""
    return {"preset": hooks.preset_get(match_id=match_id, user=request.user)}


@router.post("matches/{int:id}/ccg/preset/", response={200: PresetOut, **ERRORS}, url_name="api_ccg_preset_set")
def preset_set(request, match_id: MatchId, body: PresetIn):
    """Change it; 'always_pass' also answers a response window that waits for me now."""
    seat = hooks.preset_set(match_id=match_id, user=request.user, preset=body.preset)
    return {"preset": seat.choice.get("preset", "ask")}
