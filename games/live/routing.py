from django.urls import path

from games.live.consumers import MatchConsumer, TournamentConsumer, UserConsumer
from games.live.presence import PresenceConsumer

websocket_urlpatterns = [
    path("ws/matches/<int:match_id>/", MatchConsumer.as_asgi()),
    path("ws/me/", UserConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),  # a tournament's page
    path("ws/presence/", PresenceConsumer.as_asgi()),  # who of the people I follow is online
]
