from django.urls import path

from games.bots import streams, views

urlpatterns = [
    path("api/stream/events/", streams.event_stream, name="bot_event_stream"),
    path("api/stream/games/<int:match_id>/", streams.game_stream, name="bot_game_stream"),
    path("accounts/settings/tokens/", views.tokens_page, name="api_tokens"),
    path("accounts/settings/bot/", views.bot_page, name="bot_settings"),
]
