"""Chat that never drops a line, in Chromium: three players' pages send 50
lines at the same moment and every page ends with all 50 in the same order; a page that
missed a line (never pushed to it) fetches it as soon as the next line shows the gap. Lines
typed faster than the server answers are all sent, in order; a refused line is said on the
page and sent again, and one whose answer was lost is stored once."""
from __future__ import annotations

import json

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


# Each page types its lines into the chat box and presses Enter, a line every 50 ms (typed,
# then Enter 25 ms later), as fast as a machine (or a person pasting) goes, without waiting
# for any answer: an answer may come back while the next line is being typed.
TYPE_ALL = """async ([texts, at]) => {
  const pause = ms => new Promise(r => setTimeout(r, ms));
  await pause(Math.max(0, at - Date.now()));
  const form = document.getElementById("chat-form"), input = form.querySelector("input[name=text]");
  for (const t of texts) {
    input.value = t;
    input.dispatchEvent(new Event("input", {bubbles: true}));
    await pause(25);
    form.requestSubmit();
    await pause(25);
  }
}"""


def _two_players(new_page, live_url, make_user):
    users = [make_user(name) for name in ("arthur", "bedevere")]
    match = services.match_create(creator=users[0], kind="cupquest", num_seats=2, seed=3, invite=[users[1].username])
    services.match_join(match_id=match.pk, user=users[1])
    pages, errors = [], []
    for user in users:
        page = new_page()
        log_in(page, live_url, user.username)
        open_game(page, f"{live_url}/games/{match.pk}/", errors, "[data-testid=board] *")
        pages.append(page)
    return match, users, pages, errors


def test_two_players_typing_twenty_lines_each_50_ms_apart_lose_none(live_url, new_page, make_user):
    match, users, pages, errors = _two_players(new_page, live_url, make_user)
    at = pages[0].evaluate("() => Date.now()") + 1000
    lines = {user.username: [f"{user.username} line {i}" for i in range(20)] for user in users}
    for page, user in zip(pages, users):
        page.evaluate(TYPE_ALL, [lines[user.username], at])
    for page in pages:
        page.wait_for_function("n => document.querySelectorAll('[data-testid=chat] li[data-id]').length >= n", arg=40,
                               timeout=30000)
        page.wait_for_selector("[data-testid=chat-pending] li", state="detached")
    said = list(ChatMessage.objects.filter(match=match).order_by("id").values_list("user__username", "text"))
    assert len(said) == 40
    for user in users:  # each player's lines in the order typed
        assert [t for u, t in said if u == user.username] == lines[user.username]
    for page in pages:
        assert page.evaluate(LINES) == [f"{u} {t}" for u, t in said]
        assert page.input_value("#chat-form input[name=text]") == ""
    assert errors == []


def test_a_refused_line_is_said_and_sent_again_and_a_line_whose_answer_was_lost_is_stored_once(
        live_url, new_page, make_user):
    """The first sending is refused (too many lines a minute), the second reaches the server
    but its answer is lost on the way: the page says so on the line, sends it again by itself,
    and the line is stored once and shown once."""
    match, (arthur, _), (page, other), errors = _two_players(new_page, live_url, make_user)
    tries = []

    def interfere(route, request):
        if request.method != "POST":
            return route.continue_()
        tries.append(request.post_data_json)
        if len(tries) == 1:
            return route.fulfill(status=429, content_type="application/json",
                                 body=json.dumps({"error": {"code": "rate_limited",
                                                            "message": "Too many requests: wait a little and try again."}}))
        if len(tries) == 2:
            route.fetch()          # the server stores it ...
            return route.abort()   # ... and the answer never arrives
        return route.continue_()

    page.route("**/api/matches/*/chat/", interfere)
    page.fill("#chat-form input[name=text]", "Is this the right room for an argument?")
    page.press("#chat-form input[name=text]", "Enter")
    assert page.input_value("#chat-form input[name=text]") == ""   # free for the next line at once
    note = page.locator("[data-testid=chat-pending] li.retrying")
    note.wait_for()
    assert "not sent yet: Too many requests: wait a little and try again. Sending again in" in note.inner_text()
    for p in (page, other):
        p.wait_for_selector("[data-testid=chat] li:has-text('the right room for an argument')")
    page.wait_for_selector("[data-testid=chat-pending] li", state="detached")
    assert len(tries) >= 3 and len({t["key"] for t in tries}) == 1   # the same line each time
    assert list(ChatMessage.objects.filter(match=match).values_list("text", flat=True)) == [
        "Is this the right room for an argument?"]
    page.wait_for_timeout(300)
    for p in (page, other):
        assert p.evaluate(LINES) == ["arthur Is this the right room for an argument?"]
    assert errors == []
