"""Cup Quest through the shell, on PostgreSQL: starting from the form, moves, timeouts,
hidden information, resigning, and replaying finished games from their seed.

The games are seeded and driven by the browser test's goal-seeking player, so they are the
same game the three browsers play (and this file checks that game ends as that test says).
"""
from __future__ import annotations

import re
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.table import selectors, services
from games import registry
from grailsite.errors import MoveRejected, StaleVersion
from games.models import Match, MoveRecord, Notification, Seat
from games.rules.cupquest import cards
from tests.browser.test_cupquest_browser import SEED, choose_move
from tests.conftest import seated_players_moved

GAME = registry.get("cupquest")


@pytest.fixture
def cupquest(make_match):
    """A started three-player game on the browser test's seed: (match, users by seat)."""
    return make_match(kind="cupquest", seats=3, seed=SEED, clock_kind="hours", clock_amount=12)


def _to_act(match: Match) -> int:
    return GAME.pending(match.state)[0].seat


def _play_one(match: Match, users, sniped: bool = False) -> tuple[Match, dict]:
    seat = _to_act(match)
    move = choose_move(match.state, seat, sniped)
    services.move_submit(match_id=match.pk, user=users[seat], move=move, version=match.version)
    match.refresh_from_db()
    return match, move


def _play_to_the_end(match: Match, users, *, timeouts=(), limit: int = 60) -> tuple[Match, list[dict]]:
    """Play until the game ends; the moves numbered in ``timeouts`` (from 0) are left to the clock."""
    made = []
    while match.status == Match.Status.ACTIVE:
        assert len(made) < limit, "the seeded game should have ended by now"
        if len(made) in timeouts:
            assert _expire(match, _to_act(match))
            match.refresh_from_db()
            made.append(MoveRecord.objects.get(match=match, seq=match.move_count).move)
        else:
            match, move = _play_one(match, users, any(m["type"] == "snipe" for m in made))
            made.append(move)
    return match, made


def _expire(match: Match, seat: int) -> bool:
    """Move ``seat``'s deadline into the past and let the timer service find it."""
    Seat.objects.filter(match=match, index=seat).update(deadline=timezone.now() - timedelta(seconds=1))
    return services.deadline_expire(match_id=match.pk, seat_index=seat)


# --- starting and moving -----------------------------------------------------------------

def test_the_new_game_form_starts_a_three_player_game_with_its_options(client, make_user):
    arthur, lancelot, robin = make_user("arthur"), make_user("lancelot"), make_user("robin")
    client.force_login(arthur)
    answer = client.post("/games/new/", {
        "kind": "cupquest", "seats": 3, "invite": "lancelot, robin", "clock_kind": "days", "clock_amount": 3,
        "vacation_days": 7, "allow_spectators": "on", "cupquest-opt-board": "standard", "cupquest-opt-round_limit": "25"})
    assert answer.status_code == 302
    match = Match.objects.get(kind="cupquest")
    for user in (lancelot, robin):
        client.force_login(user)
        client.post(f"/games/{match.pk}/join/")
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert match.setup_options == {"board": "standard", "round_limit": 25} and match.state["round_limit"] == 25
    assert len(match.state["alcoves"]) == 3 and all(len(hand) == 3 for hand in match.state["hands"])
    page = client.get(f"/games/{match.pk}/").content.decode()
    assert "games/cupquest/board.js" in page and "games/cupquest/board.css" in page


def test_moves_are_applied_recorded_and_logged_in_words(cupquest):
    match, users = cupquest
    assert match.status == Match.Status.ACTIVE and match.state["order"] == [2, 0, 1]
    first = _to_act(match)
    assert Seat.objects.get(match=match, index=first).waiting_for == "turn"

    version = match.version
    match, move = _play_one(match, users)
    assert (match.version, match.move_count) == (version + 1, 1)
    record = MoveRecord.objects.get(match=match, seq=1)
    assert (record.seat, record.move, record.by_timeout) == (first, move, False)
    assert match.state["positions"][first] == move["to"]
    # Landing next to Big Bob: the same player must now fight, and nobody else is asked.
    assert [(s.index, s.waiting_for) for s in Seat.objects.filter(match=match) if s.waiting_for] == [(first, "battle")]

    played = f"Seat {first + 1} plays the {cards.card_name(move['card'])} and moves 10."
    drawn = cards.card_name(match.state["hands"][first][-1])
    assert [line["text"] for line in selectors.log_for(match, first)] == [played, f"You draw the {drawn}."]
    for other in {0, 1, 2} - {first}:
        assert [line["text"] for line in selectors.log_for(match, other)] == [played, f"Seat {first + 1} draws a card."]
    # Spectators hear that a card was drawn, never which.
    assert [line["text"] for line in selectors.log_for(match, None)] == [played, f"Seat {first + 1} draws a card."]


