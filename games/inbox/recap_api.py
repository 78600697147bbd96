"""``POST /api/matches/{id}/seen/``: a player's page says how far it showed the game (the
moves and the chat line), when it is hidden or closed, so the next recap starts there
(games/inbox/recap.py)."""
from __future__ import annotations

from ninja import Field, Router, Status

from games.inbox import recap
from games.table import selectors
from grailsite.api_types import ERRORS, Count, In, MatchId
from grailsite.api_auth import Viewer

router = Router(auth=Viewer(), tags=["games"])


class SeenIn(In):
    moves: Count = Field(..., description="How many moves the page showed (the payload's `moves`).")
    chat: int = Field(0, ge=0, le=2**63 - 1, description="The id of the last chat line the page showed.")


@router.post("matches/{id}/seen/", response={204: None, **ERRORS}, url_name="api_match_seen")
def match_seen(request, match_id: MatchId, body: SeenIn):
    match, _seats = selectors.viewable(match_id, request.user)
    recap.visit_record(match=match, user=request.user, seq=body.moves, chat_id=body.chat)
    return Status(204, None)
