"""Leaderboards: per game kind, the established players (games/players/ratings.py), best first, and
under them the best of those whose rating is still provisional, marked. People and bots have
boards of their own (``?board=bots``): a bot's rated games are against bots only, so the
two numbers measure different pools and are never ranked together."""
from __future__ import annotations

from django.conf import settings
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render

from games.players import ratings
from games import registry

PER_PAGE = 50


def leaderboards(request):
    rooms = registry.rooms()
    return redirect("leaderboard", kind=rooms[0].kind) if rooms else render(request, "games/leaderboard.html", {})


def leaderboard(request, kind):
    try:
        room = registry.room(kind)
    except LookupError:
        raise Http404("No such game.") from None
    bots = request.GET.get("board") == "bots"
    page = Paginator(ratings.leaderboard(kind, bots=bots), PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "games/leaderboard.html", {
        "room": room, "page": page, "rank_from": page.start_index(), "rooms": registry.rooms(),
        "provisional_games": ratings.PROVISIONAL_GAMES, "bots": bots,
        # Bots' games are rated only in their own pool; unrated, they have no board.
        "bot_board": settings.BOT_GAMES_RATED == "pool" or bots,
        # Listed under the established ones, the same short list on every page.
        "provisional": ratings.provisional_board(kind, bots=bots)})