def test_out_of_turn_illegal_and_stale_moves_change_nothing(cupquest):
    match, users = cupquest
    seat = _to_act(match)
    other = (seat + 1) % 3
    card = match.state["hands"][other][0]
    with pytest.raises(MoveRejected, match="not your turn"):
        services.move_submit(match_id=match.pk, user=users[other], move={"type": "discard", "card": card},
                             version=match.version)
    nowhere = {"type": "move", "card": match.state["hands"][seat][0], "to": match.state["alcoves"][other]}
    with pytest.raises(MoveRejected, match="cannot take you there"):
        services.move_submit(match_id=match.pk, user=users[seat], move=nowhere, version=match.version)
    with pytest.raises(MoveRejected, match="do not hold"):
        services.move_submit(match_id=match.pk, user=users[seat], move={"type": "discard", "card": card},
                             version=match.version)
    with pytest.raises(StaleVersion):
        services.move_submit(match_id=match.pk, user=users[seat], move={"type": "pass"}, version=match.version - 1)
    before = match.state
    match.refresh_from_db()
    assert match.state == before and match.move_count == 0

    # The same submission twice (a double click, a retry) is applied once.
    first = services.move_submit(match_id=match.pk, user=users[seat], move={"type": "pass"},
                                 version=match.version, key="k1")
    again = services.move_submit(match_id=match.pk, user=users[seat], move={"type": "pass"},
                                 version=match.version, key="k1")
    assert again == dict(first, repeated=True)
    assert MoveRecord.objects.filter(match=match).count() == 1


def test_a_snipe_is_decided_on_the_server_from_the_aim_alone(cupquest):
    match, users = cupquest
    match, _ = _play_one(match, users)   # seat 3 walks out next to Big Bob...
    match, _ = _play_one(match, users)   # ...and beats him back
    seat = _to_act(match)
    move = choose_move(match.state, seat, sniped_yet=False)
    assert move["type"] == "snipe" and move["target"] == 2
    # A client that adds fields to claim a hit is refused, and nothing changes...
    with pytest.raises(MoveRejected, match="'attempts' and 'hit' are not the player's to send"):
        services.move_submit(match_id=match.pk, user=users[seat], move=dict(move, hit=True, attempts=[]),
                             version=match.version)
    # ...and the aim alone is decided by the state's generator.
    services.move_submit(match_id=match.pk, user=users[seat], move=move, version=match.version)
    match.refresh_from_db()
    shot = match.state["last_snipe"]
    assert (shot["seat"], shot["target"], shot["hit"]) == (seat, 2, False)
    assert [a["in"] for a in shot["attempts"]] == [False, False]
    assert match.state["snipes"][seat] == 3
    assert selectors.log_for(match, None)[-2]["text"] == (
        "Seat 1 snipes at Seat 3: misses by 7.2 and misses by 7.1 \u2014 no luck.")


# --- timeouts ---------------------------------------------------------------------------

