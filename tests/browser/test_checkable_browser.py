"""Every game checkable by its players, in Chromium (docs/verify.md): a player accepts an
invitation and their browser adds its own random bytes to the game's seed; the game is played
to its end under the other player's open page, whose "Fair shuffle" section then shows the
secret, checks the game on the server and downloads a record that the checker passes; the
replay opens at the move its link names and steps on, the link following."""
from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth import get_user_model

from games import registry
from games.models import Match, Seat
from games.rules import verify
from games.table import services
from tests.browser.helpers import log_in, open_game
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser

MINE = "00112233445566778899aabbccddeeff"


def _users(*names):
    User = get_user_model()
    return [User.objects.create_user(username=n, password=PASSWORD, email=f"{n}@example.com") for n in names]


def _play_all_but_the_last_move(match_id: int, users) -> tuple[int, dict]:
    """Listed moves by whoever the rules wait for, up to the move that would end the game:
    (its seat, that move), left for the test to make."""
    game = registry.get("duel")
    while True:
        match = Match.objects.get(pk=match_id)
        seat = game.pending(match.state)[0].seat
        move = game.legal_moves(match.state, seat)[0]
        after, _ = game.apply(match.state, seat, move)
        if game.outcome(after) is not None:
            return seat, move
        services.move_submit(match_id=match_id, user=users[seat], move=move, version=match.version)


def test_a_game_played_to_its_end_checks_downloads_and_replays_from_a_link(live_url, new_page, tmp_path):
    alice, bob = _users("alice", "bob")
    match = services.match_create(creator=alice, kind="duel", num_seats=2, invite=["bob"], contribution=MINE,
                                  clock_kind="none", clock_amount=0)
    errors = []

    # Bob accepts in his browser, which sends its own 16 random bytes.
    joiner = new_page()
    log_in(joiner, live_url, "bob")
    joiner.goto(f"{live_url}/games/{match.pk}/")
    assert joiner.inner_text("[data-testid=commitment]") == match.commitment
    joiner.click("[data-testid=join]")
    joiner.wait_for_selector("[data-testid=board] *")
    contribution = Seat.objects.get(match=match, index=1).contribution
    assert re.fullmatch(r"[0-9a-f]{32}", contribution) and contribution != "0" * 32
    assert contribution in joiner.inner_text("[data-testid=contributions]")
    assert joiner.inner_text("#fairness").count("shown when the game is over") == 1

    # Alice watches the game end on her open page.
    page = new_page()
    log_in(page, live_url, "alice")
    open_game(page, f"{live_url}/games/{match.pk}/", errors, "[data-testid=board] *")
    assert not page.is_visible("[data-testid=check-run]")
    seat, last = _play_all_but_the_last_move(match.pk, [alice, bob])
    services.move_submit(match_id=match.pk, user=[alice, bob][seat], move=last, version=None)
    match.refresh_from_db()
    assert match.status == "finished"
    page.wait_for_selector("#outcome [data-testid=headline]")
    page.wait_for_selector("[data-testid=check-run]")  # the section drawn again, the secret out
    assert page.inner_text("[data-testid=secret]") == match.secret
    assert page.evaluate("window.__sameDocument") is True, "no reload"

    page.click("[data-testid=check-run]")
    verdict = page.wait_for_selector("[data-testid=check-verdict]").inner_text()
    assert verdict == "The record checks."
    steps = page.inner_text("[data-testid=check-steps]")
    assert steps.startswith(f"commitment: {match.commitment}") and f"seed: {match.seed}" in steps
    assert f"all {match.move_count} legal" in steps
    facts = page.inner_text("#check-result")
    assert MINE in facts and contribution in facts and match.secret in facts

    with page.expect_download() as download:
        page.click("[data-testid=record-link]")
    saved = tmp_path / "record.json"
    download.value.save_as(saved)
    assert download.value.suggested_filename == f"grailsite-game-{match.pk}.json"
    record = json.loads(saved.read_text())
    assert verify.check_record(record).ok and record["secret"] == match.secret
    assert verify.main([str(saved)]) == 0

    # The replay, opened from a link at move 3, steps on; its address follows.
    total = match.move_count
    page.goto(f"{live_url}/games/{match.pk}/replay/?at=3")
    page.wait_for_selector(f"text=Step 3 of {total}")
    page.click("#next")
    page.wait_for_selector(f"text=Step 4 of {total}")
    assert page.url.endswith(f"/games/{match.pk}/replay/?at=4")
    assert page.get_attribute("[data-testid=share-link]", "href") == f"/games/{match.pk}/replay/?at=4"
    page.select_option("[data-testid=as-seat]", "full")  # over: the whole state, every hand
    state = json.loads(page.wait_for_selector("[data-testid=replay-state]:not([hidden])").inner_text())
    assert len(state["hands"]) == 2
    page.goto(f"{live_url}/games/{match.pk}/replay/?at={total + 50}")  # beyond the end: the last move
    page.wait_for_selector(f"text=Step {total} of {total}")
    assert errors == []
