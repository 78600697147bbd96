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
        raise AssertionError(f"log shows {shown[-8:]}, expected {expected[-8:]}") from None


def _confirm(match, seat: int, move: dict, pages: dict):
    """The server took exactly ``move`` from ``seat``, and every page shows the new log
    (filtered for its viewer, in names) without reloading."""
    from games.table import selectors
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
    from games.table import services

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
    assert first.locator("[data-testid=hand] .fx-card.playable .fx-face").count() == 4
    assert pages[0].inner_text("[data-testid=status]") == "robin's turn (turn 1): 1 more card to play."
    # The log says which Creepers the deal put on the tables, then who goes first, before
    # anyone moved; and once only after the first move.
    from games.rules.fluxx.cards import NAME

    dealt = [(seat, card) for seat, table in enumerate(match.state["tables"]) for card in table]
    for viewer, page in ((2, first), (0, pages[0])):
        said = [(f"You were dealt {NAME[card]}, a Creeper" if viewer == seat else f"{PLAYERS[seat]} was dealt {NAME[card]}, a Creeper")
                for seat, card in dealt]
        lines = page.inner_text("[data-testid=log]").splitlines()
        assert [line.split(":")[0] for line in lines[:-1]] == said
        assert lines[-1] == ("You go first." if viewer == 2 else "robin goes first.")
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
        if match.move_count == 1:
            for page in pages.values():
                log = page.inner_text("[data-testid=log]")
                assert log.count("You go first.") + log.count("goes first.") == 1, log
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


# --- the faces, read at a phone's width and a laptop's ---------------------------------------

# Every text of a small face (hand, table, piles) and of a Keeper or Creeper on the table:
# its computed font size, whether it lies inside its card, and the face's words by part.
READ_FACES = """() => Array.from(document.querySelectorAll(
    '[data-testid=hand] .fx-face, [data-testid=rules] .fx-face, [data-testid=goals] .fx-face, [data-testid=piles] .fx-face,'
    + ' .fx-chip'), face => {
  const box = face.getBoundingClientRect();
  const texts = [face, ...face.querySelectorAll('*')].filter(n => !n.classList.contains('fx-sr') &&
    Array.from(n.childNodes).some(c => c.nodeType === 3 && c.textContent.trim()));
  const part = cls => (face.querySelector(cls) || {}).textContent || null;
  return {card: face.dataset.card || face.closest('[data-card]').dataset.card, where: face.closest('[data-testid]').dataset.testid,
          sizes: texts.map(n => parseFloat(getComputedStyle(n).fontSize)),
          outside: texts.filter(n => { const r = n.getBoundingClientRect();
                                       return r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5
                                              || r.bottom > box.bottom + 0.5; }).map(n => n.textContent),
          type: part('.fx-f-type'), name: face.classList.contains('fx-chip') ? face.firstChild.textContent : part('.fx-f-name'),
          line: part('.fx-f-line')};
})"""

# Whether the element is what the eye meets at its centre (nothing covers it, no backdrop).
ON_TOP = """sel => { const n = document.querySelector(sel); if (!n) return false;
  const r = n.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return r.width > 0 && r.height > 0 && (top === n || n.contains(top)); }"""


def _laid_out_table(users):
    """A two-player game (quotes checked by the engine, so that the server refuses a quote that
    does not name the card) where arthur, to play, holds a Keeper, the longest Goal and an
    Action; the rules in play include What Is Your Quote?, the song bonus and a Keeper limit;
    a Goal is in play, and Keepers and a Creeper lie on the table."""
    from games.models import Match
    from tests.rules.fluxx.helpers import give, goals, put, rules

    seed = next(s for s in range(200) if GAME.setup(2, {"quotes": "checked"}, s)["first"] == 0)
    match = _start_game(users, seed, quotes="checked")
    state = match.state
    rules(state, "what-is-your-quote", "play-2", "sing-bonus", "keeper-limit-3")
    give(state, 0, "airborne-cow", "strange-women-2008", "something-completely-different")
    goals(state, "grail-shaped-beacon")
    put(state, 0, "sir-galahad", "grim-reaper")
    put(state, 1, "holy-grail", "the-finger-of-god")
    Match.objects.filter(pk=match.pk).update(state=state)
    return match


