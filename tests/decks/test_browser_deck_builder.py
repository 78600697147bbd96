"""In Chromium: build, validate, save and export a deck; deal an opening; write a card."""
import os
import re
from pathlib import Path

import pytest

# The browser fixtures (live_url, page, new_page) come from tests/browser_fixtures.py.

from tests.browser.helpers import sign_up

pytestmark = pytest.mark.browser


def shot(page, tmp_path, name):
    """Screenshots for a person to look at, kept in DECKS_SCREENSHOTS=<dir> when set; none
    otherwise (they assert nothing, and a dozen full-page ones cost seconds a run)."""
    if not os.environ.get("DECKS_SCREENSHOTS"):
        return
    folder = Path(os.environ["DECKS_SCREENSHOTS"])
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def search(page, text):
    """Type a query and wait for its own answer: the summary line is emptied first and only
    a finished search writes it again (in place of a fixed wait for the debounce). No other
    search may be on its way (see the "only cards I own" box below)."""
    page.evaluate("document.getElementById('search-summary').textContent = ''")
    page.fill("#search-q", text)
    page.wait_for_function("t => document.getElementById('search-q').value === t && "
                           "document.getElementById('search-summary').textContent.length > 0 && "
                           "document.querySelector('#search-results li')", arg=text)


def test_build_validate_save_export_a_deck(live_url, page, tmp_path):
    sign_up(page, live_url, "builder")
    page.goto(f"{live_url}/decks/")
    assert page.locator("[data-testid=deck-list] li").count() == 2   # the two starter decks
    page.fill("#id_name", "Brave Sir Robin's deck")
    page.click("text=Create deck")
    page.wait_for_url(re.compile(r"/decks/\d+/$"))
    validation = page.locator("[data-testid=validation]")
    validation.locator("text=Not playable yet").wait_for()

    search(page, "tag:arthur")
    page.locator("#search-results button.add").first.click()
    search(page, "tag:patsy")
    page.locator("#search-results button.add").first.click()
    page.locator("[data-testid=deck-cards] .deck-card").nth(1).wait_for()
    # Still too small: the reasons say why, and Arthur and Patsy are no longer among them.
    page.wait_for_function("() => /at least 40 cards/.test(document.getElementById('validation').textContent)"
                           " && !/hold an Arthur/.test(document.getElementById('validation').textContent)")
    # Beyond the copies owned the deck becomes a wish list: the card is marked.
    search(page, "t:knight c>=5 -tag:arthur")
    first_add = page.locator("#search-results button.add").first
    owned = int(re.search(r"own (\d+)", page.locator("#search-results li.result .meta").first.inner_text()).group(1))
    for _ in range(owned + 1):
        first_add.click()
    page.locator("[data-testid=wished]").wait_for()
    assert "wish list" in page.inner_text("#save-status")
    assert page.locator("#deck-size").inner_text().endswith("cards")
    shot(page, tmp_path, "builder-small")

    page.fill("#deck-name", "Sir Robin's Retreat")
    page.click("[data-testid=save]")
    page.locator("#save-status", has_text="Saved as version 2").wait_for()

    with page.expect_download() as download:
        page.click("[data-testid=export]")
    text = Path(download.value.path()).read_text()
    assert text.startswith("# Sir Robin's Retreat\n")
    assert re.search(r"^1 .*Arthur", text, re.M)

    # A starter deck is playable; taking Arthur out makes it unplayable with the reason.
    page.goto(f"{live_url}/decks/")
    page.locator("[data-testid=deck-list] a", has_text="Knights of Camelot").click()
    validation.locator("text=Playable deck").wait_for()
    shot(page, tmp_path, "builder-starter")
    arthur_row = page.locator(".deck-card", has_text="Arthur").first
    arthur_row.locator("button.remove").click()
    validation.locator("text=a deck must hold an Arthur").wait_for()
    page.locator(".deck-card", has_text="Patsy").first.wait_for()
    search(page, "tag:arthur")
    page.locator("#search-results button.add").first.click()
    validation.locator("text=Playable deck").wait_for()

    # The whole database pages in 60 at a time.
    # The box searches again at once: its answer (the only search on its way) comes first.
    page.evaluate("document.getElementById('search-summary').textContent = ''")
    page.uncheck("#only-owned")
    page.wait_for_function("document.getElementById('search-summary').textContent.length > 0")
    search(page, "")
    assert page.locator("#search-results li.result").count() == 60
    page.click("#search-results button.more")
    page.wait_for_function("() => document.querySelectorAll('#search-results li.result').length > 60")

    page.click("#sample-opening")
    page.locator("[data-testid=opening-areas] .mini-card").nth(13).wait_for()
    assert page.locator("[data-testid=opening-areas] .mini-card").count() == 14
    assert page.locator("[data-testid=opening-hand] .mini-card").count() == 7
    assert page.locator("#chart-grail rect").count() == 8
    shot(page, tmp_path, "builder-opening")


