from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.views.static import serve

from grailsite import api, pwa

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("grailsite.accounts.urls")),
    path("decks/", include("decks.urls")),
    # The installable app: manifest, icons, service worker, offline page (grailsite/pwa.py).
    path("", include(pwa.urlpatterns)),
    path("", include("grailsite.accounts.player_urls")),
    path("", include("games.urls")),
    # The typed JSON API (games under /api/, decks under /decks/api/) and its OpenAPI
    # document at /api/schema/; after the pages, so the home page keeps "/".
    path("", include(api.urlpatterns())),
]
if settings.DEBUG:
    urlpatterns += [path(f"{settings.MEDIA_URL.lstrip('/')}<path:path>", serve, {"document_root": settings.MEDIA_ROOT})]
