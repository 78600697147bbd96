"""My games in Chromium: each game under way says whose move it is and how long is left in
the same words as a game's page ("1 h 59 min left"), the moment on hover; the games waiting
for my move come most urgent first, and "Next game where it's my move" takes me through them
from the home page and from each game's page, round to the first."""
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Seat
from games.table import services
from tests.browser.helpers import log_in

pytestmark = pytest.mark.browser


def _duel(alice, other, *, alice_moves: bool, hours):
    first, second = (alice, other) if alice_moves else (other, alice)
    match = services.match_create(creator=first, kind="duel", num_seats=2, invite=[second.username], seed=3,
                                  clock_kind="days", clock_amount=3)
    services.match_join(match_id=match.pk, user=second)
    Seat.objects.filter(match=match, index=0).update(deadline=timezone.now() + timedelta(hours=hours, minutes=1))
    return match


def test_my_games_say_the_time_left_and_next_game_goes_through_them(live_url, new_page, make_user):
    alice = make_user("alice")
    later = _duel(alice, make_user("bob"), alice_moves=True, hours=30)
    soon = _duel(alice, make_user("carol"), alice_moves=True, hours=2)
    theirs = _duel(alice, make_user("dave"), alice_moves=False, hours=5)
    page, errors = new_page(), []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, live_url, "alice")

    rows = page.locator("[data-testid=my-turn] .match-row")
    assert [int(rows.nth(i).get_attribute("data-match")) for i in range(rows.count())] == [soon.pk, later.pk]
    first = rows.nth(0).locator("[data-testid=time-left]")
    assert re.fullmatch(r"2 h( 1 min)? left", first.inner_text()), first.inner_text()
    assert first.get_attribute("title")  # the moment itself, on hover
    assert re.fullmatch(r"1 day 6 h left", rows.nth(1).locator("[data-testid=time-left]").inner_text())
    other = page.locator(f"[data-testid=waiting-for-others] [data-match='{theirs.pk}'] [data-testid=to-move]")
    assert re.fullmatch(r"dave:\s*5 h( 1 min)? left", other.inner_text().strip()), other.inner_text()

    page.click("[data-testid=next-game]")
    page.wait_for_url(f"{live_url}/games/{soon.pk}/")
    page.wait_for_selector("[data-testid=board] *")
    page.click("[data-testid=next-game]")
    page.wait_for_url(f"{live_url}/games/{later.pk}/")
    page.wait_for_selector("[data-testid=board] *")
    page.click("[data-testid=next-game]")
    page.wait_for_url(f"{live_url}/games/{soon.pk}/")  # round to the first
    assert errors == []