def test_a_timeout_passes_the_turn(cupquest):
    """In a game of three, the clock ends a late player's turn for them (once: a second
    time-out in a row hands the seat to a computer player)."""
    match, users = cupquest
    seated_players_moved(match)
    seat = _to_act(match)
    assert services.deadline_expire(match_id=match.pk, seat_index=seat) is False  # not due yet
    version = match.version
    assert _expire(match, seat) is True
    match.refresh_from_db()

    record = MoveRecord.objects.get(match=match, seq=1)
    assert (record.seat, record.move, record.by_timeout, record.user) == (seat, {"type": "pass"}, True, None)
    assert match.version == version + 1 and match.status == Match.Status.ACTIVE
    nxt = _to_act(match)
    assert nxt == match.state["order"][1] != seat
    seats = {s.index: s for s in Seat.objects.filter(match=match)}
    assert (seats[seat].waiting_for, seats[seat].deadline) == ("", None)
    assert seats[nxt].waiting_for == "turn" and seats[nxt].deadline > timezone.now()
    said, line = selectors.log_for(match, None)[:2]
    assert (said["text"], said["timeout"]) == (f"Seat {seat + 1}'s time ran out, so the clock passes for them.", True)
    assert (line["text"], line["timeout"]) == (f"Seat {seat + 1} passes.", True)
    note = Notification.objects.get(user=users[seat], kind=Notification.Kind.TIMEOUT)
    assert "passes" in note.text
    # The same deadline cannot fire twice, and the next player's is not due.
    assert services.deadline_expire(match_id=match.pk, seat_index=seat) is False
    assert services.deadline_expire(match_id=match.pk, seat_index=nxt) is False


def test_a_timeout_in_a_forced_battle_fights_it(cupquest):
    match, users = cupquest
    match, _ = _play_one(match, users)
    seat = _to_act(match)
    assert match.state["pending"]["kind"] == "battle"
    assert _expire(match, seat) is True
    match.refresh_from_db()
    record = MoveRecord.objects.get(match=match, seq=2)
    assert record.move == {"type": "fight", "monster": "bob"} and record.by_timeout
    assert "fights Big Bob" in selectors.log_for(match, None)[-2]["text"]
    assert _to_act(match) != seat


# --- hidden information -----------------------------------------------------------------

def _strings(value):
    """Every string value inside a JSON value. (Keys are left out: the map's teleport spaces
    are keyed by card, "JC" and so on, which names a space, not a card anyone holds.)"""
    if isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, str):
        yield value


def _secrets(state: dict, seat: int | None) -> list[str]:
    """The cards of every hand but ``seat``'s, plus the draw pile: nobody else may see them."""
    return [c for s, hand in enumerate(state["hands"]) if s != seat for c in hand] + list(state["draw"])


def _leaks_in_json(payload: dict, secret: list[str]) -> list[str]:
    strings = list(_strings(payload))
    codes = [c for c in secret if c in strings]
    names = [c for c in secret if any(f"the {cards.card_name(c)}" in s for s in strings)]
    return sorted(set(codes + names))


def _leaks_in_html(html: str, secret: list[str]) -> list[str]:
    return [c for c in secret if re.search(rf"(?<![A-Za-z0-9]){c}(?![A-Za-z0-9])", html)
            or cards.card_name(c) in html]


def test_no_page_or_answer_shows_another_seats_hand(cupquest, client, make_user):
    match, users = cupquest
    watcher = make_user("watcher")
    viewers = [(users[0], 0), (users[1], 1), (users[2], 2), (watcher, None), (None, None)]
    sniped = False
    for step in range(10):
        # Until the draw pile is first reshuffled no card in a hand has ever been named in
        # the log, so any mention of one is a leak.
        assert match.state["draw"] and not any(line["kind"] == "reshuffle" for line in selectors.log_for(match, 0))
        for user, seat in viewers:
            client.logout()
            if user is not None:
                client.force_login(user)
            secret = _secrets(match.state, seat)
            answer = client.get(f"/api/matches/{match.pk}/")
            assert answer.status_code == 200
            data = answer.json()
            assert data["view"]["my_hand"] == (match.state["hands"][seat] if seat is not None else None)
            assert _leaks_in_json(data, secret) == [], f"step {step}: seat {seat} sees another hand"
            for url in (f"/api/matches/{match.pk}/log/", f"/api/matches/{match.pk}/replay/"):
                assert _leaks_in_json(client.get(url).json(), secret) == [], url
            page = client.get(f"/games/{match.pk}/")
            assert page.status_code == 200 and 'data-kind="cupquest"' in page.content.decode()
            assert _leaks_in_html(page.content.decode(), secret) == [], f"step {step}: seat {seat} page"
            history = client.get(f"/games/{match.pk}/history/").content.decode()
            assert _leaks_in_html(history, secret) == [], f"step {step}: seat {seat} history"
        match, move = _play_one(match, users, sniped)
        sniped = sniped or move["type"] == "snipe"
    # The search can fail: it finds a seat's own cards in that seat's own answer.
    client.force_login(users[0])
    mine = client.get(f"/api/matches/{match.pk}/").json()
    assert _leaks_in_json(mine, match.state["hands"][0]) == sorted(match.state["hands"][0])
    assert not {"rng", "draw", "hands", "discard"} & set(mine["view"])


