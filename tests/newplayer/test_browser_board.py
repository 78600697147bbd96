"""The CCG board as a new player meets it, in Chromium at phone and desktop sizes (issue 11):
the current decision stays in view wherever the player scrolled, and a dispute's result is
drawn on the board. Set CCG_SHOTS=<dir> to keep the screenshots."""
import os

import pytest

from tests.browser.test_ccg_browser import click_move, set_up_game, wait_for_version
from tests.platform.ccg_helpers import GAME, scripted_move

pytestmark = pytest.mark.browser

IN_VIEW = """() => { const r = document.querySelector('[data-testid=controls]').getBoundingClientRect();
                      return r.top >= 0 && r.top < innerHeight / 2 && r.bottom <= innerHeight; }"""


def _shot(page, name):
    if os.environ.get("CCG_SHOTS"):
        page.screenshot(path=os.path.join(os.environ["CCG_SHOTS"], name))


def test_the_decision_stays_in_view_and_a_dispute_shows_on_the_board(live_url, new_page):
    alice, bob = new_page(), new_page(width=390, height=844)      # bob plays on a phone
    match, users, _ = set_up_game(live_url, alice, bob)
    pages = [alice, bob]
    moved = 0
    for _ in range(120):
        match.refresh_from_db()
        if match.status != "active" or moved >= 2:
            break
        seat = GAME.pending(match.state)[0].seat
        page = pages[seat]
        page.wait_for_function(f"Grail.page.data && Grail.page.data.version >= {match.version}")
        move = scripted_move(match.state, seat, GAME.legal_moves(match.state, seat))
        if move["type"] == "move":
            # The player scrolls down to the area, clicks "Move here"; what comes next (a
            # dispute, running away, the end of the turn) must be in view where they are.
            target = page.locator(f"[data-testid='move-{move['to']}']")
            target.scroll_into_view_if_needed()
            page.evaluate("window.scrollBy(0, 200)")
            click_move(page, move)
            wait_for_version(page, match, move)
            page.wait_for_function(f"Grail.page.data.version > {match.version}")
            assert page.evaluate("window.scrollY") > 300, "the board is taller than the screen"
            assert page.evaluate(IN_VIEW), "the controls left the screen"
            _shot(page, f"after-move-{'phone' if seat else 'desktop'}.png")
            moved += 1
            continue
        click_move(page, move)
        wait_for_version(page, match, move)
    assert moved >= 1

    # The dispute's result, drawn from the view's last_dispute (the engine's shape).
    for page, who in ((alice, "desktop"), (bob, "phone")):
        # Every later draw (a push, a redraw) gets the same dispute, as the engine's view will give it.
        page.evaluate("""() => {
          const draw = Grail.renderers.ccg.render;
          Grail.renderers.ccg.render = (root, d, ctx) => draw(root, Object.assign({}, d, {view: Object.assign({}, d.view, {
            last_dispute: {seq: 9, seat: 0, area: d.view.avalon[0].ref, area_name: "Avalon 1", method: "combat",
              lead: {card: 1, name: "Sir Robin", total: 5}, foe: {card: 2, name: "The Black Knight", total: 7},
              result: "foe", slain: ["Sir Robin"], outwitted: []}})}), ctx);
          Grail.renderers.ccg.render(document.getElementById("board"), Grail.page.data, Grail.page.ctx());
        }""")
        panel = page.inner_text("[data-testid=last-dispute]")
        assert "Avalon 1" in panel and "Sir Robin" in panel and "The Black Knight" in panel
        assert page.inner_text("[data-testid=dispute-result]") == "The Black Knight wins, 7 to 5 (the adversary wins)."
        assert "Slain: Sir Robin." in panel
        area = page.locator(".ccg-area.disputed")
        assert area.count() == 1 and "last dispute: the adversary won" in area.inner_text()
        _shot(page, f"dispute-{who}.png")
    # Nothing on the phone is wider than the screen.
    assert bob.evaluate("document.documentElement.scrollWidth") <= 390
