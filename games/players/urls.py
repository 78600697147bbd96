"""A player's own pages: /players/<name>/, /friends/, and their settings and e-mail
unsubscribe under /accounts/ beside sign-up and log-in (grailsite/accounts/urls.py)."""
from django.urls import path

from games.players import views

urlpatterns = [
    path("players/<str:name>/", views.player_profile, name="player_profile"),
    path("players/<str:name>/<slug:action>/", views.player_tie, name="player_tie"),
    path("friends/", views.friends, name="friends"),
    path("accounts/settings/", views.account_settings, name="account_settings"),
    path("accounts/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
