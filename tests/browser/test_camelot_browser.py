"""Four people play Camelot in four browsers; two of them move at the same instant.

The games are created through the services with fixed seeds, so each is the same on every
run. The four Entry hexes are clicked on the pages; most of the game is then played quickly
through the services (``race``, below: one player's Arthur runs to Excalibur and back while
the others end their turns), up to the moment that player's Arthur carries Excalibur one
step from home and the other token holder can also move. Then both holders click at the
same time in their own browsers: both moves apply, in the order the server receives them.
The winner's next click brings Excalibur home, and every page (a spectator's too) says so.
A second test has two Arthurs meet at Excalibur: a declaration, a strike aimed with its
line of sight drawn, and an ally asked, all clicked. Screenshots (a phone's too) are kept in
CAMELOT_SHOTS=<dir> when it is set.
"""
from __future__ import annotations

import os
import re
import threading
import time

import pytest

from games.rules import hexgrid
from games.rules.camelot import Camelot
from games.rules.camelot.board import load as load_board
from tests.browser.helpers import open_game

pytestmark = pytest.mark.browser

GAME = Camelot()
SEED = 31
PLAYERS = ("arthur", "gawain", "percival", "tristan")
# A live table: seconds per turn (long enough that no clock runs out while the test drives).
CLOCK = {"clock_kind": "seconds", "clock_amount": 300}


# --- seeded games, computed from the pure rules ------------------------------------------

def _walk(state: dict, a: str, b: str) -> int:
    board = load_board(state["board"])
    d = board.grid.walk_distance(hexgrid.parse(a), hexgrid.parse(b))
    return 999 if d is None else d


def _carrier(state: dict, seat: int) -> str | None:
    return next((uid for uid, u in state["units"].items() if u["seat"] == seat and u["carry"] == "excalibur"), None)


def _excalibur_hex(state: dict) -> str | None:
    return next((h for h, items in state["items"].items() if "excalibur" in items), None)


def runner_move(state: dict, seat: int) -> dict:
    """One step of a player racing for Excalibur: its carrier goes home; else an Arthur on
    the board walks towards the sword; else an Arthur enters as near to it as it can. One
    piece a turn, then the turn ends (also when no move gets closer)."""
    moves = GAME.legal_moves(state, seat)
    turn = state["turns"][str(seat)]
    end = {"type": "end_turn"}
    if turn["moved"] or turn["stage"] == "attack":
        return end
    carrier = _carrier(state, seat)
    entry = state["entries"][seat]
    if carrier:
        goal, candidates, here = entry, [m for m in moves if m["type"] == "move" and m.get("unit") == carrier], \
            state["units"][carrier]["hex"]
    else:
        goal = _excalibur_hex(state)
        if goal is None:
            return end
        arthurs = [uid for uid, u in state["units"].items() if u["seat"] == seat and u["type"] == "arthur"]
        if arthurs:
            uid = min(arthurs, key=lambda a: _walk(state, state["units"][a]["hex"], goal))
            here = state["units"][uid]["hex"]
            candidates = [m for m in moves if m["type"] == "move" and m.get("unit") == uid and not m.get("teleport")]
        else:
            here = None
            candidates = [m for m in moves if m["type"] == "enter" and m["piece"] == "arthur"]
    if not candidates:
        return end
    best = min(candidates, key=lambda m: (_walk(state, m["to"], goal), m["to"]))
    if here is not None and _walk(state, best["to"], goal) >= _walk(state, here, goal):
        return end
    return best


