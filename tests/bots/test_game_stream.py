"""A game's stream (GET /api/stream/games/<id>/): the whole position first, then each change
as the seat sees it, chat lines, the end; a reconnect starts again, a second stream of the same
token replaces the first, and a stream the client left is let go by the server."""
from __future__ import annotations

import time

import redis
from django.conf import settings

from games import registry
from games.live import frames, publisher
from games.models import Match
from games.table import services
from tests.bots.streamclient import Stream


def _pending_move(match):
    game = registry.get(match.kind)
    seat = game.pending(match.state)[0].seat
    legal = [m for m in game.legal_moves(match.state, seat) if m.get("type") != "resign"]
    return seat, legal[0]


def _subscribers(group: str) -> int:
    channel = publisher.group_channel(group)
    client = redis.Redis.from_url(settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]
                                  if isinstance(settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0], str)
                                  else settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]["address"])
    return dict(client.pubsub_numsub(channel)).get(channel.encode(), 0)


def test_the_stream_opens_whole_then_sends_each_change_as_the_seat_sees_it(bot_server, make_bot, make_match):
    (alice, _), (bob, bob_key) = make_bot(), make_bot()
    match, users = make_match(kind="fluxx", users=[alice, bob])
    game = registry.get("fluxx")
    stream = Stream(bot_server, f"/api/stream/games/{match.pk}/", bob_key)
    assert stream.status == 200 and stream.response.getheader("Content-Type") == "application/x-ndjson"
    full = stream.next()
    match.refresh_from_db()
    assert full["type"] == "gameFull" and full["my_seat"] == 1 and full["version"] == match.version
    assert full["view"] == game.view_for(match.state, 1)
    assert full["legal_moves"] == game.legal_moves(match.state, 1)
    assert full["my_turn"] == (game.pending(match.state)[0].seat == 1)
    for _ in range(6):
        seat, move = _pending_move(match)
        services.move_submit(match_id=match.pk, user=users[seat], move=move, version=match.version)
        match.refresh_from_db()
        line = stream.next()
        while line["version"] < match.version:  # a move may bring the clock's or the rules' own after it
            line = stream.next()
        assert line["type"] == "gameState" and line["version"] == match.version
        # Bob's own view: his hand, never Alice's (the rules' view for his seat, exactly).
        assert line["view"] == game.view_for(match.state, 1)
        assert line["legal_moves"] == game.legal_moves(match.state, 1)
        assert line["my_turn"] == any(p.seat == 1 for p in game.pending(match.state))
    services.chat_post(match_id=match.pk, user=alice, text="Ni!")
    chat = stream.next(skip=())
    assert chat["type"] == "chatLine" and chat["text"] == "Ni!" and chat["user"] == alice.username
    services.match_resign(match_id=match.pk, user=alice)
    line = stream.next()
    while line["type"] == "gameState":
        line = stream.next()
    match.refresh_from_db()
    assert line == {"type": "gameEnd", "status": match.status, "outcome": line["outcome"], "ending": line["ending"]}
    assert line["status"] in Match.ENDED and line["ending"]["result"] == "won"
    assert stream.next() is None  # and the stream ends with the game
    stream.close()


def test_a_reconnect_starts_whole_and_a_second_stream_replaces_the_first(bot_server, make_bot, make_match):
    (alice, _), (bob, bob_key) = make_bot(), make_bot()
    match, users = make_match(kind="duel", users=[alice, bob])
    first = Stream(bot_server, f"/api/stream/games/{match.pk}/", bob_key, timeout=5)
    assert first.next()["type"] == "gameFull"
    second = Stream(bot_server, f"/api/stream/games/{match.pk}/", bob_key, timeout=5)
    assert second.next()["type"] == "gameFull"
    assert first.ended()  # replaced
    seat, move = _pending_move(match)
    services.move_submit(match_id=match.pk, user=users[seat], move=move, version=match.version)
    assert second.next()["type"] == "gameState"
    second.close()
    third = Stream(bot_server, f"/api/stream/games/{match.pk}/", bob_key, timeout=5)
    again = third.next()
    match.refresh_from_db()
    assert again["type"] == "gameFull" and again["version"] == match.version
    third.close()


