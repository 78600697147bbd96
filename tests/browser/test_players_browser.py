"""Friends, challenges and ratings as a person lives them: two people sign up; one follows
the other and sees them online on the Friends page (live, over the presence socket);
challenges them from their profile; they play a rated game to the end; the result banner
says each one's rating change ("+12"); both profiles' ratings and the leaderboard change."""
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import registry
from games.players import ratings
from games.table import services
from games.models import Match, Rating, RatingChange
from tests.browser.helpers import sign_up, wait_live

pytestmark = pytest.mark.browser


def _rating_cell(page, live_url, name):
    page.goto(f"{live_url}/players/{name}/")
    cell = page.locator("[data-testid=rating-duel]")
    return cell.inner_text() if cell.count() else ""


def _play_out(pages, match_id):
    """Each player clicks their first playable card when it is their turn, until the game ends."""
    for _ in range(20):
        match = Match.objects.get(pk=match_id)
        if match.status != "active":
            return
        seat = match.seats.get(waiting_for__gt="").index
        page = pages[seat]
        card = page.locator("[data-testid=hand] button:not([disabled])").first
        card.wait_for()
        card.click()
        page.wait_for_function(f"Grail.page.data.version > {match.version}")
    raise AssertionError("the game did not end")


def test_follow_see_online_challenge_play_rated_and_ratings_move(live_url, new_page, tmp_path):
    alice, bob = new_page(), new_page()
    sign_up(alice, live_url, "alice")
    sign_up(bob, live_url, "bob")

    # Follow from the profile; bob, whose home page is open, shows as online, live.
    alice.goto(f"{live_url}/players/bob/")
    alice.click("[data-testid=follow]")
    alice.wait_for_selector("[data-testid=unfollow]")
    alice.goto(f"{live_url}/friends/")
    alice.wait_for_selector("[data-presence=bob].online")
    assert alice.inner_text("[data-testid=friends-online-line] [data-presence-count]") == "1"

    # Nine rated games already between them, so the tenth establishes both on the leaderboard:
    # each player moves once, then one resigns; played on earlier days (a pair's games count
    # only a few times a day).
    users = {u.username: u for u in get_user_model().objects.filter(username__in=["alice", "bob"])}
    for n in range(ratings.PROVISIONAL_GAMES - 1):
        first, second = (users["alice"], users["bob"]) if n % 2 else (users["bob"], users["alice"])
        game = services.match_create(creator=first, kind="duel", num_seats=2, invite=[second.username])
        services.match_join(match_id=game.pk, user=second)
        for _ in range(2):
            game.refresh_from_db()
            turn = game.state["turn"]
            services.move_submit(match_id=game.pk, user=[first, second][turn], version=None,
                                 move=registry.get("duel").legal_moves(game.state, turn)[0])
        services.match_resign(match_id=game.pk, user=second)
        Match.objects.filter(pk=game.pk).update(finished_at=timezone.now() - timedelta(days=n + 1))
    alice.goto(f"{live_url}/ratings/duel/")
    assert alice.locator("[data-testid=leaderboard]").count() == 0
    # Not established yet, but listed, marked, and the page says what the mark means.
    listed = alice.locator("[data-testid=provisional-board] tbody tr")
    assert listed.count() == 2 and "?" in listed.first.inner_text()
    assert "fewer than" in alice.inner_text("[data-testid=provisional-meaning]")
    before = {name: _rating_cell(alice, live_url, name) for name in ("alice", "bob")}
    assert all("?" in cell for cell in before.values())  # provisional

    # Challenge from bob's profile: the new-game form comes with bob invited.
    alice.goto(f"{live_url}/players/bob/")
    alice.click("[data-testid=challenge]")
    assert alice.input_value("#id_invite") == "bob"
    alice.select_option("#id_kind", "duel")
    alice.fill("#id_duel-opt-rounds", "1")
    assert alice.is_checked("#id_rated")
    alice.click("button[type=submit]")
    alice.wait_for_url(re.compile(r"/games/\d+/$"))
    match_id = int(re.search(r"/games/(\d+)/$", alice.url).group(1))
    assert alice.locator("[data-testid=rated]").count() == 1

    bob.goto(f"{live_url}/notifications/")
    bob.click("text=invites you")
    bob.click("[data-testid=join]")
    bob.wait_for_selector("[data-testid=hand]")
    alice.wait_for_selector("[data-testid=hand]")
    wait_live(alice)
    wait_live(bob)
    # Names on the table link to profiles.
    assert alice.locator("#seats a.player[href='/players/bob/']").count() == 1
    _play_out([alice, bob], match_id)
    # The log names the players as links, whole names only.
    alice.wait_for_selector("[data-testid=log] a.player[href='/players/bob/']")
    linked = alice.evaluate("""() => { const box = document.createElement('p');
        box.appendChild(Grail.linkedText('bob plays; a bobcat and alice.', [{username: 'bob'}, {username: 'alice'}]));
        return box.innerHTML; }""")
    assert linked == ('<a class="player" href="/players/bob/">bob</a> plays; a bobcat and '
                      '<a class="player" href="/players/alice/">alice</a>.')
    alice.wait_for_selector("[data-testid=headline]")
    bob.wait_for_selector("[data-testid=headline]")
    assert Match.objects.get(pk=match_id).rated
    # The banner says each player's rating change, lichess-style, on the page that saw the
    # end live (its frame) and on one opened afterwards, and the history page says the same.
    said = {}
    for change in RatingChange.objects.filter(match_id=match_id).select_related("user"):
        moved = round(change.display_after) - round(change.display_before)
        sign = f"+{moved}" if moved > 0 else f"−{-moved}" if moved < 0 else "±0"
        said[change.user.username] = f"{change.user.username} {round(change.display_after)} {sign}"
    assert len(said) == 2 and any("+" in line for line in said.values())  # someone gained
    for page in (alice, bob):
        page.wait_for_selector("[data-testid=rating-changes]")
        banner = page.inner_text("[data-testid=rating-changes]")
        assert all(line in banner for line in said.values()), banner
        assert page.locator("[data-testid=rating-changes] [data-testid=provisional]").count() == 0  # established
    bob.reload()
    bob.wait_for_selector("[data-testid=rating-changes]")
    assert said["bob"] in bob.inner_text("[data-testid=rating-changes]")
    bob.goto(f"{live_url}/games/{match_id}/history/")
    assert said["alice"] in bob.inner_text("[data-testid=rating-changes]")

    after = {name: _rating_cell(alice, live_url, name) for name in ("alice", "bob")}
    for name in ("alice", "bob"):
        assert after[name] != before[name] and "?" not in after[name]  # moved, and established now
        assert f"({ratings.PROVISIONAL_GAMES} rated)" in after[name]
    alice.goto(f"{live_url}/players/alice/")
    alice.wait_for_selector("[data-testid=chart-duel] polyline")
    alice.screenshot(path=str(tmp_path / "profile.png"), full_page=True)
    recent = alice.locator("[data-testid=recent-games] [data-match='%d']" % match_id)
    assert recent.count() == 1 and recent.locator("a", has_text="Replay").count() == 1

    alice.goto(f"{live_url}/ratings/duel/")
    rows = alice.locator("[data-testid=leaderboard] tbody tr")
    assert rows.count() == 2
    shown = {r: round(Rating.objects.get(user__username=r, kind="duel").display) for r in ("alice", "bob")}
    best = max(shown, key=shown.get)
    assert rows.first.get_attribute("data-player") == best
    assert str(shown[best]) in rows.first.inner_text()
    alice.screenshot(path=str(tmp_path / "leaderboard.png"), full_page=True)
