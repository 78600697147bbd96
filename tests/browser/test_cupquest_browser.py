"""Three people play Cup Quest in three browsers, every move a click.

The matches are created through the services with fixed seeds, so each game is the same on
every run. Which move to make is decided from the engine (a goal-seeking player, below);
how it is made is always the page's own controls: a card, then a glowing hex (by mouse or
keyboard); the fight, attack, decline, freeze, teleport, discard and pass buttons; the
snipe control's target, sliders and fire button. After every move each other page (and a
spectator's) must show it in its log without reloading.
"""
from __future__ import annotations

import time

import pytest

from games.rules import hexgrid
from games.rules.cupquest import cards, snipe
from games.rules.cupquest.board import load_board
from games.rules.cupquest.game import CupQuest
from tests.browser.helpers import open_game, sign_up

pytestmark = pytest.mark.browser

GAME = CupQuest()
# Checked by tests/platform/test_cupquest_service.py: with choose_move below this seed's game
# ends in 19 moves (Robin wins) and uses every kind of control: moves onto the Grail and home,
# two monster fights, a declined and a lost attack, and seven snipes, two of which hit the
# Grail's carrier.
SEED = 88
PLAYERS = ("arthur", "lancelot", "robin")


# --- a goal-seeking player, computed from the pure rules -------------------------------

def _walk_distance(state: dict, a: str, b: str) -> int:
    d = load_board(state["board"]).grid.walk_distance(hexgrid.parse(a), hexgrid.parse(b))
    return 999 if d is None else d


def _goal(state: dict, seat: int) -> str:
    """Where ``seat`` wants to be: home with the Grail, else the Grail (or whoever holds it)."""
    grail = state["grail"]
    if grail["carrier"] == seat:
        return state["alcoves"][seat]
    if grail["carrier"] is not None:
        return state["positions"][grail["carrier"]]
    return grail["at"]


def _aimed(move: dict, goblet: dict) -> dict:
    """The snipe with the best aim the sliders can express (they move in half steps)."""
    aim = snipe.ideal_aim(goblet)
    return dict(move, angle=round(aim["angle"] * 2) / 2, strength=min(100.0, round(aim["strength"] * 2) / 2))


def choose_move(state: dict, seat: int, sniped_yet: bool) -> dict:
    """A legal move for ``seat``: fight when made to; attack, snipe or freeze whoever carries
    the Grail; otherwise walk as close as possible to the goal (or discard when no card gets
    closer). The first chance to snipe in a game is always taken, so every game shows one."""
    moves = GAME.legal_moves(state, seat)
    kinds = {m["type"] for m in moves}
    if "fight" in kinds:
        return moves[0]
    carrier = state["grail"]["carrier"]
    if "decline" in kinds:
        at_carrier = [m for m in moves if m["type"] == "attack" and m["target"] == carrier]
        return at_carrier[0] if at_carrier else {"type": "decline"}
    snipes = [m for m in moves if m["type"] == "snipe"]
    if snipes and (not sniped_yet or any(m["target"] == carrier for m in snipes)):
        pick = next((m for m in snipes if m["target"] == carrier), snipes[0])
        return _aimed(pick, state["goblet"])
    freezes = [m for m in moves if m["type"] == "freeze" and m["target"] == carrier]
    if freezes:
        return freezes[0]
    goal = _goal(state, seat)
    board = load_board(state["board"])

    def score(m):
        fights = bool(board.monsters_touching(m["to"])) and m["to"] != goal
        rank = m["card"][:-1]
        return _walk_distance(state, m["to"], goal), fights, int(rank) if rank.isdigit() else 20

    walks = sorted((m for m in moves if m["type"] == "move"), key=score)
    if walks and score(walks[0])[0] < _walk_distance(state, state["positions"][seat], goal):
        return walks[0]
    discards = [m for m in moves if m["type"] == "discard"]
    return discards[0] if discards else {"type": "pass"}


# --- doing it through the page ---------------------------------------------------------

