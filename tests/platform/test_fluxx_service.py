"""Monty Python Fluxx through the shell, on PostgreSQL: the room (form, assets, card data),
moves in words, simultaneous out-of-turn discards, their clocks and defaults, the physical
acts (judged claims, checked quotes), a whole game to its winner, history and replay.

The games are the browser test's seeded game (tests/browser/test_fluxx_browser.py), so this
file also checks that the game the three browsers play ends as that test says.
"""
from __future__ import annotations

import re
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from games.table import selectors, services
from games import registry
from grailsite.errors import MoveRejected, StaleVersion
from games.models import Match, MoveRecord, Notification, Seat
from games.table.replay import state_at
from games.rules.fluxx.cards import ALL_RECORDS, BY_ID, CURRENT, LEGACY, NAME
from tests.browser.test_fluxx_browser import ACCENT, SEED, SONG, quotes_set_up, script

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)
GAME = registry.get("fluxx")
SCRIPT = script()
# Moves of the script (counted from 0): robin plays Hand Limit 2 from Draw 2 and Use 'Em (39),
# so arthur and lancelot discard out of turn (40, 41); arthur's accent claim (13) is judged
# by lancelot and robin (14, 15); lancelot plays No-Hand Bonus with a quote (45).
FIRST_DISCARD, QUOTED_PLAY, ACCENT_CLAIM = 40, 45, 13
PLAYERS_BY_SEAT = ("arthur", "lancelot", "robin")


@pytest.fixture
def fluxx(make_match, make_user):
    """The browser test's game, started: (match, users by seat)."""
    users = [make_user(name) for name in ("arthur", "lancelot", "robin")]
    with quotes_set_up():  # as the script's game (test_fluxx_browser.QUOTES)
        return make_match(kind="fluxx", seats=3, users=users, seed=SEED, clock_kind="hours", clock_amount=12)


def _submit(match, users, seat, move, version=None):
    services.move_submit(match_id=match.pk, user=users[seat], move=move,
                         version=match.version if version is None else version)
    match.refresh_from_db()
    return match


def _play(match, users, upto):
    """Play the script's moves from the one the match is at up to (not including) ``upto``."""
    for seat, move in SCRIPT[match.move_count:upto]:
        match = _submit(match, users, seat, move)
    return match


def _expire(match, seat) -> bool:
    Seat.objects.filter(match=match, index=seat).update(deadline=timezone.now() - timedelta(seconds=1))
    return services.deadline_expire(match_id=match.pk, seat_index=seat)


def _replays(match) -> bool:
    out = StringIO()
    call_command("replay_check", match=match.pk, stdout=out)
    return "1 game(s) replayed, 0 mismatch(es)" in out.getvalue()


# --- the room ----------------------------------------------------------------------------

def test_the_new_game_form_starts_a_fluxx_game_with_its_options(client, make_user):
    arthur, lancelot = make_user("arthur"), make_user("lancelot")
    client.force_login(arthur)
    form = client.get("/games/new/").content.decode()
    assert 'name="fluxx-opt-turn_cap"' in form and 'name="fluxx-opt-late_joiners"' in form
    answer = client.post("/games/new/", {
        "kind": "fluxx", "seats": 2, "invite": "lancelot", "clock_kind": "minutes", "clock_amount": 10,
        "vacation_days": 0, "allow_spectators": "on", "fluxx-opt-turn_cap": "120"})
    assert answer.status_code == 302
    match = Match.objects.get(kind="fluxx")
    client.force_login(lancelot)
    client.post(f"/games/{match.pk}/join/")
    match.refresh_from_db()
    # An unticked box is "no": this table takes nobody once the game has begun.
    assert match.status == Match.Status.ACTIVE
    assert match.state["options"] == {"turn_cap": 120, "late_joiners": False}
    # The deck is written into the setup options, not the table's: the game replays from it.
    # So is how its quotes are weighed (judged by the other players; docs/rules/fluxx.md).
    assert match.setup_options == {"turn_cap": 120, "late_joiners": False, "deck": CURRENT, "quotes": "judged",
                                   "fling": "on_landing"} == {
        **match.options, "deck": CURRENT, "quotes": "judged", "fling": "on_landing"}
    assert match.state["deck"] == CURRENT and match.state["quotes"] == "judged"
    first = match.state["turn"]["seat"]  # dealt three, and the first player has drawn one
    assert [len(h) for h in match.state["hands"]] == [4 if s == first else 3 for s in (0, 1)]
    page = client.get(f"/games/{match.pk}/").content.decode()
    assert "games/fluxx/board.js" in page and "games/fluxx/board.css" in page


