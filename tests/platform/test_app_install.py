"""The installable app's files: manifest, icons drawn in code, the service
worker's script and the offline page. Chromium's view of them: tests/browser/test_app_install_browser.py."""
from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from grailsite import icons, pwa

pytestmark = pytest.mark.django_db


def test_the_manifest_opens_on_my_games_with_the_site_colours(client):
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["start_url"].split("?")[0] == "/"  # the home page: "My games" once signed in
    assert data["display"] == "standalone" and data["scope"] == "/"
    assert (data["theme_color"], data["background_color"]) == ("#2b2118", "#f7f1e3")


@pytest.mark.parametrize("path, size", [("/icons/grail-192.png", 192), ("/icons/grail-512.png", 512),
                                        ("/icons/grail-maskable-512.png", 512), ("/icons/grail-180.png", 180),
                                        ("/icons/grail-32.png", 32)])
def test_each_icon_is_a_png_of_its_size(client, path, size):
    response = client.get(path)
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(response.content))
    assert image.size == (size, size)


def test_an_icon_of_another_size_is_not_found(client):
    assert client.get("/icons/grail-100.png").status_code == 404


def test_a_maskable_icon_fills_its_square_and_the_other_leaves_its_corners_clear():
    plain, maskable = icons.draw(192), icons.draw(192, maskable=True)
    assert plain.getpixel((0, 0))[3] == 0, "rounded corner"
    assert maskable.getpixel((0, 0)) == (*icons.INK, 255), "full bleed for the launcher's own mask"
    # The grail's gold is in the middle of both.
    assert any(abs(c - g) < 40 for c, g in zip(plain.getpixel((96, 80))[:3], icons.GOLD))


def test_the_service_worker_is_served_from_the_root_uncached_and_named_by_the_static_files(client):
    response = client.get("/sw.js")
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    assert f'"grailsite-static-" + VERSION' in body and f'const VERSION = "{pwa.static_version()}"' in body
    assert '"/offline/"' in body and "/static/css/site.css" in body


def test_the_static_version_changes_when_a_static_file_changes(settings, tmp_path):
    folder = tmp_path / "static"
    folder.mkdir()
    (folder / "a.js").write_text("one")
    settings.STATICFILES_DIRS = [folder]
    settings.STATICFILES_FINDERS = ["django.contrib.staticfiles.finders.FileSystemFinder"]
    from django.contrib.staticfiles import finders
    finders.get_finder.cache_clear()
    try:
        before = pwa.static_version()
        (folder / "a.js").write_text("two, longer")
        assert pwa.static_version() != before
    finally:
        finders.get_finder.cache_clear()


def test_the_offline_page_is_the_same_for_everyone(client, make_user):
    user = make_user("galahad")
    client.force_login(user)
    response = client.get("/offline/")
    assert response.status_code == 200
    assert b"galahad" not in response.content and b"cannot be reached" in response.content


def test_every_page_links_the_manifest_and_registers_the_worker(client):
    body = client.get("/").content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in body and "js/pwa.js" in body
