"""Two people play the MPHG CCG in Chromium from creating the game to a found Grail, by
clicking the controls the renderer builds from the legal moves; then the ante cards have
moved between their collections. The seed is fixed and the decks prepared (lands only),
so the game is short; every step — cut, moves, balance, windows, search — is the real one.
A second game doubles the ante from the board and the other player accepts it there."""
import os
import re

import pytest

from decks import selectors as deck_selectors
from decks.models import AnteStake, Holding
from games.kinds.ccg import hooks as ccg_shell
from games.models import Match, MoveRecord
from games.rules.ccg.game import ante_result
from tests.browser.helpers import sign_up, wait_live
from tests.platform.ccg_helpers import GAME, PREPARED_DECK, ensure_card_database, fix_deal, prepared_player, scripted_move, seed_for

pytestmark = pytest.mark.browser


def copies(user, code):
    h = Holding.objects.filter(user=user, card__code=code).first()
    return h.quantity + h.held if h else 0


def click_move(page, move):
    """Do ``move`` the way a person would on this page."""
    kind = move["type"]
    if kind == "cut":
        page.fill("[data-testid=cut-at]", str(move["at"]))
        page.click("button[data-move=cut]")
    elif kind == "move":
        page.click(f"[data-testid='move-{move['to']}']")
    elif kind == "discard":
        page.click(f"[data-testid=hand] .ccg-card[data-card='{move['card']}']")
        page.click("[data-testid=card-options] button[data-move=discard]")
    elif kind == "choose":
        page.click("button[data-move=choose]:has-text('Ignore it')" if move["option"] == "ignore"
                   else "button[data-move=choose] >> nth=0")
    elif kind == "end_turn":
        page.click("button[data-move=end_turn]:text-is('End turn')")
    else:
        page.click(f"button[data-move={kind}]")


def set_up_game(live_url, alice, bob, *, seed_want="won", double=False):
    """Two people sign up, get the prepared deck, and start a CCG game through the forms;
    returns (match, users, before) with each user's copies of the deck's cards before play."""
    ensure_card_database()
    sign_up(alice, live_url, "alice")
    sign_up(bob, live_url, "bob")
    from django.contrib.auth import get_user_model
    users = [get_user_model().objects.get(username=n) for n in ("alice", "bob")]
    for user, spare in zip(users, (3, 0)):
        prepared_player(user, spare=spare)
    before = {(s, code): copies(u, code) for s, u in enumerate(users) for code in PREPARED_DECK}
    seed = seed_for(seed_want, [ccg_shell._collection_size(u) for u in users], double_the_ante=double)

    alice.goto(f"{live_url}/games/new/")
    alice.select_option("#id_kind", "ccg")
    alice.fill("#id_invite", "bob")
    alice.select_option("[data-kind=ccg] [data-testid=ccg-deck]", label="Prepared lands (40 cards)")
    if double:
        alice.check("[data-testid=ccg-double]")
    alice.click("button[type=submit]")
    alice.wait_for_url(re.compile(r"/games/\d+/$"))
    match = Match.objects.get(pk=int(alice.url.rstrip("/").split("/")[-1]))
    fix_deal(match, seed)     # the fixed seed, before the game is set up

    bob.goto(alice.url)
    bob.select_option("[data-testid=ccg-deck]", label="Prepared lands (40 cards)")
    bob.click("[data-testid=join]")
    bob.wait_for_selector("[data-testid=controls]")
    alice.wait_for_selector("[data-testid=controls]")
    wait_live(alice)
    wait_live(bob)
    match.refresh_from_db()
    return match, users, before


def play_by_clicking(match, pages, until=lambda m: False):
    """Each step, the person whose move it is clicks what the scripted player would do."""
    for _ in range(200):
        match.refresh_from_db()
        if match.status != "active" or until(match):
            return match
        seat = GAME.pending(match.state)[0].seat
        page = pages[seat]
        if match.move_count == 20 and os.environ.get("CCG_SHOTS"):
            pages[1].screenshot(path=os.environ["CCG_SHOTS"] + "/bob-phone.png", full_page=True)
        page.wait_for_function(f"Grail.page.data && Grail.page.data.version >= {match.version}")
        move = scripted_move(match.state, seat, GAME.legal_moves(match.state, seat))
        click_move(page, move)
        wait_for_version(page, match, move)
    raise AssertionError("the game did not end")


