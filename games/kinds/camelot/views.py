"""Camelot's own endpoint: a board's public data (terrain, diamonds, edge ring), the same
for everyone and fixed, so it is cached like any static file."""
from __future__ import annotations

from django.http import Http404, JsonResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from games.rules.camelot import board_public


@require_GET
@cache_control(public=True, max_age=3600)
def board(request, name: str):
    try:
        data = board_public(name)
    except (KeyError, ValueError, FileNotFoundError, OSError):
        raise Http404("No such board.") from None
    return JsonResponse(data)
