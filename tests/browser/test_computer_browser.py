"""Playing against computer players in Chromium: a whole Cup Quest game of one
person against two Knights, their moves made by a real Celery worker after the table's
delay and shown on the page over the websocket; "Play against the computer" from the home
page in two clicks, and "Try this deck" from the deck builder.

The Cup Quest game is seeded, and the computer players seed their choices from the match's
seed, version and seat, so the whole game is known in advance: it is played out once here
with the pure rules (the person's moves chosen as in test_cupquest_browser.py) and the page
must arrive at the same ending.
"""
from __future__ import annotations

import time

import pytest

from games.rules import computer
from games.rules.cupquest.game import CupQuest
from tests.browser.helpers import sign_up, wait_live
from tests.browser.test_cupquest_browser import _click_move, _wait_for_log, choose_move

pytestmark = pytest.mark.browser

GAME = CupQuest()
# With the person moving as choose_move does and two Knights, this seed's game ends in 13
# moves, five of them the person's (a snipe among them).
SEED = 4


def _expected_game(seed: int, options: dict) -> tuple[list[dict], dict]:
    """The seeded game played out with the pure rules: every move, and the outcome. Version 1
    is the started game; each move adds one (as in the shell)."""
    state = GAME.setup(3, options, seed)
    moves, version, made = [], 1, []
    while GAME.outcome(state) is None:
        seat = GAME.pending(state)[0].seat
        if seat == 0:
            move = choose_move(state, 0, sniped_yet="snipe" in made)
            made.append(move["type"])
        else:
            move, _note = computer.choose_move(GAME, state, seat, "knight", computer.seed_for(seed, version, seat))
        moves.append({"seat": seat, "move": move})
        state, _ = GAME.apply(state, seat, move)
        version += 1
    return moves, GAME.outcome(state).as_dict()


def _wait_for_my_turn_or_the_end(match_id: int, timeout: float = 15.0):
    from games.models import Match

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        match = Match.objects.get(pk=match_id)
        if match.status != "active" or GAME.pending(match.state)[0].seat == 0:
            return match
        time.sleep(0.05)
    raise AssertionError("the computer players did not move in time")


def test_a_person_plays_a_whole_cup_quest_game_against_two_computers(live_url, new_page, worker):
    from django.contrib.auth import get_user_model
    from django.db import connections

    from games.table import selectors, services
    from games.models import MoveRecord

    page = new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_up(page, live_url, "percival")
    user = get_user_model().objects.get(username="percival")
    match = services.match_create(creator=user, kind="cupquest", num_seats=3, seed=SEED, clock_kind="none",
                                  clock_amount=0, computers_at={1: "knight", 2: "knight"}, computer_delay=1)
    match.refresh_from_db()
    expected_moves, expected_outcome = _expected_game(SEED, match.options)
    page.goto(f"{live_url}/games/{match.pk}/")
    page.wait_for_selector("svg.cq-map")
    wait_live(page)
    page.evaluate("window.__sameDocument = true")
    for where in ("#seats", "[data-testid=players]"):  # the shell's seat list and the board's
        shown = page.inner_text(where)
        assert "Computer 2 (Knight)" in shown and "Computer 3 (Knight)" in shown

    made = []
    while True:
        match = _wait_for_my_turn_or_the_end(match.pk)
        seats = selectors.seats_for(match)
        # The page shows every computer move without a reload before the person acts.
        _wait_for_log(page, [line["text"] for line in selectors.log_for(match, 0, seats=seats)])
        if match.status != "active":
            break
        assert len(made) < 20, "the seeded game should have ended by now"
        move = choose_move(match.state, 0, sniped_yet="snipe" in made)
        before = match.version
        _click_move(page, move, match.state, 0)
        made.append(move["type"])
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and type(match).objects.get(pk=match.pk).version == before:
            time.sleep(0.05)
    records = list(MoveRecord.objects.filter(match=match).order_by("seq"))
    assert [{"seat": r.seat, "move": r.move} for r in records] == expected_moves
    assert all(r.key.startswith("computer-") for r in records if r.seat != 0)
    assert match.outcome["winners"] == expected_outcome["winners"]
    assert page.evaluate("window.__sameDocument === true"), "every computer move came without a reload"
    assert page.inner_text("[data-testid=status]") == "The game is over."
    log = page.inner_text("[data-testid=log]")
    assert "Computer 2 (Knight)" in log and "Computer 3 (Knight)" in log
    assert errors == []
    connections.close_all()


