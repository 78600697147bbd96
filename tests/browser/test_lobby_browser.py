"""The lobby as a newcomer uses it: a Fluxx game under way that takes new players is found
with the Fluxx filter among the open seats, marked under way, and its Join button seats
them at the table, dealt in."""
import pytest

from games.table import services
from tests.browser.helpers import log_in, wait_live

pytestmark = pytest.mark.browser


def test_a_fluxx_game_under_way_is_found_and_joined_from_the_lobby(live_url, new_page, make_user):
    arthur, patsy, newcomer = make_user("arthur"), make_user("patsy"), make_user("tim")
    match = services.match_create(creator=arthur, kind="fluxx", num_seats=2, invite=["patsy"], seed=11)
    services.match_join(match_id=match.pk, user=patsy)
    page = new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, live_url, newcomer.username)
    page.goto(f"{live_url}/lobby/")
    page.select_option("[data-testid=lobby-filters] select[name=kind]", "fluxx")
    page.click("[data-testid=lobby-filters] button")
    row = page.locator(f"[data-testid=open-games] [data-match='{match.pk}']")
    row.wait_for()
    assert "Under way" in row.locator("[data-testid=under-way]").inner_text()
    assert page.locator("text=No open game fits").count() == 0
    row.locator("[data-testid=lobby-join]").click()
    page.wait_for_url(f"{live_url}/games/{match.pk}/")
    page.wait_for_selector("[data-testid=hand] .fx-card")
    wait_live(page)
    assert page.locator("[data-testid=hand] .fx-card").count() == 3
    assert match.seats.filter(user=newcomer, accepted=True).exists()
    assert errors == []
