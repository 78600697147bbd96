"""A block in a three-player Fluxx game, as the three people live it: the blocked player keeps
a working chat box and the third player reads them, live and after a reload; the blocker's
page shows none of their lines and fetches nothing over and over; the blocked player finds
no Challenge button on the blocker's profile."""
import pytest

from games.players import profiles
from games.table import services
from tests.browser.helpers import log_in, open_game

pytestmark = pytest.mark.browser

SHOWN = ("() => Array.from(document.querySelectorAll('[data-testid=chat] li'))"
         ".filter(li => !li.hidden).map(li => li.textContent)")


def test_a_block_hides_the_blocked_player_from_the_blocker_alone(live_url, new_page, make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = services.match_create(creator=alice, kind="fluxx", num_seats=3, invite=["bob", "carol"], seed=7)
    for user in (bob, carol):
        services.match_join(match_id=match.pk, user=user)
    profiles.block(user=alice, name="bob")
    pages, errors = {}, []
    for user in (alice, bob, carol):
        page = new_page()
        log_in(page, live_url, user.username)
        open_game(page, f"{live_url}/games/{match.pk}/", errors, "[data-testid=hand] .fx-card")
        pages[user.username] = page
    chat_fetches = []
    pages["alice"].on("request", lambda r: chat_fetches.append(r.url) if "/chat/?after=" in r.url else None)

    # The blocked player's chat box works as anyone's.
    bob_page = pages["bob"]
    bob_page.fill("#chat-form input[name=text]", "Your mother was a hamster.")
    bob_page.click("#chat-form button")
    pages["carol"].wait_for_selector("[data-testid=chat] li:has-text('Your mother was a hamster.')")
    pages["carol"].fill("#chat-form input[name=text]", "Ni!")
    pages["carol"].click("#chat-form button")
    pages["alice"].wait_for_selector("[data-testid=chat] li:has-text('Ni!')")
    assert pages["alice"].evaluate(SHOWN) == ["carol Ni!"]
    assert chat_fetches == []  # the blocked line held its place: no gap to fetch
    assert pages["carol"].evaluate(SHOWN) == ["bob Your mother was a hamster.", "carol Ni!"]
    bob_page.wait_for_selector("[data-testid=chat] li:has-text('Ni!')")
    assert bob_page.evaluate(SHOWN) == ["bob Your mother was a hamster.", "carol Ni!"]

    # After a reload, the same.
    pages["alice"].reload()
    pages["alice"].wait_for_selector("[data-testid=chat] li:has-text('Ni!')")
    assert pages["alice"].evaluate(SHOWN) == ["carol Ni!"]
    assert "hamster" not in pages["alice"].content()

    # No challenge to offer the one who blocked you.
    bob_page.goto(f"{live_url}/players/alice/")
    assert bob_page.locator("[data-testid=challenge]").count() == 0
    assert "does not take challenges from you" in bob_page.inner_text("[data-testid=profile]")
    assert errors == []
