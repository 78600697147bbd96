"""Camelot through the shell, on PostgreSQL: the room (options, assets, the board's data),
a seeded game played to its win, the two token holders acting at the same instant, a
declared target frozen under the other holder's hand, timed-out turns and asks, allies
answering out of turn, live clocks in seconds, pauses, the page, history and replay.

The seeded games are the browser test's (tests/browser/test_camelot_browser.py): moves are
atomic, and when both holders act at once the server's order of arrival decides which one
meets the state first (the rules favour whoever touched a piece first). A move is refused only if
it is illegal in the state it meets, never for the other holder's move as such.
"""
from __future__ import annotations

import importlib
import re
from datetime import timedelta
from io import StringIO

import pytest
from django.apps import apps as django_apps
from django.core.management import CommandError, call_command
from django.utils import timezone

from games.table import selectors, services
from games import registry
from grailsite.errors import MoveRejected, StaleVersion
from games.models import Match, MoveRecord, Notification, Seat
from games.table.replay import state_at
from games.rules.camelot import editions
from games.rules.camelot.board import load as load_board
from tests.browser.test_camelot_browser import (
    CLOCK, GAME, PLAYERS, SEED, _carrier, duel_script, moved_script, race_script, scripted)

pytestmark = pytest.mark.django_db
# Moves sent from two threads at once need committed rows (each thread has its connection).
committed = pytest.mark.django_db(transaction=True, serialized_rollback=True)


@pytest.fixture
def players(db):
    """The four players, without passwords: these tests sign nobody in with one, and
    hashing four passwords would cost more than the games played here."""
    from django.contrib.auth import get_user_model

    return [get_user_model().objects.create(username=name, email=f"{name}@example.com") for name in PLAYERS]


@pytest.fixture
def camelot(make_match, players):
    """The browser tests' seeded game, started on a live (seconds) clock: (match, users)."""
    return make_match(kind="camelot", seats=4, users=players, seed=SEED, **CLOCK)


def _submit(match, users, seat, move, version=None):
    services.move_submit(match_id=match.pk, user=users[seat], move=move,
                         version=match.version if version is None else version)
    match.refresh_from_db()
    return match


def _play(match, users, moves):
    for seat, move in moves:
        match = _submit(match, users, seat, move)
    return match


def _expire(match, seat) -> bool:
    Seat.objects.filter(match=match, index=seat).update(deadline=timezone.now() - timedelta(seconds=1))
    return services.deadline_expire(match_id=match.pk, seat_index=seat)


def _replays(match) -> bool:
    out = StringIO()
    try:
        call_command("replay_check", match=match.pk, stdout=out)
    except CommandError:
        return False
    return "1 game(s) replayed, 0 mismatch(es)" in out.getvalue()


def _words(match, seat=None) -> list[str]:
    return [line["text"] for line in selectors.log_for(match, seat, seats=selectors.seats_for(match))]


# --- the room ------------------------------------------------------------------------------

def test_the_new_game_form_starts_a_live_camelot_table_with_its_options(client, players):
    users = players
    client.force_login(users[0])
    form = client.get("/games/new/").content.decode()
    for name in ("accoutrements", "gold", "guardians", "turn_based", "failed_attack_penalty", "turn_cap", "pauses"):
        assert f'name="camelot-opt-{name}"' in form
    answer = client.post("/games/new/", {
        "kind": "camelot", "seats": 4, "invite": "gawain, percival, tristan", "clock_kind": "seconds",
        "clock_amount": 45, "vacation_days": 0, "allow_spectators": "on", "camelot-opt-guardians": "on",
        "camelot-opt-turn_cap": "400", "camelot-opt-pauses": "3", "camelot-opt-failed_attack_penalty": "on"})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    match = Match.objects.get(kind="camelot")
    for user in users[1:]:
        client.force_login(user)
        client.post(f"/games/{match.pk}/join/")
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and (match.clock, match.clock_amount) == ("seconds", 45)
    assert match.state["options"]["guardians"] is True and match.state["pauses_left"] == [3, 3, 3, 3]
    assert sum(1 for u in match.state["units"].values() if u["guardian"]) == 2
    # The first Entry chooser owes a move on a 45-second clock.
    chooser = Seat.objects.get(match=match, index=match.state["order"][0])
    assert chooser.waiting_for == "entry"
    assert timedelta(seconds=40) < chooser.deadline - timezone.now() <= timedelta(seconds=45)
    page = client.get(f"/games/{match.pk}/").content.decode()
    assert "games/camelot/board.js" in page and "games/camelot/board.css" in page


