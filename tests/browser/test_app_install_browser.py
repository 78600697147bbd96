"""The installable app: in Chromium the manifest is found and
valid, the service worker registers for the whole site, and when the server is stopped a
page shows the offline page instead of the browser's error. The worker keeps static files
only: after a game was played on the page, its cache holds nothing else."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from games.table import services
from tests.browser.helpers import log_in, open_game


def _worker_ready(page) -> dict:
    return page.evaluate("""async () => {
        const reg = await navigator.serviceWorker.ready;
        return {scope: reg.scope, script: reg.active.scriptURL};
    }""")


def test_the_manifest_and_service_worker_register(live_url, page):
    page.goto(f"{live_url}/")
    href = page.get_attribute("link[rel=manifest]", "href")
    manifest = page.evaluate("async (href) => (await fetch(href)).json()", href)
    assert manifest["display"] == "standalone" and manifest["start_url"].startswith("/")
    assert manifest["theme_color"] == page.get_attribute("meta[name=theme-color]", "content")
    for entry in manifest["icons"]:
        response = page.request.get(f"{live_url}{entry['src']}")
        assert response.status == 200 and response.headers["content-type"] == "image/png"
        width, height = Image.open(io.BytesIO(response.body())).size
        assert f"{width}x{height}" == entry["sizes"]
    assert {"any", "maskable"} <= {e["purpose"] for e in manifest["icons"]}
    worker = _worker_ready(page)
    assert worker == {"scope": f"{live_url}/", "script": f"{live_url}/sw.js"}


def test_the_offline_page_shows_when_the_server_is_stopped(own_server, page, make_user):
    url, server = own_server()
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(creator=alice, kind="duel", num_seats=2, invite=["bob"], seed=3)
    services.match_join(match_id=match.pk, user=bob)
    log_in(page, url, "alice")
    _worker_ready(page)
    errors: list = []
    # Controlled by the worker from here on; a game page opened and its state fetched.
    open_game(page, f"{url}/games/{match.pk}/", errors, "[data-testid=board] *")
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    cached = page.evaluate("""async () => {
        const urls = [];
        for (const name of await caches.keys()) {
            for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
        }
        return urls;
    }""")
    assert "/offline/" in cached and any(u.startswith("/static/") for u in cached)
    assert all(u.startswith(("/static/", "/icons/")) or u == "/offline/" for u in cached), cached

    server.kill()  # stopped dead, as a crashed or unplugged server is
    server.wait(timeout=10)
    page.goto(f"{url}/lobby/")
    page.wait_for_selector("[data-testid=offline]")
    assert "cannot be reached" in page.inner_text("h1")
    # Its style came from the cache too: the page's paper colour, not the browser's white.
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(247, 241, 227)"
    assert "alice" not in page.content()  # the same page for everyone: nothing of a person's
    assert errors == []
