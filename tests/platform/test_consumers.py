"""Live updates through a real Channels layer on Redis."""
import asyncio
import json

import pytest
from channels.db import database_sync_to_async

from games.table import services
from tests.platform.wsclient import communicator, next_state, session_cookie

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def run(coro):
    return asyncio.run(coro)


def test_opponent_receives_their_own_view_after_my_move(make_match):
    match, (alice, bob) = make_match()
    bob_cookie = session_cookie(bob)

    async def scenario():
        bob_ws = communicator(f"/ws/matches/{match.pk}/", bob_cookie)
        connected, _ = await bob_ws.connect()
        assert connected
        first, _ = await next_state(bob_ws)
        assert first["version"] == match.version and first["my_seat"] == 1
        move = {"type": "play", "card": match.state["hands"][0][0]}
        await database_sync_to_async(services.move_submit)(match_id=match.pk, user=alice, move=move,
                                                           version=match.version)
        update, _ = await next_state(bob_ws)
        assert update["version"] == match.version + 1
        assert update["view"]["played"][0] == [move["card"]]
        assert update["view"]["my_hand"] == sorted(match.state["hands"][1])
        assert [m["type"] for m in update["legal_moves"]] == ["play"] * len(update["legal_moves"])
        await bob_ws.disconnect()

    run(scenario())


def test_chat_reaches_spectators_and_players(make_match, make_user):
    match, (alice, bob) = make_match()
    watcher_cookie = session_cookie(make_user())

    async def scenario():
        ws = communicator(f"/ws/matches/{match.pk}/", watcher_cookie)
        assert (await ws.connect())[0]
        data, _ = await next_state(ws)
        assert data["my_seat"] is None and data["view"]["my_hand"] is None
        await database_sync_to_async(services.chat_post)(match_id=match.pk, user=alice, text="Ni!")
        msg = json.loads(await ws.receive_from(timeout=5))
        assert msg == {"type": "chat", "message": {**msg["message"], "user": alice.username, "text": "Ni!"}}
        await ws.disconnect()

    run(scenario())


def test_a_client_that_reconnects_catches_up_by_version(make_match):
    match, (alice, bob) = make_match()
    bob_cookie = session_cookie(bob)

    async def scenario():
        move = {"type": "play", "card": match.state["hands"][0][0]}
        await database_sync_to_async(services.move_submit)(match_id=match.pk, user=alice, move=move,
                                                           version=match.version)
        ws = communicator(f"/ws/matches/{match.pk}/", bob_cookie)
        assert (await ws.connect())[0]
        data, _ = await next_state(ws)
        assert data["version"] == match.version + 1
        await ws.send_json_to({"type": "sync", "version": match.version})  # claims to know an old version
        again, _ = await next_state(ws)
        assert again["version"] == match.version + 1
        await ws.send_json_to({"type": "sync", "version": match.version + 1})  # up to date: nothing is sent
        assert await ws.receive_nothing(timeout=0.3)
        await ws.disconnect()

    run(scenario())


def test_private_games_refuse_outsiders_and_foreign_origins_are_refused(make_match, make_user):
    match, (alice, _) = make_match(allow_spectators=False)
    stranger_cookie, alice_cookie = session_cookie(make_user()), session_cookie(alice)

    async def scenario():
        ws = communicator(f"/ws/matches/{match.pk}/", stranger_cookie)
        connected, code = await ws.connect()
        assert not connected
        evil = communicator(f"/ws/matches/{match.pk}/", alice_cookie, origin="http://evil.example")
        connected, _ = await evil.connect()
        assert not connected
        missing = communicator("/ws/matches/987654/", alice_cookie)
        assert not (await missing.connect())[0]

    run(scenario())


def test_my_channel_tells_me_when_a_game_of_mine_waits(make_match):
    match, (alice, bob) = make_match()
    bob_cookie = session_cookie(bob)

    async def scenario():
        ws = communicator("/ws/me/", bob_cookie)
        assert (await ws.connect())[0]
        move = {"type": "play", "card": match.state["hands"][0][0]}
        await database_sync_to_async(services.move_submit)(match_id=match.pk, user=alice, move=move,
                                                           version=match.version)
        msg = json.loads(await ws.receive_from(timeout=5))
        assert msg["type"] == "update" and msg["match"] == match.pk and msg["unread"] >= 1
        await ws.disconnect()
        anonymous = communicator("/ws/me/")
        assert not (await anonymous.connect())[0]

    run(scenario())
