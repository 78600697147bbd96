"""Moves over a game's own websocket, and change frames built once by the process that made
the change (games/live/frames.py), through a real Channels layer on Redis."""
import asyncio
import json
from unittest import mock

import pytest
from channels.db import database_sync_to_async

from games.live import consumers, frames
from games.table import selectors, services
from games.models import MoveRecord
from tests.platform.wsclient import communicator, next_state, session_cookie
from tests.secret_game import secrets_of

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


async def _open(match, user):
    cookie = await database_sync_to_async(session_cookie)(user) if user else None
    ws = communicator(f"/ws/matches/{match.pk}/", cookie)
    assert (await ws.connect())[0]
    data, _ = await next_state(ws, whole=True)
    return ws, data


async def _answer(ws):
    """The next ack or refusal on this socket (frames may come first)."""
    while True:
        msg = json.loads(await ws.receive_from(timeout=5))
        if msg["type"] in ("ack", "refused"):
            return msg


def test_a_move_over_the_socket_is_acknowledged_and_everyone_gets_their_own_change(make_match, make_user):
    match, (alice, bob) = make_match(kind="secret")
    watcher = make_user("watcher")
    card = match.state["hands"][0][0]

    async def scenario():
        alice_ws, _ = await _open(match, alice)
        bob_ws, _ = await _open(match, bob)
        watch_ws, _ = await _open(match, watcher)
        await alice_ws.send_to(text_data=json.dumps({"type": "move", "move": {"type": "play", "card": card},
                                                     "version": match.version, "key": "k-1"}))
        assert await _answer(alice_ws) == {"type": "ack", "key": "k-1", "version": match.version + 1, "seq": 1,
                                           "repeated": False}
        for ws, seat in ((bob_ws, 1), (watch_ws, None)):
            change, raw = await next_state(ws)
            assert json.loads(raw)["type"] == "change"
            assert change["prev"] == match.version and change["version"] == match.version + 1
            assert change["my_seat"] == seat and change["view"]["table"] == [card]
            assert [e["text"] for e in change["events"]] == [f"{alice.username} plays {card}."]  # in names
            stored = await database_sync_to_async(lambda: services.Match.objects.get(pk=match.pk).state)()
            assert not any(secret in raw for secret in secrets_of(stored, seat))
        # The same key again: the first result, nothing applied twice.
        await alice_ws.send_to(text_data=json.dumps({"type": "move", "move": {"type": "play", "card": card},
                                                     "version": match.version, "key": "k-1"}))
        assert (await _answer(alice_ws))["repeated"] is True
        for ws in (alice_ws, bob_ws, watch_ws):
            await ws.disconnect()

    asyncio.run(scenario())
    assert MoveRecord.objects.filter(match=match).count() == 1


def test_refusals_come_back_on_the_socket_which_stays_open(make_match, make_user):
    match, (alice, bob) = make_match(kind="secret")

    async def scenario():
        alice_ws, _ = await _open(match, alice)
        cases = [
            ({"type": "move", "move": "play", "key": "a"}, 400, "bad_request"),
            ({"type": "move", "move": {"type": "play", "card": "NOPE"}, "version": match.version, "key": "b"},
             422, "illegal_move"),
            ({"type": "move", "move": {"type": "play", "card": "x"}, "version": match.version - 1, "key": "c"},
             409, "stale"),
            ({"type": "move", "move": {"type": "play", "card": "x\x00"}, "key": "d"}, 400, "bad_request"),
            ({"type": "move", "move": {"type": "play", "card": "x"}, "key": "e\x00"}, 400, "bad_request"),
            ({"type": "move", "move": {"type": "play", "card": "x"}, "key": "\ud800"}, 400, "bad_request"),
        ]
        for message, status, code in cases:
            await alice_ws.send_to(text_data=json.dumps(message))
            answer = await _answer(alice_ws)
            assert (answer["type"], answer["status"], answer["error"]["code"]) == ("refused", status, code), answer
        bob_ws, _ = await _open(match, bob)  # bob is not to move: the rules refuse, with their reason
        await bob_ws.send_to(text_data=json.dumps({"type": "move", "move": {"type": "play", "card": "x"}}))
        assert (await _answer(bob_ws))["error"]["message"] == "It is not your turn."
        anon_ws, _ = await _open(match, None)
        await anon_ws.send_to(text_data=json.dumps({"type": "move", "move": {"type": "finish"}}))
        assert (await _answer(anon_ws))["status"] == 401
        for ws in (alice_ws, bob_ws, anon_ws):
            await ws.disconnect()

    asyncio.run(scenario())
    assert not MoveRecord.objects.filter(match=match).exists()


