"""Accessible pages, checked in Chromium with axe-core (axe-playwright-python ships it): the
home page, a game page of each kind, the deck builder, a profile and the settings have no
serious or critical violations. Every control of every game's table can be reached with the
Tab key and shows where the focus is, and in every game a move is made with the keyboard alone."""
from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model

from games import registry
from games.table import services
from tests.browser.helpers import log_in
from tests.conftest import PASSWORD
from tests.platform.ccg_helpers import ensure_card_database, prepared_player

pytestmark = pytest.mark.browser

KINDS = ("camelot", "ccg", "cupquest", "duel", "fluxx")
SERIOUS = ("serious", "critical")
AXE = Axe()


def _users(kind: str, count: int) -> list:
    User = get_user_model()
    return [User.objects.create_user(username=f"{kind}{i}", password=PASSWORD, email=f"{kind}{i}@example.com")
            for i in range(count)]


def _started(kind: str):
    """A game of ``kind`` under way, seated by new players (the CCG's with their decks)."""
    users = _users(kind, registry.room(kind).game.min_players)

    def choice(user):
        return {"deck": prepared_player(user).pk} if kind == "ccg" else None

    if kind == "ccg":
        ensure_card_database()
    match = services.match_create(creator=users[0], kind=kind, num_seats=len(users), seed=5,
                                  invite=[u.username for u in users[1:]], creator_choice=choice(users[0]))
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user, choice=choice(user))
    match.refresh_from_db()
    return match, users


def _serious(page) -> list[str]:
    """The serious and critical violations axe-core finds on the page, in words."""
    found = AXE.run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']} at " + "; ".join(
                f"{n['target']} {(n.get('any') or n.get('all') or n.get('none') or [{}])[0].get('message', '')}"
                for n in v["nodes"][:6])
            for v in found if v["impact"] in SERIOUS]


@pytest.mark.parametrize("kind", KINDS)
def test_a_game_page_of_each_kind_has_no_serious_violations(live_url, new_page, kind):
    match, users = _started(kind)
    page = new_page()
    log_in(page, live_url, users[0].username)
    page.goto(f"{live_url}/games/{match.pk}/")
    page.wait_for_selector("[data-testid=board] *")
    page.wait_for_selector("#conn.up")
    page.wait_for_timeout(300)  # the board drawn from its data (Camelot fetches its board first)
    assert _serious(page) == []


def test_the_home_page_deck_builder_profile_and_settings_have_no_serious_violations(live_url, new_page):
    ensure_card_database()
    user = _users("reader", 1)[0]
    deck = prepared_player(user)
    page = new_page()
    log_in(page, live_url, user.username)
    for path in ("/", f"/decks/{deck.pk}/", f"/players/{user.username}/", "/accounts/settings/"):
        page.goto(f"{live_url}{path}")
        page.wait_for_load_state("networkidle")
        assert _serious(page) == [], path


# --- the keyboard -----------------------------------------------------------------------

# The controls of the table (the board and the decision bar) a player could click now.
CONTROLS = """() => {
  const focusable = 'button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), textarea, summary,' +
                    ' [tabindex]:not([tabindex="-1"])';
  // Shown now (what a closed <details> holds is reached by opening its summary first).
  const shown = n => n.checkVisibility({contentVisibilityAuto: true, visibilityProperty: true});
  const places = ["#board", "#decisions"].map(s => document.querySelector(s)).filter(Boolean);
  const controls = [], unreachable = [];
  places.forEach(place => {
    place.querySelectorAll(focusable).forEach(n => { if (shown(n)) controls.push(n); });
    // What looks clickable (a pointer cursor) must be focusable itself or inside a control.
    place.querySelectorAll("*").forEach(n => {
      if (shown(n) && getComputedStyle(n).cursor === "pointer" && !n.closest(focusable)) unreachable.push(n.outerHTML.slice(0, 120));
    });
  });
  window.__controls = controls;
  return {count: controls.length, unreachable};
}"""

