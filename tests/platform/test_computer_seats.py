"""Computer players in seats: created with the game, moving through the same service
path as people after the table's delay (a real Celery worker on Redis, and the embedded
default's timer thread), stale-safe, never stalling, taking over a seat a person left."""
import logging
import time
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from games.inbox import notify
from games.table import computers, selectors, services
from games import registry
from grailsite.errors import ServiceError
from games.models import Match, MoveRecord, Notification, Seat
from games.tasks import deadlines_sweep
from tests.conftest import seated_players_moved
from tests.celery_worker import wait_for

pytestmark = pytest.mark.django_db
# What a worker or a timer thread does must be committed for it to see; the rest runs faster
# inside one transaction (where nothing is ever sent: on_commit never fires).
committed = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def _computer_records(match):
    return MoveRecord.objects.filter(match=match, key__startswith="computer-").order_by("seq")


def _vs_computer(make_user, *, kind="duel", seats=2, level="knight", delay=1, **kwargs):
    alice = make_user("alice")
    match = services.match_create(creator=alice, kind=kind, num_seats=seats, seed=kwargs.pop("seed", 7),
                                 computers_at={i: level for i in range(1, seats)}, computer_delay=delay,
                                 clock_kind=kwargs.pop("clock_kind", "hours"), clock_amount=kwargs.pop("clock_amount", 12),
                                 **kwargs)
    match.refresh_from_db()
    return match, alice


# --- creating -------------------------------------------------------------------------------

def test_a_game_against_the_computer_starts_at_once_and_names_it(make_user):
    match, alice = _vs_computer(make_user)
    assert match.status == "active" and match.practice and match.computer_delay == 1
    seat = match.seats.get(index=1)
    assert (seat.user, seat.accepted, seat.computer) == (None, True, "knight")
    payload = selectors.match_payload(match, alice)
    assert payload["seats"][1]["username"] == "Computer (Knight)" and payload["seats"][1]["computer"] == "knight"
    assert match not in selectors.open_matches(), "a computer's seat is not open in the lobby"