def wait_for_version(page, match, move):
    version = match.version
    for _ in range(100):
        page.wait_for_timeout(50)
        if Match.objects.filter(pk=match.pk, version__gt=version).exists():
            return
    info = page.evaluate("JSON.stringify([Grail.page.data.version, Grail.page.data.legal_moves.slice(0, 5)])")
    raise AssertionError(f"{move} did nothing at {version}: {info} {page.inner_text('#move-error')}")


def test_two_players_play_to_the_grail_and_the_ante_changes_hands(live_url, new_page):
    alice, bob = new_page(), new_page(width=390, height=844)   # bob plays on a phone
    match, users, before = set_up_game(live_url, alice, bob)
    pages = [alice, bob]
    bob.check("[data-testid=always-pass]")       # bob lets the site pass his response windows
    for _ in range(100):
        if match.seats.get(index=1).choice.get("preset") == "always_pass":
            break
        bob.wait_for_timeout(50)
    assert match.seats.get(index=1).choice["preset"] == "always_pass"

    match = play_by_clicking(match, pages)
    match.refresh_from_db()
    result = ante_result(match.state)
    assert match.status == "finished" and result["status"] == "won"

    winner = result["winner"]
    for seat, page in enumerate(pages):
        # The end is said once, above the board, in names, with what became of the ante.
        headline = page.wait_for_selector("#outcome [data-testid=headline]").inner_text()
        assert headline == ("You won." if seat == winner else "You lost.")
        outcome = page.inner_text("#outcome")
        assert f"{users[winner].username} finds the Holy Grail" in outcome and "wins the ante" in outcome
        assert not re.search(r"\bSeat \d", outcome) and "Game over" not in page.inner_text("[data-testid=board]")
        assert "finds the Holy Grail" in page.inner_text("[data-testid=log]")
    # The loser's ante card is now the finder's: one copy more for one, one fewer for the other.
    taken = [c["code"] for c in result["cards"] if c["owner"] != winner]
    assert taken
    for code in set(taken):
        n = taken.count(code)
        assert copies(users[winner], code) == before[(winner, code)] + n
        assert copies(users[1 - winner], code) == before[(1 - winner, code)] - n
    assert deck_selectors.ledger_discrepancies() == []
    assert MoveRecord.objects.filter(match=match, seat=1, move={"type": "pass"}, key__startswith="auto-").exists()


def test_doubling_the_ante_is_offered_answered_and_shown_to_both(live_url, new_page):
    alice, bob = new_page(), new_page(width=390, height=844)
    match, users, _ = set_up_game(live_url, alice, bob, double=True)
    pages = [alice, bob]
    cutter = pages[GAME.pending(match.state)[0].seat]
    cutter.wait_for_selector("[data-testid=cut-at]")
    controls = cutter.inner_text("[data-testid=controls]")
    assert re.search(r"Always pass response windows\s*\n\s*Lift this many cards off the top", controls), controls
    assert cutter.inner_text("[data-testid=doubling]") == "Not doubled yet."
    assert not cutter.locator("[data-testid=practice-ante]").count()  # a game for real cards says nothing of practice
    match = play_by_clicking(match, pages, until=lambda m: m.state["phase"] != "cut")
    offerer = match.state["turn"]
    other = 1 - offerer
    pages[offerer].wait_for_function(f"Grail.page.data.version >= {match.version}")
    pages[offerer].click("button[data-move=end_turn]:text-is('End turn and double the ante')")
    wait_for_version(pages[offerer], match, "double")
    match = play_by_clicking(match, pages, until=lambda m: any(p.kind == "offer" for p in GAME.pending(m.state)))
    answer = pages[other]
    answer.wait_for_selector("[data-testid=prompt]:has-text('doubles the ante')")
    assert "must answer within" in answer.inner_text("[data-testid=answer-by]")
    assert "doubles the ante" in pages[offerer].inner_text("[data-testid=prompt]")
    offered = f"Not doubled yet. {users[offerer].username} offers to double it: waiting for an answer."
    for page in pages:  # an offer still waiting is not a doubling ("Doubled 0 time(s).")
        assert page.inner_text("[data-testid=doubling]") == offered
    answer.click("button[data-move=accept]")
    wait_for_version(answer, match, "accept")
    for page in pages:
        page.wait_for_selector("[data-testid=doubling]:text-matches('^Doubled once\\.')")
        assert page.locator("[data-testid=ante] .ccg-card").count() == 4
    assert AnteStake.objects.filter(match_id=str(match.pk), status="held").count() == 4