# What the focused element looks like (itself and its first children: an SVG group draws its
# focus on its disc); the walk keeps each element it reached in ``window.__tabbed``.
LOOK = """n => [n, ...Array.from(n.children).slice(0, 5)].map(x => {
  const s = getComputedStyle(x);
  return [s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow, s.backgroundColor, s.borderColor,
          s.stroke, s.strokeWidth, s.fill].join("|");
}).join("#")"""
FOCUSED = f"""() => {{
  const n = document.activeElement, look = {LOOK};
  if (!n || n === document.body) return null;
  window.__tabbed = window.__tabbed || [];
  window.__tabbed.push(n);
  return {{index: window.__tabbed.length - 1, control: (window.__controls || []).includes(n), look: look(n),
          name: n.outerHTML.slice(0, 100)}};
}}"""
UNFOCUSED = f"""() => {{ const look = {LOOK}; document.activeElement.blur(); return window.__tabbed.map(look); }}"""


def _tab_through(page, limit: int = 500) -> tuple[dict, list]:
    """Press Tab from the top of the page until the focus comes round again: the table's
    controls reached (index -> how each looked focused), and every stop in order."""
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    stops, first = [], None
    for _ in range(limit):
        page.keyboard.press("Tab")
        stop = page.evaluate(FOCUSED)
        if stop is None:
            continue
        if first is not None and stop["name"] == first:
            break
        first = first or stop["name"]
        stops.append(stop)
    return {s["index"]: s for s in stops if s["control"]}, stops


def _player_to_act(match, users):
    from games.models import Seat

    seat = Seat.objects.filter(match=match).exclude(waiting_for="").order_by("index").first()
    return users[seat.index] if seat else users[0]


