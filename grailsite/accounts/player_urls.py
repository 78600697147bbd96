"""Players' pages, at the site's top level: /players/<name>/ and /friends/."""
from django.urls import path

from . import views

urlpatterns = [
    path("players/<str:name>/", views.player_profile, name="player_profile"),
    path("players/<str:name>/<slug:action>/", views.player_tie, name="player_tie"),
    path("friends/", views.friends, name="friends"),
]
