"""Three people play Monty Python Fluxx in three browsers to a win, every move a click.

The game is created through the services on a fixed seed, so it is the same game on every
run; which move to make comes from the playout tests' goal-seeking player (``script``,
below), how it is made is always the page's own controls: a card in the hand opens it,
its Play button plays it (or its quote form, with What Is Your Quote? in play); the accent
form makes a claim; every choice — the others discarding to a new Hand Limit out of turn,
the judges of a claim, the cards drawn to use, the Goal that stays — is answered in the
shared decision bar. After every move each page shows it in its log without reloading.
Screenshots at phone and desktop size are kept in FLUXX_SHOTS=<dir> when it is set.
"""
from __future__ import annotations

import os
import time
from contextlib import contextmanager

import pytest

from games.rules.fluxx import MontyPythonFluxx
from games.rules.fluxx.cards import BY_ID
from games.rules.rng import Rng
from tests.browser.helpers import open_game, sign_up
from tests.rules.fluxx.playout import goal_seeking

pytestmark = pytest.mark.browser

GAME = MontyPythonFluxx()
# Checked by tests/platform/test_fluxx_service.py: with ``script`` this seed's three-player
# game (the printed deck) ends in 55 moves with arthur (seat 1) meeting A Bird in the Bush,
# the Goal robin plays last. On the way: robin plays Hand Limit 2 from Draw 2 and Use 'Em,
# which makes arthur and lancelot discard out of turn at once (moves 41 and 42); six quotes
# earn cards; two accent claims are judged by the other two players (the first gets one
# "no", and a tie accepts); arthur throws the Holy Hand Grenade of Antioch with a Creeper;
# Draw 3, Play 2 of Them asks which drawn card to play; My Brain Hurts! asks which rules go.
SEED = 2033
# The scripted game's quotes are checked by the engine, as in a game stored before quotes
# were judged by the other players (migration 0017): judged quotes deal another game than
# the one this seed was picked for. Judged quotes: test_fluxx_quotes.py.
QUOTES = "checked"
PLAYERS = ("arthur", "lancelot", "robin")
SONG = {"song": "The Ballad of Brave Sir Robin", "words": "He bravely turned his tail and fled, and so would I"}
ACCENT = {"accent": "French", "words": "Zis castle is already taken, monsieur"}


def dressed(move: dict) -> dict:
    """The listed move as a person would make it: claims and quotes carry words typed on
    the page (the legal list holds them empty, or the card's bare name for a quote)."""
    if move["type"] == "sing":
        return dict(move, **SONG)
    if move["type"] == "accent":
        return dict(move, **ACCENT)
    if move["type"] == "play" and "quote" in move:
        word = max(BY_ID[move["card"]]["keywords"], key=len)
        return dict(move, quote=f"Bring out the {word}, and be quick about it!")
    return move


@contextmanager
def quotes_set_up(quotes: str = QUOTES):
    """Games started meanwhile have their quotes weighed as ``quotes`` says (setup option)."""
    from games import registry

    hooks = registry.room("fluxx").hooks
    written = hooks.setup_options
    hooks.setup_options = lambda match, seats: {**written(match, seats), "quotes": quotes}
    try:
        yield
    finally:
        hooks.setup_options = written


def script(seed: int = SEED, players: int = 3, limit: int = 200, quotes: str = QUOTES) -> list[tuple[int, dict]]:
    """The seeded game's moves, (seat, move), as ``tests/rules/fluxx/playout.play`` picks
    them (the same generator for who moves among several pending seats, and what)."""
    state = GAME.setup(players, {"quotes": quotes}, seed)
    rng = Rng({"seed": seed * 7919 + players, "n": 0})
    made = []
    while GAME.outcome(state) is None and len(made) < limit:
        pending = GAME.pending(state)
        seat = pending[rng.below(len(pending))].seat
        move = dressed(goal_seeking(GAME, state, seat, GAME.legal_moves(state, seat), rng))
        state, _ = GAME.apply(state, seat, move)
        made.append((seat, move))
    return made