CODES_WITHOUT_DEFINITION = """() => {
  const v = Grail.page.data.view, out = new Set();
  (function walk(x, key) {
    if (Array.isArray(x)) { x.forEach(y => walk(y)); return; }
    if (!x || typeof x !== "object" || key === "cards") return;
    if (typeof x.code === "string" && !(x.code in v.cards)) out.add(x.code);
    Object.keys(x).forEach(k => walk(x[k], k));
  })(v);
  return [...out];
}"""


def test_the_board_draws_a_random_starter_deck_game_and_offers_every_legal_move(live_url, new_page):
    """Starter decks, three players, random moves (made through the services): at every
    step the acting player's board draws without a script error and has a control for each
    legal move — a button, a destination, the cut field, or a hand card with its options."""
    import random

    from django.contrib.auth import get_user_model

    from decks import services as deck_services
    from decks.models import Deck
    from games.table import services
    from games.rules.ccg.game import with_words
    from tests.conftest import PASSWORD
    from tests.browser.helpers import log_in

    ensure_card_database()
    users = [get_user_model().objects.create_user(username=f"walker{i}", password=PASSWORD) for i in range(3)]
    for user in users:
        deck_services.starter_grant(user=user)
    decks = [Deck.objects.filter(owner=u).order_by("id").first() for u in users]
    match = services.match_create(creator=users[0], kind="ccg", num_seats=3, invite=[u.username for u in users[1:]],
                                  seed=4, creator_choice={"deck": decks[0].pk})
    for user, deck in zip(users[1:], decks[1:]):
        services.match_join(match_id=match.pk, user=user, choice={"deck": deck.pk})
    pages, errors = [], []
    for user in users:
        page = new_page(width=390, height=844)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        log_in(page, live_url, user.username)
        page.goto(f"{live_url}/games/{match.pk}/")
        pages.append(page)
    rng = random.Random(3)
    kinds_seen = set()
    for _ in range(45):
        match.refresh_from_db()
        if match.status != "active":
            break
        seat = GAME.pending(match.state)[0].seat
        page = pages[seat]
        page.wait_for_function(f"Grail.page.data && Grail.page.data.version >= {match.version}")
        legal = GAME.legal_moves(match.state, seat)
        buttons = page.eval_on_selector_all("[data-testid=controls] button[data-move]",
                                            "bs => bs.map(b => [b.dataset.move, b.textContent])")
        # The control each legal move needs, found exactly once; counted in one call to the
        # page for the whole step (a call per move cost a round trip each, dozens a step).
        wanted = {}
        for move in legal:
            kinds_seen.add(move["type"])
            if move["type"] in ("play", "discard"):
                wanted[f"[data-testid=hand] .ccg-card.playable[data-card='{move['card']}']"] = move
            elif move["type"] == "move":
                ref = move["to"]
                wanted["button.ccg-move[data-move=move]" if ref is None else f"[data-testid='move-{ref}']"] = move
            elif move["type"] == "cut":
                wanted["[data-testid=cut-at]"] = move
            else:
                assert any(kind == move["type"] and text.strip() for kind, text in buttons), move
        counts = page.evaluate("sels => sels.map(s => document.querySelectorAll(s).length)", list(wanted))
        for (selector, move), count in zip(wanted.items(), counts):
            assert count == 1, (selector, count, move)
        # Every card the page's view names has its definition, though changes bring only the
        # ones the page was not shown before (games/live/frames.py, "kept").
        missing = page.evaluate(CODES_WITHOUT_DEFINITION)
        assert missing == [], missing
        services.move_submit(match_id=match.pk, user=users[seat], move=with_words(match.state, rng.choice(legal)),
                             version=match.version)
    # The replay draws with the same renderer, step by step, and offers no controls.
    replay = pages[0]
    replay.goto(f"{live_url}/games/{match.pk}/replay/")
    replay.wait_for_selector("#board .ccg [data-testid=hand]")
    replay.click("#prev")
    replay.wait_for_function("document.getElementById('step-label').textContent.indexOf('Step ') === 0")
    assert replay.locator("#board button[data-move]").count() == 0
    assert errors == []
    assert {"cut", "end_turn", "play", "move"} <= kinds_seen


