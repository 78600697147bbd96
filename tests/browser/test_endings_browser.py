"""A game you come back to, in Chromium: a finished game of every
kind opened afresh (from a list, a notification, F5) says who won and why, what changed
hands, and offers its history, replay and a rematch; a two-player CCG resignation seen from
both sides, its rule numbers linked to the rules page; a timed-out turn said in words on the
page, its history and in the notification ("by the clock", "just now")."""
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.table import services
from games.models import Match, Seat
from tests.browser.helpers import log_in, wait_live
from tests.conftest import PASSWORD
from tests.platform.ccg_helpers import drive, ensure_card_database, prepared_player

pytestmark = pytest.mark.browser


def _users(*names):
    User = get_user_model()
    return [User.objects.create_user(username=n, password=PASSWORD, email=f"{n}@example.com") for n in names]


def _started(kind, users, **kwargs):
    match = services.match_create(creator=users[0], kind=kind, num_seats=len(users),
                                  invite=[u.username for u in users[1:]], seed=3, **kwargs)
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user, choice=kwargs.get("creator_choice") and
                            {"deck": prepared_player(user).pk})
    return Match.objects.get(pk=match.pk)


def _finished_games(alice, bob, carol):
    """One finished game of each kind, alice the winner of each (the others resigned)."""
    ensure_card_database()
    deck = prepared_player(alice, spare=1)
    games = {}
    # Each is a game under way (everyone has played): leaving it is a resignation, not an abort.
    for kind in ("duel", "fluxx", "cupquest"):
        match = _started(kind, [alice, bob])
        Seat.objects.filter(match=match).update(own_moves=1)
        services.match_resign(match_id=match.pk, user=bob)
        games[kind] = match.pk
    camelot = _started("camelot", [alice, bob, carol])
    Seat.objects.filter(match=camelot).update(own_moves=1)
    for user in (bob, carol):
        services.match_resign(match_id=camelot.pk, user=user)
    games["camelot"] = camelot.pk
    ccg = _started("ccg", [alice, bob], creator_choice={"deck": deck.pk})
    services.move_submit(match_id=ccg.pk, user=alice, move={"type": "cut", "at": 3}, version=ccg.version)
    Seat.objects.filter(match=ccg).update(own_moves=1)
    services.match_resign(match_id=ccg.pk, user=bob)  # during the cut: alice's cut card goes home
    games["ccg"] = ccg.pk
    assert set(Match.objects.filter(pk__in=games.values()).values_list("status", flat=True)) == {"finished"}
    return games


def test_a_finished_game_of_every_kind_opened_afresh_shows_its_result_and_a_rematch(live_url, new_page):
    alice, bob, carol = _users("alice", "bob", "carol")
    games = _finished_games(alice, bob, carol)
    page = new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, live_url, "alice")
    for kind, match_id in games.items():
        page.goto(f"{live_url}/games/{match_id}/")
        page.wait_for_selector("[data-testid=board] *")
        if kind == "duel":
            page.reload()  # F5 on a finished game
            page.wait_for_selector("[data-testid=board] *")
        headline = page.wait_for_selector("#outcome [data-testid=headline]").inner_text()
        assert headline == "You won.", kind
        reason = page.inner_text("#outcome [data-testid=ending-reason]").strip()
        assert "bob" in reason and not re.search(r"\bSeat \d", reason), (kind, reason)
        assert page.is_visible("#outcome [data-testid=rematch]"), kind
        assert page.get_attribute("#outcome [data-testid=history-link]", "href") == f"/games/{match_id}/history/"
        assert page.get_attribute("#outcome [data-testid=replay-link]", "href") == f"/games/{match_id}/replay/"
        if kind == "ccg":
            # What changed hands, and the ante no longer shown as at stake.
            detail = page.inner_text("#outcome [data-testid=ending-detail]")
            assert detail.startswith("The ante goes back to its owners:") and "(bob)" in detail
            assert page.inner_text("[data-testid=ante-heading]") == "The ante, gone back to its owners"
        if kind == "camelot":
            assert "carol" in reason
    assert errors == []

    # The rematch: the same players, invited; the asker lands on the new game's page.
    page.goto(f"{live_url}/games/{games['fluxx']}/")
    page.click("#outcome [data-testid=rematch]")
    page.wait_for_url(lambda url: re.search(r"/games/(\d+)/$", url) and f"/games/{games['fluxx']}/" not in url)
    rematch = Match.objects.get(rematch_of_id=games["fluxx"])
    assert page.url.endswith(f"/games/{rematch.pk}/") and rematch.kind == "fluxx"
    assert page.is_visible("[data-testid=waiting-room]")
    # Back on the finished game, the button has become the way to the rematch.
    page.goto(f"{live_url}/games/{games['fluxx']}/")
    link = page.wait_for_selector("#outcome [data-testid=rematch-link]")
    assert link.get_attribute("href") == f"/games/{rematch.pk}/"