def test_the_game_waits_for_the_people_and_skips_the_computers_seats(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(creator=alice, kind="cupquest", num_seats=3, computers_at={1: "random"}, seed=3)
    assert match.status == "open" and [s.computer for s in match.seats.all()] == ["", "random", ""]
    assert list(selectors.open_matches()) == [match]
    services.match_join(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.status == "active" and match.seats.get(index=2).user == bob
    names = [s["username"] for s in selectors.match_payload(match, bob)["seats"]]
    assert names == ["alice", "Computer (Random squire)", "bob"]


def test_the_new_game_form_gives_seats_to_computers(client, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    client.force_login(alice)
    page = client.get("/games/new/").content.decode()
    assert 'data-testid="seat-1"' in page and "Computer (Knight)" in page
    r = client.post("/games/new/", {"kind": "cupquest", "seats": 3, "clock_kind": "hours", "clock_amount": 8,
                                    "vacation_days": 3, "invite": "bob", "seat_1": "knight", "seat_5": "random",
                                    "computer_delay": 5, "computer_takeover": "on"})
    match = Match.objects.get()
    assert r.status_code == 302 and match.status == "open"
    assert (match.computer_delay, match.computer_takeover) == (5, True)
    # Seat 6's choice lies beyond the three seats and is ignored; bob takes the seat left.
    assert [(s.user, s.computer) for s in match.seats.all()] == [(alice, ""), (None, "knight"), (bob, "")]
    refused = client.post("/games/new/", {"kind": "duel", "seats": 2, "clock_kind": "hours", "clock_amount": 8,
                                          "vacation_days": 3, "seat_1": "knight", "computer_takeover": "on"})
    assert refused.status_code == 200 and "three or more" in refused.content.decode()


def test_home_page_plays_against_the_computer(client, make_user):
    alice = make_user("alice")
    client.force_login(alice)
    assert 'data-testid="vs-computer"' in client.get("/").content.decode()
    r = client.post("/games/against-the-computer/", {"kind": "cupquest"})
    match = Match.objects.get()
    assert r.status_code == 302 and r.url == f"/games/{match.pk}/"
    # Dealt once the page has sent the player's contribution (docs/verify.md).
    assert match.status == "open" and match.deal_due is not None and match.clock == "none"
    client.post(f"/games/{match.pk}/contribute/", {"contribution": "ab" * 16})
    match.refresh_from_db()
    assert match.status == "active"
    assert [s.computer for s in match.seats.all()] == ["", "knight"]
    assert client.post("/games/against-the-computer/", {"kind": "nonsense"}).status_code == 302
    assert Match.objects.count() == 1


@pytest.mark.parametrize("wanted, delay, message", [
    ({0: "knight"}, 2, "seat 1 is yours"),
    ({2: "knight"}, 2, "seats 2 to 2"),
    ({1: "grandmaster"}, 2, "Random squire, Knight"),
    ({1: "knight"}, 61, "0 to 60 seconds"),
])
def test_computer_seats_are_checked(make_user, wanted, delay, message):
    with pytest.raises(ServiceError, match=message):
        services.match_create(creator=make_user(), kind="duel", num_seats=2, computers_at=wanted, computer_delay=delay)
    assert not Match.objects.exists(), "nothing half-written"


def test_takeover_needs_three_seats(make_user):
    with pytest.raises(ServiceError, match="three or more"):
        services.match_create(creator=make_user(), kind="duel", num_seats=2, computer_takeover=True)


def test_the_json_api_gives_seats_to_computers(client, make_user):
    alice = make_user("alice")
    client.force_login(alice)
    response = client.post("/api/matches/", {"kind": "cupquest", "seats": 3, "computer_delay": 0,
                                             "computers": [{"seat": 1, "level": "knight"}, {"seat": 2, "level": "random"}]},
                           content_type="application/json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "open" and body["commitment"]["deal_due"]
    body = client.post(f"/api/matches/{body['id']}/contribute/", {"contribution": "ab" * 16},
                       content_type="application/json").json()
    assert body["status"] == "active"
    assert [s["username"] for s in body["seats"]] == ["alice", "Computer 2 (Knight)", "Computer 3 (Random squire)"]
    kinds = {g["kind"]: g["computer_levels"] for g in client.get("/api/games/").json()["games"]}
    assert kinds["duel"] == ["random", "knight"]
    refused = client.post("/api/matches/", {"kind": "duel", "computers": [{"seat": 1, "level": "nobody"}]},
                          content_type="application/json")
    assert refused.status_code == 400 and "Random squire" in refused.json()["error"]["message"]


# --- moving through Celery ------------------------------------------------------------------

@committed
def test_a_computer_answers_within_its_delay_through_celery(worker, make_user):
    match, alice = _vs_computer(make_user, delay=1, options={"rounds": 2})
    assert match.state["turn"] == 0
    started = time.monotonic()
    services.move_submit(match_id=match.pk, user=alice, move={"type": "play", "card": match.state["hands"][0][0]},
                         version=match.version)
    hand = Match.objects.get(pk=match.pk).state["hands"][1]  # the 1 s delay has not passed yet
    assert wait_for(lambda: _computer_records(match).exists(), timeout=10)
    answered = time.monotonic() - started
    assert 1.0 <= answered < 5.0, f"answered after {answered:.2f} s with a 1 s delay"
    record = _computer_records(match).get()
    match.refresh_from_db()
    assert record.seat == 1 and record.user is None and not record.by_timeout
    assert record.key == f"computer-1-{record.version_after - 1}"
    assert record.move == {"type": "play", "card": max(hand)}, "the knight lays its highest card"
    seat = match.seats.get(index=0)
    assert seat.waiting_for == "turn" and seat.deadline is not None, "the human's clock runs again"
    assert Notification.objects.filter(user=alice, kind="your_turn").exists()
    log = [line["text"] for line in selectors.log_for(match, 0, seats=selectors.seats_for(match))]
    assert any(line.startswith("Computer (Knight) lays") for line in log), log
    # To the end: the last move is the computer's, and the person hears how it ended.
    services.move_submit(match_id=match.pk, user=alice, move={"type": "play", "card": match.state["hands"][0][0]},
                         version=match.version)
    assert wait_for(lambda: Match.objects.get(pk=match.pk).status == "finished", timeout=10)
    assert _computer_records(match).count() == 2
    assert Notification.objects.filter(user=alice, kind="game_over").exists()


@committed
def test_a_computer_replaces_a_timed_out_player(worker, make_user):
    """Three at a table that hands a seat over at its first time-out: bob's time runs out, a
    computer player takes his seat (and this move), then keeps playing it; the game goes on
    for the others."""
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = services.match_create(creator=alice, kind="cupquest", num_seats=3, invite=["bob", "carol"], seed=5,
                                  clock_kind="hours", clock_amount=12, takeover_after=1, computer_delay=0)
    for user in (bob, carol):
        services.match_join(match_id=match.pk, user=user)
    seated_players_moved(match)
    match.refresh_from_db()
    assert not match.practice
    game = registry.get("cupquest")
    first = game.pending(match.state)[0].seat
    late = match.seats.get(index=first)
    deadline = timezone.now() + timedelta(seconds=0.5)
    Seat.objects.filter(pk=late.pk).update(deadline=deadline)
    notify._schedule(match.pk, match.version, [(first, deadline)])  # the fast-path timer, as a change would set
    assert wait_for(lambda: MoveRecord.objects.filter(match=match, by_timeout=True).exists())
    seat = Seat.objects.get(pk=late.pk)
    assert (seat.user, seat.computer) == (None, "knight")
    assert Notification.objects.filter(user=late.user, kind="timeout", text__contains="Computer (Knight)").exists()
    timed_out = MoveRecord.objects.get(match=match, by_timeout=True)
    assert timed_out.seat == first and timed_out.move != game.timeout_move(match.state, first), \
        "the computer player chose this move; the rules' timeout move was not needed"
    # The people play on; whenever the seat owes a move again, the computer makes it.
    for _ in range(3):
        match.refresh_from_db()
        if match.status != "active":
            break
        owing = game.pending(match.state)[0].seat
        if owing == first:
            before = _computer_records(match).count()
            assert wait_for(lambda: _computer_records(match).count() > before, timeout=10)
            continue
        user = match.seats.get(index=owing).user
        services.move_submit(match_id=match.pk, user=user, move=game.legal_moves(match.state, owing)[0],
                             version=match.version)
    assert wait_for(lambda: _computer_records(match).exists(), timeout=10)
    match.refresh_from_db()
    log = " ".join(line["text"] for line in selectors.log_for(match, None, seats=selectors.seats_for(match)))
    assert f"{late.user.username} ran out of time: Computer (Knight) plays on in their place." in log
    assert log.count(late.user.username) == 1, "the seat's own lines now name the computer player"
    assert selectors.match_payload(match, late.user)["my_seat"] is None, "the player who left sees no hand"


def test_resigning_hands_the_seat_to_a_computer(make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = services.match_create(creator=alice, kind="cupquest", num_seats=3, invite=["bob", "carol"], seed=5,
                                  computer_takeover=True)
    for user in (bob, carol):
        services.match_join(match_id=match.pk, user=user)
    seated_players_moved(match)
    services.match_resign(match_id=match.pk, user=carol)
    match.refresh_from_db()
    assert match.status == "active" and match.seats.get(index=2).computer == "knight"
    assert not match.state["resigned"][2], "the seat plays on"
    assert Notification.objects.filter(user=carol, text__contains="Computer (Knight) plays your seat").exists()
    game = registry.get("cupquest")
    for _ in range(6):  # the people play on until the computer's turn comes
        match.refresh_from_db()
        seat = game.pending(match.state)[0].seat
        if seat == 2:
            break
        services.move_submit(match_id=match.pk, user=(alice, bob)[seat], move=game.legal_moves(match.state, seat)[0],
                             version=match.version)
    assert services.computer_move_apply(match_id=match.pk, seat_index=2, version=match.version)
    record = _computer_records(match).get()
    assert record.events[0]["text"] == "carol resigned: Computer (Knight) plays on in their place."
    assert "took_over_from" not in match.seats.get(index=2).choice, "said once"


# --- stale, repeated and broken moves -------------------------------------------------------

def test_a_task_for_an_old_version_or_a_persons_seat_does_nothing(make_user):
    match, alice = _vs_computer(make_user, delay=60)
    services.move_submit(match_id=match.pk, user=alice, move={"type": "play", "card": match.state["hands"][0][0]},
                         version=match.version)
    match.refresh_from_db()
    version = match.version
    assert not services.computer_move_apply(match_id=match.pk, seat_index=1, version=version - 1)
    assert not services.computer_move_apply(match_id=match.pk, seat_index=0, version=version)
    assert services.computer_move_apply(match_id=match.pk, seat_index=1, version=version)
    assert not services.computer_move_apply(match_id=match.pk, seat_index=1, version=version), "once only"
    assert _computer_records(match).count() == 1
    assert not services.computer_move_apply(match_id=10**9, seat_index=1, version=1)


def test_a_crashing_player_is_logged_and_a_legal_move_made(make_user, monkeypatch, caplog):
    match, alice = _vs_computer(make_user, delay=60)
    services.move_submit(match_id=match.pk, user=alice, move={"type": "play", "card": match.state["hands"][0][0]},
                         version=match.version)

    def broken(view, legal, rng):
        raise RuntimeError("the knight fell off his horse")

    monkeypatch.setitem(computers._players().players_module("duel").LEVELS, "knight", broken)
    match.refresh_from_db()
    with caplog.at_level(logging.WARNING, logger="games.table.computers"):
        assert services.computer_move_apply(match_id=match.pk, seat_index=1, version=match.version)
    assert "fell off his horse" in caplog.text
    assert _computer_records(match).get().move in registry.get("duel").legal_moves(match.state, 1)


def test_a_refused_choice_falls_back_to_the_rules_timeout_move(make_user, monkeypatch, caplog):
    match, alice = _vs_computer(make_user, delay=60)
    services.move_submit(match_id=match.pk, user=alice, move={"type": "play", "card": match.state["hands"][0][0]},
                         version=match.version)
    monkeypatch.setattr(computers, "choose", lambda game, match, seat: {"type": "play", "card": 99})
    match.refresh_from_db()
    expected = registry.get("duel").timeout_move(match.state, 1)
    with caplog.at_level(logging.ERROR, logger="games.table.services"):
        assert services.computer_move_apply(match_id=match.pk, seat_index=1, version=match.version)
    assert "refused move" in caplog.text
    record = MoveRecord.objects.get(match=match, seat=1)
    assert record.move == expected and record.key.endswith("-fallback")


@committed
def test_the_sweep_makes_a_lost_computer_move(worker, make_user, monkeypatch):
    match, alice = _vs_computer(make_user, delay=0)
    services.move_submit(match_id=match.pk, user=alice, move={"type": "play", "card": match.state["hands"][0][0]},
                         version=match.version)
    assert wait_for(lambda: _computer_records(match).exists(), timeout=10)
    # Lose the next one: the person moves while no task can be sent, and the match is old.
    match.refresh_from_db()
    with monkeypatch.context() as patched:
        patched.setattr(computers, "_send", lambda *args: None)
        services.move_submit(match_id=match.pk, user=alice, move={"type": "play", "card": match.state["hands"][0][0]},
                             version=match.version)
    Seat.objects.filter(match=match, index=1).update(computer_due=timezone.now() - timedelta(seconds=30))
    deadlines_sweep.delay()
    assert wait_for(lambda: _computer_records(match).count() == 2, timeout=10)


def test_the_sweep_waits_for_the_delay_before_making_a_computer_move(make_user):
    match, alice = _vs_computer(make_user, delay=60)
    services.move_submit(match_id=match.pk, user=alice, move={"type": "play", "card": match.state["hands"][0][0]},
                         version=match.version)
    due = match.seats.get(index=1).computer_due
    assert timedelta(seconds=59) < due - timezone.now() <= timedelta(seconds=60), "the table's delay from now"
    assert services.computer_moves_sweep() == 0, "its task is still due to run"
    Seat.objects.filter(match=match, index=1).update(computer_due=timezone.now() - timedelta(seconds=6))
    assert services.computer_moves_sweep() == 1 and _computer_records(match).count() == 1
    assert services.computer_moves_sweep() == 0


# --- the embedded default -------------------------------------------------------------------

@committed
@override_settings(TIMERS_USE_CELERY=False)
def test_the_embedded_default_moves_on_a_timer_thread(make_user):
    match, alice = _vs_computer(make_user, delay=0)
    services.move_submit(match_id=match.pk, user=alice, move={"type": "play", "card": match.state["hands"][0][0]},
                         version=match.version)
    assert wait_for(lambda: _computer_records(match).exists(), timeout=10)


# --- practice: the CCG against a computer player --------------------------------------------

def test_a_practice_ccg_game_changes_no_collection(make_user):
    """A whole CCG game against a computer player: antes go into the middle as the rules say,
    but no card is held, won or lost: the ledger, holdings and stakes stay as they were."""
    from decks.models import AnteStake, Holding, LedgerEntry
    from games.rules.ccg.game import with_words
    from tests.platform.ccg_helpers import GAME, ensure_card_database, prepared_player, scripted_move

    ensure_card_database()
    alice = make_user("alice")
    deck = prepared_player(alice)
    ledger, holdings = LedgerEntry.objects.count(), list(Holding.objects.values_list("card_id", "quantity", "held"))
    match = services.match_create(creator=alice, kind="ccg", num_seats=2, computers_at={1: "knight"}, seed=11,
                                  creator_choice={"deck": deck.pk}, clock_kind="none", clock_amount=0)
    match.refresh_from_db()
    assert match.status == "active" and match.practice
    assert len(match.setup_options["decks"][1]) >= 40, "the computer player brings a starter deck"
    antes = set()
    for _ in range(600):
        match.refresh_from_db()
        if match.status != "active":
            break
        antes.update(match.state["ante"])
        seat = GAME.pending(match.state)[0].seat
        if seat == 1:
            assert services.computer_move_apply(match_id=match.pk, seat_index=1, version=match.version)
        else:
            move = with_words(match.state, scripted_move(match.state, 0, GAME.legal_moves(match.state, 0)))
            services.move_submit(match_id=match.pk, user=alice, move=move, version=match.version)
    assert match.status == "finished", "the game ended"
    assert antes, "cards went into the ante on the table"
    assert LedgerEntry.objects.count() == ledger and not AnteStake.objects.exists()
    assert list(Holding.objects.values_list("card_id", "quantity", "held")) == holdings


# --- every game with computer players, through the shell ------------------------------------

def _kinds_with_players():
    return sorted(room.kind for room in registry.rooms() if computers.levels_for(room.kind))


@pytest.mark.parametrize("kind", _kinds_with_players())
def test_computer_moves_go_through_the_service_in_every_game(make_user, kind, caplog):
    """A person (playing random legal moves) against Knights through the services, up to 40
    moves: every computer move is taken as chosen (no fallback), each is named in the log."""
    from games.rules import computer as pure
    from tests.platform.ccg_helpers import ensure_card_database, prepared_player

    game = registry.get(kind)
    alice = make_user("alice")
    choice = None
    if kind == "ccg":
        ensure_card_database()
        choice = {"deck": prepared_player(alice).pk}
    seats = min(3, game.max_players)
    match = services.match_create(creator=alice, kind=kind, num_seats=seats, seed=21, creator_choice=choice,
                                  computers_at={i: "knight" for i in range(1, seats)}, clock_kind="none", clock_amount=0)
    with caplog.at_level(logging.WARNING):
        for step in range(40):
            match.refresh_from_db()
            if match.status != "active":
                break
            seat = game.pending(match.state)[0].seat
            if seat == 0:
                move, _ = pure.choose_move(game, match.state, 0, "random", pure.seed_for(step))
                services.move_submit(match_id=match.pk, user=alice, move=move, version=match.version)
            else:
                assert services.computer_move_apply(match_id=match.pk, seat_index=seat, version=match.version)
    records = list(_computer_records(match))
    assert records and not any(r.key.endswith("-fallback") for r in records)
    assert not [r for r in caplog.records if r.name in ("games.table.computers", "games.table.services")], caplog.text
    assert "Computer" in " ".join(line["text"] for line in selectors.log_for(match, 0, seats=selectors.seats_for(match)))
