from django.urls import path

from games import api, registry, views

urlpatterns = [
    path("", views.home, name="home"),
    path("lobby/", views.lobby, name="lobby"),
    path("notifications/", views.notifications, name="notifications"),
    path("games/new/", views.match_new, name="match_new"),
    path("games/<int:match_id>/", views.match_detail, name="match_detail"),
    path("games/<int:match_id>/history/", views.match_history, name="match_history"),
    path("games/<int:match_id>/replay/", views.match_replay, name="match_replay"),
    path("games/<int:match_id>/<str:action>/", views.match_action, name="match_action"),
    path("api/games/", api.game_kinds, name="api_game_kinds"),
    path("api/schema/", api.schema, name="api_schema"),
    path("api/matches/", api.matches, name="api_matches"),
    path("api/matches/<int:match_id>/", api.match_detail, name="api_match"),
    path("api/matches/<int:match_id>/moves/", api.match_move, name="api_match_move"),
    path("api/matches/<int:match_id>/join/", api.match_join, name="api_match_join"),
    path("api/matches/<int:match_id>/decline/", api.match_decline, name="api_match_decline"),
    path("api/matches/<int:match_id>/resign/", api.match_resign, name="api_match_resign"),
    path("api/matches/<int:match_id>/abandon/", api.match_abandon, name="api_match_abandon"),
    path("api/matches/<int:match_id>/chat/", api.match_chat, name="api_match_chat"),
    path("api/matches/<int:match_id>/replay/", api.match_replay, name="api_match_replay"),
    path("api/matches/<int:match_id>/log/", api.match_log, name="api_match_log"),
    path("api/notifications/", api.notifications, name="api_notifications"),
    path("api/notifications/read/", api.notifications_read, name="api_notifications_read"),
    # Each game's own URLs, from its room (games/kinds/<kind>/).
    *(pattern for room in registry.rooms() for pattern in room.urls),
]