def test_write_a_card(live_url, page, tmp_path):
    sign_up(page, live_url, "scribe")
    page.goto(f"{live_url}/decks/write/")
    page.select_option("#id_type", "knight")
    page.fill("#id_title", "Sir <b>Not</b> Appearing")
    page.fill("#id_grail", "3")
    page.fill("#id_combat", "4")
    page.fill("#id_wits", "2")
    page.fill("#id_quote", "I was cut from the picture.")
    page.select_option(".effects-editor[data-side=secondary] .add-op", "draw_cards")
    page.locator("#power-text", has_text="Power").wait_for()
    # Too strong first: the refusal reason shows while designing.
    page.fill("#id_combat", "8")
    page.fill("#id_wits", "6")
    page.select_option(".effects-editor[data-side=primary] .add-op", "slay")
    page.locator("[data-testid=wyo-live-errors]", has_text="over the budget").wait_for()
    page.locator(".effects-editor[data-side=primary] button.remove").click()
    page.fill("#id_combat", "4")
    page.fill("#id_wits", "2")
    page.wait_for_function("() => document.querySelectorAll('#wyo-live-errors li').length === 0 && "
                           "/Power \\d+ of \\d+/.test(document.getElementById('power-text').textContent)")
    box = page.locator("#wyo-canvas").bounding_box()
    page.mouse.move(box["x"] + 20, box["y"] + 20)
    page.mouse.down()
    page.mouse.move(box["x"] + 150, box["y"] + 120, steps=8)
    page.mouse.up()
    shot(page, tmp_path, "wyo-design")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("[data-testid=wyo-write]")
    page.wait_for_url(re.compile(r"/decks/cards/wyo-scribe-"))
    assert page.locator("h1").inner_text().startswith("Sir <b>Not</b> Appearing")
    # The drawing is on the card's face, not beside it.
    page.wait_for_function("() => document.querySelector('[data-testid=card-face]').naturalWidth > 0")
    face = page.request.get(live_url + page.locator("[data-testid=card-face]").get_attribute("src")).text()
    assert '<image href="data:image/png;base64,' in face
    shot(page, tmp_path, "wyo-written")
    page.click("text=Submit for consideration")
    page.locator(".messages", has_text="Submitted").wait_for()


