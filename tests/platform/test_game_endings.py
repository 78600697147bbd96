"""A game you come back to: a finished game says who won and why
and what changed hands wherever it is opened (the typed API kept no ending); a player who
resigns reads at once that the game is over for them, and the one left searching alone
(CCG 15.3) why it goes on; a game left to computers alone stops; a rematch brings the same
table back; a "Your move" that no longer applies goes away."""
import re

import pytest

from decks.models import LedgerEntry
from games.table import selectors, services
from grailsite.errors import NotAllowed, ServiceError
from games.models import Match, MoveRecord, Notification, Seat
from tests.platform.ccg_helpers import cards, players  # noqa: F401 (fixtures this module uses)
from tests.platform.ccg_helpers import drive
from tests.platform.ccg_helpers import start_two_player as start
from tests.conftest import seated_players_moved

SEAT_N = re.compile(r"\bseat \d+\b", re.IGNORECASE)


def _play_duel_out(match, users):
    while True:
        match.refresh_from_db()
        if match.status != "active":
            return match
        seat = match.state["turn"]
        services.move_submit(match_id=match.pk, user=users[seat],
                             move={"type": "play", "card": match.state["hands"][seat][0]}, version=match.version)


# --- the result kept ---------------------------------------------------------------------

def test_the_api_gives_a_finished_game_its_ending_and_rematch(client, make_match):
    """GET /api/matches/<id>/ is what a page opened later (home list, notification, F5)
    draws from: it must carry the ending, not only a page that was open at the end."""
    match, (alice, bob) = make_match(options={"rounds": 2})
    match = _play_duel_out(match, [alice, bob])
    client.force_login(alice)
    body = client.get(f"/api/matches/{match.pk}/").json()
    assert body["status"] == "finished"
    assert body["ending"]["headline"] in ("You won", "You lost", "Draw") and body["ending"]["reason"]
    assert body["ending"]["details"] == [] and body["rematch"] is None
    assert not SEAT_N.search(body["ending"]["reason"])
    history = client.get(f"/games/{match.pk}/history/").content.decode()  # the history page says it too
    assert f'{body["ending"]["headline"]}.</strong> {body["ending"]["reason"]}' in history
    rematch, created = services.match_rematch(match_id=match.pk, user=bob)
    assert created
    assert client.get(f"/api/matches/{match.pk}/").json()["rematch"] == {"id": rematch.pk, "status": "open"}


# --- resigning in a two-player CCG (15.3) ------------------------------------------------

def test_a_two_player_ccg_resign_is_said_to_both_sides_and_to_the_ledger(players, client):
    match, (alice, bob) = start(players)
    drive(match, [alice, bob], until=lambda m: m.state["phase"] != "cut")
    services.match_resign(match_id=match.pk, user=bob)
    match = Match.objects.get(pk=match.pk)
    assert match.status == "active"  # alice may search on alone for the ante (15.3)
    ante = [match.state["cards"][match.state["inst"][i]]["title"] for i in match.state["ante"]]
    bobs = [match.state["cards"][match.state["inst"][i]]["title"] for i in match.state["ante"]
            if match.state["own"][i] == 1]

    # bob: at once, the game is over for him, and what becomes of his ante cards.
    seen_by_bob = selectors.match_payload(match, bob)
    ending = seen_by_bob["ending"]
    assert ending["result"] == "out" and ending["headline"] == "You resigned" and ending["over_for_you"]
    assert "over for you" in ending["reason"]
    assert ending["details"] == [f"alice may go on searching for the Grail alone (15.3): if they find it they win the "
                                 f"ante, your {bobs[0]} with it; if they give up or call it a draw, your cards come "
                                 "back to you."]
    assert seen_by_bob["situation"] == [] and seen_by_bob["legal_moves"] == []
    with pytest.raises(ServiceError, match="already out"):
        services.match_resign(match_id=match.pk, user=bob)
    note = Notification.objects.get(user=bob, match=match, kind="game_over").text
    assert note.startswith(f"You resigned in Monty Python and the Holy Grail CCG #{match.pk}: The game is over for you")
    # ... and his home list shows it with the finished games, not "In play".
    client.force_login(bob)
    home = client.get("/").content.decode()
    finished = home[home.index('data-testid="finished"'):]
    assert re.search(rf'data-match="{match.pk}".*?You resigned', finished, re.S)

    # alice: why the game goes on, and what finding the Grail would win.
    seen_by_alice = selectors.match_payload(match, alice)
    assert seen_by_alice["ending"] is None
    [why] = seen_by_alice["situation"]
    assert why.startswith("bob resigned. You may go on searching for the Grail alone (15.3): find it and you win "
                          "the ante (")
    assert all(title in why for title in ante) and "Give up the search" in why
    log = [line["text"] for line in seen_by_alice["log"]]
    assert "bob resigned and is out of the game." in log
    assert selectors.match_payload(match, None)["situation"][0].startswith("bob resigned. alice may go on searching")

    # alice gives up: every final line names the resignation; the ledger says what happened.
    services.move_submit(match_id=match.pk, user=alice, move={"type": "give_up"}, version=match.version)
    match = Match.objects.get(pk=match.pk)
    for user, headline in ((alice, "You won"), (bob, "You lost")):
        end = selectors.match_payload(match, user)["ending"]
        assert end["headline"] == headline
        assert end["reason"].startswith("bob resigned. alice searched on alone (15.3) and gave up the search")
        assert end["details"][0].startswith("The ante goes back to its owners:")
    entries = LedgerEntry.objects.filter(match_id=str(match.pk), reason="ante_released")
    assert entries.count() == len(ante)
    assert {e.get_reason_display() for e in entries} == {"Ante returned"}
    [note] = {e.note for e in entries}
    assert note.startswith(f"Game #{match.pk} ended without the Grail found, so no one wins the ante: bob resigned.")
    assert "game abandoned" not in note