def scripted(seed: int, runners: tuple, stop, players: int = 4, options: dict | None = None,
             limit: int = 400) -> tuple[list[tuple[int, dict]], dict]:
    """(seat, move) pairs from the start of a seeded game until ``stop(state)`` holds, and
    that state. Entry hexes: each chooser takes the first allowed space. Of the token
    holders, the one whose turn began first moves; ``runners`` (indexes into the roll
    order) race for Excalibur, the others end their turns at once."""
    state = GAME.setup(players, dict(options or {}), seed)
    racers = {state["order"][i] for i in runners}
    made = []
    while not stop(state):
        assert GAME.outcome(state) is None and len(made) < limit, "the seeded game should have stopped by now"
        if state["phase"] == "entry":
            seat = state["order"][state["entry_next"]]
            move = next(m for m in GAME.legal_moves(state, seat) if m["type"] == "entry")
        else:
            seat = min(state["tokens"], key=lambda s: state["turns"][str(s)]["number"])
            move = runner_move(state, seat) if seat in racers else {"type": "end_turn"}
        state, _ = GAME.apply(state, seat, move)
        made.append((seat, move))
    return made, state


def hero_home_in_one(state: dict) -> bool:
    """The first roller's Arthur carries Excalibur one step from its Entry hex at the start
    of its turn, and the other token holder can bring a piece on."""
    hero = state["order"][0]
    carrier = _carrier(state, hero) if state["phase"] == "play" else None
    turn = state["turns"].get(str(hero))
    if not carrier or not turn or turn["moved"] or turn["stage"] == "attack":
        return False
    moves = GAME.legal_moves(state, hero)
    home = {"type": "move", "unit": carrier, "to": state["entries"][hero]}
    other = [s for s in state["tokens"] if s != hero]
    return home in moves and bool(other) and any(m["type"] == "enter" for m in GAME.legal_moves(state, other[0]))


def duel_ready(state: dict) -> bool:
    """A token holder at the start of its turn has an enemy Arthur its own Arthur can
    strike at once (the two runners met at Excalibur), and a third player to ask."""
    if state["phase"] != "play":
        return False
    for seat in state["tokens"]:
        turn = state["turns"][str(seat)]
        if turn["stage"] != "declare":
            continue
        for uid, u in state["units"].items():
            if u["seat"] not in (None, seat) and _strikable(state, seat, uid):
                return True
    return False


def _strikable(state: dict, seat: int, target: str) -> bool:
    after, _ = GAME.apply(state, seat, {"type": "declare", "targets": [target]})
    return any(m["type"] == "strike" and m.get("target") == target for m in GAME.legal_moves(after, seat))


def race_script() -> tuple[list, dict]:
    """The main test's game: the first roller races alone, up to one step from winning."""
    return scripted(SEED, runners=(0,), stop=hero_home_in_one)


def duel_script() -> tuple[list, dict]:
    """The second test's game: the two first rollers race until one can strike the other."""
    return scripted(SEED, runners=(0, 1), stop=duel_ready)


# --- doing it through the page ---------------------------------------------------------

@pytest.fixture
def make_page(new_page):
    """``new_page``, closing afterwards the connection this test's own ORM calls opened."""
    from django.db import connections

    yield new_page
    connections.close_all()


@pytest.fixture
def shots():
    folder = os.environ.get("CAMELOT_SHOTS")
    if not folder:
        return lambda page, name, full=False: None
    os.makedirs(folder, exist_ok=True)
    return lambda page, name, full=False: page.screenshot(path=os.path.join(folder, name + ".png"), full_page=full)


def _start_game(users, seed: int, options: dict | None = None):
    from games.table import services

    match = services.match_create(creator=users[0], kind="camelot", num_seats=len(users), options=options or {},
                                  invite=[u.username for u in users[1:]], seed=seed, **CLOCK)
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user)
    match.refresh_from_db()
    return match


def _open(page, url: str, errors: list) -> None:
    open_game(page, url, errors, "svg.cam-map")


def _wait_version(match_id: int, at_least: int, timeout: float = 10.0):
    from games.models import Match

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        match = Match.objects.get(pk=match_id)
        if match.version >= at_least:
            return match
        time.sleep(0.05)
    raise AssertionError(f"the match did not reach version {at_least} within {timeout} s")


def _wait_shown(pages: dict, version: int) -> None:
    """Every page shows ``version`` (it came over the websocket, without a reload)."""
    for page in pages.values():
        page.wait_for_function("v => Grail.page.data && Grail.page.data.version >= v", arg=version, timeout=10000)
        assert page.evaluate("window.__sameDocument === true"), "the update came without a reload"


