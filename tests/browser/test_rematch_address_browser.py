"""After "Rematch" the address bar names the game the page shows: the asker lands on the
rematch's own address, a reload stays there, Back returns to the finished game (which now
links to the rematch), and the other player's link goes to the same address."""
import re

import pytest

from games.models import Match
from games.table import services
from tests.browser.helpers import log_in, open_game
from tests.conftest import seated_players_moved

pytestmark = pytest.mark.browser


def test_the_address_follows_the_rematch(live_url, new_page, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    old = services.match_create(creator=alice, kind="duel", num_seats=2, invite=["bob"], seed=3)
    services.match_join(match_id=old.pk, user=bob)
    seated_players_moved(old)  # a game under way: resigning before one's first move would abort it
    services.match_resign(match_id=old.pk, user=bob)
    pages, errors = {}, []
    for user in (alice, bob):
        page = pages[user.username] = new_page()
        log_in(page, live_url, user.username)
        open_game(page, f"{live_url}/games/{old.pk}/", errors, "#outcome [data-testid=ending-actions]")
    asker = pages["alice"]
    asker.click("#outcome [data-testid=rematch]")
    asker.wait_for_selector("[data-testid=waiting-room]")
    rematch = Match.objects.get(rematch_of=old)

    def shown(page):
        return int(re.search(r"#(\d+)", page.inner_text("h1 small")).group(1))

    assert asker.url == f"{live_url}/games/{rematch.pk}/" and shown(asker) == rematch.pk
    asker.reload()
    asker.wait_for_selector("[data-testid=waiting-room]")
    assert asker.url == f"{live_url}/games/{rematch.pk}/" and shown(asker) == rematch.pk
    asker.go_back()
    asker.wait_for_url(f"{live_url}/games/{old.pk}/")
    asker.wait_for_selector("#outcome [data-testid=rematch-link]")
    assert shown(asker) == old.pk
    other = pages["bob"]
    other.click("#outcome [data-testid=rematch-link]")
    other.wait_for_selector("[data-testid=waiting-room]")
    assert other.url == f"{live_url}/games/{rematch.pk}/" and shown(other) == rematch.pk
    assert errors == []