@pytest.mark.parametrize("width,height", [(390, 844), (1280, 800)], ids=["phone", "laptop"])
def test_faces_read_at_12px_open_whole_with_a_tap_and_a_refused_quote_says_why_in_the_card(
        live_url, make_page, shots, width, height):
    from django.contrib.auth import get_user_model

    from games.kinds.fluxx.faces import deck_faces

    page = make_page(width=width, height=height)
    sign_up(page, live_url, "arthur")
    users = [get_user_model().objects.get(username="arthur"),
             get_user_model().objects.create_user("lancelot", password="a-long-test-password-42")]
    match = _laid_out_table(users)
    errors: list = []
    _open(page, f"{live_url}/games/{match.pk}/", errors)
    shots(page, f"faces-{width}", full=True)
    cards = deck_faces()["cards"]

    # Legible: no text on a face under 12 px, none spilling out of its card; every part of the table there.
    faces = page.evaluate(READ_FACES)
    assert {f["where"] for f in faces} >= {"hand", "rules", "goals", "players"}
    assert len([f for f in faces if f["where"] == "hand"]) == len(match.state["hands"][0])
    assert {f["card"] for f in faces} >= {"sir-galahad", "grim-reaper", "holy-grail", "grail-shaped-beacon", "keeper-limit-3"}
    small = [(f["card"], size) for f in faces for size in f["sizes"] if size < 12]
    assert small == [], small
    assert [(f["card"], f["outside"]) for f in faces if f["outside"]] == []
    # Each thing said once: the name is not said again by the short line, nor the number by its why.
    for f in faces:
        if f["line"]:
            assert f["name"].casefold() not in f["line"].casefold() and f["line"] != cards[f["card"]]["text"], f
    assert [f for f in faces if f["card"] == "keeper-limit-3" and f["where"] == "rules"][0]["line"] is None
    for rule in page.locator("[data-testid=rules] .fx-numbers li").all():
        label, why = rule.locator("b").inner_text(), rule.locator(".why")
        assert not why.count() or label.casefold() not in why.inner_text().casefold(), label
    assert page.inner_text("[data-rule=keeper_limit]").strip() == "Keeper limit 3"

    # The whole text one tap away, for a card in the hand, a rule, the Goal and a Keeper on the
    # table; Escape closes it and gives the keyboard back to the card that opened it.
    opened = page.locator("[data-testid=opened]")
    for opener, card in (("[data-testid=hand] .fx-card[data-card='strange-women-2008']", "strange-women-2008"),
                         ("[data-testid=rules] .fx-facebtn[data-card='sing-bonus']", "sing-bonus"),
                         ("[data-testid=goals] .fx-facebtn[data-card='grail-shaped-beacon']", "grail-shaped-beacon"),
                         (".fx-chip[data-card='the-finger-of-god']", "the-finger-of-god")):
        page.click(opener)
        assert opened.is_visible() and page.evaluate("() => document.querySelector('dialog').open")
        whole = cards[card]["summary"] if cards[card]["type"] == "goal" else cards[card]["text"]
        assert opened.locator(".fx-f-name").inner_text() == cards[card]["name"]
        assert opened.locator(".fx-f-text").inner_text() == whole
        assert page.evaluate(ON_TOP, "[data-testid=opened] .fx-f-text")
        sizes = page.evaluate("() => Array.from(document.querySelectorAll('dialog .fx-face *'), n => parseFloat(getComputedStyle(n).fontSize))")
        assert min(sizes) >= 12
        if card == "strange-women-2008":
            shots(page, f"faces-{width}-opened")
        page.keyboard.press("Escape")
        opened.wait_for(state="detached")
        assert page.evaluate("() => document.activeElement.dataset.card") == card
    # From the keyboard alone: Enter on a focused card opens it.
    page.focus(".fx-chip[data-card='grim-reaper']")
    page.keyboard.press("Enter")
    assert opened.locator(".fx-f-text").inner_text() == cards["grim-reaper"]["text"]
    page.keyboard.press("Escape")
    opened.wait_for(state="detached")

    # A quote refused, before it is sent (empty) or by the server (a checked game's quote must
    # name the card), says why inside the open card, on top of everything; the page's own box stays empty.
    page.click("[data-testid=hand] .fx-card[data-card='airborne-cow']")
    opened.locator("[data-testid=play-quote]").click()
    error = opened.locator("[data-testid=form-error]")
    assert error.inner_text() == "Type the line you quote first, or play the card without one."
    assert page.evaluate(ON_TOP, "[data-testid=opened] [data-testid=form-error]")
    opened.locator("[data-testid=quote]").fill("Ni!")
    opened.locator("[data-testid=play-quote]").click()
    page.wait_for_function("() => (document.querySelector('dialog [data-testid=form-error]') || {}).textContent"
                           " && document.querySelector('dialog [data-testid=form-error]').textContent.includes('must mention')")
    assert "it must mention Airborne Cow" in error.inner_text()
    assert page.evaluate(ON_TOP, "[data-testid=opened] [data-testid=form-error]")
    assert not page.is_visible("#move-error")
    assert opened.locator("[data-testid=quote]").input_value() == "Ni!", "the words typed are kept"
    shots(page, f"faces-{width}-quote-refused")
    page.keyboard.press("Escape")
    opened.wait_for(state="detached")
    # A song with no words says so in its own form, where the eye is.
    form = page.locator("[data-testid=sing-form]")
    form.locator("[data-testid=song]").fill("The Lumberjack Song")
    form.locator("[data-testid=sing]").click()
    assert form.locator("[data-testid=form-error]").inner_text() == "Type a few lines of the song for the others to judge."
    form.locator("[data-testid=form-error]").scroll_into_view_if_needed()
    assert page.evaluate(ON_TOP, "[data-testid=sing-form] [data-testid=form-error]")
    assert errors == []


# Every face of the deck, small in a hand card's width on a phone (a third of the screen) and
# large as the opened card shows it: each text at least 12 px, inside its card.
MEASURE_FACES = """ids => ids.map(id => {
  const box = document.createElement("div");
  box.className = "fx";
  document.body.appendChild(box);
  const out = {id: id, outside: [], smallest: 99};
  for (const large of [false, true]) {
    const holder = document.createElement(large ? "div" : "button");
    holder.className = large ? "fx-opened" : "fx-card";
    holder.style.width = large ? "22rem" : "calc((100vw - 3rem) / 3)";
    holder.appendChild(Grail.fluxxFace(id, large));
    box.textContent = "";
    box.appendChild(holder);
    const face = holder.firstChild, edge = face.getBoundingClientRect();
    for (const n of face.querySelectorAll("span")) {
      const r = n.getBoundingClientRect();
      if (r.left < edge.left - .5 || r.right > edge.right + .5 || r.top < edge.top - .5 || r.bottom > edge.bottom + .5)
        out.outside.push(n.textContent);
      out.smallest = Math.min(out.smallest, parseFloat(getComputedStyle(n).fontSize));
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
    assert min(m["smallest"] for m in measured) >= 12, sorted(measured, key=lambda m: m["smallest"])[:3]
    assert errors == []