def test_two_clicks_from_home_and_try_this_deck(live_url, new_page, worker):
    """"Play against the computer" on the home page is two clicks (the game, then Play). From
    the deck builder, one click starts a practice CCG game of that deck against a computer
    player; the person plays it on the page and the computer answers; no card is staked
    from the collection."""
    from django.db import connections

    from decks.models import AnteStake, Deck, LedgerEntry
    from games.models import Match, MoveRecord
    from tests.browser.test_ccg_browser import click_move
    from tests.platform.ccg_helpers import GAME as CCG, ensure_card_database, scripted_move

    ensure_card_database()
    page = new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_up(page, live_url, "bedevere")
    page.select_option("[data-testid=vs-computer-kind]", "duel")
    page.click("[data-testid=vs-computer-go]")
    page.wait_for_url(f"{live_url}/games/*/")
    page.wait_for_selector("[data-testid=hand] button:not([disabled])")  # my move, on a board that works
    duel = Match.objects.get(creator__username="bedevere")
    assert duel.kind == "duel" and duel.status == "active"
    # Dealt with the bytes the page sent once it had shown the commitment (docs/verify.md).
    sent = duel.seats.get(index=0).contribution
    assert len(sent) == 32 and sent != "0" * 32 and sent in page.inner_text("[data-testid=contributions]")
    assert "Computer (Knight)" in page.inner_text("#seats")

    deck = Deck.objects.filter(owner__username="bedevere").order_by("pk").first()
    ledger = LedgerEntry.objects.filter(user=deck.owner).count()
    page.goto(f"{live_url}/decks/{deck.pk}/")
    page.click("[data-testid=try-deck]")
    page.wait_for_url(f"{live_url}/games/*/")
    page.wait_for_selector("[data-testid=practice-ante]")  # dealt: the page that sent the contribution is gone
    wait_live(page)
    match = Match.objects.get(creator=deck.owner, kind="ccg")
    assert match.kind == "ccg" and match.status == "active" and match.practice
    assert match.seats.get(index=0).choice["deck_version"] == deck.version
    assert "Computer (Knight)" in page.inner_text("#seats")
    assert "nothing is staked" in page.inner_text("[data-testid=practice-ante]")  # the ante is talked of: say so

    mine = 0
    deadline = time.monotonic() + 60
    while mine < 2 and time.monotonic() < deadline:
        match.refresh_from_db()
        assert match.status == "active"
        if CCG.pending(match.state)[0].seat != 0:
            time.sleep(0.1)  # the computer player's turn: its task runs after the delay
            continue
        page.wait_for_function(f"Grail.page.data && Grail.page.data.version >= {match.version}")
        click_move(page, scripted_move(match.state, 0, CCG.legal_moves(match.state, 0)))
        version = match.version
        while Match.objects.get(pk=match.pk).version == version and time.monotonic() < deadline:
            time.sleep(0.05)
        mine += 1
    assert mine == 2, "the person could keep playing"
    assert MoveRecord.objects.filter(match=match, seat=1, key__startswith="computer-").exists()
    match.refresh_from_db()
    assert match.state["ante"], "the cut put cards in the ante on the table"
    assert not AnteStake.objects.exists() and LedgerEntry.objects.filter(user=deck.owner).count() == ledger
    assert "Computer (Knight)" in page.inner_text("[data-testid=log]")
    assert errors == []
    connections.close_all()