def test_the_card_faces_are_public_data_drawn_from_the_deck(client):
    answer = client.get("/api/fluxx/cards/")  # nobody signed in: the faces are printed on the cards
    assert answer.status_code == 200 and "max-age=3600" in answer["Cache-Control"]
    cards = answer.json()["cards"]
    # Both decks' cards: games stored on the legacy deck still draw theirs.
    assert set(cards) == {r["id"] for r in ALL_RECORDS} and len(cards) == 154
    for record in ALL_RECORDS:
        face = cards[record["id"]]
        assert (face["type"], face["name"], face["text"]) == (record["type"], record["name"], record["text"])
        assert not {"effect", "certainty", "sources"} & set(face)
    assert cards["the-quest"]["needs"] == [{"card": "king-arthur", "text": "King Arthur"},
                                           {"card": "holy-grail", "text": "The Holy Grail"}]
    beacon = cards["grail-shaped-beacon"]
    assert beacon["needs"][1] == {"card": "holy-grail", "text": "someone else: The Holy Grail", "others": True}
    assert beacon["summary"].startswith("You need Sir Galahad, while another player has The Holy Grail.")
    knights = cards["knights-of-the-round-table"]["needs"][0]
    assert knights["text"] == "any 3 Knights of the Round Table" and len(knights["cards"]) == 5
    bird = cards["bird-in-the-bush"]
    assert bird["needs"][1] == {"text": "either a Swallow or a Parrot", "count": 1,
                                "cards": ["unladen-swallow", "resting-parrot"]}
    assert bird["summary"].startswith("You need A Shrubbery and either a Swallow or a Parrot in front of you.")
    assert cards["the-cheese-shop"]["summary"].startswith("You need to be the only player with nothing at all")
    assert cards["course-its-a-good-idea"]["needs"][1]["or"] == ["the-animator"]
    assert cards["excalibur"]["power"] == "move_creeper" and "power" not in cards["cow"]
    assert cards["the-catapult"]["power"] == "catapult" and cards["resting-parrot"]["tags"] == ["parrot"]
    # A small face's one line under the name: never the name again, fewer words than the text.
    assert cards["keeper-limit-3"]["short"] is None and cards["draw-2"]["short"] is None  # the name says it
    assert cards["grail-shaped-beacon"]["short"] == "Sir Galahad + someone else: The Holy Grail"
    assert cards["knights-of-the-round-table"]["short"] == "any 3 knights"
    assert cards["the-finger-of-god"]["short"] == "Smites a Creeper" and cards["sir-galahad"]["short"] == \
        "A Knight of the Round Table"
    for face in cards.values():
        short = face["short"]
        assert short is None or (face["name"].casefold() not in short.casefold()
                                 and len(short.split()) <= min(len(face["text"].split()), 12)), face


# --- moves in words ------------------------------------------------------------------------

def test_moves_are_applied_recorded_and_logged_in_words(fluxx):
    match, users = fluxx
    seat, move = SCRIPT[0]
    assert seat == match.state["turn"]["seat"] == 2
    assert Seat.objects.get(match=match, index=2).waiting_for == "turn"
    drawn = match.state["hands"][2][-1]
    match = _submit(match, users, seat, move)
    record = MoveRecord.objects.get(match=match, seq=1)
    assert (record.seat, record.move, record.by_timeout) == (2, move, False)
    seats = selectors.seats_for(match)
    played = "robin plays Rules Reset."
    assert played in [line["text"] for line in selectors.log_for(match, 0, seats=seats)]
    # The next player's draw is named to them alone.
    nxt = match.state["turn"]["seat"]
    mine = [line["text"] for line in selectors.log_for(match, nxt, seats=seats)]
    theirs = [line["text"] for line in selectors.log_for(match, None, seats=seats)]
    assert mine[-1].startswith("You draw ") and theirs[-1] == f"{users[nxt].username} draws 1 card."
    assert NAME[drawn] not in " ".join(theirs)
    assert GAME.describe_move(move, None) == "plays Rules Reset"


# --- several seats at once ------------------------------------------------------------------

