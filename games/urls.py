from django.urls import path

from games import ccg_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("lobby/", views.lobby, name="lobby"),
    path("notifications/", views.notifications, name="notifications"),
    path("games/new/", views.match_new, name="match_new"),
    path("games/<int:match_id>/", views.match_detail, name="match_detail"),
    path("games/<int:match_id>/history/", views.match_history, name="match_history"),
    path("games/<int:match_id>/replay/", views.match_replay, name="match_replay"),
    path("games/<int:match_id>/<str:action>/", views.match_action, name="match_action"),
    # Not yet in the typed API: the CCG shell moves to games/kinds/ccg/ (docs/api.md).
    path("api/matches/<int:match_id>/ccg/preset/", ccg_views.preset, name="api_ccg_preset"),
]
