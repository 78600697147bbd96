"""Two people sign up, start a game and see each other's moves appear without reloading."""
import re

import pytest

from tests.browser.helpers import sign_up, wait_live

pytestmark = pytest.mark.browser


def test_two_players_see_each_others_moves_live(live_url, new_page, tmp_path):
    alice, bob = new_page(), new_page(width=390, height=844)  # bob plays on a phone-sized screen
    sign_up(alice, live_url, "alice")
    sign_up(bob, live_url, "bob")

    alice.goto(f"{live_url}/games/new/")
    alice.select_option("#id_kind", "duel")
    alice.fill("#id_invite", "bob")
    alice.select_option("#id_clock_kind", "hours")
    alice.fill("#id_clock_amount", "12")
    alice.click("button[type=submit]")
    alice.wait_for_url(re.compile(r"/games/\d+/$"))
    game_url = alice.url

    bob.goto(f"{live_url}/notifications/")  # the invitation waits for bob
    bob.click("text=invites you")
    assert bob.url == game_url
    bob.click("[data-testid=join]")
    bob.wait_for_selector("[data-testid=hand]")
    wait_live(bob)

    alice.wait_for_selector("[data-testid=hand]")  # alice's waiting room turned into the game by itself
    wait_live(alice)
    first = alice.locator("[data-testid=hand] button:not([disabled])").first
    card = int(first.get_attribute("data-card"))
    first.click()

    bob.wait_for_function(f"document.querySelector('[data-testid=total-0]').textContent === 'total {card}'")
    # Once a move is made the creator can no longer call the game off: the control goes away live.
    alice.wait_for_selector("form[data-show-while=no-moves]", state="hidden")
    bob.screenshot(path=str(tmp_path / "bob.png"))
    bob.wait_for_selector(".seat.me.to-act", timeout=5000)  # the seats bar says it is bob's move

    reply = bob.locator("[data-testid=hand] button:not([disabled])").first
    bob_card = int(reply.get_attribute("data-card"))
    reply.click()
    alice.wait_for_function(f"document.querySelector('[data-testid=total-1]').textContent === 'total {bob_card}'")
    assert "lays a" in alice.locator("[data-testid=log]").inner_text()


def test_a_refused_move_shows_its_reason(live_url, new_page):
    alice, bob = new_page(), new_page()
    sign_up(alice, live_url, "carol")
    sign_up(bob, live_url, "dave")
    alice.goto(f"{live_url}/games/new/")
    alice.select_option("#id_kind", "duel")
    alice.fill("#id_invite", "dave")
    alice.click("button[type=submit]")
    alice.wait_for_url(re.compile(r"/games/\d+/$"))
    bob.goto(alice.url)
    bob.click("[data-testid=join]")
    bob.wait_for_selector("[data-testid=hand]")
    # Dave submits out of turn through the page's own client: the reason is shown.
    bob.evaluate("Grail.page.submit({type: 'play', card: Grail.page.data.view.my_hand[0]}).catch(() => {})")
    bob.wait_for_selector("#move-error:not([hidden])")
    assert "not your turn" in bob.inner_text("#move-error")


def test_a_finished_games_replay_can_be_watched_as_each_player(live_url, new_page):
    """Once a game is over its replay can show any seat's view, hand included."""
    from django.contrib.auth import get_user_model

    from games.table import services
    from games import registry
    from games.table.replay import state_at
    from tests.browser.helpers import log_in
    from tests.conftest import PASSWORD

    users = [get_user_model().objects.create_user(username=name, password=PASSWORD) for name in ("erin", "frank")]
    match = services.match_create(creator=users[0], kind="duel", num_seats=2, invite=["frank"],
                                  options={"rounds": 1}, seed=7)
    services.match_join(match_id=match.pk, user=users[1])
    game = registry.get("duel")
    match.refresh_from_db()
    while match.status == "active":
        seat = game.pending(match.state)[0].seat
        services.move_submit(match_id=match.pk, user=users[seat], move=game.legal_moves(match.state, seat)[0],
                             version=match.version)
        match.refresh_from_db()
    start, _ = state_at(match, 0)
    hands = [sorted(h) for h in start["hands"]]
    assert hands[0] != hands[1]

    page = new_page()
    log_in(page, live_url, "erin")
    page.goto(f"{live_url}/games/{match.pk}/replay/")

    def shown_hand():
        page.wait_for_selector("[data-testid=hand] [data-card]")
        return sorted(int(c) for c in page.eval_on_selector_all("[data-testid=hand] [data-card]",
                                                                 "bs => bs.map(b => b.dataset.card)"))

    assert shown_hand() == hands[0]
    page.select_option("[data-testid=as-seat]", "2")
    for _ in range(50):
        if shown_hand() == hands[1]:
            break
        page.wait_for_timeout(100)
    assert shown_hand() == hands[1]
