"""The account's event stream (GET /api/stream/events/): challenges to it, games starting and
ending, and what is waiting already when it connects."""
from __future__ import annotations

from games.table import services
from tests.bots.streamclient import Stream


def test_challenges_starts_and_ends_arrive_as_they_happen(bot_server, make_bot, make_user):
    alice = make_user()
    bob, bob_key = make_bot()
    events = Stream(bot_server, "/api/stream/events/", bob_key)
    match = services.match_create(creator=alice, kind="duel", num_seats=2, invite=[bob.username], clock_kind="hours",
                                  clock_amount=4)
    challenge = events.next()
    assert challenge == {"type": "challenge", "challenge": {
        "id": match.pk, "kind": "duel", "name": "Grail Duel", "seats": 2, "seat": 1,
        "clock": {"kind": "hours", "amount": 4}, "rated": True, "from": alice.username, "title": ""}}
    services.match_join(match_id=match.pk, user=bob)
    assert events.next() == {"type": "gameStart", "game": {"id": match.pk, "kind": "duel", "seat": 1}}
    services.match_resign(match_id=match.pk, user=alice)
    finish = events.next()
    assert finish["type"] == "gameFinish" and finish["game"]["id"] == match.pk
    assert finish["game"]["status"] in ("finished", "aborted")
    declined = services.match_create(creator=alice, kind="duel", num_seats=2, invite=[bob.username])
    assert events.next()["challenge"]["id"] == declined.pk
    services.match_decline(match_id=declined.pk, user=bob)
    assert events.next() == {"type": "challengeGone", "challenge": {"id": declined.pk}}
    events.close()


def test_what_waits_is_sent_on_connecting(bot_server, make_bot, make_user, make_match):
    alice = make_user()
    bob, bob_key = make_bot()
    playing, _ = make_match(kind="duel", users=[alice, bob])
    invited = services.match_create(creator=alice, kind="fluxx", num_seats=2, invite=[bob.username])
    events = Stream(bot_server, "/api/stream/events/", bob_key)
    first = [events.next(), events.next()]
    assert {(e["type"], (e.get("challenge") or e.get("game"))["id"]) for e in first} == {
        ("challenge", invited.pk), ("gameStart", playing.pk)}
    events.close()
