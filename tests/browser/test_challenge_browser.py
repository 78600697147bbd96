"""A challenge from a profile, in Chromium: the new-game form opens on a game for two (Grail
Duel for two people who never played), and shows no seat beyond the chosen game's players,
greyed or not."""
import pytest

from tests.browser.helpers import log_in

pytestmark = pytest.mark.browser

SEAT_ROWS = ("() => Array.from(document.querySelectorAll('select.computer-seat'))"
             ".filter(s => s.closest('.field').getClientRects().length).map(s => +s.dataset.seat + 1)")


def test_a_challenge_opens_a_form_for_two_with_no_seat_beyond_the_game(live_url, new_page, make_user):
    make_user("alice"), make_user("bob")
    page = new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, live_url, "alice")
    page.goto(f"{live_url}/players/bob/")
    page.click("[data-testid=challenge]")
    page.wait_for_selector("#new-game")
    assert page.input_value("#id_kind") == "duel" and page.input_value("#id_seats") == "2"
    assert page.input_value("#id_invite") == "bob"
    assert page.evaluate(SEAT_ROWS) == [2]  # the challenged player's seat, nothing more
    page.select_option("#id_kind", "fluxx")
    page.fill("#id_seats", "6")
    page.dispatch_event("#id_seats", "change")
    assert page.evaluate(SEAT_ROWS) == [2, 3, 4, 5, 6]  # no greyed seats 7 and 8
    page.fill("#id_seats", "9")
    page.dispatch_event("#id_seats", "change")
    assert page.input_value("#id_seats") == "6" and page.evaluate(SEAT_ROWS) == [2, 3, 4, 5, 6]
    assert errors == []