def test_receivers_forward_changes_without_touching_the_database(make_match):
    """Once connected, a socket sends each change as the mover's process built it: no frame
    load, no query, however many sockets listen."""
    match, (alice, bob) = make_match(kind="secret")

    async def scenario():
        bob_ws, _ = await _open(match, bob)
        with mock.patch.object(consumers, "_load_frame", side_effect=AssertionError("a receiver loaded a frame")), \
                mock.patch.object(consumers._frames, "get", side_effect=AssertionError("a receiver loaded a frame")):
            for n in range(3):
                await database_sync_to_async(match.refresh_from_db)()
                mover = [alice, bob][match.state["turn"]]
                await database_sync_to_async(services.move_submit)(
                    match_id=match.pk, user=mover, move={"type": "play", "card": match.state["hands"][match.state["turn"]][0]},
                    version=match.version)
                change, _ = await next_state(bob_ws)
                assert change["version"] == match.version + 1
        await bob_ws.disconnect()

    asyncio.run(scenario())


def test_a_socket_that_missed_a_change_gets_the_whole_state(make_match):
    match, (alice, bob) = make_match(kind="secret")

    def play(user, seat):
        match.refresh_from_db()
        services.move_submit(match_id=match.pk, user=user, version=None,
                             move={"type": "play", "card": match.state["hands"][seat][0]})

    async def scenario():
        bob_ws, first = await _open(match, bob)
        # The first change is lost on its way (Redis dropped it): bob's socket never hears it.
        with mock.patch("games.live.publisher.group_send_many"):
            await database_sync_to_async(play)(alice, 0)
        await database_sync_to_async(play)(bob, 1)
        raw = await bob_ws.receive_from(timeout=5)
        frame = json.loads(raw)
        assert frame["type"] == "state" and frame["data"]["version"] == first["version"] + 2
        assert {line["seq"] for line in frame["data"]["log"]} == {1, 2}  # the whole state: both moves
        await bob_ws.disconnect()

    asyncio.run(scenario())


def test_a_group_nobody_listened_to_gets_a_nudge_and_its_next_listener_catches_up(make_match, make_user):
    """No frame is built for a group that had no listener the last time (a player away from
    the game's page, a game nobody watches): the change is announced without one. A socket
    that hears such a nudge loads its own frame, and once a listener is counted the next
    change carries frames again."""
    match, (alice, bob) = make_match(kind="secret")
    watcher = make_user("watcher")
    built = []
    real_payload = selectors.change_payload

    def counted(match, seats, seat, **kwargs):
        built.append(seat)
        return real_payload(match, seats, seat, **kwargs)

    def play(user, seat):
        match.refresh_from_db()
        services.move_submit(match_id=match.pk, user=user, version=None,
                             move={"type": "play", "card": match.state["hands"][seat][0]})

    async def scenario():
        with mock.patch.object(selectors, "change_payload", counted):
            # Nobody has been on the page since the game began (its start was announced to
            # no one): no frame is built for anyone.
            await database_sync_to_async(play)(alice, 0)
            await database_sync_to_async(play)(bob, 1)
            assert built == []
            watch_ws, first = await _open(match, watcher)
            # As if the mover's process had not seen the watcher join (it joined elsewhere):
            frames._unheard[frames.watch_group(match.pk)] = None
            await database_sync_to_async(play)(alice, 0)
            whole, raw = await next_state(watch_ws, whole=True)  # the nudge: the socket loads the state
            assert whole["version"] == first["version"] + 1 and json.loads(raw)["type"] == "state"
            stored = await database_sync_to_async(whole_state)(match)
            assert not any(secret in raw for secret in secrets_of(stored, None))
            await database_sync_to_async(play)(bob, 1)  # the watcher was counted: a frame again
            change, raw = await next_state(watch_ws)
            assert json.loads(raw)["type"] == "change" and change["version"] == first["version"] + 2
            assert None in built and 0 not in built and 1 not in built  # the players are still away
            await watch_ws.disconnect()

    asyncio.run(scenario())


def whole_state(match):
    match.refresh_from_db()
    return match.state