def test_conceding_a_doubled_ante_reads_like_a_resignation(make_user):
    from tests.platform.ccg_helpers import ensure_card_database, prepared_player
    from tests.platform.test_ccg_antes import offer_double
    ensure_card_database()
    alice, bob = make_user("alice"), make_user("bob")
    decks = [prepared_player(alice, spare=1), prepared_player(bob)]
    match = services.match_create(creator=alice, kind="ccg", num_seats=2, invite=["bob"], seed=7,
                                  creator_choice={"deck": decks[0].pk}, options={"double_the_ante": True})
    services.match_join(match_id=match.pk, user=bob, choice={"deck": decks[1].pk})
    users = [alice, bob]
    match = drive(Match.objects.get(pk=match.pk), users, until=lambda m: m.state["phase"] != "cut")
    offerer = match.state["turn"]
    match = offer_double(match, users, offerer)
    other = 1 - offerer
    services.move_submit(match_id=match.pk, user=users[other], move={"type": "concede"}, version=match.version)
    match = Match.objects.get(pk=match.pk)
    ending = selectors.match_payload(match, users[other])["ending"]
    assert ending["headline"] == "You conceded the doubled ante" and ending["over_for_you"]
    assert ending["details"][0].startswith(f"{users[offerer].username} may go on searching for the Grail alone")
    why = selectors.match_payload(match, users[offerer])["situation"][0]
    assert why.startswith(f"{users[other].username} conceded the doubled ante. You may go on searching")


# --- nobody left but computers -----------------------------------------------------------

def test_a_camelot_game_left_to_computers_alone_stops(make_user, client):
    """The one person at a table of computers resigns: the game ends there (won by the
    computers still in) instead of playing on for a hundred moves before no one."""
    alice = make_user("alice")
    match = services.match_create(creator=alice, kind="camelot", num_seats=3, computers_at={1: "random", 2: "random"},
                                  clock_kind="none", clock_amount=0, seed=5)
    seated_players_moved(match)
    services.match_resign(match_id=match.pk, user=alice)
    match = Match.objects.get(pk=match.pk)
    assert match.status == "finished" and match.outcome["winners"] == [1, 2]
    assert not Seat.objects.filter(match=match).exclude(waiting_for="").exists()
    ending = selectors.match_payload(match, alice)["ending"]
    assert ending["headline"] == "You lost"
    assert ending["reason"] == ("alice resigned. With no person left playing, the game stops here, won by the "
                                "computer players still in.")
    client.force_login(alice)
    home = client.get("/").content.decode()
    assert re.search(rf'data-match="{match.pk}".*?You lost', home[home.index('data-testid="finished"'):], re.S)