# --- doing it through the page ---------------------------------------------------------

def _decision(state: dict, move: dict) -> dict:
    return next(d for d in state["decisions"][-1] if d["id"] == move["id"])


def _click_move(page, move: dict, state: dict) -> None:
    """Make ``move`` with the page's controls."""
    kind = move["type"]
    if kind == "play":
        page.click(f"[data-testid=hand] .fx-card[data-card='{move['card']}']")
        opened = page.locator("[data-testid=opened]")
        if "quote" in move:
            opened.locator("[data-testid=quote]").fill(move["quote"])
            opened.locator("[data-testid=play-quote]").click()
        else:
            opened.locator("[data-testid=play]").click()
    elif kind == "decide":
        decision = _decision(state, move)
        bar = page.locator(f"#decisions [data-testid=decision][data-decision='{move['id']}']")
        values = [o["value"] for o in decision["options"]]
        if decision["pick"] == [1, 1]:
            bar.locator("button.option").nth(values.index(move["choice"])).click()
        else:
            for choice in move["choice"]:
                bar.locator(f"input[data-index='{values.index(choice)}']").check()
            bar.locator("button[type=submit]").click()
    elif kind in ("sing", "accent"):
        form = page.locator(f"[data-testid={kind}-form]")
        if kind == "sing":
            form.locator("[data-testid=song]").fill(move["song"])
            form.locator("[data-testid=sing-words]").fill(move["words"])
        else:
            form.locator("[data-testid=accent-name]").fill(move["accent"])
            form.locator("[data-testid=accent-words]").fill(move["words"])
        form.locator(f"[data-testid={kind}]").click()
    elif kind == "power":
        to = str(move["to"]) if "to" in move else ""
        page.click(f"[data-testid=power][data-card='{move['card']}'][data-target='{move['target']}'][data-to='{to}']"
                   f"[data-discard='{move.get('discard', '')}']")
    else:  # end_turn, get_on_with_it, swap_plays: one button each
        page.click(f"[data-testid={kind.replace('_', '-')}]")


def _wait_for_version(match_id: int, above: int, page, move: dict, timeout: float = 10.0):
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
    try:
        page.wait_for_function(f"expected => JSON.stringify(({LOG_TEXTS})()) === JSON.stringify(expected)",
                               arg=expected, timeout=10000)
    except Exception:
        shown = page.evaluate(LOG_TEXTS)
        raise AssertionError(f"log shows {shown[-5:]}, expected {expected[-5:]}") from None


def _confirm(match, seat: int, move: dict, pages: dict):
    """The server took exactly ``move`` from ``seat``, and every page shows the new log
    (filtered for its viewer, in names) without reloading."""
    from games import selectors
    from games.models import MoveRecord

    match = _wait_for_version(match.pk, match.version, pages[seat], move)
    record = MoveRecord.objects.get(match=match, seq=match.move_count)
    assert (record.seat, record.move) == (seat, move), "the click sent exactly the intended move"
    seats = selectors.seats_for(match)
    for viewer, page in pages.items():
        _wait_for_log(page, [line["text"] for line in selectors.log_for(match, viewer, seats=seats)])
        assert page.evaluate("window.__sameDocument === true"), "the update came without a reload"
    return match


@pytest.fixture
def make_page(new_page):
    from django.db import connections

    yield new_page
    connections.close_all()


@pytest.fixture
def shots():
    """Screenshots for a person to look at, kept in FLUXX_SHOTS=<dir>; none otherwise (they
    assert nothing, and a dozen of them cost seconds a run)."""
    folder = os.environ.get("FLUXX_SHOTS")
    if not folder:
        return lambda page, name, full=False: None
    os.makedirs(folder, exist_ok=True)
    return lambda page, name, full=False: page.screenshot(path=os.path.join(folder, name + ".png"), full_page=full)


def _start_game(users, seed: int, quotes: str = QUOTES):
    from games import services

    match = services.match_create(creator=users[0], kind="fluxx", num_seats=len(users),
                                  invite=[u.username for u in users[1:]], seed=seed, clock_kind="hours", clock_amount=12)
    with quotes_set_up(quotes):
        for user in users[1:]:
            services.match_join(match_id=match.pk, user=user)
    match.refresh_from_db()
    return match