def _click_entry(page, hexkey: str) -> None:
    page.click(f"polygon.cam-dest[data-hex='{hexkey}']")


def _drive(match, users, moves) -> object:
    """Play ``moves`` through the services (the quick part of the game)."""
    from games.table import services

    for seat, move in moves:
        services.move_submit(match_id=match.pk, user=users[seat], move=move, version=match.version)
        match.refresh_from_db()
    return match


def _players():
    """The four players. Signing up is another test's business (tests/browser/helpers.py);
    here each browser gets a session cookie made on the server's side, which saves four
    password hashes and form round trips on a busy machine."""
    from django.contrib.auth import get_user_model

    return [get_user_model().objects.create(username=name, email=f"{name}@example.com") for name in PLAYERS]


def _signed_in(make_page, live_url: str, user, **size):
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    page = make_page(**size)
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": live_url,
                               "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
    return page


def test_four_players_two_moving_at_once_to_a_win(live_url, make_page, shots):
    from games.models import Match, MoveRecord

    script, final = race_script()
    entries = sum(1 for _, m in script if m["type"] == "entry")
    hero = final["order"][0]
    other = next(s for s in final["tokens"] if s != hero)
    # The hero plays on a phone: the board scales and the controls stay in reach.
    users = _players()
    pages = {s: _signed_in(make_page, live_url, users[s], **({"width": 390, "height": 844} if s == hero else {}))
             for s in range(4)}
    match = _start_game(users, SEED)
    errors: list = []
    watcher = make_page()
    for page in pages.values():
        _open(page, f"{live_url}/games/{match.pk}/", errors)
    _open(watcher, f"{live_url}/games/{match.pk}/", errors)
    everyone = dict(pages, watcher=watcher)
    shots(pages[hero], "phone-entry")

    # The Entry hexes are clicked in roll order: the glowing spaces are the allowed ones.
    for seat, move in script[:entries]:
        page = pages[seat]
        page.wait_for_selector("polygon.cam-dest")
        shown = set(page.eval_on_selector_all("polygon.cam-dest", "ps => ps.map(p => p.dataset.hex)"))
        assert shown == set(GAME.view_for(Match.objects.get(pk=match.pk).state, seat)["entry_choices"])
        _click_entry(page, move["hex"])
        match = _wait_version(match.pk, match.version + 1)
        assert MoveRecord.objects.get(match=match, seq=match.move_count).move == move
    _wait_shown(everyone, match.version)
    assert "turn token" in watcher.inner_text("[data-testid=tokens]")

    # Most of the game, quickly, through the services.
    match = _drive(match, users, script[entries:])
    _wait_shown(everyone, match.version)
    assert match.state["tokens"] and hero in match.state["tokens"] and other in match.state["tokens"]
    carrier = _carrier(match.state, hero)
    hero_page, other_page = pages[hero], pages[other]
    shots(hero_page, "phone-one-step-from-home", True)
    for seat in (hero, other):
        marks = watcher.inner_text(f"[data-testid=players] li[data-seat='{seat}']")
        assert "holds a turn token" in marks
    assert watcher.locator(f"g.cam-unit[data-unit='{carrier}'] .cam-item.carried").count() == 1

    # Both holders pick a piece from their reserve, then both click at the same instant.
    # Each steps off its Entry hex: the hero's must stay free for Excalibur, the other's for a second piece.
    entering = {seat: next(m for m in GAME.legal_moves(match.state, seat) if m["type"] == "enter" and m["piece"] == "arthur"
                            and not m.get("teleport") and m["to"] != match.state["entries"][seat])
                for seat in (hero, other)}
    for seat, page in ((hero, hero_page), (other, other_page)):
        page.click("[data-testid=pool] button[data-piece='arthur']")
        page.wait_for_selector(f"polygon.cam-dest[data-hex='{entering[seat]['to']}']")
    before = match.version
    _click_together({hero: hero_page, other: other_page},
                    {s: f"polygon.cam-dest[data-hex='{entering[s]['to']}']" for s in (hero, other)})
    match = _wait_version(match.pk, before + 2)
    made = {r.seat: r.move for r in MoveRecord.objects.filter(match=match, seq__gt=match.move_count - 2)}
    assert made == entering, "both moves applied, neither refused for the other's"
    _wait_shown(everyone, match.version)

    # The hero's Arthur takes the last step home; the other holder clicks at the same time.
    home = {"type": "move", "unit": carrier, "to": match.state["entries"][hero]}
    second = next(m for m in GAME.legal_moves(match.state, other) if m["type"] in ("move", "enter"))
    hero_page.click(f"g.cam-unit[data-unit='{carrier}']")
    hero_page.wait_for_selector(f"polygon.cam-dest[data-hex='{home['to']}']")
    _select_for(other_page, second)
    before, made_before = match.version, match.move_count
    _click_together({hero: hero_page, other: other_page},
                    {hero: f"polygon.cam-dest[data-hex='{home['to']}']", other: _dest_selector(second)})
    match = _wait_version(match.pk, before + 1)
    for _ in range(40):  # the other click lands before the win or is refused after it
        match.refresh_from_db()
        if match.status == "finished":
            break
        time.sleep(0.05)
    assert match.status == "finished" and match.outcome["winners"] == [hero]
    records = list(MoveRecord.objects.filter(match=match, seq__gt=made_before).order_by("seq"))
    assert records[-1].seat == hero and records[-1].move == home, "the winner's click is the last move"
    if len(records) == 1:  # the hero's click came first: the other's was refused in words
        other_page.wait_for_selector("#move-error:not([hidden])")
    for name, page in everyone.items():
        page.wait_for_selector("#outcome:not([hidden])")
        assert page.inner_text("[data-testid=status]") == "The game is over."
        headline = page.inner_text("#outcome [data-testid=headline]")
        if name == "watcher":
            assert PLAYERS[hero] in page.inner_text("#outcome")
        else:
            assert headline == ("You won." if name == hero else "You lost.")
        assert "Excalibur" in page.inner_text("[data-testid=log]")
    shots(hero_page, "phone-won", True)
    assert errors == []


