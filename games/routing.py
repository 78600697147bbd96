from django.urls import path

from games.consumers import MatchConsumer, UserConsumer

websocket_urlpatterns = [
    path("ws/matches/<int:match_id>/", MatchConsumer.as_asgi()),
    path("ws/me/", UserConsumer.as_asgi()),
]
