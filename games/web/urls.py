from django.urls import path

from games.players import rating_views
from games import registry
from games.web import api_root, views

# The pages, then the JSON API (games/web/api_root.py, django-ninja): after the pages, so the
# home page keeps "/".
urlpatterns = [
    path("", views.home, name="home"),
    path("lobby/", views.lobby, name="lobby"),
    path("rules/<slug:kind>/", views.game_rules, name="game_rules"),
    path("notifications/", views.notifications, name="notifications"),
    path("ratings/", rating_views.leaderboards, name="leaderboards"),
    path("ratings/<slug:kind>/", rating_views.leaderboard, name="leaderboard"),
    path("games/new/", views.match_new, name="match_new"),
    path("games/against-the-computer/", views.match_vs_computer, name="match_vs_computer"),
    path("games/next/", views.match_next, name="match_next"),
    path("games/<int:match_id>/", views.match_detail, name="match_detail"),
    path("games/<int:match_id>/history/", views.match_history, name="match_history"),
    path("games/<int:match_id>/replay/", views.match_replay, name="match_replay"),
    path("games/<int:match_id>/<str:action>/", views.match_action, name="match_action"),
    # Each game's own URLs, from its room (games/kinds/<kind>/).
    *(pattern for room in registry.rooms() for pattern in room.urls),
] + api_root.urlpatterns()