def _dest_selector(move: dict) -> str:
    return f"polygon.cam-dest[data-hex='{move['to']}']"


def _select_for(page, move: dict) -> None:
    """Pick the piece of ``move`` (a unit on the board or a piece in the reserve)."""
    if move["type"] == "enter":
        page.click(f"[data-testid=pool] button[data-piece='{move['piece']}']")
    else:
        page.click(f"g.cam-unit[data-unit='{move['unit']}']")
    page.wait_for_selector(_dest_selector(move))


def _click_together(pages: dict, selectors: dict) -> None:
    """Click on several pages at the same instant (each page in its own thread would not
    do: Playwright's sync API belongs to one thread). The clicks are dispatched in the
    pages first, held behind a shared start time, so both leave within a millisecond."""
    at = int(time.time() * 1000) + 400
    for seat, page in pages.items():
        page.evaluate("""([sel, at]) => {
            const node = document.querySelector(sel);
            if (!node) throw new Error("nothing to click at " + sel);
            setTimeout(() => node.dispatchEvent(new MouseEvent("click", {bubbles: true})), Math.max(0, at - Date.now()));
        }""", [selectors[seat], at])
    time.sleep(0.6)


def test_a_declared_attack_struck_with_its_line_of_sight(live_url, make_page, shots):
    from games.models import MoveRecord

    script, final = duel_script()
    entries = sum(1 for _, m in script if m["type"] == "entry")
    users = _players()
    match = _start_game(users, SEED)
    errors: list = []
    match = _drive(match, users, script[:entries])
    match = _drive(match, users, script[entries:])
    seat = next(s for s in final["tokens"] if final["turns"][str(s)]["stage"] == "declare" and any(
        u["seat"] not in (None, s) and _strikable(final, s, uid) for uid, u in final["units"].items()))
    target = next(uid for uid, u in final["units"].items() if u["seat"] not in (None, seat) and _strikable(final, seat, uid))
    defender = final["units"][target]["seat"]
    page = _signed_in(make_page, live_url, users[seat])
    other = _signed_in(make_page, live_url, users[defender], width=390, height=844)
    _open(page, f"{live_url}/games/{match.pk}/", errors)
    _open(other, f"{live_url}/games/{match.pk}/", errors)

    # Declaring: click the enemy Arthur (a red ring marks it), then the button.
    page.click(f"g.cam-unit[data-unit='{target}']")
    page.wait_for_selector(f"g.cam-unit.marked[data-unit='{target}']")
    page.click("[data-testid=declare]")
    match = _wait_version(match.pk, match.version + 1)
    assert MoveRecord.objects.get(match=match, seq=match.move_count).move == {"type": "declare", "targets": [target]}
    page.wait_for_selector(f"g.cam-unit.frozen[data-unit='{target}']")
    other.wait_for_selector(f"g.cam-unit.frozen[data-unit='{target}']")

    # Engaged, the attacker asks the defender for leave to disengage; the defender answers
    # in the page's shared decision bar although it is not their turn.
    ask = {"type": "ask_disengage", "seat": defender}
    assert ask in GAME.legal_moves(match.state, seat)
    page.click("[data-testid=asks] summary")
    page.click(f"[data-testid=ask-disengage][data-seat='{defender}']")
    match = _wait_version(match.pk, match.version + 1)
    assert MoveRecord.objects.get(match=match, seq=match.move_count).move == ask
    bar = other.locator("#decisions [data-testid=decision]")
    bar.wait_for()
    shots(other, "phone-asked")
    assert defender not in match.state["tokens"]
    bar.locator("button.option", has_text="Yes").click()
    match = _wait_version(match.pk, match.version + 1)
    answer = MoveRecord.objects.get(match=match, seq=match.move_count)
    assert (answer.seat, answer.move["type"], answer.move["choice"]) == (defender, "decide", "yes")
    assert match.state["turns"][str(seat)]["permissions"] == [defender]

    # Aiming: the target is picked, each striker's line of sight drawn; pointing at a strike
    # draws its line bold.
    strikes = [m for m in GAME.legal_moves(match.state, seat) if m["type"] == "strike" and m.get("target") == target]
    page.click(f"[data-testid=strike-target][data-unit='{target}']")
    lines = set(page.eval_on_selector_all("line.cam-los", "ls => ls.map(l => l.dataset.from)"))
    assert lines == {m["unit"] for m in strikes}
    blow = strikes[0]
    button = page.locator(f"[data-testid=strike][data-unit='{blow['unit']}'][data-mode='{blow['mode']}']")
    button.hover()
    page.wait_for_selector(f"line.cam-los.aiming[data-from='{blow['unit']}']", state="attached")
    shots(page, "aiming")
    button.click()
    match = _wait_version(match.pk, match.version + 1)
    assert MoveRecord.objects.get(match=match, seq=match.move_count).move == blow
    page.wait_for_selector("[data-testid=struck]")
    page.click("[data-testid=end-turn]")
    match = _wait_version(match.pk, match.version + 1)
    assert MoveRecord.objects.get(match=match, seq=match.move_count).move == {"type": "end_turn"}
    page.wait_for_function("() => !document.querySelector('[data-testid=struck]')")
    page.wait_for_selector("[data-testid=combat]")  # the attack's result, in words
    combat = match.state["last_combat"][0]
    assert combat["target"] == target and combat["outcome"] in ("killed", "held")
    said = {"killed": "killed", "held": "it held"}[combat["outcome"]]
    assert f"{unit_words(match, target)}: {combat['total']} against {combat['shields']} shield" in \
        page.inner_text("[data-testid=combat]")
    assert said in page.inner_text("[data-testid=combat]")

    # A question stops every clock: the defender pauses, both pages say so, the attacker resumes.
    question = "Does an Arthur beside a Lancelot count as engaged?"
    other.click(".cam-pause-box summary")
    other.fill("[data-testid=question]", question)
    other.click("[data-testid=pause]")
    match = _wait_version(match.pk, match.version + 1)
    assert MoveRecord.objects.get(match=match, seq=match.move_count).move == {"type": "pause", "question": question}
    for p in (page, other):
        p.wait_for_selector("[data-testid=paused]")
        assert question in p.inner_text("[data-testid=paused]")
        assert not p.locator(".cam-token .clock").count()
    page.click("[data-testid=resume]")
    match = _wait_version(match.pk, match.version + 1)
    other.wait_for_selector("[data-testid=paused]", state="detached")

    # The replay draws the same board, step by step.
    other.goto(f"{live_url}/games/{match.pk}/replay/")
    other.wait_for_selector(f"text=Step 0 of {match.move_count}")
    other.wait_for_selector("svg.cam-map")
    assert other.locator("g.cam-unit").count() == 0
    other.click("#last")
    other.wait_for_selector(f"text=Step {match.move_count} of {match.move_count}")
    assert other.locator("g.cam-unit").count() == len(match.state["units"])
    assert errors == []