def test_a_stream_the_client_left_is_let_go(bot_server, make_bot, make_match):
    (alice, _), (bob, bob_key) = make_bot(), make_bot()
    match, _users = make_match(kind="duel", users=[alice, bob])
    group = frames.seat_group(match.pk, 1)
    stream = Stream(bot_server, f"/api/stream/games/{match.pk}/", bob_key)
    assert stream.next()["type"] == "gameFull"
    assert _subscribers(group) == 1
    stream.close()
    deadline = time.monotonic() + 5
    while _subscribers(group) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _subscribers(group) == 0


def test_keepalives_are_empty_lines(bot_server, make_bot, make_match):
    (alice, _), (bob, bob_key) = make_bot(), make_bot()
    match, _users = make_match(kind="duel", users=[alice, bob])
    stream = Stream(bot_server, f"/api/stream/games/{match.pk}/", bob_key, timeout=5)
    assert stream.next()["type"] == "gameFull"
    started = time.monotonic()
    while stream.keepalives < 2:
        stream.response.readline() == b"\n" and setattr(stream, "keepalives", stream.keepalives + 1)
    assert time.monotonic() - started < 4  # one a second on this server (BOT_STREAM_KEEPALIVE)
    stream.close()


def test_who_may_not_stream_is_told_why(bot_server, make_bot, make_match, make_user):
    (alice, alice_key), (bob, bob_key) = make_bot(), make_bot()
    match, _users = make_match(kind="duel", users=[alice, bob])
    Match.objects.filter(pk=match.pk).update(allow_spectators=False)
    (_carol, carol_key) = make_bot()
    answers = {
        "no token": Stream(bot_server, f"/api/stream/games/{match.pk}/", None),
        "a wrong token": Stream(bot_server, f"/api/stream/games/{match.pk}/", "gb_" + "x" * 40),
        "not at the table": Stream(bot_server, f"/api/stream/games/{match.pk}/", carol_key),
        "no such game": Stream(bot_server, "/api/stream/games/999999/", alice_key),
    }
    found = {why: (s.status, s.error()["error"]["code"]) for why, s in answers.items()}
    assert found == {"no token": (401, "unauthenticated"), "a wrong token": (401, "unauthenticated"),
                     "not at the table": (403, "forbidden"), "no such game": (404, "not_found")}
    (_dave, play_only) = make_bot(scopes=("play",))
    refused = Stream(bot_server, "/api/stream/events/", play_only)
    assert (refused.status, refused.error()["error"]["code"]) == (403, "scope")


def test_a_ccg_stream_line_is_the_seat_s_whole_view(bot_server, make_bot):
    """The page keeps the CCG's card definitions between frames and is sent only the new ones;
    a bot's line carries the whole view, exactly the rules' view for its seat."""
    from tests.platform.ccg_helpers import ensure_card_database, prepared_player, start_two_player

    ensure_card_database()
    (alice, _), (bob, bob_key) = make_bot(), make_bot()
    match, users = start_two_player(((alice, prepared_player(alice)), (bob, prepared_player(bob))), seed=3)
    game = registry.get("ccg")
    stream = Stream(bot_server, f"/api/stream/games/{match.pk}/", bob_key)
    full = stream.next()
    match.refresh_from_db()
    assert full["view"] == game.view_for(match.state, 1)
    checked = 0
    for _ in range(8):
        if match.status != "active":
            break
        seat, move = _pending_move(match)
        services.move_submit(match_id=match.pk, user=users[seat], move=move, version=match.version)
        match.refresh_from_db()
        line = stream.next()
        while line["type"] == "gameState" and line["version"] < match.version:
            line = stream.next()
        if line["type"] != "gameState":
            break
        assert line["view"] == game.view_for(match.state, 1)
        assert line["legal_moves"] == game.legal_moves(match.state, 1)
        checked += 1
    assert checked >= 3
    stream.close()
