"""Pages a new player meets, in Chromium: Write Yer Own on a phone, the deck
builder's chart labels. Set NEWP_SHOTS=<dir> to keep the screenshots."""
import os
import re

import pytest

from tests.browser.helpers import sign_up

pytestmark = pytest.mark.browser


def _shot(page, name):
    if os.environ.get("NEWP_SHOTS"):
        page.screenshot(path=os.path.join(os.environ["NEWP_SHOTS"], name), full_page=True)


def test_write_yer_own_fits_a_phone_says_nothing_wrong_before_typing_and_puts_the_drawing_on_the_face(
        live_url, new_page):
    page = new_page(width=390, height=844)
    sign_up(page, live_url, "lancelot_n")          # an underscore, once refused
    page.goto(f"{live_url}/decks/write/")
    page.wait_for_timeout(800)                     # longer than the live check's debounce
    assert page.locator("#wyo-live-errors li").count() == 0, page.inner_text("#wyo-live-errors")
    assert not page.locator(".errors li, .error").filter(has_text=re.compile(r"\S")).count()
    for kind in ("knight", "castle", "village", "page"):
        page.select_option("#id_type", kind)
        width = page.evaluate("document.documentElement.scrollWidth")
        wide = page.evaluate("""() => [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 391)
            .slice(0, 5).map(e => e.tagName + (e.id ? '#' + e.id : '') + ' ' + Math.round(e.getBoundingClientRect().width))""")
        assert width <= 390, f"{kind}: the page is {width} px wide on a 390 px screen: {wide}"
    _shot(page, "wyo-phone.png")
    page.select_option("#id_type", "item")
    page.fill("#id_title", "Coconut Radio")
    page.fill("#id_grail", "2")
    page.select_option(".effects-editor[data-side=primary] .add-op", "peek_hand")
    page.locator("#power-text", has_text="Power").wait_for()
    page.locator("#wyo-canvas").scroll_into_view_if_needed()
    box = page.locator("#wyo-canvas").bounding_box()
    page.mouse.move(box["x"] + 20, box["y"] + 20)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] - 20, box["y"] + box["height"] - 20, steps=8)
    page.mouse.up()
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("[data-testid=wyo-write]")
    page.wait_for_url(re.compile(r"/decks/cards/wyo-lancelot-n-coconut-radio/$"))
    face_url = page.locator("[data-testid=card-face]").get_attribute("src")
    assert '<image href="data:image/png;base64,' in page.request.get(live_url + face_url).text()
    # The game board asks for the picture by the card's code: it gets the face with the drawing.
    image = page.request.get(f"{live_url}/decks/cards/wyo-lancelot-n-coconut-radio/image/")
    assert image.headers["content-type"].startswith("image/svg+xml") and "<image" in image.text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    _shot(page, "wyo-written-phone.png")


def test_the_type_chart_labels_are_whole(live_url, page):
    sign_up(page, live_url, "charter")
    page.goto(f"{live_url}/decks/")
    page.locator("[data-testid=deck-list] a").first.click()
    page.wait_for_selector("#chart-types .chart-label")
    labels = page.eval_on_selector_all("#chart-types .chart-label", """nodes => nodes.map(n => {
        const box = n.getBBox(); return [n.textContent, box.x >= 0 && box.x + box.width <= 300]; })""")
    assert labels and all(inside for _, inside in labels), labels
    names = [text for text, _ in labels]
    assert "Adversary" in names or "Knight" in names, names
    _shot(page, "builder-charts.png")


def test_log_lines_keep_every_digit_of_their_move_number(live_url, page):
    """From move 100 on, the log's numbers once lost their first digit."""
    from django.contrib.auth import get_user_model

    from games.table import services
    from games.models import MoveRecord
    sign_up(page, live_url, "counter")
    alice = get_user_model().objects.get(username="counter")
    bob = get_user_model().objects.create_user("counted", password="a-long-test-password-42")
    match = services.match_create(creator=alice, kind="duel", num_seats=2, invite=["counted"], seed=5)
    services.match_join(match_id=match.pk, user=bob)
    match.refresh_from_db()
    services.move_submit(match_id=match.pk, user=alice, move={"type": "play", "card": match.state["hands"][0][0]},
                         version=match.version)
    MoveRecord.objects.filter(match=match).update(seq=1234)   # as if this were move 1234
    page.goto(f"{live_url}/games/{match.pk}/")
    page.wait_for_selector("[data-testid=log] li")
    assert page.eval_on_selector_all("[data-testid=log] li", "ns => ns.map(n => n.value)")[0] == 1234
    # The marker "1234." fits inside the list's padding.
    room = page.evaluate("""() => { const ol = document.querySelector('[data-testid=log]');
        const probe = document.createElement('span'); probe.textContent = '1234. ';
        probe.style.font = getComputedStyle(ol).font; document.body.appendChild(probe);
        const need = probe.getBoundingClientRect().width; probe.remove();
        return [parseFloat(getComputedStyle(ol).paddingLeft), need]; }""")
    assert room[0] >= room[1], room
