"""A tournament's page in Chromium follows the tournament live: as a game of the round ends
(played through the services, in another process than the page's server), the standings and
the next round's pairings appear without a reload."""
from __future__ import annotations

import pytest

from games.models import TournamentGame
from games.tournaments import services
from tests.browser.helpers import log_in
from tests.platform.tournament_helpers import play_out, rounds_inline  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("rounds_inline")]

SCORES = """() => Object.fromEntries(Array.from(document.querySelectorAll('[data-testid=standings] tbody tr'))
  .map(tr => [tr.dataset.player, tr.querySelector('.score').textContent.trim()]))"""


def test_the_standings_change_live_as_games_end(live_url, new_page, make_user):
    organiser = make_user("merlin")
    t = services.tournament_create(organiser=organiser, kind="duel", format="swiss", name="Live Swiss", rounds=2,
                                   max_players=4)
    knights = [make_user(name) for name in ("arthur", "bedevere", "galahad", "lancelot")]
    for knight in knights:
        services.tournament_join(tournament_id=t.pk, user=knight)
    services.tournament_start(tournament_id=t.pk, user=organiser)
    errors = []
    page = new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, live_url, "arthur")
    page.goto(f"{live_url}/tournaments/{t.pk}/")
    page.wait_for_selector("#conn.up")
    page.evaluate("window.__sameDocument = true")
    assert set(page.evaluate(SCORES).values()) == {"0"}
    assert page.locator("[data-testid=round-2]").count() == 0

    first, second = TournamentGame.objects.filter(tournament=t, round__number=1).order_by("board")
    play_out(first.match_id, lambda fn, *a, **k: fn(*a, **k), seed=1)
    page.wait_for_function("() => Array.from(document.querySelectorAll('[data-testid=standings] .score'))"
                           ".some(td => td.textContent.trim() !== '0')")
    first.refresh_from_db()
    shown = page.evaluate(SCORES)
    names = {e.pk: e.name for e in t.entries.all()}
    drawn = first.places.count(1) == 2
    for player, place in zip(first.players, first.places):
        assert shown[names[player]] == ("0.5" if drawn else {1: "1", 2: "0"}[place])
    play_out(second.match_id, lambda fn, *a, **k: fn(*a, **k), seed=2)
    page.wait_for_selector("[data-testid=round-2] a[href^='/games/']")
    assert page.locator("[data-testid=tournament-status]").inner_text().startswith("Running · round 2 of 2")
    assert page.evaluate("window.__sameDocument") is True, "no reload: the page followed the socket"
    assert errors == []