FACE_LOADED = """sel => { const i = document.querySelector(sel);
                         return !!i && i.complete && i.naturalWidth > 0; }"""


def test_a_hovered_or_tapped_card_shows_its_face(live_url, new_page, browser):
    """A mouse hovering a card sees its face beside its text; a phone tapping a card sees the
    same in the detail panel (or, for a hand card, with its options). Faces come from the card
    database; a Write Yer Own card its author has not published is drawn from the view for the
    opponent (the database shows it to its author only) and served to its author."""
    from decks.models import Card

    alice = new_page()
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        phone.set_default_timeout(15000)
        bob = phone.new_page()
        errors = []
        for page in (alice, bob):
            page.on("pageerror", lambda exc: errors.append(str(exc)))
        match, users, _ = set_up_game(live_url, alice, bob)
        match = play_by_clicking(match, [alice, bob], until=lambda m: len(m.state["ante"]) == 2)

        # Alice's unpublished written card lies in the ante (put there by hand: decks of
        # written cards are the deck builder's business).
        rabbit = Card.objects.create(code="wyo-alice-rabbit", title="The Rabbit of Caerbannog", type="adversary",
                                     grail=3, combat=9, rarity="rare", text="Bites the head off a knight.",
                                     quote="Look at the bones!", author=users[0], review=Card.Review.PRIVATE)
        state = match.state
        iid = state["ante"][0]
        state["cards"][rabbit.code] = dict(state["cards"][state["inst"][iid]], code=rabbit.code, title=rabbit.title,
                                           type="adversary", grail=3, combat=9, wits=None, text=rabbit.text,
                                           quote=rabbit.quote)
        state["inst"][iid] = rabbit.code
        Match.objects.filter(pk=match.pk).update(state=state)
        for page in (alice, bob):
            page.reload()
            page.wait_for_selector(f"[data-testid=ante] .ccg-card[data-code='{rabbit.code}']")

        # Alice hovers a card of her hand: the database's face, beside its text.
        alice.hover("[data-testid=hand] .ccg-card >> nth=0")
        alice.wait_for_function(FACE_LOADED, arg="[data-testid=card-hover] img.ccg-face")
        title = alice.text_content("[data-testid=hand] .ccg-card >> nth=0 >> .ccg-title")
        assert title in alice.text_content("[data-testid=card-hover] h4")
        # Her own written card: the database serves her its face.
        alice.hover(f"[data-testid=ante] .ccg-card[data-code='{rabbit.code}']")
        alice.wait_for_function(FACE_LOADED, arg="[data-testid=card-hover] img.ccg-face")
        assert "Look at the bones!" in alice.text_content("[data-testid=card-hover]")
        if os.environ.get("CCG_SHOTS"):
            alice.screenshot(path=os.environ["CCG_SHOTS"] + "/alice-hover.png")

        # Bob taps the written card on his phone: the face is drawn from what the view shows.
        bob.tap(f"[data-testid=ante] .ccg-card[data-code='{rabbit.code}']")
        bob.wait_for_selector("[data-testid=card-detail] svg.ccg-face.drawn")
        detail = bob.text_content("[data-testid=card-detail]")
        assert "The Rabbit of Caerbannog" in detail and "Bites the head off a knight." in detail
        assert bob.locator("[data-testid=card-hover]").count() == 0      # a tap is not a hover
        # The other ante card is an ordinary one: its picture comes from the database.
        other = [c for c in bob.eval_on_selector_all("[data-testid=ante] .ccg-card", "cs => cs.map(c => c.dataset.code)")
                 if c != rabbit.code][0]
        bob.tap(f"[data-testid=ante] .ccg-card[data-code='{other}']")
        bob.wait_for_function(FACE_LOADED, arg=f"[data-testid=card-detail] img.ccg-face[data-code='{other}']")
        if os.environ.get("CCG_SHOTS"):
            bob.screenshot(path=os.environ["CCG_SHOTS"] + "/bob-tap.png")
        bob.tap("[data-testid=card-detail] .ccg-close")
        # A hand card tapped shows its face with its options.
        bob.tap("[data-testid=hand] .ccg-card >> nth=0")
        bob.wait_for_function(FACE_LOADED, arg="[data-testid=card-options] img.ccg-face")
        if os.environ.get("CCG_SHOTS"):
            bob.screenshot(path=os.environ["CCG_SHOTS"] + "/bob-hand.png")
        assert errors == []
    finally:
        phone.close()


