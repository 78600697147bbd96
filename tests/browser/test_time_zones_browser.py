"""Time zones in Chromium: an account made in a browser in Tokyo starts in Tokyo's zone; once
its owner chooses New York in the settings, a deadline's moment on hover says New York's time
though the browser is still in Tokyo."""
import re
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model

from grailsite.accounts.models import PushPreferences
from games.table import services
from tests.browser.helpers import open_game, sign_up

pytestmark = pytest.mark.browser


def test_a_new_account_starts_in_its_browsers_zone_and_clocks_follow_the_chosen_one(live_url, new_page, browser,
                                                                                      make_user):
    context = browser.new_context(locale="en-GB", timezone_id="Asia/Tokyo")
    try:
        page = context.new_page()
        errors = []
        sign_up(page, live_url, "arthur")
        assert PushPreferences.objects.get(user__username="arthur").time_zone == "Asia/Tokyo"
        page.goto(f"{live_url}/accounts/settings/")
        assert page.input_value("#id_time_zone") == "Asia/Tokyo"
        assert re.fullmatch(r"Tokyo \(UTC\+9\)", page.inner_text("#id_time_zone option:checked").strip())
        page.select_option("#id_time_zone", "America/New_York")
        page.click("button[name=save_push]")
        page.wait_for_selector("text=Push preferences saved.")

        arthur = get_user_model().objects.get(username="arthur")
        make_user("bedevere")
        match = services.match_create(creator=arthur, kind="duel", num_seats=2, invite=["bedevere"], seed=5,
                                      clock_kind="days", clock_amount=3)
        services.match_join(match_id=match.pk, user=get_user_model().objects.get(username="bedevere"))
        deadline = match.seats.get(waiting_for="turn").deadline
        open_game(page, f"{live_url}/games/{match.pk}/", errors, "[data-testid=board] *")
        shown = page.locator("#seats .seat.to-act .clock").get_attribute("title")
        there = deadline.astimezone(ZoneInfo("America/New_York"))
        tokyo = deadline.astimezone(ZoneInfo("Asia/Tokyo"))
        assert f"{there.hour:02d}:{there.minute:02d}" in shown and re.search(r"\b(EST|EDT|GMT-[45])\b", shown), shown
        assert f"{tokyo.hour:02d}:{tokyo.minute:02d}" not in shown
        assert errors == []
    finally:
        context.close()