def _click_move(page, move: dict, state: dict, seat: int) -> None:
    """Make ``move`` with the page's controls, checking they offer what the engine does."""
    kind = move["type"]
    if kind in ("move", "teleport", "freeze", "discard"):
        page.click(f"[data-testid=hand] button[data-card='{move['card']}']")
    if kind == "move":
        expected = {m["to"] for m in GAME.legal_moves(state, seat) if m["type"] == "move" and m["card"] == move["card"]}
        page.wait_for_selector("polygon.cq-dest")
        shown = set(page.eval_on_selector_all("polygon.cq-dest", "ps => ps.map(p => p.dataset.hex)"))
        assert shown == expected, "the glowing hexes are the card's legal destinations"
        target = page.locator(f"polygon.cq-dest[data-hex='{move['to']}']")
        named = {state["grail"]["at"]: "Move to the Holy Grail", state["alcoves"][seat]: "Move to your alcove"}
        if move["to"] in named:  # the two places that matter most, named for screen readers
            assert target.get_attribute("aria-label") == named[move["to"]]
        target.click()
    elif kind == "snipe":
        panel = page.locator("[data-testid=snipe]")
        panel.locator("select").select_option(str(move["target"]))
        panel.locator("input[aria-label=Angle]").fill(f"{move['angle']:g}")
        panel.locator("input[aria-label=Strength]").fill(f"{move['strength']:g}")
        assert panel.inner_text().count(f"angle {move['angle']:g}\u00b0, strength {move['strength']:g}") == 1
        panel.locator("[data-testid=snipe-fire]").click()
    elif kind in ("freeze", "attack"):
        page.click(f"[data-testid={kind}-{move['target']}]")
    else:  # teleport, discard, fight, decline, pass: one button each
        page.click(f"[data-testid={kind}]")


def _wait_for_version(match_id: int, above: int, page, move: dict, timeout: float = 10.0):
    """The match once the server has taken the move clicked on ``page``."""
    from games.models import Match

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        match = Match.objects.get(pk=match_id)
        if match.version > above:
            return match
        time.sleep(0.05)
    error = page.inner_text("#move-error") if page.is_visible("#move-error") else "no error shown"
    raise AssertionError(f"the server did not take {move} within {timeout} s ({error})")


LOG_TEXTS = "() => Array.from(document.querySelectorAll('[data-testid=log] li'), li => li.textContent)"


def _wait_for_log(page, expected: list[str]) -> None:
    """Wait until the page's log reads exactly ``expected`` (it arrives over the websocket)."""
    try:
        page.wait_for_function(f"expected => JSON.stringify(({LOG_TEXTS})()) === JSON.stringify(expected)",
                               arg=expected, timeout=10000)
    except Exception:
        shown = page.evaluate(LOG_TEXTS)
        raise AssertionError(f"log shows {shown[-5:]}, expected {expected[-5:]}") from None


@pytest.fixture
def make_page(new_page):
    """``new_page``, closing afterwards the database connection this test's own ORM calls
    opened: they run beside Playwright's event loop, where Django keeps a separate
    connection that would otherwise stay open and block dropping the test database."""
    from django.db import connections

    yield new_page
    connections.close_all()


def _start_game(users, seed: int):
    from games.table import services

    match = services.match_create(creator=users[0], kind="cupquest", num_seats=len(users),
                                  invite=[u.username for u in users[1:]], seed=seed, clock_kind="hours", clock_amount=12)
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user)
    match.refresh_from_db()
    return match


def _open(page, url: str, errors: list) -> None:
    open_game(page, url, errors, "svg.cq-map")


def _confirm(match, seat: int, move: dict, pages: dict):
    """After a click on ``seat``'s page: the server took exactly ``move``, and every page
    (keyed by viewer: a seat, or None for a spectator) shows the new log without reloading."""
    from games.table import selectors
    from games.models import MoveRecord

    match = _wait_for_version(match.pk, match.version, pages[seat], move)
    record = MoveRecord.objects.get(match=match, seq=match.move_count)
    assert (record.seat, record.move) == (seat, move), "the click sent exactly the intended move"
    for viewer, page in pages.items():
        # A line of a move the clock made says so after its words.
        _wait_for_log(page, [line["text"] + (" (by the clock)" if line["timeout"] else "") for line in
                             selectors.log_for(match, viewer, seats=selectors.seats_for(match))])
        assert page.evaluate("window.__sameDocument === true"), "the update came without a reload"
    return match