def _open(page, url: str, errors: list) -> None:
    open_game(page, url, errors, "[data-testid=hand] .fx-card")


def test_three_players_click_through_a_whole_game(live_url, make_page, shots):
    from django.contrib.auth import get_user_model

    from games.rules import decisions

    pages = {0: make_page(), 1: make_page(), 2: make_page(width=390, height=844)}  # robin plays on a phone
    for seat, name in enumerate(PLAYERS):
        sign_up(pages[seat], live_url, name)
    users = [get_user_model().objects.get(username=name) for name in PLAYERS]
    match = _start_game(users, SEED)
    errors: list = []
    for page in pages.values():
        _open(page, f"{live_url}/games/{match.pk}/", errors)
    shots(pages[0], "desktop-start", full=True)
    shots(pages[2], "phone-start", full=True)

    # The table at a glance: the rules in play with their numbers, no Goal yet, three cards
    # dealt and the turn's one drawn.
    first = pages[2]
    assert first.inner_text("[data-testid=status]") == "Your turn: 1 more card to play."
    assert first.inner_text("[data-rule=draw] b") == "Draw 1" and first.inner_text("[data-rule=draw] .why") == "Basic Rules"
    assert "No Goal yet" in first.inner_text("[data-testid=goals]")
    assert first.locator("[data-testid=hand] .fx-card.playable svg.fx-face").count() == 4
    assert pages[0].inner_text("[data-testid=status]") == "robin's turn (turn 1): 1 more card to play."
    # The table talks: a chat line reaches the others' pages as it is sent.
    pages[0].fill("#chat-form input[name=text]", "Ni!")
    pages[0].click("#chat-form button")
    for page in (pages[1], pages[2]):
        page.wait_for_selector("[data-testid=chat] li:has-text('Ni!')")

    out_of_turn = accents = quotes = 0
    for seat, move in script():
        assert match.status == "active"
        kind = move["type"]
        if kind == "decide":
            decision = _decision(match.state, move)
            page = pages[seat]
            bar = page.locator(f"#decisions [data-testid=decision][data-decision='{move['id']}']")
            assert page.locator(".fx-status").inner_text() == "You have a choice to make: see the bar above the table."
            prompt = bar.locator(".prompt").inner_text()
            for s, name in enumerate(PLAYERS):
                assert f"Seat {s + 1}" not in prompt, "the bar names players, not seats"
            if decision["kind"] == "discard" and seat != match.state["turn"]["seat"]:
                # Out of turn: told in the bar while it is someone else's turn; the others see who is choosing.
                out_of_turn += 1
                assert prompt == decision["prompt"]
                turn_page = pages[match.state["turn"]["seat"]]
                assert turn_page.inner_text("[data-testid=status]").startswith("Waiting for ")
                assert f"{PLAYERS[seat]} chooses 1 card to discard." in turn_page.inner_text("#decisions")
                if out_of_turn == 1:
                    shots(page, "desktop-out-of-turn-discard")
                    shots(pages[2], "phone-waiting-for-discards")
            if decision["kind"] == "judge":
                assert prompt.startswith(f"{PLAYERS[decision['data']['seat']]} speaks in a French accent")
        accents += kind == "accent"
        quotes += "quote" in move
        if kind == "play" and seat == 2 and match.move_count in (11, 28):
            shots(pages[2], f"phone-move-{match.move_count}", full=True)
        if seat == 2 and "quote" in move:  # the opened card on a phone, its quote typed
            pages[2].click(f"[data-testid=hand] .fx-card[data-card='{move['card']}']")
            pages[2].fill("[data-testid=opened] [data-testid=quote]", move["quote"])
            shots(pages[2], "phone-opened-card-with-quote")
            pages[2].click("[data-testid=opened] .fx-close")
        if seat == 2 and kind in ("accent", "decide"):
            shots(pages[2], f"phone-{kind}-{match.move_count}")
        _click_move(pages[seat], move, match.state)
        match = _confirm(match, seat, move, pages)
        if kind == "play" and "quote" in move:
            assert "quoting" in pages[0].inner_text("[data-testid=log]")
        if decisions.waiting(match.state) and len(match.state["decisions"][-1]) == 2 and out_of_turn == 0:
            shots(pages[0], "desktop-two-discarding", full=True)

    assert match.status == "finished" and match.outcome["winners"] == [0]
    assert out_of_turn == 2 and accents == 2 and quotes == 6
    for seat, page in pages.items():
        assert page.inner_text("[data-testid=status]") == "The game is over."
        assert page.inner_text("#outcome [data-testid=headline]") == ("You won." if seat == 0 else "You lost.")
        assert "arthur meets the Goal A Bird in the Bush and wins!" in page.inner_text("[data-testid=log]")
        assert not page.locator("[data-testid=hand] .fx-card.playable").count(), "nothing is playable any more"
    shots(pages[0], "desktop-end", full=True)
    shots(pages[2], "phone-end", full=True)

    # The replay draws the same table step by step, from the deal to the win.
    watcher = pages[1]
    watcher.goto(f"{live_url}/games/{match.pk}/replay/")
    watcher.wait_for_selector(f"text=Step 0 of {match.move_count}")
    watcher.wait_for_selector("[data-testid=hand] .fx-card")
    assert "No Goal yet" in watcher.inner_text("[data-testid=goals]")
    watcher.click("#last")
    watcher.wait_for_selector(f"text=Step {match.move_count} of {match.move_count}")
    watcher.wait_for_function("() => document.querySelector('[data-testid=status]').textContent.includes('wins')")
    assert watcher.inner_text("[data-testid=status]") == "arthur meets the Goal A Bird in the Bush and wins!"
    assert not watcher.locator("[data-testid=turn-actions]").count()
    assert errors == []