def test_two_players_discard_to_a_new_limit_at_the_same_instant(fluxx, run_threads):
    match, users = fluxx
    match = _play(match, users, FIRST_DISCARD)
    # Robin's Hand Limit 2 (from Draw 2 and Use 'Em) asks arthur and lancelot at once, each with a clock of their own.
    waiting = {s.index: s for s in Seat.objects.filter(match=match) if s.waiting_for}
    assert {i: s.waiting_for for i, s in waiting.items()} == {0: "discard", 1: "discard"}
    assert waiting[0].deadline and waiting[1].deadline
    for seat in (0, 1):
        note = Notification.objects.get(user=users[seat], kind=Notification.Kind.YOUR_TURN)
        assert note.text == f"You are asked to discard down to the Hand Limit in Monty Python Fluxx #{match.pk}."
    seen = match.version
    moves = {seat: move for seat, move in SCRIPT[FIRST_DISCARD:FIRST_DISCARD + 2]}
    assert set(moves) == {0, 1}

    def discard(seat):
        return lambda: services.move_submit(match_id=match.pk, user=users[seat], move=moves[seat],
                                            version=seen, key=f"discard-{seat}")

    results = run_threads(discard(0), discard(1))
    assert all(isinstance(r, dict) and not r["repeated"] for r in results), results
    match.refresh_from_db()
    assert match.move_count == FIRST_DISCARD + 2 and match.version == seen + 2
    assert [len(match.state["hands"][s]) for s in (0, 1)] == [2, 2]
    # Both answered, robin's turn goes on: the end of it asks robin to discard in turn.
    assert [(s.index, s.waiting_for) for s in Seat.objects.filter(match=match) if s.waiting_for] == [(2, "discard")]
    # The game is the browser test's game still: it plays on to the same end.
    match = _play(match, users, len(SCRIPT))
    assert match.status == Match.Status.FINISHED and match.outcome["winners"] == [0]


def test_a_seat_that_has_answered_cannot_answer_again(fluxx):
    match, users = fluxx
    match = _play(match, users, FIRST_DISCARD)
    seen = match.version
    seat, move = SCRIPT[FIRST_DISCARD]
    match = _submit(match, users, seat, move, version=seen)
    other = next(c for c in match.state["decisions"][-1] if c["seat"] == 1 - seat)
    with pytest.raises(StaleVersion):  # it looked before its own answer: its situation changed since
        services.move_submit(match_id=match.pk, user=users[seat], move=move, version=seen)
    with pytest.raises(MoveRejected, match="no such choice waiting for you"):
        services.move_submit(match_id=match.pk, user=users[seat], version=match.version,
                             move={"type": "decide", "id": other["id"], "choice": other["options"][0]["value"]})
    with pytest.raises(MoveRejected, match="Waiting for"):  # robin waits for the last discard
        services.move_submit(match_id=match.pk, user=users[2], move={"type": "end_turn"}, version=match.version)


def test_a_timed_out_discard_takes_its_default_and_leaves_the_other_clock_alone(fluxx):
    match, users = fluxx
    match = _play(match, users, FIRST_DISCARD)
    decision = next(d for d in match.state["decisions"][-1] if d["seat"] == 1)
    arthur_deadline = Seat.objects.get(match=match, index=0).deadline
    assert services.deadline_expire(match_id=match.pk, seat_index=1) is False  # not due yet
    assert _expire(match, 1) is True
    match.refresh_from_db()
    record = MoveRecord.objects.get(match=match, seq=match.move_count)
    assert record.by_timeout and record.user is None and record.seat == 1
    # The default keeps the first cards: the newest goes.
    assert record.move == {"type": "decide", "id": decision["id"], "choice": decision["default"]}
    assert decision["default"] == decision["options"][-1]["value"]
    assert Seat.objects.get(match=match, index=0).deadline == arthur_deadline
    late = Seat.objects.get(match=match, index=1)
    assert late.waiting_for == ""
    # A wait with a default is not the seat's own turn: answered by the clock, it counts for
    # nothing against the player and aborts nothing (games/table/referee.py).
    assert (late.ran_out, late.timeouts_in_row) == (False, 0)
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE
    note = Notification.objects.get(user=users[1], kind=Notification.Kind.TIMEOUT)
    assert note.text == (f"Your time ran out in Monty Python Fluxx #{match.pk}, so the clock chooses "
                         f"{NAME[decision['default']]} for you.")
    # The cards go when the last of the two has chosen.
    seat, move = SCRIPT[FIRST_DISCARD + 1]
    match = _submit(match, users, seat, move)
    gone = {decision["default"], move["choice"]}
    assert gone <= set(match.state["discard"]) and gone.isdisjoint(match.state["hands"][0] + match.state["hands"][1])
    words = [line["text"] for line in selectors.log_for(match, None, seats=selectors.seats_for(match))]
    assert f"lancelot discards {NAME[decision['default']]} to meet the limit." in words
    assert _replays(match)


