from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.views.static import serve

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("grailsite.accounts.urls")),
    path("decks/", include("decks.urls")),
    path("", include("games.urls")),
]
if settings.DEBUG:
    urlpatterns += [path(f"{settings.MEDIA_URL.lstrip('/')}<path:path>", serve, {"document_root": settings.MEDIA_ROOT})]