# Every text line of a face must lie inside its card, and the smallest on a phone must stay
# readable: measured in the page with the browser's own font metrics.
MEASURE_FACES = """ids => ids.map(id => {
  const box = document.createElement("div");
  box.style.width = "33vw";  // a card in the hand on a phone: a third of the screen
  document.body.appendChild(box);
  const out = {id: id, outside: [], smallest: 99};
  for (const large of [false, true]) {
    const face = Grail.fluxxFace(id, large);
    box.textContent = "";
    box.appendChild(face);
    const scale = face.getBoundingClientRect().width / 120;
    for (const text of face.querySelectorAll("text")) {
      const b = text.getBBox();
      if (b.x < 1 || b.y < 1 || b.x + b.width > 119 || b.y + b.height > 167) out.outside.push(text.textContent);
      const size = text.getAttribute("font-size");  // the type band's is the stylesheet's
      if (!large && size) out.smallest = Math.min(out.smallest, parseFloat(size) * scale);
    }
  }
  box.remove();
  return out;
})"""


def test_every_face_of_the_printed_deck_fits_its_card_and_reads_on_a_phone(live_url, make_page):
    from django.contrib.auth import get_user_model

    from games.rules.fluxx.cards import DECK_RECORDS, PRINTED

    page = make_page(width=390, height=844)
    sign_up(page, live_url, "arthur")
    User = get_user_model()
    users = [User.objects.get(username="arthur"), User.objects.create_user("lancelot", password="a-long-test-password-42")]
    match = _start_game(users, SEED)
    errors: list = []
    _open(page, f"{live_url}/games/{match.pk}/", errors)
    ids = [r["id"] for r in DECK_RECORDS[PRINTED]]
    measured = page.evaluate(MEASURE_FACES, ids)
    assert [m["id"] for m in measured if m["outside"]] == [], [m for m in measured if m["outside"]]
    # Every line of a small face (the type band aside) is at least 8.5 px high on a 390 px phone.
    assert min(m["smallest"] for m in measured) >= 8.5, sorted(measured, key=lambda m: m["smallest"])[:3]
    assert errors == []