# --- the physical acts -----------------------------------------------------------------------

def test_an_accent_is_judged_by_the_others_at_once_and_earns_its_card(fluxx, run_threads):
    match, users = fluxx
    match = _play(match, users, ACCENT_CLAIM)
    seat, claim = SCRIPT[ACCENT_CLAIM]
    assert (seat, claim) == (0, dict(type="accent", **ACCENT))
    match = _submit(match, users, 0, claim)
    judges = {d["seat"]: d for d in match.state["decisions"][-1]}
    assert set(judges) == {1, 2} and all(d["kind"] == "judge" for d in judges.values())
    seats = selectors.seats_for(match)
    said = "arthur speaks in a French accent: \u201cZis castle is already taken, monsieur\u201d"
    assert said in [line["text"] for line in selectors.log_for(match, None, seats=seats)]
    # Each judge sees the claim as a prompt; the others only who is judging.
    view = GAME.view_for(match.state, 1)["decisions"]
    assert [d["prompt"] for d in view if d.get("mine")] == ["Seat 1 speaks in a French accent: \u201cZis castle is "
                                                            "already taken, monsieur\u201d. Does it count?"]
    assert [d["public"] for d in GAME.view_for(match.state, 0)["decisions"]] == [
        "Seat 2 is judging Seat 1's accent.", "Seat 3 is judging Seat 1's accent."]
    hand = len(match.state["hands"][0])
    seen = match.version

    def judge(seat):
        return lambda: services.move_submit(match_id=match.pk, user=users[seat], version=seen,
                                            move={"type": "decide", "id": judges[seat]["id"], "choice": "yes"})

    assert all(isinstance(r, dict) for r in run_threads(judge(1), judge(2)))
    match.refresh_from_db()
    assert len(match.state["hands"][0]) == hand + 1  # one card: no accent on arthur's turn before
    assert match.state["accents"][0]["accent"] == "french"
    assert "arthur draws 1 card (Outrageous Accent Bonus)." in [
        line["text"] for line in selectors.log_for(match, 1, seats=seats)]


def test_a_claim_the_table_refuses_earns_nothing(fluxx):
    match, users = fluxx
    match = _play(match, users, ACCENT_CLAIM + 1)
    hand = len(match.state["hands"][0])
    for decision in list(match.state["decisions"][-1]):
        match = _submit(match, users, decision["seat"], {"type": "decide", "id": decision["id"], "choice": "no"})
    assert len(match.state["hands"][0]) == hand
    assert selectors.log_for(match, None, seats=selectors.seats_for(match))[-1]["text"] == (
        "The table refuses arthur's accent: no bonus.")
    with pytest.raises(MoveRejected, match="once a turn"):  # and it cannot be tried again this turn
        services.move_submit(match_id=match.pk, user=users[0], move=dict(type="accent", **ACCENT),
                             version=match.version)


def test_a_game_stored_before_judged_quotes_earns_a_card_only_when_the_quote_names_the_card(fluxx):
    match, users = fluxx
    match = _play(match, users, QUOTED_PLAY)
    seat, move = SCRIPT[QUOTED_PLAY]
    word = max(BY_ID[move["card"]]["keywords"], key=len)
    assert seat == 1 and move["card"] == "no-hand-bonus" and word in move["quote"]
    wrong = dict(move, quote="Your mother was a hamster")
    with pytest.raises(MoveRejected, match="it must mention No-Hand Bonus"):
        services.move_submit(match_id=match.pk, user=users[1], move=wrong, version=match.version)
    with pytest.raises(MoveRejected, match="at most 200 characters"):
        services.move_submit(match_id=match.pk, user=users[1], move=dict(move, quote=f"{word} " * 40),
                             version=match.version)
    hand = len(match.state["hands"][1])
    match = _submit(match, users, 1, move)
    assert len(match.state["hands"][1]) == hand - 1 + 1  # No-Hand Bonus played, one card drawn for the quote
    assert match.state["turn"]["quoted"] is True
    words = [line["text"] for line in selectors.log_for(match, None, seats=selectors.seats_for(match))]
    assert f"lancelot plays No-Hand Bonus, quoting \u201c{move['quote']}\u201d." in words
    assert "lancelot draws 1 card (What Is Your Quote?)." in words