def unit_words(match, uid: str, me: int | None = None) -> str:
    """How the page names a unit that has (or had) an owner: "gawain's Arthur 2", "your
    Lancelot 1", "gawain's Merlin" (one a player, no number)."""
    seat, kind, number = uid.split("-")
    whose = "your" if me is not None and int(seat[1:]) == me else f"{PLAYERS[int(seat[1:])]}'s"
    return f"{whose} {kind.capitalize()}" + (f" {number}" if kind in ("arthur", "galahad", "lancelot") else "")


def test_the_attack_preview_shows_shields_against_strength_and_the_unit_a_failure_costs_and_a_take_back(live_url, make_page, shots):
    """Before declaring and before ending the turn the page shows each target's shields
    against the strength that can still reach it, and which of the player's units a failed
    attack costs; the status line says the next step in words. A declaration stands; a
    move after it can be taken back."""
    script, final = duel_script()
    users = _players()
    match = _start_game(users, SEED)
    match = _drive(match, users, script)
    seat = next(s for s in final["tokens"] if final["turns"][str(s)]["stage"] == "declare" and any(
        u["seat"] not in (None, s) and _strikable(final, s, uid) for uid, u in final["units"].items()))
    target = next(uid for uid, u in final["units"].items() if u["seat"] not in (None, seat) and _strikable(final, seat, uid))
    errors: list = []
    page = _signed_in(make_page, live_url, users[seat])
    _open(page, f"{live_url}/games/{match.pk}/", errors)
    number = match.state["turns"][str(seat)]["number"]
    assert page.inner_text("[data-testid=status]") == (
        f"Your turn {number}: declare any attacks first (click enemy pieces in reach), or just move.")

    # Before declaring: the marked target's shields against what can still reach it.
    plan = GAME.view_for(match.state, seat)["attack"][target]
    assert plan["penalty"] and plan["shields"] == 1
    page.click(f"g.cam-unit[data-unit='{target}']")
    line = page.locator(f"[data-testid=declare-panel] .cam-preview-line[data-unit='{target}']")
    line.wait_for()
    text = line.inner_text()
    name = unit_words(match, target, seat)
    assert text.startswith(f"{name}: 1 shield against {plan['reach']} that can still reach it this turn")
    verdict = "enough to kill it if all of them strike it." if plan["reach"] > 1 else "not enough to kill it."
    assert verdict in text
    lose = unit_words(match, plan["penalty"], seat)
    assert f"If this attack fails, you lose {lose} (your unit nearest to it as your units stand now)." in text
    # Which pieces make up that strength, and the move each needs: a Fireball counted only
    # through Merlin's Teleport is said to need it.
    named = line.locator("[data-testid=contributor]")
    assert named.count() == len(plan["contributors"]) > 0
    for i, c in enumerate(plan["contributors"]):
        said = named.nth(i).inner_text()
        assert named.nth(i).get_attribute("data-how") == c["how"]
        who = unit_words(match, c["unit"], seat) if c["unit"] else "from your reserve"
        assert who[0].upper() + who[1:] in said if c["unit"] else who in said
        assert f"({c['value']}" in said
        if c["how"] == "teleport":
            assert "teleports into reach" in said and "once a game" in said
    assert any(c["how"] == "teleport" for c in plan["contributors"]), "the seeded table has Merlin's Teleport to name"
    assert page.locator(f"[data-testid=target][data-unit='{target}']").inner_text() == name
    shots(page, "preview-declaring")

    page.click("[data-testid=declare]")
    match = _wait_version(match.pk, match.version + 1)
    page.wait_for_selector(f"g.cam-unit.frozen[data-unit='{target}']")
    # Before ending the turn: nothing struck yet, so ending now would cost the nearest unit.
    now = GAME.view_for(match.state, seat)["attack"][target]
    line = page.locator(f".cam-your-attacks .cam-preview-line[data-unit='{target}']")
    line.wait_for()
    text = line.inner_text()
    assert text.startswith(f"{name}: 0 struck against 1 shield")
    if now["reach"] > 0:
        assert f"not enough yet; {now['reach']} more can still reach it." in text
    assert f"If you end your turn now, this attack fails and you lose {unit_words(match, now['penalty'], seat)}" in text
    status = page.inner_text("[data-testid=status]")
    assert status == f"Your turn {number}: move up to 2 more pieces, then strike your target, then end your turn."
    assert " 0 more" not in status
    shots(page, "preview-before-ending")

    # A declaration stands: it cannot be taken back, so no button is offered for it.
    assert page.locator("[data-testid=take-back]").count() == 0
    # A piece moved after it can be: the move is taken back, the declaration stays, and the
    # button goes once only the declaration is left.
    owner = final["units"][target]["seat"]
    theirs = _signed_in(make_page, live_url, users[owner])
    _open(theirs, f"{live_url}/games/{match.pk}/", errors)
    theirs.wait_for_selector(f"g.cam-unit.frozen[data-unit='{target}']")
    step = next(m for m in GAME.legal_moves(match.state, seat) if m["type"] in ("move", "enter")
                and GAME.takeback_mark(GAME.apply(match.state, seat, m)[0], seat) is not None)
    match = _drive(match, users, [(seat, step)])
    _wait_shown({"declarer": page, "owner": theirs}, match.version)
    assert theirs.locator("[data-testid=take-back]").count() == 0
    page.wait_for_selector("[data-testid=take-back]")
    shots(page, "take-back-offered", True)
    page.click("[data-testid=take-back]")
    match = _wait_version(match.pk, match.version + 1)
    assert match.state["turns"][str(seat)]["declared"] == [target]
    _wait_shown({"declarer": page, "owner": theirs}, match.version)
    assert theirs.locator(f"g.cam-unit.frozen[data-unit='{target}']").count() == 1
    assert f"{PLAYERS[seat]} takes back a move" in theirs.inner_text("[data-testid=log]")
    page.wait_for_selector("[data-testid=take-back]", state="detached")
    assert errors == []