def test_three_players_click_through_a_whole_game(live_url, make_page):
    from django.contrib.auth import get_user_model

    pages = {0: make_page(), 1: make_page(), 2: make_page(width=390, height=844)}  # robin plays on a phone
    for seat, name in enumerate(PLAYERS):
        sign_up(pages[seat], live_url, name)
    users = [get_user_model().objects.get(username=name) for name in PLAYERS]
    match = _start_game(users, SEED)
    errors = []
    for page in pages.values():
        _open(page, f"{live_url}/games/{match.pk}/", errors)

    made = []
    while match.status == "active":
        assert len(made) < 40, "the seeded game should have ended by now"
        seat = GAME.pending(match.state)[0].seat
        move = choose_move(match.state, seat, sniped_yet="snipe" in made)
        _click_move(pages[seat], move, match.state, seat)
        match = _confirm(match, seat, move, pages)
        made.append(move["type"])

    assert match.status == "finished" and match.outcome["winners"] == [2]
    assert {"move", "snipe", "fight", "attack", "decline"} <= set(made)
    for seat, page in pages.items():
        # Said once, above the board: who won (for this player) and why, in names.
        assert page.inner_text("[data-testid=status]") == "The game is over."
        assert page.inner_text("#outcome [data-testid=headline]") == ("You won." if seat == 2 else "You lost.")
        assert "robin brings the Holy Grail home" in page.inner_text("#outcome")
        log = page.inner_text("[data-testid=log]")
        assert "robin brings the Holy Grail home." in log
        assert "snipes at robin" in log and "a hit" in log and "picks up the Holy Grail" in log
        assert "fights Big Bob" in log
        assert " ".join(page.inner_text("[data-testid=players] li[data-seat='1']").split()) == "lancelot 1 snipe left"
        assert not page.locator("[data-testid=hand] button:not([disabled])").count(), "nothing is playable any more"
    assert errors == []


# Seed 46: Arthur holds the Ace of Spades, Robin the King of Spades, and Robin's teleport
# succeeds (checked below: he lands on the King of Spades' space).
CARD_SEED = 46