# --- leaving ------------------------------------------------------------------------------

def test_resigning_drops_the_grail_and_the_last_one_questing_wins(cupquest):
    match, users = cupquest
    sniped = False
    for _ in range(6):  # ...until Seat 3 has picked up the Grail
        match, move = _play_one(match, users, sniped)
        sniped = sniped or move["type"] == "snipe"
    assert match.state["grail"] == {"at": None, "carrier": 2} and _to_act(match) == 0
    alcove = match.state["alcoves"][2]
    assert alcove not in {m.get("to") for m in GAME.legal_moves(match.state, 0)}

    services.match_resign(match_id=match.pk, user=users[2])  # out of turn: the turn stays put
    match.refresh_from_db()
    assert match.state["grail"] == {"at": "4,0", "carrier": None}
    assert match.state["positions"][2] is None and _to_act(match) == 0
    words = [line["text"] for line in selectors.log_for(match, None)][-2:]
    assert words == ["Seat 3 leaves the game.", "The Grail falls where Seat 3 stood."]
    # Seat 3's alcove is open ground now: Seat 1's walks may end there.
    assert alcove in {m.get("to") for m in GAME.legal_moves(match.state, 0)}
    with pytest.raises(MoveRejected, match="not playing"):
        services.move_submit(match_id=match.pk, user=users[2], move={"type": "pass"}, version=match.version)

    services.match_resign(match_id=match.pk, user=users[0])  # on turn: the game ends at once
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.outcome["winners"] == [1] and match.outcome["reason"] == "Seat 1 and Seat 3 left the game: Seat 2 is the last one questing."
    out = StringIO()
    call_command("replay_check", match=match.pk, stdout=out)
    assert "1 game(s) replayed, 0 mismatch(es)" in out.getvalue()


# --- a whole game -------------------------------------------------------------------------

def test_the_browser_tests_game_ends_and_replays_from_its_seed(cupquest):
    match, users = cupquest
    match, made = _play_to_the_end(match, users)
    assert match.status == Match.Status.FINISHED
    assert len(made) == 19 and match.outcome["winners"] == [2]
    assert {"move", "snipe", "fight", "attack", "decline"} <= {m["type"] for m in made}
    assert sum(m["type"] == "snipe" for m in made) == 7
    assert match.outcome["reason"] == "Seat 3 brings the Holy Grail home."
    assert not Seat.objects.filter(match=match).exclude(deadline=None).exists()
    for user in users:
        assert Notification.objects.filter(user=user, kind=Notification.Kind.GAME_OVER).count() == 1
    with pytest.raises(MoveRejected, match="not in play"):
        services.move_submit(match_id=match.pk, user=users[0], move={"type": "pass"}, version=match.version)

    out = StringIO()
    call_command("replay_check", match=match.pk, stdout=out)
    assert "1 game(s) replayed, 0 mismatch(es)" in out.getvalue()


def test_a_game_with_timeouts_replays_from_its_seed(cupquest):
    match, users = cupquest
    seated_players_moved(match)
    # The first player sleeps through the first turn, and someone through the sixth move.
    match, made = _play_to_the_end(match, users, timeouts=(0, 5))
    assert match.status == Match.Status.FINISHED and len(match.outcome["winners"]) == 1
    assert [r.seq for r in MoveRecord.objects.filter(match=match, by_timeout=True)] == [1, 6]
    out = StringIO()
    call_command("replay_check", match=match.pk, stdout=out)
    assert "1 game(s) replayed, 0 mismatch(es)" in out.getvalue()