def test_the_occupant_chooser_reads_the_names_of_the_cards_he_chooses_from(live_url, new_page):
    """A castle naming only a kind turns up in Alice's England: Bob chooses its occupant from
    his own deck by name and numbers (docs/rules/ccg.md §15); Alice never reads them."""
    from games.table import services
    from tests.rules.ccg import cards_for_tests as T
    from tests.rules.ccg.helpers import set_area, stack_deck

    alice, bob = new_page(), new_page(width=390, height=844)
    match, users, _ = set_up_game(live_url, alice, bob)
    match = play_by_clicking(match, [alice, bob], until=lambda m: len(m.state["ante"]) == 2)
    state = match.state
    keep = dict(T.SWAMP_CASTLE, code="keep", title="The Keep", castle_occupant={"type": "knight", "code": None})
    set_area(state, "E0.0", [keep], face="down")
    stack_deck(state, 1, ["gawain", "bors"])
    Match.objects.filter(pk=match.pk).update(state=state)
    alice.reload()
    alice.click("[data-testid='move-E0.0']")
    wait_for_version(alice, match, {"type": "move", "to": "E0.0"})
    for _ in range(20):    # any response window is passed
        match.refresh_from_db()
        pend = GAME.pending(match.state)[0]
        if pend.kind != "response":
            break
        services.move_submit(match_id=match.pk, user=users[pend.seat], move={"type": "pass"}, version=match.version)
    assert match.state["steps"][-1].get("what") == "occupant"
    bob.wait_for_function(f"Grail.page.data && Grail.page.data.version >= {match.version}")
    labels = bob.eval_on_selector_all("button[data-move=choose]", "bs => bs.map(b => b.textContent)")
    assert labels == ["Sir Bors (grail 4 \u00b7 combat 4 \u00b7 wits 4)", "None"]
    alice.wait_for_function(f"Grail.page.data && Grail.page.data.version >= {match.version}")
    assert "Sir Bors" not in alice.content()
    bob.click("button[data-move=choose] >> nth=0")
    alice.wait_for_selector("[data-area='E0.0'] .ccg-occ .ccg-card[data-code=bors]")


def test_the_other_player_plays_a_card_face_up_during_the_active_players_turn(live_url, new_page):
    """4.1 "at any time": while alice takes her turn, bob picks a land from his hand and lays
    it face up from his own board; alice's turn goes on and both boards show the land."""
    alice, bob = new_page(), new_page(width=390, height=844)
    match, users, _ = set_up_game(live_url, alice, bob)
    pages = [alice, bob]
    match = play_by_clicking(match, pages, until=lambda m: m.state["phase"] == "play" and not m.state["steps"])
    active = match.state["turn"]
    other = pages[1 - active]
    other.wait_for_function(f"Grail.page.data.version >= {match.version}")
    other.wait_for_selector("[data-testid=interject-hint]")
    move = next(m for m in GAME.legal_moves(match.state, 1 - active) if m["type"] == "play" and m.get("face") == "up")
    other.click(f"[data-testid=hand] .ccg-card[data-card='{move['card']}']")
    button = other.locator("[data-testid=card-options] button[data-move=play]", has_text="Play face up, in ").first
    button.click()
    wait_for_version(other, match, move)
    match.refresh_from_db()
    played = MoveRecord.objects.filter(match=match).order_by("-seq").first()
    assert played.seat == 1 - active and played.move["type"] == "play"
    assert [(p.seat, p.kind) for p in GAME.pending(match.state)] == [(active, "turn")]
    card = played.move["card"]
    for page in pages:
        page.wait_for_function(f"Grail.page.data.version >= {match.version}")
        page.wait_for_selector(f"[data-area='{played.move['to']}'] .ccg-card[data-card='{card}']")
    log = pages[active].inner_text("[data-testid=log]")
    name = users[1 - active].username
    assert re.search(name + r" plays .+ in ((alice|bob)'s England, row \d area \d|Avalon \d)", log), log
    assert pages[active].locator("button[data-move=end_turn]").count() >= 1