def _tab_to(page, selector: str, limit: int = 400) -> None:
    """Press Tab until the focus is on ``selector`` (round the page again if need be)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement && document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


# One move of each game's opening, by keyboard alone: (the control Tab goes to, the key that
# presses it) in turn, and the move's type. Camelot's turn has a test of its own below.
KEYBOARD_MOVES = {
    "duel": ([("button.grail-card[data-card]", "Enter")], "play"),
    # A card of the hand opens in a dialog (the focus goes into it), which has its plays.
    "fluxx": ([("button.fx-card.playable", "Enter"), ("dialog [data-testid=play]", "Enter")], "play"),
    # A card of the hand chosen, then one of the hexes it may go to.
    "cupquest": ([("button.cq-card[data-card]", " "), ("polygon.cq-dest", "Enter")], "move"),
    # The opening cut, at the place the page offers.
    "ccg": ([("button.ccg-move[data-move=cut]", "Enter")], "cut"),
}


def _move_by_keyboard(page, match, user, kind: str) -> None:
    from games.models import MoveRecord

    steps, kind_of_move = KEYBOARD_MOVES[kind]
    version = page.evaluate("() => Grail.page.data.version")
    for selector, key in steps:
        page.wait_for_selector(selector)
        _tab_to(page, selector)
        page.keyboard.press(key)
    page.wait_for_function("v => Grail.page.data.version > v", arg=version)
    made = MoveRecord.objects.filter(match=match).order_by("-seq").first()
    assert made.user_id == user.pk and made.move["type"] == kind_of_move, made.move


@pytest.mark.parametrize("kind", KINDS)
def test_every_control_of_a_game_is_reached_by_tab_and_shows_its_focus(live_url, new_page, kind):
    """And, but in Camelot (whose turn is played below), the player makes a move with Tab,
    Enter and Space alone."""
    match, users = _started(kind)
    player = _player_to_act(match, users)
    page = new_page()
    log_in(page, live_url, player.username)
    page.goto(f"{live_url}/games/{match.pk}/")
    page.wait_for_selector("[data-testid=board] *")
    page.wait_for_selector("#conn.up")
    page.wait_for_timeout(300)
    found = page.evaluate(CONTROLS)
    assert found["unreachable"] == [], "clickable but not reachable from the keyboard"
    assert found["count"] > 0, "the player to act has something to do"
    reached, stops = _tab_through(page)
    missed = page.evaluate("() => window.__controls.filter(n => !window.__tabbed.includes(n)).map(n => n.outerHTML.slice(0, 160))")
    assert missed == [], f"{len(missed)} of the table's {found['count']} controls are never reached by Tab"
    unfocused = page.evaluate(UNFOCUSED)
    plain = [s["name"] for i, s in reached.items() if s["look"] == unfocused[i]]
    assert plain == [], "focus not shown on these controls"
    if kind in KEYBOARD_MOVES:
        _move_by_keyboard(page, match, player, kind)


def test_a_camelot_turn_is_played_from_the_keyboard_alone(live_url, new_page):
    """Mid-game, the holder's table (pieces on the board, the reserve, the declare panel) is
    reached by Tab with its focus shown, and a turn is played with Tab, Enter and Space only:
    a piece picked, a glowing hex chosen, the turn ended."""
    from games.models import Match, MoveRecord
    from tests.browser.test_camelot_browser import GAME, duel_script

    script, final = duel_script()
    users = _users("camelot", 4)
    match = services.match_create(creator=users[0], kind="camelot", num_seats=4, seed=31,
                                  invite=[u.username for u in users[1:]], clock_kind="seconds", clock_amount=300)
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user)
    match.refresh_from_db()
    for seat, move in script:
        services.move_submit(match_id=match.pk, user=users[seat], move=move, version=match.version)
        match.refresh_from_db()
    seat = next(s for s in final["tokens"] if final["turns"][str(s)]["stage"] == "declare")
    page = new_page()
    log_in(page, live_url, users[seat].username)
    page.goto(f"{live_url}/games/{match.pk}/")
    page.wait_for_selector("svg.cam-map g.cam-unit")
    page.wait_for_selector("#conn.up")
    found = page.evaluate(CONTROLS)
    assert found["unreachable"] == [] and found["count"] > 0
    reached, stops = _tab_through(page)
    missed = page.evaluate("() => window.__controls.filter(n => !window.__tabbed.includes(n)).map(n => n.outerHTML.slice(0, 160))")
    assert missed == []
    unfocused = page.evaluate(UNFOCUSED)
    assert [s["name"] for i, s in reached.items() if s["look"] == unfocused[i]] == []

    # Play: skip the attacks, pick a piece of the reserve, go to a glowing hex, end the turn.
    def tab_to(selector: str) -> None:
        _tab_to(page, selector)

    move = next(m for m in GAME.legal_moves(match.state, seat) if m["type"] == "enter" and not m.get("teleport"))
    version = match.version
    if page.locator("[data-testid=no-attacks]").count():  # no attacks: the panel goes, nothing is sent
        tab_to("[data-testid=no-attacks]")
        page.keyboard.press("Enter")
        page.wait_for_selector("[data-testid=declare-panel]", state="detached")
    piece = f"[data-testid=pool] button[data-piece='{move['piece']}']"
    tab_to(piece)
    page.keyboard.press("Space")
    page.wait_for_selector(f"polygon.cam-dest[data-hex='{move['to']}']")
    # The table drawn anew keeps the focus where it was, not back at the top of the page.
    assert page.evaluate("s => document.activeElement.matches(s)", piece)
    tab_to(f"polygon.cam-dest[data-hex='{move['to']}']")
    page.keyboard.press("Enter")
    page.wait_for_function("v => Grail.page.data.version >= v", arg=version + 1)
    made = MoveRecord.objects.filter(match=match).order_by("-seq").first()
    assert (made.seat, made.move) == (seat, move)
    tab_to("[data-testid=end-turn]")
    page.keyboard.press("Enter")
    page.wait_for_function("v => Grail.page.data.version >= v", arg=version + 2)
    assert MoveRecord.objects.filter(match=match).order_by("-seq").first().move == {"type": "end_turn"}
    assert seat not in Match.objects.get(pk=match.pk).state["tokens"]