def test_a_person_still_at_the_table_keeps_the_game_going(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(creator=alice, kind="camelot", num_seats=3, invite=["bob"],
                                  computers_at={2: "random"}, clock_kind="none", clock_amount=0, seed=5)
    services.match_join(match_id=match.pk, user=bob)
    seated_players_moved(match)
    services.match_resign(match_id=match.pk, user=alice)
    match = Match.objects.get(pk=match.pk)
    assert match.status == "active"
    assert selectors.match_payload(match, alice)["ending"]["headline"] == "You resigned"
    assert selectors.match_payload(match, bob)["ending"] is None


# --- rematch -----------------------------------------------------------------------------

def test_a_rematch_seats_the_same_table_and_invites_the_others(make_match, make_user):
    match, (alice, bob) = make_match(options={"rounds": 2}, clock_kind="hours", clock_amount=5, title="Friday")
    with pytest.raises(ServiceError):
        services.match_rematch(match_id=match.pk, user=alice)  # not over yet
    match = _play_duel_out(match, [alice, bob])
    with pytest.raises(NotAllowed):
        services.match_rematch(match_id=match.pk, user=make_user("carol"))
    rematch, created = services.match_rematch(match_id=match.pk, user=bob)
    assert created and rematch.rematch_of_id == match.pk and rematch.kind == "duel"
    assert (rematch.options, rematch.clock, rematch.clock_amount, rematch.title) == (match.options, "hours", 5,
                                                                                    "Rematch: Friday")
    seats = list(rematch.seats.order_by("index"))
    assert [(s.user, s.accepted) for s in seats] == [(bob, True), (alice, False)]  # the asker first
    assert Notification.objects.get(user=alice, match=rematch, kind="invited").text == (
        f"{bob.username} asks you for a rematch of Grail Duel #{match.pk}.")
    # Asked again, by anyone of the table: the same rematch.
    assert services.match_rematch(match_id=match.pk, user=alice) == (rematch, False)
    services.match_join(match_id=rematch.pk, user=alice)
    assert Match.objects.get(pk=rematch.pk).status == "active"


def test_a_rematch_against_computers_starts_at_once_with_them(make_user):
    alice = make_user("alice")
    match = services.match_create(creator=alice, kind="camelot", num_seats=3, computers_at={1: "random", 2: "knight"},
                                  clock_kind="none", clock_amount=0, seed=5)
    seated_players_moved(match)
    services.match_resign(match_id=match.pk, user=alice)
    rematch, _ = services.match_rematch(match_id=match.pk, user=alice)
    assert rematch.status == "active" and rematch.practice
    assert list(rematch.seats.order_by("index").values_list("computer", flat=True)) == ["", "random", "knight"]


# --- notifications that no longer apply ----------------------------------------------------

def test_a_your_move_goes_away_once_moved_or_once_the_game_ends(make_match):
    match, (alice, bob) = make_match(options={"rounds": 3})
    to_move = [alice, bob][match.state["turn"]]
    assert Notification.objects.filter(user=to_move, match=match, kind="your_turn").exists()
    seat = match.state["turn"]
    services.move_submit(match_id=match.pk, user=to_move, move={"type": "play", "card": match.state["hands"][seat][0]},
                         version=match.version)
    assert not Notification.objects.filter(user=to_move, match=match, kind="your_turn").exists()
    match.refresh_from_db()
    waiting = [alice, bob][match.state["turn"]]
    assert Notification.objects.filter(user=waiting, match=match, kind="your_turn", read_at__isnull=True).exists()
    services.match_resign(match_id=match.pk, user=to_move)
    assert not Notification.objects.filter(match=match, kind__in=["your_turn", "deadline_near"]).exists()
    assert Notification.objects.filter(match=match, kind="game_over").count() == 2


def test_a_timed_out_turn_is_said_in_words_in_the_log_and_the_notification(make_match):
    """In a game of two, running out of time on one's own turn loses it: the log, the ending
    and the notification say so in words."""
    from datetime import timedelta

    from django.utils import timezone
    match, (alice, bob) = make_match(options={"rounds": 3}, clock_kind="minutes", clock_amount=5)
    seated_players_moved(match)
    late = match.state["turn"]
    Seat.objects.filter(match=match, index=late).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.deadline_expire(match_id=match.pk, seat_index=late)
    record = MoveRecord.objects.get(match=match, by_timeout=True)
    name = [alice, bob][late].username
    assert record.move == {"type": "resign"}
    lines = [line for line in selectors.log_for(match, None, seats=selectors.seats_for(match)) if line["seq"] == record.seq]
    assert lines[0] == {"seq": record.seq, "kind": "timeout", "timeout": True,
                        "text": f"{name} ran out of time, and loses the game."}
    match.refresh_from_db()
    assert match.status == "finished" and match.outcome["winners"] == [1 - late]
    ending = selectors.ending_for(match, late, selectors.seats_for(match))
    assert (ending["headline"], ending["reason"]) == ("You lost", f"{name} ran out of time.")
    assert Notification.objects.get(user=[alice, bob][late], kind="timeout").text == (
        f"Your time ran out in Grail Duel #{match.pk}: you lost the game.")