def test_write_a_village(live_url, page, tmp_path):
    """The village table editor: rows, per-row effects and text, per-row reasons, then written."""
    sign_up(page, live_url, "villager")
    page.goto(f"{live_url}/decks/write/")
    village_table = page.locator("[data-testid=village-table]")
    assert page.locator("[data-testid=castle-table]").is_hidden() and village_table.is_hidden()
    # A castle offers its table, defence and occupant; a page its capacity and other side.
    page.select_option("#id_type", "castle")
    castle_table = page.locator("[data-testid=castle-table]")
    castle_table.wait_for()
    assert castle_table.locator("tbody tr").count() == 2 and page.locator("#id_castle_defense").is_visible()
    page.fill("#id_title", "Swamp Castle")
    page.fill("#id_grail", "3")
    page.fill("#id_castle_defense", "4")
    page.wait_for_function("() => /Power \\d+ of 23/.test(document.getElementById('power-text').textContent)")
    castle_table.locator("tbody tr").nth(1).locator("[data-bound=min]").fill("7")
    castle_table.locator(".table-errors", has_text="totals 5 to 6 are not covered").wait_for()
    shot(page, tmp_path, "wyo-castle")
    page.select_option("#id_type", "page")
    page.locator("#id_adversary_title").wait_for()
    assert castle_table.is_hidden() and page.locator(".effects-editor[data-side=secondary]").is_hidden()
    page.fill("#id_adversary_title", "Runaway Squire")
    page.fill("#id_adversary_wits", "2")
    page.wait_for_function("() => /Power \\d+ of 15/.test(document.getElementById('power-text').textContent)")
    shot(page, tmp_path, "wyo-page")
    page.select_option("#id_type", "village")
    village_table.wait_for()
    # A village has no combat, wits or castle table to fill in; a castle would.
    assert page.locator("#id_combat").is_hidden() and page.locator("[data-testid=castle-table]").is_hidden()
    page.fill("#id_title", "Mud <i>Village</i>")
    page.fill("#id_grail", "2")
    page.select_option(".effects-editor[data-side=secondary] .add-op", "draw_cards")
    rows = village_table.locator("tbody tr")
    assert rows.count() == 2
    rows.nth(0).locator(".row-text").fill("Peasants <script>alert(1)</script> discuss the constitution.")
    # A gap: the second row starts at 5, so grail number 4 is reached by no row.
    rows.nth(1).locator("[data-bound=min]").fill("5")
    village_table.locator(".table-errors", has_text="total 4 is not covered").wait_for()
    rows.nth(1).locator("[data-bound=min]").fill("4")
    # Too generous a row: the reason names the budget, then goes once the row is tamed.
    rows.nth(1).locator(".add-op").select_option("draw_cards")
    rows.nth(1).locator("input[data-param=count]").fill("3")
    rows.nth(1).locator(".add-op").select_option("skip_turns")
    page.locator("[data-testid=wyo-live-errors]", has_text="over the budget of 9").wait_for()
    rows.nth(1).locator(".effect-row button.remove").nth(1).click()
    rows.nth(1).locator("input[data-param=count]").fill("1")
    rows.nth(1).locator(".row-text").fill("A shrubbery, going cheap.")
    # A third row: first it overlaps the second (a whole-table reason under the table), then
    # its bounds are upside down (a reason beside that row).
    village_table.locator(".add-row").click()
    assert rows.count() == 3
    village_table.locator(".table-errors", has_text="total 7 is covered twice").wait_for()
    rows.nth(2).locator("[data-bound=max]").fill("5")
    rows.nth(2).locator(".row-errors", has_text="Row 3: 'min' is above 'max'").wait_for()
    page.locator("[data-testid=wyo-live-errors]", has_text="Village table row 3: 'min' is above 'max'").wait_for()
    assert rows.nth(0).locator(".row-errors li").count() == 0
    shot(page, tmp_path, "wyo-village-row-error")
    rows.nth(2).locator("td:last-child button.remove").click()
    assert rows.count() == 2
    page.wait_for_function("() => document.querySelectorAll('#wyo-live-errors li').length === 0 && "
                           "/Power \\d+ of 9/.test(document.getElementById('power-text').textContent)")
    assert page.locator("script", has_text="alert(1)").count() == 0
    shot(page, tmp_path, "wyo-village")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("[data-testid=wyo-write]")
    page.wait_for_url(re.compile(r"/decks/cards/wyo-villager-"))
    assert page.locator("h1").inner_text().startswith("Mud <i>Village</i>")
    body = page.locator("body").inner_text()
    assert "A shrubbery, going cheap." in body and "<script>alert(1)</script>" in body
    shot(page, tmp_path, "wyo-village-written")
