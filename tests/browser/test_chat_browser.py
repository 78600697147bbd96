"""Chat that never drops a line, in Chromium: three players' pages send 50
lines at the same moment and every page ends with all 50 in the same order; a page that
missed a line (never pushed to it) fetches it as soon as the next line shows the gap."""
from __future__ import annotations

from games.table import services
from games.models import ChatMessage
from tests.browser.helpers import log_in, open_game

# Every page sends all its lines at one moment of the shared clock (``at``, ms since the epoch),
# each as the chat form does: POST, then show the answer. 17 lines a player: within the chat's
# rate limit (30 a minute each).
SEND_ALL = """([url, texts, at]) => {
  setTimeout(() => texts.forEach(t => Grail.api("POST", url, {text: t}).then(m => Grail.page.receiveChat(m))),
             Math.max(0, at - Date.now()));
}"""
LINES = "() => Array.from(document.querySelectorAll('[data-testid=chat] li')).map(li => li.textContent)"


def _table(new_page, live_url, make_user):
    users = [make_user(name) for name in ("arthur", "bedevere", "galahad")]
    match = services.match_create(creator=users[0], kind="cupquest", num_seats=3, seed=3,
                                  invite=[u.username for u in users[1:]])
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user)
    pages, errors = [], []
    for user in users:
        page = new_page()
        log_in(page, live_url, user.username)
        open_game(page, f"{live_url}/games/{match.pk}/", errors, "[data-testid=board] *")
        pages.append(page)
    return match, users, pages, errors


def test_three_pages_get_fifty_lines_sent_at_once_in_the_same_order(live_url, new_page, make_user):
    match, users, pages, errors = _table(new_page, live_url, make_user)
    url = f"/api/matches/{match.pk}/chat/"
    at = pages[0].evaluate("() => Date.now()") + 1500
    for n, (page, user) in enumerate(zip(pages, users)):
        page.evaluate(SEND_ALL, [url, [f"{i}" for i in range(n, 50, 3)], at])
    for page in pages:
        page.wait_for_function("n => document.querySelectorAll('[data-testid=chat] li').length >= n", arg=50)
    said = [f"{username} {text}" for username, text in
            ChatMessage.objects.filter(match=match).order_by("id").values_list("user__username", "text")]
    assert len(said) == 50
    for page in pages:
        assert page.evaluate(LINES) == said
    assert errors == []


def test_a_page_fetches_a_line_it_missed_when_the_next_one_shows_the_gap(live_url, new_page, make_user):
    match, (arthur, bedevere, _), pages, errors = _table(new_page, live_url, make_user)
    services.chat_post(match_id=match.pk, user=arthur, text="One.")
    for page in pages:
        page.wait_for_selector("[data-testid=chat] li:has-text('One.')")
    # Stored but never pushed, as a push lost on the way would be.
    ChatMessage.objects.create(match=match, user=bedevere, text="Two, lost on the way.", seq=2)
    services.chat_post(match_id=match.pk, user=arthur, text="Three.")
    for page in pages:
        page.wait_for_function("() => document.querySelectorAll('[data-testid=chat] li').length === 3")
        assert page.evaluate(LINES) == ["arthur One.", "bedevere Two, lost on the way.", "arthur Three."]
    assert errors == []
