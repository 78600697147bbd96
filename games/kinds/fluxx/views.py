"""Fluxx's own endpoint: the card faces' data (public, the same for everyone, fixed)."""
from __future__ import annotations

from django.http import JsonResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from .faces import deck_faces


@require_GET
@cache_control(public=True, max_age=3600)
def cards(request):
    return JsonResponse(deck_faces())