def test_a_new_games_quote_is_judged_by_the_others_whatever_its_words(make_match, make_user):
    """A game started now: the quote is any line; the two others judge it (two "no": no card)."""
    moves = script(SEED, quotes="judged")
    at = next(i for i, (_, m) in enumerate(moves) if "quote" in m)
    users = [make_user(name) for name in ("arthur", "lancelot", "robin")]
    match, users = make_match(kind="fluxx", seats=3, users=users, seed=SEED)
    assert match.setup_options["quotes"] == "judged"
    for seat, move in moves[:at]:
        match = _submit(match, users, seat, move)
    quoter, move = moves[at]
    card = move["card"]
    real_line = dict(move, quote="Fetchez la vache!")  # names no word of the card: judged all the same
    hand = len(match.state["hands"][quoter])
    match = _submit(match, users, quoter, real_line)
    judges = {d["seat"]: d for d in match.state["decisions"][-1]}
    assert set(judges) == {0, 1, 2} - {quoter} and {d["kind"] for d in judges.values()} == {"judge"}
    name = PLAYERS_BY_SEAT[quoter]
    for seat, d in judges.items():
        assert d["prompt"] == f"Seat {quoter + 1} plays {NAME[card]}, quoting “Fetchez la vache!”. Does the quote count?"
        match = _submit(match, users, seat, {"type": "decide", "id": d["id"], "choice": "no"})
    assert len(match.state["hands"][quoter]) == hand - 1  # the card played, no card drawn for the quote
    words = [line["text"] for line in selectors.log_for(match, None, seats=selectors.seats_for(match))]
    assert f"The table refuses {name}'s quote: no bonus." in words
    assert _replays(match)


def test_a_new_song_is_judged_by_the_others_and_earns_two_cards(make_match, make_user):
    """Another seed, whose game has the Python Song Bonus in play when the script sings."""
    song_seed = 623
    moves = script(song_seed)
    at = next(i for i, (_, m) in enumerate(moves) if m["type"] == "sing")
    users = [make_user(name) for name in ("arthur", "lancelot", "robin")]
    with quotes_set_up():  # as script()'s game
        match, users = make_match(kind="fluxx", seats=3, users=users, seed=song_seed)
    for seat, move in moves[:at + 1]:
        match = _submit(match, users, seat, move)
    singer = moves[at][0]
    judges = {d["seat"]: d for d in match.state["decisions"][-1]}
    assert set(judges) == {0, 1, 2} - {singer}
    for seat, waiting in ((s.index, s.waiting_for) for s in Seat.objects.filter(match=match)):
        assert waiting == ("judge" if seat in judges else "")
    hand = len(match.state["hands"][singer])
    for seat, decision in judges.items():
        match = _submit(match, users, seat, {"type": "decide", "id": decision["id"], "choice": "yes"})
    assert len(match.state["hands"][singer]) == hand + 2
    words = [line["text"] for line in selectors.log_for(match, None, seats=selectors.seats_for(match))]
    assert (f"{users[singer].username} sings from \u201cThe Ballad of Brave Sir Robin\u201d: \u201c{SONG['words']}\u201d"
            in words)
    assert _replays(match)


# --- a whole game ------------------------------------------------------------------------------

