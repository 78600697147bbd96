"""Every game is learnable from its own pages, in Chromium: for each of the five
games a player opens its rules page from the home page's game list and from a game of it,
whose goal line sits in the page's header and never covers the board or the hand (one line on
a phone); and the new-game form follows the chosen game."""
import os

import pytest
from django.contrib.auth import get_user_model

from decks import services as deck_services
from games.table import services
from games import registry
from tests.browser.helpers import log_in
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser

KINDS = ("camelot", "ccg", "cupquest", "duel", "fluxx")
SHOTS = os.environ.get("RULES_SHOTS")  # a folder: keep screenshots of the pages to look at


def _shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=name.endswith("rules"))


def _players(kind: str, count: int) -> list:
    users = [get_user_model().objects.create_user(username=f"{kind}{i}", password=PASSWORD) for i in range(count)]
    if kind == "ccg":  # the card game needs each player's deck (new accounts get starter decks)
        for user in users:
            if not user.decks.exists():
                deck_services.starter_grant(user=user)
    return users


def _started_game(kind: str):
    room = registry.room(kind)
    users = _players(kind, room.game.min_players)

    def choice(user):
        return {"deck": user.decks.order_by("pk").first().pk} if kind == "ccg" else None

    match = services.match_create(creator=users[0], kind=kind, num_seats=len(users), seed=5,
                                  invite=[u.username for u in users[1:]], creator_choice=choice(users[0]))
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user, choice=choice(user))
    match.refresh_from_db()
    return match, users


def _in_view(page, selector: str) -> bool:
    return page.eval_on_selector(selector, "n => { const r = n.getBoundingClientRect();"
                                           " return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }")


# Points of the board in the window (every 8 px down, 12 across) where something other than
# the board itself is drawn on top: what covers it.
COVERED = """() => {
  const board = document.querySelector("[data-testid=board]"), r = board.getBoundingClientRect(), out = new Set();
  for (let y = Math.max(r.top, 0) + 1; y < Math.min(r.bottom, innerHeight); y += 8) {
    for (let i = 1; i < 12; i++) {
      const top = document.elementFromPoint(r.left + r.width * i / 12, y);
      if (top && !board.contains(top)) out.add(String(top.className || top.tagName));
    }
  }
  return Array.from(out);
}"""


def _never_covers_the_board(page) -> None:
    height = page.evaluate("document.documentElement.scrollHeight")
    for y in range(0, height, 120):
        page.evaluate(f"window.scrollTo(0, {y})")
        assert page.evaluate(COVERED) == [], f"something covers the board at {y} px"


def _check_rules_page(page, kind: str) -> None:
    page.wait_for_selector(f"[data-testid=rules-page][data-kind={kind}]")
    room = registry.room(kind)
    assert room.how_to_win() in page.inner_text("[data-testid=rules-goal]")
    assert page.locator("[data-testid=rules-turn] li").count() == 5
    assert page.is_visible("#pieces") and page.is_visible("[data-testid=rules-options]")


@pytest.mark.parametrize("kind", KINDS)
def test_a_games_rules_open_from_the_home_page_and_from_its_game_page(live_url, new_page, kind):
    match, users = _started_game(kind)
    page = new_page(width=390, height=700)  # a phone: the goal line must stay in view while scrolling
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, live_url, users[0].username)

    # From the home page's game list.
    page.click(f"[data-testid=games] [data-testid=rules-link-{kind}]")
    _check_rules_page(page, kind)

    # From the game page: the goal of this table stays in view, and the rules open beside the table.
    page.goto(f"{live_url}/games/{match.pk}/")
    page.wait_for_selector("[data-testid=board] *")
    goal = registry.room(kind).how_to_win(match.options, match.num_seats)
    assert goal in page.text_content("[data-testid=how-to-win]")
    assert _in_view(page, "[data-testid=how-to-win]")      # where the page opens
    _never_covers_the_board(page)
    page.evaluate("window.scrollTo(0, 0)")
    with page.expect_popup() as opened:
        page.click("[data-testid=rules-link]")
    rules = opened.value
    _check_rules_page(rules, kind)
    _shot(page, f"{kind}-game")
    _shot(rules, f"{kind}-rules")
    assert not errors, errors


def test_the_new_game_form_follows_the_chosen_game(live_url, new_page):
    get_user_model().objects.create_user(username="enid", password=PASSWORD)
    page = new_page()
    log_in(page, live_url, "enid")
    page.goto(f"{live_url}/games/new/")
    seat_rows = "select.computer-seat:not([disabled])"

    # Camelot (three to six): three players, a computer row for each other seat, its description and rules.
    page.select_option("#id_kind", "camelot")
    assert page.input_value("#id_seats") == "3"
    assert page.locator(seat_rows).count() == 2
    assert page.is_visible("[data-testid=game-about-camelot]") and not page.is_visible("[data-testid=game-about-duel]")
    page.fill("#id_seats", "9")
    page.dispatch_event("#id_seats", "change")
    assert page.input_value("#id_seats") == "6" and page.locator(seat_rows).count() == 5

    # Grail Duel (two only): the count is fixed and one computer row is left.
    page.select_option("#id_kind", "duel")
    assert page.input_value("#id_seats") == "2" and page.locator(seat_rows).count() == 1
    # A count nobody typed follows the game: the card game opens on two, Fluxx too.
    page.goto(f"{live_url}/games/new/")
    page.select_option("#id_kind", "ccg")
    assert page.input_value("#id_seats") == "2"
    page.fill("#id_seats", "4")
    page.dispatch_event("#id_seats", "change")
    page.select_option("#id_kind", "fluxx")
    assert page.input_value("#id_seats") == "4" and page.locator(seat_rows).count() == 3  # a typed count stays
    page.select_option("#id_kind", "duel")
    with page.expect_popup() as opened:
        page.click("[data-testid=game-about-duel] a")
    _check_rules_page(opened.value, "duel")

    # What the form opens on is a table it accepts: create it unchanged.
    page.goto(f"{live_url}/games/new/")
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_url}/games/*/")
    assert page.is_visible("[data-testid=how-to-win]")
    _shot(page, "new-game-created")


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_the_goal_line_never_covers_the_board_or_the_hand(live_url, new_page, width, height):
    """Cup Quest, whose home spaces sat under a sticky goal bar at 1280x800 until one scrolled:
    the goal is in the header, nothing covers any part of the board (the hand is in it) at any
    scroll, and on a phone the goal takes one line (its whole text a tap away)."""
    match, users = _started_game("cupquest")
    page = new_page(width=width, height=height)
    log_in(page, live_url, users[0].username)
    page.goto(f"{live_url}/games/{match.pk}/")
    page.wait_for_selector("[data-testid=board] svg")
    page.wait_for_selector("[data-testid=board] [data-testid=hand]")
    goal = registry.room("cupquest").how_to_win(match.options, match.num_seats)
    assert goal in page.text_content("[data-testid=how-to-win]")
    assert page.eval_on_selector("[data-testid=how-to-win]", "n => !!n.closest('header')")
    _never_covers_the_board(page)
    line = page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('[data-testid=how-to-win]')).lineHeight)")
    box = page.locator("[data-testid=how-to-win]").bounding_box()
    _shot(page, f"goal-{width}")
    if width < 640:
        assert box["height"] < 2 * line, "one line on a phone"
        page.focus("[data-testid=how-to-win]")  # a tap (or the keyboard) shows the whole goal
        assert page.locator("[data-testid=how-to-win]").bounding_box()["height"] > box["height"]
