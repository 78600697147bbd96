"""Deadlines in words: the page says how long
is left ("14 min left", "2 days 23 h left"), never a US-format date, and shows the moment on
hover in the viewer's own time zone and language format."""
from __future__ import annotations

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

from django.utils import timezone

from games.table import services
from games.models import Seat
from tests.browser.helpers import log_in, open_game

CHIP = "#seats .seat.to-act .clock"


def _duel(make_user, **clock):
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(creator=alice, kind="duel", num_seats=2, invite=["bob"], seed=5, **clock)
    services.match_join(match_id=match.pk, user=bob)
    match.refresh_from_db()
    return match, alice


def _open(browser_page, live_url, user, match, errors):
    log_in(browser_page, live_url, user.username)
    open_game(browser_page, f"{live_url}/games/{match.pk}/", errors, "[data-testid=board] *")


def test_a_minutes_clock_says_minutes_left_and_the_moment_in_my_zone_and_language(live_url, new_page, browser,
                                                                                   make_user):
    # new_page brings the database the server reads; the contexts here bring a zone and language.
    match, alice = _duel(make_user, clock_kind="minutes", clock_amount=15)
    deadline = match.seats.get(waiting_for="turn").deadline
    errors: list = []
    seen = {}
    for locale, zone in (("de-DE", "Asia/Tokyo"), ("en-US", "America/New_York")):
        context = browser.new_context(locale=locale, timezone_id=zone)
        try:
            page = context.new_page()
            _open(page, live_url, alice, match, errors)
            chip = page.locator(CHIP)
            assert re.fullmatch(r"1[45] min left", chip.inner_text()), chip.inner_text()
            seen[locale] = chip.get_attribute("title")
            local = deadline.astimezone(ZoneInfo(zone))
            assert f"{local.minute:02d}" in seen[locale] and str(local.day) in seen[locale]
        finally:
            context.close()
    assert re.search(r"\b0?%d:%02d\b" % (deadline.astimezone(ZoneInfo("Asia/Tokyo")).hour,
                                       deadline.astimezone(ZoneInfo("Asia/Tokyo")).minute), seen["de-DE"])
    assert "AM" not in seen["de-DE"] and "PM" not in seen["de-DE"]  # German, 24-hour
    hour12 = deadline.astimezone(ZoneInfo("America/New_York")).strftime("%-I:%M %p")
    assert hour12 in seen["en-US"]
    assert errors == []


def _hours_shown(page) -> int:
    shown = re.fullmatch(r"(\d+) days?(?: (\d+) h)? left", page.locator(CHIP).inner_text())
    assert shown, page.locator(CHIP).inner_text()
    return int(shown[1]) * 24 + int(shown[2] or 0)


def test_a_days_clock_says_days_left_and_the_other_player_may_add_a_day(live_url, new_page, make_user):
    match, alice = _duel(make_user, clock_kind="days", clock_amount=3)
    page, errors = new_page(), []
    # Bob looks on while alice (seat 0) is to move: her clock carries his "+ time" button.
    bob = match.seats.get(index=1).user
    assert match.seats.get(index=0).waiting_for == "turn"
    _open(page, live_url, bob, match, errors)
    # A days clock's deadline may fall past a weekend pause, so the words are read against the
    # deadline the server set rather than a fixed "2 days 23 h".
    shown = re.fullmatch(r"(\d+) days?(?: (\d+) h)? left", page.locator(CHIP).inner_text())
    assert shown, page.locator(CHIP).inner_text()
    deadline = Seat.objects.filter(match=match, deadline__isnull=False).values_list("deadline", flat=True).first()
    hours_left = (deadline - timezone.now()).total_seconds() / 3600
    hours_shown = int(shown[1]) * 24 + int(shown[2] or 0)
    assert hours_left - 1.1 < hours_shown <= hours_left + 0.1, (hours_shown, hours_left)
    assert hours_shown >= 24 * 2  # a three-day clock reads in days
    assert not re.search(r"\d+/\d+/\d{4}", page.inner_text("body"))  # no "11/27/2026"
    # The clocks tick each second but write their words only when the words change: a write
    # of the same words still makes the browser lay out and paint the page again.
    writes = page.evaluate("""() => new Promise(done => {
        let same = 0;
        const clocks = [...document.querySelectorAll('.clock')], last = clocks.map(c => c.textContent);
        const seen = new MutationObserver(changes => {
            const written = new Set(changes.map(m => clocks.findIndex(c => c.contains(m.target))));
            written.forEach(i => { if (clocks[i].textContent === last[i]) same += 1; last[i] = clocks[i].textContent; });
        });
        clocks.forEach(c => seen.observe(c, {childList: true, characterData: true, subtree: true}));
        setTimeout(() => { seen.disconnect(); done(same); }, 2500);
    })""")
    assert writes == 0, writes

    # "+ time" gives alice the game's time for a move, at most a day: the server's deadline
    # moves a day later, and the page, told over its socket, shows a day more left.
    page.click("[data-testid=add-time-0]")
    page.wait_for_function(
        "([sel, before]) => { const m = /(\\d+) days?(?: (\\d+) h)? left/.exec(document.querySelector(sel).textContent);"
        " return m && +m[1] * 24 + +(m[2] || 0) >= before + 23; }", arg=[CHIP, hours_shown])
    assert Seat.objects.get(match=match, index=0).deadline == deadline + timedelta(days=1)
    assert hours_shown + 23 <= _hours_shown(page) <= hours_shown + 24
    assert page.evaluate("window.__sameDocument") is True  # no reload: the frame brought it
    assert errors == []
