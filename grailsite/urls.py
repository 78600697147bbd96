from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.views.static import serve

from grailsite import health, pwa
from grailsite.ratelimits import ratelimit_view

urlpatterns = [
    # Probes and metrics (grailsite/health.py, grailsite/metrics.py): no session, no page.
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("sweepz", health.sweepz, name="sweepz"),
    path("metrics", health.metrics_view, name="metrics"),
    # The admin's log-in counts against the site's own log-in limit, by the same client
    # address (before admin.site.urls, whose own login/ it stands in front of).
    path("admin/login/", ratelimit_view("login")(admin.site.login)),
    path("admin/", admin.site.urls),
    path("accounts/", include("grailsite.accounts.urls")),
    path("decks/", include("decks.urls")),
    # The installable app: manifest, icons, service worker, offline page (grailsite/pwa.py).
    path("", include(pwa.urlpatterns)),
    path("", include("games.players.urls")),
    # Bots: their streams (before the JSON API, which answers the rest of /api/), tokens, accepts.
    path("", include("games.bots.urls")),
    # Tournaments and ladders (games/tournaments/); their JSON API is mounted with the rest.
    path("", include("games.tournaments.urls")),
    # The pages, then the typed JSON API (games under /api/, decks under /decks/api/) and its
    # OpenAPI document at /api/schema/ (games/web/urls.py).
    path("", include("games.web.urls")),
]
if settings.DEBUG:
    urlpatterns += [path(f"{settings.MEDIA_URL.lstrip('/')}<path:path>", serve, {"document_root": settings.MEDIA_ROOT})]