def test_the_browser_tests_game_ends_and_replays_from_its_seed(fluxx, client):
    match, users = fluxx
    match = _play(match, users, len(SCRIPT))
    assert len(SCRIPT) == 55 and match.status == Match.Status.FINISHED
    assert match.outcome == {"winners": [0], "draw": False,
                             "reason": "Seat 1 meets the Goal A Bird in the Bush and wins!"}
    assert not Seat.objects.filter(match=match).exclude(deadline=None).exists()
    for seat, user in enumerate(users):
        note = Notification.objects.get(user=user, kind=Notification.Kind.GAME_OVER)
        assert note.text == (f"{'You won' if seat == 0 else 'You lost'} in Monty Python Fluxx #{match.pk}: "
                             "arthur meets the Goal A Bird in the Bush and wins!")
    with pytest.raises(MoveRejected, match="not in play"):
        services.move_submit(match_id=match.pk, user=users[0], move={"type": "end_turn"}, version=match.version)
    assert _replays(match)

    # History lists every move in words; the replay shows each step as that viewer saw it.
    client.force_login(users[0])
    # Names link to the players' profiles: the words are read without the tags.
    history = re.sub(r"<[^>]+>", "", client.get(f"/games/{match.pk}/history/").content.decode())
    assert "robin plays Hand Limit 2 (as part of Draw 2 and Use" in history
    assert "arthur speaks in a French accent" in history
    assert "games/fluxx/board.js" in client.get(f"/games/{match.pk}/replay/").content.decode()
    for step in (0, 4, 20, 40):
        frame = client.get(f"/api/matches/{match.pk}/replay/?step={step}").json()
        state, _ = state_at(match, step)
        assert frame["view"] == GAME.view_for(state, 0) and frame["seat"] == 0
    # Once it is over, anyone may watch it again as any seat saw it.
    frame = client.get(f"/api/matches/{match.pk}/replay/?step=4&as=3").json()
    assert frame["view"]["my_hand"] == state_at(match, 4)[0]["hands"][2]


# --- a game stored on the legacy deck ------------------------------------------------------------

def test_a_game_stored_on_the_legacy_deck_keeps_its_cards_and_replays(make_match, make_user, monkeypatch):
    """A game stored before the printed deck, exactly as the code of then stored it: setup
    options without a deck, a state without "deck" dealt from the reconstructed cards.
    Migration 0013 writes the legacy deck into its setup options; it then plays on with its
    own cards and replays from its seed, before and after more moves."""
    import importlib

    from django.apps import apps

    from games.rules.fluxx import game as fluxx_game
    from games.rules.fluxx.cards import DECKS

    room = registry.room("fluxx")
    with monkeypatch.context() as then:  # the code before the printed deck
        then.setattr(room.hooks, "setup_options", lambda match, seats: dict(match.options))
        then.setattr(fluxx_game, "CURRENT", LEGACY)
        users = [make_user(name) for name in ("arthur", "lancelot", "robin")]
        match, users = make_match(kind="fluxx", seats=3, users=users, seed=31)
    assert "deck" not in match.setup_options and "deck" not in match.state
    assert set(match.state["draw"]) <= set(DECKS[LEGACY]) and "death" in DECKS[LEGACY]

    def moves(count):
        nonlocal match
        for _ in range(count):
            seat = GAME.pending(match.state)[0].seat
            match = _submit(match, users, seat, GAME.legal_moves(match.state, seat)[0])

    moves(6)
    # Unmarked, it would be replayed from the printed deck: its moves are refused there,
    # which replay_check reports as a mismatch (it used to stop on the refusal).
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("replay_check", match=match.pk, stdout=out)
    assert "a stored move is refused on replay" in out.getvalue()
    importlib.import_module("games.migrations.0013_fluxx_legacy_deck").mark_legacy_games(apps, None)
    match.refresh_from_db()
    assert match.setup_options == {**match.options, "deck": LEGACY} and "deck" not in match.state
    assert _replays(match)
    moves(20)  # it plays on, on its own cards
    every = [c for zone in ("draw", "discard", "rules", "goals", "limbo") for c in match.state[zone]]
    every += [c for seat in range(3) for c in match.state["hands"][seat] + match.state["tables"][seat]]
    assert sorted(every) == sorted(DECKS[LEGACY]) and "deck" not in match.state
    assert _replays(match)


def test_a_printed_deck_game_stored_before_judged_quotes_replays_after_migration_0017(make_match, make_user,
                                                                                         monkeypatch):
    """Setup options with the deck and no "quotes", as the code before judged quotes wrote
    them, and a quote the engine checked: unmarked it would replay with judges (and refuse
    the next stored move); migration 0017 marks it "checked" and it replays as played."""
    import importlib

    from django.apps import apps

    room = registry.room("fluxx")
    with monkeypatch.context() as then:  # the code before judged quotes
        then.setattr(room.hooks, "setup_options", lambda match, seats: {**match.options, "deck": CURRENT})
        users = [make_user(name) for name in ("arthur", "lancelot", "robin")]
        match, users = make_match(kind="fluxx", seats=3, users=users, seed=SEED)
    # The code before wrote no "quotes" into the state either: a state without it checks quotes.
    assert "quotes" not in match.setup_options and match.state.pop("quotes") == "judged"
    match.save()
    match = _play(match, users, QUOTED_PLAY + 3)  # past a checked quote and what follows it
    assert "quote" in SCRIPT[QUOTED_PLAY][1]
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("replay_check", match=match.pk, stdout=out)
    migration = importlib.import_module("games.migrations.0017_fluxx_checked_quotes")
    migration.mark_checked_quotes(apps, None)
    match.refresh_from_db()
    assert match.setup_options == {**match.options, "deck": CURRENT, "quotes": "checked"}
    assert _replays(match)
    migration.unmark_checked_quotes(apps, None)
    match.refresh_from_db()
    assert "quotes" not in match.setup_options


