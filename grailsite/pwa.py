"""The installable app: its manifest, icons, service worker and offline page.

The service worker (templates/pwa/sw.js) caches static files only: the offline page and what
it needs when installed, and each file under ``/static/`` the site uses, as it is used. A
game's state, the API, the pages and the websockets pass it untouched, so nothing it holds can
be out of date or belong to someone else. A page that cannot be fetched (the network or the
server is gone) shows the offline page instead of the browser's error.

Its cache is named by a version computed from the static files themselves (sizes and times of
change): a deployment that changes one changes the worker's script, the browser installs the
new worker, and the old cache is dropped."""
from __future__ import annotations

import hashlib
import json
import os

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import path, reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from grailsite import icons

THEME_COLOUR = "#2b2118"       # the header's ink (static/css/site.css --ink)
BACKGROUND_COLOUR = "#f7f1e3"  # the page's paper (--paper)
# Fetched when the worker installs, so the offline page works the first time it is needed.
PRECACHE_STATIC = ("css/site.css", "js/pwa.js")


@require_GET
@cache_control(public=True, max_age=3600)
def manifest(request):
    data = {
        "name": "grailsite: the Holy Grail games",
        "short_name": "grailsite",
        "description": "Play the Holy Grail tabletop games turn by turn.",
        # "My games" is the home page of a signed-in person.
        "start_url": reverse("home") + "?source=app",
        "scope": "/",
        "id": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": reverse("pwa_icon", args=[192]), "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": reverse("pwa_icon", args=[512]), "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": reverse("pwa_icon_maskable", args=[512]), "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
        ],
    }
    return HttpResponse(json.dumps(data, indent=1), content_type="application/manifest+json")


@require_GET
@cache_control(public=True, max_age=7 * 24 * 3600)
def icon(request, size: int, maskable: bool = False):
    try:
        body = icons.png(size, maskable)
    except ValueError:
        raise Http404("No icon of that size.") from None
    return HttpResponse(body, content_type="image/png")


def static_version() -> str:
    """A short digest of the static files' sizes and times of change (a stat each, no read):
    it changes whenever a deployment or an edit changes one of them."""
    digest = hashlib.sha256()
    for finder in finders.get_finders():
        for name, storage in finder.list(["CVS", ".*", "*~"]):
            try:
                st = os.stat(storage.path(name))
            except (OSError, NotImplementedError):
                continue
            digest.update(f"{name}:{st.st_size}:{st.st_mtime_ns};".encode())
    return digest.hexdigest()[:12]


@require_GET
def service_worker(request):
    """The worker's script, served from the site's root so its scope is the whole site. Never
    cached by HTTP: the browser compares it byte for byte to notice a new version."""
    precache = [reverse("pwa_offline"), *(static(name) for name in PRECACHE_STATIC),
                reverse("pwa_icon", args=[192])]
    response = render(request, "pwa/sw.js", {
        "version": static_version(), "precache": json.dumps(precache), "static_prefix": json.dumps(static("")),
        "icon_prefix": json.dumps("/icons/"), "offline": json.dumps(reverse("pwa_offline"))},
        content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
@cache_control(public=True, max_age=3600)
def offline(request):
    """The page shown when the network is gone. The same for everyone (it is cached once and
    shown to whoever is signed in on the device then): nothing of a person's in it."""
    return render(request, "pwa/offline.html", {"theme_colour": THEME_COLOUR})


urlpatterns = [
    path("manifest.webmanifest", manifest, name="pwa_manifest"),
    path("sw.js", service_worker, name="pwa_service_worker"),
    path("offline/", offline, name="pwa_offline"),
    path("icons/grail-<int:size>.png", icon, name="pwa_icon"),
    path("icons/grail-maskable-<int:size>.png", icon, {"maskable": True}, name="pwa_icon_maskable"),
]