def test_the_board_is_public_data(client):
    answer = client.get("/api/camelot/boards/standard/")  # nobody signed in: the board is printed
    assert answer.status_code == 200 and "max-age=3600" in answer["Cache-Control"]
    board = answer.json()
    assert len(board["terrain"]) == 169 and set(board["terrain"].values()) == {"grass", "trees", "rocks", "water"}
    assert board["excalibur"] == "0,0" and len(board["edge"]) == 42 and len(board["item_spaces"]) == 4
    assert all(board["terrain"][k] == "grass" for k in board["edge"])
    assert client.get("/api/camelot/boards/nowhere/").status_code == 404


# --- editions of the rules ------------------------------------------------------------------

def test_a_game_records_the_edition_it_is_played_under(camelot):
    match, _ = camelot
    assert match.setup_options["edition"] == editions.CURRENT == match.state["edition"]
    assert _replays(match)


def test_a_game_stored_before_editions_replays_under_the_first_after_the_migration(make_match, players, monkeypatch):
    """A game started before the rules had editions: setup options without one and a state
    of the first rules. Replayed as it is, it would be set up under the current edition;
    migration 0010 stamps edition 1 and it replays as it was played."""
    monkeypatch.setattr(editions, "CURRENT", editions.FIRST)
    match, users = make_match(kind="camelot", seats=4, users=players, seed=SEED, **CLOCK)
    monkeypatch.undo()
    assert "edition" not in match.state
    chooser = match.state["order"][0]
    match = _submit(match, users, chooser, next(m for m in GAME.legal_moves(match.state, chooser) if m["type"] == "entry"))
    Match.objects.filter(pk=match.pk).update(
        setup_options={k: v for k, v in match.setup_options.items() if k != "edition"})
    assert not _replays(match)
    migration = importlib.import_module("games.migrations.0010_camelot_edition")
    migration.stamp_first_edition(django_apps, None)
    match.refresh_from_db()
    assert match.setup_options["edition"] == editions.FIRST and _replays(match)


# --- a whole game ----------------------------------------------------------------------------

