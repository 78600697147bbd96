"""The CCG board as a new player meets it, in Chromium at phone and desktop sizes:
the current decision stays in view wherever the player scrolled, and a real dispute's result
(the engine's ``last_dispute``) is drawn on the board. Set CCG_SHOTS=<dir> to keep the
screenshots."""
import os
import re

import pytest

from games.kinds.ccg import hooks as ccg_shell
from games.models import Match
from games.rules.ccg.game import with_words
from tests.browser.helpers import sign_up, wait_live
from tests.browser.test_ccg_browser import click_move, wait_for_version
from tests.platform.ccg_helpers import GAME, PREPARED_DECK, ensure_card_database, fix_deal, scripted_move

pytestmark = pytest.mark.browser

IN_VIEW = """() => { const r = document.querySelector('[data-testid=controls]').getBoundingClientRect();
                      return r.top >= 0 && r.top < innerHeight / 2 && r.bottom <= innerHeight; }"""

# The prepared lands with a few generic adversaries among them, so England holds foes.
DECK = dict(PREPARED_DECK, **{"open-field": PREPARED_DECK["open-field"] - 6, "muddy-peasants": 6})
DECK_NAME = "Lands and peasants"


def _shot(page, name):
    if os.environ.get("CCG_SHOTS"):
        page.screenshot(path=os.path.join(os.environ["CCG_SHOTS"], name))


def _script(state, seat, legal):
    """The scripted player of the other browser tests, who also fights the first foe he may."""
    fights = [m for m in legal if m["type"] == "fight"]
    return fights[0] if fights else scripted_move(state, seat, legal)


def _seed_with_a_dispute(sizes, deck):
    """The first seed whose scripted game settles a dispute within 60 moves, each move one
    the board has a button for: the engine is pure, so the browser game replays it."""
    for seed in range(200):
        state = GAME.setup(2, {"decks": [list(deck), list(deck)], "collection_sizes": list(sizes)}, seed)
        for _ in range(60):
            if state["result"] is not None:
                break
            seat = GAME.pending(state)[0].seat
            legal = GAME.legal_moves(state, seat)
            move = with_words(state, _script(state, seat, legal))
            if move not in legal:
                break
            state, _ = GAME.apply(state, seat, move)
            if state.get("last_dispute"):
                return seed
    raise AssertionError("no seed leads to a dispute")


def _set_up(live_url, alice, bob):
    from django.contrib.auth import get_user_model

    from decks import services
    from decks.models import Card
    ensure_card_database()
    sign_up(alice, live_url, "alice")
    sign_up(bob, live_url, "bob")
    users = [get_user_model().objects.get(username=n) for n in ("alice", "bob")]
    for user, spare in zip(users, (3, 0)):
        services.collection_grant(user=user, cards=dict(DECK, **{"open-field": DECK["open-field"] + spare}),
                                  reason="admin_grant")
        services.deck_save(user=user, name=DECK_NAME, cards=dict(DECK))
    known = {c.code: c.to_format() for c in Card.objects.filter(code__in=list(DECK))}
    deck = [known[code] for code, n in sorted(DECK.items()) for _ in range(n)]
    seed = _seed_with_a_dispute([ccg_shell._collection_size(u) for u in users], deck)
    label = f"{DECK_NAME} ({sum(DECK.values())} cards)"

    alice.goto(f"{live_url}/games/new/")
    alice.select_option("#id_kind", "ccg")
    alice.fill("#id_invite", "bob")
    alice.select_option("[data-kind=ccg] [data-testid=ccg-deck]", label=label)
    alice.click("button[type=submit]")
    alice.wait_for_url(re.compile(r"/games/\d+/$"))
    match = Match.objects.get(pk=int(alice.url.rstrip("/").split("/")[-1]))
    fix_deal(match, seed)     # the fixed seed, before the game is set up
    bob.goto(alice.url)
    bob.select_option("[data-testid=ccg-deck]", label=label)
    bob.click("[data-testid=join]")
    bob.wait_for_selector("[data-testid=controls]")
    alice.wait_for_selector("[data-testid=controls]")
    wait_live(alice)
    wait_live(bob)
    match.refresh_from_db()
    return match


def _expected_result(d):
    if d["result"] == "tie":
        return f"A tie: {d['lead']['total']} to {d['foe']['total']}."
    won, lost = (d["lead"], d["foe"]) if d["result"] == "lead" else (d["foe"], d["lead"])
    side = "the Round Table wins" if d["result"] == "lead" else "the adversary wins"
    return f"{won['name']} wins, {won['total']} to {lost['total']} ({side})."


def test_the_decision_stays_in_view_and_a_real_dispute_shows_on_the_board(live_url, new_page):
    alice, bob = new_page(), new_page(width=390, height=844)      # bob plays on a phone
    match = _set_up(live_url, alice, bob)
    pages = [alice, bob]
    moved = 0
    for _ in range(80):
        match.refresh_from_db()
        if match.status != "active" or match.state.get("last_dispute"):
            break
        seat = GAME.pending(match.state)[0].seat
        page = pages[seat]
        page.wait_for_function(f"Grail.page.data && Grail.page.data.version >= {match.version}")
        move = _script(match.state, seat, GAME.legal_moves(match.state, seat))
        if move["type"] == "move" and moved < 2:
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
        if move["type"] == "fight":
            page.click("button[data-move=fight] >> nth=0")   # the first dispute the board offers
        else:
            click_move(page, move)
        wait_for_version(page, match, move)
    assert moved >= 1
    d = match.state.get("last_dispute")
    assert d, "the scripted game reached no dispute"

    # The dispute's result as the engine recorded it, drawn on both players' boards.
    for page, who in ((alice, "desktop"), (bob, "phone")):
        page.wait_for_function(f"Grail.page.data.version >= {match.version}")
        panel = page.wait_for_selector("[data-testid=last-dispute]").inner_text()
        assert d["lead"]["name"] in panel and d["foe"]["name"] in panel
        assert str(d["lead"]["total"]) in panel and str(d["foe"]["total"]) in panel
        assert page.inner_text("[data-testid=dispute-result]") == _expected_result(d)
        for name in d["slain"]:
            assert name in panel
        area = page.locator(".ccg-area.disputed")
        assert area.count() == 1 and "last dispute" in area.inner_text()
        assert area.get_attribute("data-area") == d["area"]
        _shot(page, f"dispute-{who}.png")
    # Nothing on the phone is wider than the screen.
    assert bob.evaluate("document.documentElement.scrollWidth") <= 390
