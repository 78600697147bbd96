"""Three people play a whole game of Cup Quest in three browsers, every move a click.

The match is created through the services with a fixed seed, so the game is the same on
every run. Which move to make is decided from the engine (a goal-seeking player, below);
how it is made is always the page's own controls: a card, then a glowing hex; the fight,
attack and decline buttons; the snipe control's target, sliders and fire button.
"""
from __future__ import annotations

import time

import pytest

from games.rules import hexgrid
from games.rules.cupquest import snipe
from games.rules.cupquest.board import load_board
from games.rules.cupquest.game import CupQuest
from tests.browser.helpers import sign_up, wait_live

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
        page.click(f"polygon.cq-dest[data-hex='{move['to']}']")
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


def test_three_players_click_through_a_whole_game(live_url, new_page):
    from django.contrib.auth import get_user_model

    from games import selectors, services
    from games.models import MoveRecord

    pages = [new_page(), new_page(), new_page(width=390, height=844)]  # robin plays on a phone
    for page, name in zip(pages, PLAYERS):
        sign_up(page, live_url, name)
    users = [get_user_model().objects.get(username=name) for name in PLAYERS]
    match = services.match_create(creator=users[0], kind="cupquest", num_seats=3, invite=list(PLAYERS[1:]),
                                  seed=SEED, clock_kind="hours", clock_amount=12)
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user)
    for page in pages:
        page.goto(f"{live_url}/games/{match.pk}/")
        page.wait_for_selector("svg.cq-map")
        wait_live(page)
        page.evaluate("window.__sameDocument = true")  # gone if the page ever reloads

    match.refresh_from_db()
    sniped = False
    made = []
    while match.status == "active":
        assert len(made) < 40, "the seeded game should have ended by now"
        seat = GAME.pending(match.state)[0].seat
        move = choose_move(match.state, seat, sniped)
        sniped = sniped or move["type"] == "snipe"
        _click_move(pages[seat], move, match.state, seat)
        match = _wait_for_version(match.pk, match.version, pages[seat], move)
        record = MoveRecord.objects.get(match=match, seq=match.move_count)
        assert (record.seat, record.move) == (seat, move), "the click sent exactly the chosen move"
        made.append(move["type"])
        for viewer, page in enumerate(pages):
            _wait_for_log(page, [line["text"] for line in selectors.log_for(match, viewer)])

    assert match.status == "finished" and match.outcome["winners"] == [2]
    assert {"move", "snipe", "fight", "attack", "decline"} <= set(made)
    for viewer, page in enumerate(pages):
        assert page.evaluate("window.__sameDocument === true"), "every update came without a reload"
        assert page.inner_text("[data-testid=status]") == "robin brings the Holy Grail home!"
        assert "Game over" in page.inner_text("#outcome")
        log = page.inner_text("[data-testid=log]")
        assert "Seat 3 brings the Holy Grail home." in log
        assert "snipes at Seat 3" in log and "a hit" in log and "picks up the Holy Grail" in log
        assert "fights Big Bob" in log
        assert not page.locator("[data-testid=hand] button:not([disabled])").count(), "nothing is playable any more"
