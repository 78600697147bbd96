"""The end of a game said once, in names, to each player; the finished list shows results; one
unread notification per game and kind (not "Seat 1" banners, nor 17 notifications a game)."""
import re

from games.table import selectors, services
from games.models import Notification
from tests.conftest import seated_players_moved

SEAT_N = re.compile(r"\bseat \d+\b", re.IGNORECASE)


def _play_out(match, users):
    """Both players lay their first card until the duel ends."""
    while True:
        match.refresh_from_db()
        if match.status != "active":
            return match
        seat = match.state["turn"]
        services.move_submit(match_id=match.pk, user=users[seat], move={"type": "play", "card": match.state["hands"][seat][0]},
                             version=match.version)


def test_each_player_reads_won_or_lost_with_the_reason_in_names(make_match, make_user):
    match, users = make_match(options={"rounds": 2})
    match = _play_out(match, users)
    seats = selectors.seats_for(match)
    endings = [selectors.ending_for(match, i, seats) for i in (0, 1)]
    if match.outcome["draw"]:
        assert [e["headline"] for e in endings] == ["Draw", "Draw"]
    else:
        winner = match.outcome["winners"][0]
        assert endings[winner]["headline"] == "You won" and endings[1 - winner]["headline"] == "You lost"
        assert users[winner].username in endings[0]["reason"]
        watcher = selectors.ending_for(match, None, seats)
        assert watcher["headline"] == f"{users[winner].username} won"
    assert not any(SEAT_N.search(e["reason"]) for e in endings)


def test_a_resignation_is_said_in_names_everywhere(make_match):
    match, (alice, bob) = make_match()
    seated_players_moved(match)
    services.match_resign(match_id=match.pk, user=bob)
    match.refresh_from_db()
    payload = selectors.match_payload(match, alice)
    ratings = payload["ending"].pop("ratings")
    assert payload["ending"] == {"result": "won", "headline": "You won", "reason": f"{bob.username} resigned.",
                                 "details": [], "rating_note": None}
    assert [(line["name"], line["change"] > 0) for line in ratings] == [(alice.username, True), (bob.username, False)]
    assert selectors.match_payload(match, bob)["ending"]["headline"] == "You lost"
    for n in Notification.objects.filter(kind="game_over"):
        assert not SEAT_N.search(n.text), n.text
    assert Notification.objects.get(user=alice, kind="game_over").text.startswith("You won in Grail Duel")
    assert Notification.objects.get(user=bob, kind="game_over").text.startswith("You lost in Grail Duel")
    assert not any(SEAT_N.search(line["text"]) for line in payload["log"])


def test_the_finished_list_shows_each_result(client, make_match):
    won, (alice, bob) = make_match()
    seated_players_moved(won)
    services.match_resign(match_id=won.pk, user=bob)
    lost, _ = make_match(users=[alice, bob])
    seated_players_moved(lost)
    services.match_resign(match_id=lost.pk, user=alice)
    client.force_login(alice)
    page = client.get("/").content.decode()
    finished = page[page.index('data-testid="finished"'):]
    assert re.search(rf'data-match="{won.pk}".*?You won', finished, re.S)
    assert re.search(rf'data-match="{lost.pk}".*?You lost', finished, re.S)
    assert f"{bob.username} resigned." in finished and f"{alice.username} resigned." in finished


def test_one_unread_notification_per_game_and_kind(make_match):
    match, users = make_match(options={"rounds": 6})
    for _ in range(6):  # six moves: each player is told "your move" three times
        match.refresh_from_db()
        seat = match.state["turn"]
        services.move_submit(match_id=match.pk, user=users[seat],
                             move={"type": "play", "card": match.state["hands"][seat][0]}, version=match.version)
    match.refresh_from_db()
    to_move = users[match.state["turn"]]
    for user in users:
        # One "Your move" for the player whose move it is; the other's went away when they moved.
        assert Notification.objects.filter(user=user, match=match, kind="your_turn").count() == (user == to_move)
    # Once read, the next event is news again; a read notification stays as it was.
    services.notifications_mark_read(user=to_move)
    for _ in range(2):
        match.refresh_from_db()
        seat = match.state["turn"]
        services.move_submit(match_id=match.pk, user=users[seat],
                             move={"type": "play", "card": match.state["hands"][seat][0]}, version=match.version)
    assert Notification.objects.filter(user=to_move, match=match, kind="your_turn").count() == 2
    assert Notification.objects.filter(user=to_move, match=match, kind="your_turn", read_at__isnull=True).count() == 1


def test_a_timeout_notification_names_players(make_match):
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Seat
    match, (alice, bob) = make_match(clock_kind="minutes", clock_amount=5)
    seated_players_moved(match)
    Seat.objects.filter(match=match, index=0).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.deadline_expire(match_id=match.pk, seat_index=0)
    text = Notification.objects.get(user=alice, kind="timeout").text
    assert "Your time ran out" in text and not SEAT_N.search(text)