def test_a_seeded_game_is_played_to_excalibur_home_and_replays(camelot, client):
    match, users = camelot
    script, final = race_script()
    match = _play(match, users, script)
    assert match.state == final
    hero = final["order"][0]
    carrier = _carrier(match.state, hero)
    # The page and its JSON show the board, the units and the sword carried.
    client.force_login(users[hero])
    data = client.get(f"/api/matches/{match.pk}/").json()
    assert data["view"]["board"] == "standard" and data["view"]["units"][carrier]["carry"] == "excalibur"
    home = {"type": "move", "unit": carrier, "to": match.state["entries"][hero]}
    assert home in data["legal_moves"]
    match = _submit(match, users, hero, home)
    assert match.status == Match.Status.FINISHED and match.outcome["winners"] == [hero]
    assert not Seat.objects.filter(match=match).exclude(deadline=None).exists()
    with pytest.raises(MoveRejected, match="over|not in play"):
        _submit(match, users, hero, {"type": "end_turn"})
    assert _replays(match)
    words = _words(match)
    assert any("Excalibur" in w or "excalibur" in w for w in words[-3:])
    history = client.get(f"/games/{match.pk}/history/").content.decode()
    # Names link to the players' profiles: the words are read without the tags.
    # Hexes are named as the board's edge labels read them ("o12"), never "q,r".
    entry = load_board("standard").hex_name(final["entries"][hero])
    assert f"{PLAYERS[hero]} takes the Entry hex {entry}." in re.sub(r"<[^>]+>", "", history)
    assert "games/camelot/board.js" in client.get(f"/games/{match.pk}/replay/").content.decode()
    for step in (0, 4, len(script) // 2, match.move_count):
        frame = client.get(f"/api/matches/{match.pk}/replay/?step={step}").json()
        state, _ = state_at(match, step)
        assert frame["view"] == GAME.view_for(state, hero)


# --- two token holders at once ------------------------------------------------------------------

@committed
def test_the_two_holders_at_the_same_instant(camelot, make_match, run_threads):
    match, users = camelot
    script, final = race_script()
    match = _play(match, users, script)
    hero, other = final["order"][0], next(s for s in final["tokens"] if s != final["order"][0])
    waiting = {s.index: s for s in Seat.objects.filter(match=match) if s.waiting_for}
    assert {hero, other} <= set(waiting) and waiting[hero].deadline and waiting[other].deadline
    seen = match.version
    moves = {s: next(m for m in GAME.legal_moves(match.state, s) if m["type"] == "enter") for s in (hero, other)}

    def enter(seat):
        return lambda: services.move_submit(match_id=match.pk, user=users[seat], move=moves[seat], version=seen,
                                            key=f"enter-{seat}")

    results = run_threads(enter(hero), enter(other))
    assert all(isinstance(r, dict) and not r["repeated"] for r in results), results
    match.refresh_from_db()
    assert match.version == seen + 2
    assert {(r.seat, r.move["piece"]) for r in MoveRecord.objects.filter(match=match, seq__gt=match.move_count - 2)} == {
        (hero, "arthur"), (other, "arthur")}
    # Each holder's clock is its own: the other's move neither cleared nor restarted it.
    assert Seat.objects.get(match=match, index=hero).deadline == waiting[hero].deadline
    assert Seat.objects.get(match=match, index=other).deadline == waiting[other].deadline

    # A declaration and a move of its target, sent together on another table of the same seed.
    second, _ = make_match(kind="camelot", seats=4, users=users, seed=SEED, **CLOCK)
    _declare_and_move_at_once(second, users, run_threads)


def _clash_ready(state) -> bool:
    """Both runners hold tokens, one still declaring, the other with a unit it can move."""
    if state["phase"] != "play" or len(state["tokens"]) != 2:
        return False
    for x in state["tokens"]:
        y = next(s for s in state["tokens"] if s != x)
        if state["turns"][str(x)]["stage"] != "declare":
            continue
        movable = {m["unit"] for m in GAME.legal_moves(state, y) if m["type"] == "move"}
        if any(state["units"][u]["seat"] == y for u in movable):
            return True
    return False


def _clash(match, users):
    script, state = scripted(SEED, runners=(0, 1), stop=_clash_ready)
    match = _play(match, users, script)
    for x in state["tokens"]:
        y = next(s for s in state["tokens"] if s != x)
        moves = [m for m in GAME.legal_moves(state, y) if m["type"] == "move" and state["units"][m["unit"]]["seat"] == y]
        if state["turns"][str(x)]["stage"] == "declare" and moves:
            return match, x, y, moves[0]
    raise AssertionError("the clash position has no such pair")


def test_a_unit_the_other_holder_has_just_declared_cannot_move(camelot):
    """Moves are atomic; the server's order of arrival decides priority. Here the
    declaration arrives first: the move made on the same version meets a frozen unit."""
    match, users = camelot
    match, attacker, defender, move = _clash(match, users)
    seen = match.version
    declare = {"type": "declare", "targets": [move["unit"]]}
    match = _submit(match, users, attacker, declare, version=seen)
    assert move["unit"] in GAME.view_for(match.state, None)["frozen"]
    with pytest.raises(MoveRejected) as refused:
        _submit(match, users, defender, move, version=seen)  # not stale: the defender's turn is unchanged
    assert refused.value.message == "That unit is a declared target: it is frozen this turn."
    assert refused.value.status == 422
    assert MoveRecord.objects.filter(match=match).count() == match.move_count  # nothing half-written
    # Its other units still move, on the same old version.
    other = [m for m in GAME.legal_moves(match.state, defender) if m["type"] in ("move", "enter")]
    assert other
    match = _submit(match, users, defender, other[0], version=seen)
    assert MoveRecord.objects.get(match=match, seq=match.move_count).move == other[0]


def _declare_and_move_at_once(match, users, run_threads):
    """Sent together, whichever arrives first wins: the declaration always applies (a moved
    unit is still an enemy on the board); the move applies only if it came first."""
    match, attacker, defender, move = _clash(match, users)
    seen = match.version
    declare = {"type": "declare", "targets": [move["unit"]]}
    results = run_threads(
        lambda: services.move_submit(match_id=match.pk, user=users[attacker], move=declare, version=seen, key="d"),
        lambda: services.move_submit(match_id=match.pk, user=users[defender], move=move, version=seen, key="m"))
    assert isinstance(results[0], dict), results
    records = list(MoveRecord.objects.filter(match=match, seq__gt=match.move_count).order_by("seq"))
    if isinstance(results[1], dict):
        assert [r.seat for r in records] == [defender, attacker]  # the move came first
    else:
        assert isinstance(results[1], MoveRejected) and "frozen" in results[1].message
        assert [r.seat for r in records] == [attacker]


# --- clocks ---------------------------------------------------------------------------------

def test_a_timed_out_turn_passes_its_token_on(camelot):
    match, users = camelot
    script, _ = race_script()
    match = _play(match, users, script[:8])  # four entries, then turns under way
    holders = list(match.state["tokens"])
    late, other = holders[0], holders[1]
    other_deadline = Seat.objects.get(match=match, index=other).deadline
    assert services.deadline_expire(match_id=match.pk, seat_index=late) is False  # not due yet
    assert _expire(match, late) is True
    match.refresh_from_db()
    record = MoveRecord.objects.get(match=match, seq=match.move_count)
    assert record.by_timeout and record.seat == late and record.move == {"type": "end_turn", "timed_out": True}
    assert late not in match.state["tokens"] and other in match.state["tokens"] and len(match.state["tokens"]) == 2
    receiver = next(s for s in match.state["tokens"] if s != other)
    assert Seat.objects.get(match=match, index=receiver).waiting_for == "turn"
    assert Seat.objects.get(match=match, index=receiver).deadline is not None
    assert Seat.objects.get(match=match, index=other).deadline == other_deadline
    assert Seat.objects.get(match=match, index=late).waiting_for == ""
    note = Notification.objects.get(user=users[late], kind=Notification.Kind.TIMEOUT)
    # Said in words: whose time ran out and what the clock did (not a bare "ends the turn.").
    name = users[late].username
    assert note.text == f"Your time ran out in Camelot #{match.pk}, so the clock ends the turn for you."
    lines = [line["text"] for line in selectors.log_for(match, other, seats=selectors.seats_for(match))
             if line["seq"] == record.seq]
    assert lines[0] == f"{name}'s time ran out, so the clock ends the turn for them."
    assert _replays(match)


def test_an_ally_is_asked_and_answers_out_of_turn(camelot):
    match, users = camelot

    def ally_ready(state):
        return _ally_position(state) is not None

    script, state = scripted(SEED, runners=(0, 1, 2), stop=ally_ready)
    match = _play(match, users, script)
    asker, target, ally = _ally_position(state)
    assert ally not in match.state["tokens"]
    match = _submit(match, users, asker, {"type": "declare", "targets": [target]})
    ask = {"type": "ask_ally", "target": target, "seat": ally}
    assert ask in GAME.legal_moves(match.state, asker)
    match = _submit(match, users, asker, ask)
    seat = Seat.objects.get(match=match, index=ally)
    assert seat.waiting_for == "ally" and seat.deadline is not None  # its own clock
    decision = next(d for d in GAME.view_for(match.state, ally)["decisions"] if d["mine"])
    assert decision["kind"] == "ally" and decision["pick"][0] == 0
    # Others see who is asked, not the choice.
    assert [d.get("public") for d in GAME.view_for(match.state, None)["decisions"]] and "options" not in \
        GAME.view_for(match.state, None)["decisions"][0]
    lent = [o["value"] for o in decision["options"]][:1]
    match = _submit(match, users, ally, {"type": "decide", "id": decision["id"], "choice": lent})
    assert match.state["turns"][str(asker)]["allies"][0]["unit"] == lent[0]
    assert Seat.objects.get(match=match, index=ally).waiting_for == ""
    assert _replays(match)


def _ally_position(state):
    """(asker, target, ally): a holder still declaring, an enemy unit, and a third player
    without a token whose unit can reach it."""
    if state["phase"] != "play":
        return None
    for asker in state["tokens"]:
        if state["turns"][str(asker)]["stage"] != "declare":
            continue
        for uid, u in state["units"].items():
            if u["seat"] in (None, asker):
                continue
            after, _ = GAME.apply(state, asker, {"type": "declare", "targets": [uid]})
            for m in GAME.legal_moves(after, asker):
                if m["type"] == "ask_ally" and m["seat"] not in state["tokens"]:
                    return asker, uid, m["seat"]
    return None


def test_a_pause_stops_every_clock_until_the_table_resumes(camelot):
    match, users = camelot
    script, _ = race_script()
    match = _play(match, users, script[:6])
    holder = match.state["tokens"][0]
    question = "Does the line from the Galahad skirt the wood?"
    match = _submit(match, users, holder, {"type": "pause", "question": question})
    seats = {s.index: s for s in Seat.objects.filter(match=match)}
    assert all(s.deadline is None for s in seats.values())  # every clock stopped
    assert {i for i, s in seats.items() if s.waiting_for} == set(match.state["tokens"])  # still owed
    assert not services.deadline_expire(match_id=match.pk, seat_index=holder)
    view = GAME.view_for(match.state, None)
    assert view["paused"] == {"by": holder, "question": question}
    assert view["players"][holder]["pauses_left"] == 1
    with pytest.raises(MoveRejected, match="paused"):
        _submit(match, users, holder, {"type": "end_turn"})
    assert f"pauses the table: {question}" in _words(match)[-1]
    # Anyone at the table may resume; every clock starts again in full.
    other = next(s for s in range(4) if s not in match.state["tokens"])
    match = _submit(match, users, other, {"type": "resume"})
    seats = {s.index: s for s in Seat.objects.filter(match=match)}
    for s in match.state["tokens"]:
        assert seats[s].deadline - timezone.now() > timedelta(seconds=CLOCK["clock_amount"] - 10)
    assert _replays(match)


def test_an_old_version_is_stale_only_for_the_seat_whose_own_turn_changed(camelot):
    match, users = camelot
    script, _ = race_script()
    match = _play(match, users, script[:6])
    seen = match.version
    a, b = match.state["tokens"]
    match = _submit(match, users, a, {"type": "end_turn"}, version=seen)
    with pytest.raises(StaleVersion):  # a's next turn began after the version it looked at
        _submit(match, users, a, {"type": "end_turn"}, version=seen)
    _submit(match, users, b, {"type": "end_turn"}, version=seen)  # b's turn is the same one


# --- taking back a move -------------------------------------------------------------------------

def test_a_move_taken_back_through_the_shell_is_logged_replays_and_is_refused_twice(camelot, client):
    match, users = camelot
    script, _ = race_script()
    match = _play(match, users, script[:6])
    a, b = match.state["tokens"]
    before = match.state
    deadline = Seat.objects.get(match=match, index=a).deadline
    step = next(m for m in GAME.legal_moves(before, a) if m["type"] in ("enter", "move"))
    match = _submit(match, users, a, step)
    client.force_login(users[a])
    mark = client.get(f"/api/matches/{match.pk}/").json()["view"]["takeback"]
    assert mark == GAME.takeback_mark(match.state, a)
    client.force_login(users[b])
    assert client.get(f"/api/matches/{match.pk}/").json()["view"]["takeback"] is None
    with pytest.raises(MoveRejected, match="no move to take back"):
        _submit(match, users, b, {"type": "takeback", "mark": mark})

    match = _submit(match, users, a, {"type": "takeback", "mark": mark})
    assert {k: v for k, v in match.state.items() if k != "takeback"} == \
        {k: v for k, v in before.items() if k != "takeback"}
    with pytest.raises(MoveRejected, match="out of date"):  # the same click again, another key
        _submit(match, users, a, {"type": "takeback", "mark": mark})
    # Still the same turn: the player's clock goes on, it does not start again.
    assert Seat.objects.get(match=match, index=a).deadline == deadline
    assert f"{PLAYERS[a]} takes back a move ({GAME.describe_move(step, before)})." in _words(match)
    assert _replays(match)


def test_what_others_moved_since_your_turn_comes_with_your_view_however_long_ago(camelot, client):
    """The pieces other players moved since a player's last turn are sent with that player's
    view, read from the whole record: a move made more lines ago than the page's log holds
    (another holder here brings a piece on and takes it back, again and again) is still
    there. A spectator, who has no turn, is sent none."""
    match, users = camelot
    script, final, since = moved_script()
    match = _play(match, users, script)
    me = final["order"][0]
    other = next(s for s in match.state["tokens"] if s != me)
    for _ in range(selectors.LOG_TAIL // 2 + 5):
        enter = next(m for m in GAME.legal_moves(match.state, other) if m["type"] == "enter" and not m.get("teleport"))
        match = _submit(match, users, other, enter)
        match = _submit(match, users, other, {"type": "takeback", "mark": GAME.takeback_mark(match.state, other)})
    client.force_login(users[me])
    payload = client.get(f"/api/matches/{match.pk}/").json()
    # The move that put those pieces where they are is older than the log the page is sent.
    first_seq = {line["seq"] for line in payload["log"]}
    assert not any(line["kind"] == "move" and line["data"]["unit"] in since for line in payload["log"])
    assert min(first_seq) > len(script)
    assert payload["moved_since_turn"] == {"upto": match.move_count, "units": since}
    client.logout()
    assert client.get(f"/api/matches/{match.pk}/").json()["moved_since_turn"] is None


def test_a_line_stored_with_raw_coordinates_is_shown_with_the_boards_names(camelot, client):
    """A game stored before hexes had names keeps "takes the Entry hex -7,7" in its records:
    the game's page, its log in the API, its history and the recap say the hex's name, and
    the record itself is left as it was played."""
    match, users = camelot
    chooser = match.state["order"][0]
    entry = next(m for m in GAME.legal_moves(match.state, chooser) if m["type"] == "entry")
    match = _submit(match, users, chooser, entry)
    record = MoveRecord.objects.get(match=match, seq=match.move_count)
    old = f"Seat {chooser + 1} takes the Entry hex {entry['hex']}."
    square = load_board("standard").hex_name(entry["hex"])
    named = f"{PLAYERS[chooser]} takes the Entry hex {square}."
    record.events = [{**e, "text": old} if e["kind"] == "entry" else e for e in record.events]
    record.save(update_fields=["events"])
    watcher = next(s for s in range(len(users)) if s != chooser)
    client.force_login(users[watcher])
    shown = [client.get(f"/api/matches/{match.pk}/").json()["log"],
             client.get(f"/api/matches/{match.pk}/log/").json()["log"]]
    for log in shown:
        assert named in [line["text"] for line in log]
    # The pages link the player's name: the words after it are the hex's name, never its key.
    for page in (f"/games/{match.pk}/history/", f"/games/{match.pk}/"):  # the history, the recap
        html = client.get(page).content.decode()
        assert f"takes the Entry hex {square}." in html and f"Entry hex {entry['hex']}" not in html
    assert old in [e["text"] for e in MoveRecord.objects.get(pk=record.pk).events]
