"""Since your last turn, in Chromium: after another player's moves the game's page
opens with the recap panel, which can be dismissed; what the open page showed live is not
recapped again (the page says how far it showed the game when it is left)."""
from __future__ import annotations

from games.table import services
from games.models import MatchVisit, MoveRecord
from tests.browser.helpers import log_in, open_game
from tests.celery_worker import wait_for


def _play(match, user):
    match.refresh_from_db()
    seat = match.seats.get(user=user).index
    services.move_submit(match_id=match.pk, user=user, move={"type": "play", "card": match.state["hands"][seat][0]},
                         version=match.version)
    match.refresh_from_db()


def test_the_recap_panel_after_another_players_moves(live_url, page, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(creator=alice, kind="duel", num_seats=2, invite=["bob"], seed=21)
    services.match_join(match_id=match.pk, user=bob)
    match.refresh_from_db()
    first = match.seats.get(waiting_for="turn").user
    me, other = (bob, alice) if first == alice else (alice, bob)
    errors: list = []
    url = f"{live_url}/games/{match.pk}/"
    log_in(page, live_url, me.username)
    open_game(page, url, errors, "[data-testid=board] *")
    assert page.locator("[data-testid=recap]").count() == 0  # nothing happened yet
    page.goto(f"{live_url}/")  # away

    _play(match, other)
    card = MoveRecord.objects.get(match=match).move["card"]
    open_game(page, url, errors, "[data-testid=board] *")
    panel = page.locator("[data-testid=recap]")
    assert panel.is_visible()
    assert f"{other.username} lays a {card}." in panel.inner_text()
    assert "1 move" in page.inner_text("[data-testid=recap-summary]")
    page.click("[data-testid=recap-dismiss]")
    assert not panel.is_visible()

    # With the page open, my move and theirs arrive live, and the page says it showed them.
    page.reload()
    page.wait_for_selector("[data-testid=board] *")
    assert page.locator("[data-testid=recap]").count() == 0
    _play(match, me)
    _play(match, other)
    page.wait_for_function("Grail.page && Grail.page.data.moves === %d" % match.move_count)
    # The page says how far it showed the game, while in view.
    assert wait_for(lambda: MatchVisit.objects.get(user=me, match=match).seq == match.move_count)
    page.goto(f"{live_url}/")
    open_game(page, url, errors, "[data-testid=board] *")
    assert page.locator("[data-testid=recap]").count() == 0
    assert errors == []