def test_the_logs_first_line_says_who_goes_first_in_each_viewers_words(fluxx):
    from games.rules.fluxx.cards import NAME

    match, users = fluxx
    first = match.state["first"]
    seats = selectors.seats_for(match)
    # The Creepers the deal put on the tables come first (each replaced by a hidden card).
    dealt = [(seat, card) for seat, table in enumerate(match.state["tables"]) for card in table]

    def opening(viewer):
        return [(f"You were dealt {NAME[card]}, a Creeper: it goes on your table, and you draw a card in its place."
                 if viewer == seat else f"{PLAYERS_BY_SEAT[seat]} was dealt {NAME[card]}, a Creeper: it goes on "
                 "their table, and they draw a card in its place.") for seat, card in dealt] + [
            "You go first." if viewer == first else f"{PLAYERS_BY_SEAT[first]} goes first."]

    assert selectors.log_for(match, 0, seats=seats) == []  # nothing stored before the first move
    # ...but the page says it already, as lines the first record's lines replace.
    for viewer, user in ((first, users[first]), ((first + 1) % 3, users[(first + 1) % 3])):
        lines = selectors.match_payload(match, user, seats=seats)["log"]
        assert [(line["text"], line["provisional"]) for line in lines] == [(text, True) for text in opening(viewer)]
    match = _play(match, users, 1)
    for viewer in (0, 1, 2, None):
        words = [line["text"] for line in selectors.log_for(match, viewer, seats=seats)]
        assert words[:len(dealt) + 1] == opening(viewer), viewer
        assert sum("goes first" in w or "go first" in w for w in words) == 1
    match = _play(match, users, 3)
    assert sum("first" in line["kind"] for line in selectors.log_for(match, None, seats=seats)) == 1
    assert _replays(match)


def test_a_person_among_computers_has_a_quote_judged_at_once_and_the_game_goes_on(make_user):
    """One person and two knights: the person's quote is judged by the computers as soon as
    their turn to answer comes (each judge seat is due, so the sweep makes the move if a task
    is lost), and the bonus card comes; nobody waits on a judge."""
    from tests.rules.fluxx.helpers import give, rules

    seed = next(s for s in range(100) if GAME.setup(3, {}, s)["first"] == 0)
    alice = make_user("alice")
    match = services.match_create(creator=alice, kind="fluxx", num_seats=3, seed=seed, computer_delay=1,
                                  computers_at={1: "knight", 2: "knight"}, clock_kind="hours", clock_amount=12)
    match.refresh_from_db()
    assert match.status == "active" and match.state["quotes"] == "judged" and match.state["turn"]["seat"] == 0
    state = match.state
    rules(state, "what-is-your-quote", "play-2")
    give(state, 0, "coconuts")
    match.state = state
    match.save(update_fields=["state"])
    hand = len(state["hands"][0])
    services.move_submit(match_id=match.pk, user=alice, version=match.version,
                         move={"type": "play", "card": "coconuts", "quote": "You've got two empty halves of coconut"})
    judges = Seat.objects.filter(match=match, index__in=(1, 2)).order_by("index")
    assert [(s.waiting_for, s.computer_due is not None) for s in judges] == [("judge", True), ("judge", True)]
    for seat in (1, 2):
        assert services.computer_move_apply(match_id=match.pk, seat_index=seat)
    match.refresh_from_db()
    assert [p.kind for p in GAME.pending(match.state)] == ["turn"] and match.state["turn"]["seat"] == 0
    assert len(match.state["hands"][0]) == hand - 1 + 1  # coconuts played, the quote's card drawn
    words = [line["text"] for line in selectors.log_for(match, 0, seats=selectors.seats_for(match))]
    assert not any("refuses" in w for w in words)