def test_a_two_player_ccg_resignation_seen_from_both_sides(live_url, new_page):
    ensure_card_database()
    alice, bob = _users("alice", "bob")
    match = _started("ccg", [alice, bob], creator_choice={"deck": prepared_player(alice, spare=1).pk})
    match = drive(match, [alice, bob], until=lambda m: m.state["phase"] != "cut")
    pages = {}
    for user in (alice, bob):
        page = pages[user.username] = new_page()
        log_in(page, live_url, user.username)
        page.goto(f"{live_url}/games/{match.pk}/")
        page.wait_for_selector("[data-testid=controls]")
        wait_live(page)
    a, b = pages["alice"], pages["bob"]

    b.on("dialog", lambda dialog: dialog.accept())
    b.click("form[action$='/resign/'] button")
    # bob, at once: he resigned, the game is over for him, and what becomes of his ante card.
    assert b.wait_for_selector("#outcome [data-testid=headline]").inner_text() == "You resigned."
    assert "over for you" in b.inner_text("#outcome")
    detail = b.inner_text("#outcome [data-testid=ending-detail]")
    assert detail.startswith("alice may go on searching for the Grail alone (15.3)") and "your " in detail
    assert not b.is_visible("form[action$='/resign/'] button")
    # alice: why the game goes on, and what the Grail would win.
    situation = a.wait_for_selector("[data-testid=situation]:not([hidden])").inner_text()
    assert situation.startswith("bob resigned. You may go on searching for the Grail alone (15.3)")
    # The rule number is a link to that paragraph of the rules page, which explains it.
    cited = a.locator("[data-testid=situation] a.rule-ref", has_text="15.3").first
    assert cited.get_attribute("href") == "/rules/ccg/#rule-15-3"
    with a.expect_popup() as opened:
        cited.click()
    rules = opened.value
    rules.wait_for_selector("#rule-15-3")
    assert "Only finding the Grail wins the ante" in rules.inner_text("#rule-15-3 + dd")
    assert rules.evaluate("location.hash") == "#rule-15-3"
    rules.close()
    assert "bob resigned and is out of the game." in a.inner_text("[data-testid=log]")
    a.wait_for_selector("button[data-move=give_up]").click()
    assert a.wait_for_selector("#outcome [data-testid=headline]").inner_text() == "You won."
    b.wait_for_function("document.querySelector('#outcome [data-testid=headline]').textContent === 'You lost.'")
    for page in (a, b):
        reason = page.inner_text("#outcome [data-testid=ending-reason]").strip()
        assert reason.startswith("bob resigned. alice searched on alone (15.3) and gave up the search")
        assert page.inner_text("#outcome [data-testid=ending-detail]").startswith("The ante goes back to its owners")
        assert page.is_hidden("[data-testid=situation]")


def test_a_timed_out_turn_is_said_in_words_on_the_page_and_in_the_notification(live_url, new_page):
    """In a game of two, the player whose time runs out on their own turn loses: the page's
    log and ending and the notification say so in words."""
    alice, bob = _users("alice", "bob")
    match = _started("duel", [alice, bob], clock_kind="minutes", clock_amount=5, options={"rounds": 3})
    Seat.objects.filter(match=match).update(own_moves=1)  # both have played: no abort
    late = match.state["turn"]
    name = [alice, bob][late].username
    page = new_page()
    log_in(page, live_url, name)
    page.goto(f"{live_url}/games/{match.pk}/")
    page.wait_for_selector("[data-testid=hand]")
    wait_live(page)
    Seat.objects.filter(match=match, index=late).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.deadline_expire(match_id=match.pk, seat_index=late)
    line = page.wait_for_selector("[data-testid=log] li.timeout")
    assert line.inner_text() == f"{name} ran out of time, and loses the game. (by the clock)"
    assert page.wait_for_selector("#outcome [data-testid=headline]").inner_text() == "You lost."
    assert page.inner_text("#outcome [data-testid=ending-reason]").strip() == f"{name} ran out of time."
    # Every line of that move says the clock made it, in words: never a bare "timeout" tag.
    assert all(t.endswith(" (by the clock)") for t in page.locator("[data-testid=log] li.timeout").all_inner_texts())
    page.goto(f"{live_url}/games/{match.pk}/history/")
    made = page.locator("ol.history li.timeout").all_inner_texts()
    assert made and all(t.endswith(" (by the clock)") for t in made), made
    assert not re.search(r"\btimeout\b", page.inner_text("ol.history"))
    page.goto(f"{live_url}/notifications/")
    assert f"Your time ran out in Grail Duel #{match.pk}: you lost the game." in page.inner_text(".notifications")
    # Said a moment ago: "just now", not "0 minutes ago".
    assert "just now" in page.inner_text(".notifications .when") and "0 minutes" not in page.inner_text(".notifications")