def test_freeze_teleport_discard_and_a_spectator_watching(live_url, make_page):
    from django.contrib.auth import get_user_model

    from datetime import timedelta

    from django.utils import timezone

    from games.table import services
    from games.models import Seat
    from tests.browser.helpers import log_in
    from tests.conftest import PASSWORD

    users = [get_user_model().objects.create_user(username=n, password=PASSWORD) for n in ("gawain", "galahad", "bors")]
    match = _start_game(users, CARD_SEED)
    assert match.state["order"] == [0, 1, 2]
    pages = {0: make_page(), 1: make_page(), 2: make_page(), None: make_page(width=390, height=844)}
    errors = []
    for seat, page in pages.items():
        if seat is not None:
            log_in(page, live_url, users[seat].username)
        _open(page, f"{live_url}/games/{match.pk}/", errors)
    watcher = pages[None]
    assert not watcher.locator("[data-testid=hand]").count() and not watcher.locator("[data-testid=snipe]").count()
    assert watcher.inner_text("[data-testid=status]") == "gawain's turn \u2014 round 1."

    # Gawain freezes Galahad with his Ace: the card offers a freeze on each other player.
    gawain = pages[0]
    gawain.click("[data-testid=hand] button[data-card='AS']")
    assert gawain.locator("[data-testid=freeze-2]").inner_text() == "Freeze bors"
    gawain.click("[data-testid=freeze-1]")
    match = _confirm(match, 0, {"type": "freeze", "card": "AS", "target": 1}, pages)
    # After your own move the page is handed the new state twice (the websocket push and
    # the reply to the move): the board must stay put, or a click in progress is lost.
    gawain.evaluate("window.__board = document.querySelector('#board .cq')")
    gawain.evaluate("Grail.page.update(JSON.parse(JSON.stringify(Grail.page.data)))")
    assert gawain.evaluate("window.__board.isConnected")
    galahad = pages[1]
    assert galahad.inner_text("[data-testid=status]") == "Your turn \u2014 round 1 (frozen): snipe or pass."
    assert galahad.locator("[data-testid=hand] button:not([disabled])").count() == 0
    assert "frozen for 2 more turns" in watcher.inner_text("[data-testid=players] li[data-seat='1']")
    galahad.click("[data-testid=pass]")  # labelled for what it is: staying frozen
    match = _confirm(match, 1, {"type": "pass"}, pages)

    # Bors teleports with the King of Spades, and the die lets him.
    bors = pages[2]
    bors.click("[data-testid=hand] button[data-card='KS']")
    assert bors.inner_text("[data-testid=teleport]") == "Teleport to the King of Spades (1\u20133 on a die)"
    bors.click("[data-testid=teleport]")
    match = _confirm(match, 2, {"type": "teleport", "card": "KS"}, pages)
    king_of_spades = match.state["positions"][2]
    assert king_of_spades == load_board("standard").teleports["KS"]
    for page in pages.values():
        assert "the teleport works" in page.inner_text("[data-testid=log]")
        page.wait_for_selector("polyline.cq-trail.jump")

    # Gawain throws a card away; Galahad spends his second frozen turn.
    card = match.state["hands"][0][0]
    gawain.click(f"[data-testid=hand] button[data-card='{card}']")
    gawain.click("[data-testid=discard]")
    match = _confirm(match, 0, {"type": "discard", "card": card}, pages)
    assert "frozen for 1 more turn" in watcher.inner_text("[data-testid=players] li[data-seat='1']")
    galahad.click("[data-testid=pass]")
    match = _confirm(match, 1, {"type": "pass"}, pages)
    assert "frozen" not in watcher.inner_text("[data-testid=players] li[data-seat='1']")

    # Bors walks on, choosing his hex with the keyboard (somewhere that ends his turn).
    move = next(m for m in GAME.legal_moves(match.state, 2)
                if m["type"] == "move" and GAME.apply(match.state, 2, m)[0]["pending"] is None)
    bors.click(f"[data-testid=hand] button[data-card='{move['card']}']")
    bors.focus(f"polygon.cq-dest[data-hex='{move['to']}']")
    bors.keyboard.press("Enter")
    match = _confirm(match, 2, move, pages)

    # Gawain picks a card but lets his clock run out: the turn passes under his eyes, and
    # his page drops the choice instead of offering a card he can no longer play.
    gawain.click(f"[data-testid=hand] button[data-card='{match.state['hands'][0][0]}']")
    gawain.wait_for_selector("polygon.cq-dest")
    Seat.objects.filter(match=match, index=0).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.deadline_expire(match_id=match.pk, seat_index=0)
    match = _confirm(match, 0, {"type": "pass"}, pages)
    gawain.wait_for_selector("[data-testid=log] li.timeout")
    assert gawain.inner_text("[data-testid=status]") == "galahad's turn \u2014 round 3."
    assert not gawain.locator("polygon.cq-dest, .cq-card.selected, .cq-actions").count()

    # The replay page draws the same map, step by step, from the start.
    watcher.goto(f"{live_url}/games/{match.pk}/replay/")
    watcher.wait_for_selector(f"text=Step 0 of {match.move_count}")
    assert watcher.locator("svg.cq-map .cq-piece").count() == 3
    watcher.click("#last")
    watcher.wait_for_selector(f"text=Step {match.move_count} of {match.move_count}")
    # Seat 1, by name, and why the clock moved for him.
    assert watcher.inner_text("#replay-events").startswith("gawain's time ran out, so the clock passes for them.\n"
                                                            "gawain passes.")
    assert errors == []