def moved_script(seed: int = SEED) -> tuple[list, dict, dict]:
    """The first two rollers race as in ``duel_script`` until the first roller starts a turn
    after the second moved a piece already on the board: (the moves, that state, each piece
    other players moved since the first roller's last turn -> the hex it left)."""
    state = GAME.setup(4, {}, seed)
    first, second = state["order"][:2]
    made, since = [], {}
    while True:
        assert len(made) < 200, "the seeded game should have got there by now"
        if state["phase"] == "entry":
            seat = state["order"][state["entry_next"]]
            move = next(m for m in GAME.legal_moves(state, seat) if m["type"] == "entry")
        else:
            seat = min(state["tokens"], key=lambda s: state["turns"][str(s)]["number"])
            move = runner_move(state, seat) if seat in (first, second) else {"type": "end_turn"}
        before = state
        state, _ = GAME.apply(state, seat, move)
        made.append((seat, move))
        if seat == first and move["type"] == "end_turn":
            since = {}
        elif move["type"] == "move" and seat != first:
            since.setdefault(move["unit"], before["units"][move["unit"]]["hex"])
        turn = state["turns"].get(str(first))
        if turn and turn["stage"] == "declare" and not turn["moved"] and since:
            return made, state, since


def test_the_board_names_hexes_as_the_log_does_and_marks_what_others_moved_since_your_turn(live_url, make_page, shots):
    """The board carries its files' letters and its rows' numbers round the edge; the log
    names hexes the same way ("moves to g2"), never in the rules' coordinates; the pieces
    other players moved since your last turn are marked, with a trail from where they stood,
    until you end your turn; the log opens with the rolls that gave the turn tokens."""
    from games.models import MoveRecord

    board = load_board("standard")
    script, final, since = moved_script()
    me = final["order"][0]
    users = _players()
    match = _drive(_start_game(users, SEED), users, script)
    errors: list = []
    page = _signed_in(make_page, live_url, users[me])
    _open(page, f"{live_url}/games/{match.pk}/", errors)

    # The edge labels: every file's letter and every row's number.
    labels = page.eval_on_selector_all("text.cam-coord", "ts => ts.map(t => t.textContent)")
    assert set(labels) == set("abcdefghijklmno") | {str(n) for n in range(1, 16)}
    shots(page, "coordinates")

    # The log says where each piece went as the board names the hex.
    log = page.inner_text("[data-testid=log]")
    assert not re.search(r"-?\d+,-?\d+", log), log
    for uid, left in since.items():
        unit = page.locator(f"g.cam-unit.moved[data-unit='{uid}']")
        unit.wait_for()
        here = final["units"][uid]["hex"]
        assert unit.get_attribute("data-hex") == here
        assert f"{unit_words(match, uid)} moves to {board.hex_name(here)}." in log
        assert f"(moved from {board.hex_name(left)} since your last turn)" in unit.locator("> title").text_content()
        assert page.locator(f"line.cam-trail[data-unit='{uid}']").count() == 1
    # Only those: my own pieces and pieces nobody moved since are not marked.
    assert set(page.eval_on_selector_all("g.cam-unit.moved", "gs => gs.map(g => g.dataset.unit)")) == set(since)

    # Ending my turn: nothing has moved since, so nothing is marked.
    page.click("[data-testid=end-turn]")
    match = _wait_version(match.pk, match.version + 1)
    assert MoveRecord.objects.get(match=match, seq=match.move_count).move == {"type": "end_turn"}
    page.wait_for_function("() => !document.querySelector('g.cam-unit.moved')")

    # Another holder brings a piece on: marked on my page as it arrives.
    holder = next(s for s in match.state["tokens"] if s != me and any(
        m["type"] == "enter" for m in GAME.legal_moves(match.state, s)))
    enter = next(m for m in GAME.legal_moves(match.state, holder) if m["type"] == "enter" and not m.get("teleport"))
    match = _drive(match, users, [(holder, enter)])
    arrived = next(uid for uid, u in match.state["units"].items() if u["hex"] == enter["to"])
    page.wait_for_selector(f"g.cam-unit.moved[data-unit='{arrived}']")
    assert "(brought on since your last turn)" in page.locator(f"g.cam-unit[data-unit='{arrived}'] > title").text_content()
    assert f"on to {board.hex_name(enter['to'])}." in page.inner_text("[data-testid=log]")

    # The history opens with the rolls that gave the two turn tokens.
    page.goto(f"{live_url}/games/{match.pk}/history/")
    first_line = page.locator("ol.history li").first.inner_text()
    order = final["order"]
    assert first_line.startswith(f"Opening rolls, highest first: {PLAYERS[order[0]]} rolled {final['rolls'][order[0]]}, ")
    assert f"{PLAYERS[order[0]]} and {PLAYERS[order[1]]} take the two turn tokens" in first_line
    assert errors == []
