"""Websocket robustness through the real Redis channel layer: the origin check compares
scheme, host and port; bad frames close with a code; a flood is cut off; catching up is
served from the version alone; and with Redis down a new socket is refused cleanly (1013)."""
import asyncio
import json
import shutil
import socket
import subprocess
import time

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator

from games.live import consumers
from games.table import services
from grailsite.asgi import application
from tests.platform.wsclient import communicator, next_state, session_cookie

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def run(coro):
    return asyncio.run(coro)


def raw_communicator(path, cookie, origin, host="testserver", scheme="ws"):
    headers = [(b"origin", origin.encode()), (b"host", host.encode()), (b"cookie", f"sessionid={cookie}".encode())]
    comm = WebsocketCommunicator(application, path, headers=headers)
    comm.scope["scheme"] = scheme
    return comm


@pytest.mark.parametrize("origin,host,scheme,allowed", [
    ("http://testserver", "testserver", "ws", True),
    ("https://testserver", "testserver", "wss", True),
    ("http://testserver:6666", "testserver", "ws", False),      # another port of the same host
    ("https://testserver", "testserver", "ws", False),          # another scheme
    ("http://testserver", "testserver", "wss", False),
    ("http://127.0.0.1:6666", "127.0.0.1:8000", "ws", False),   # another port of the same host
    ("http://127.0.0.1:8000", "127.0.0.1:8000", "ws", True),
    ("http://evil.example", "evil.example", "ws", False),       # not an allowed host at all
    ("null", "testserver", "ws", False),
])
def test_the_origin_must_match_scheme_host_and_port(make_match, origin, host, scheme, allowed):
    match, (alice, _) = make_match()
    cookie = session_cookie(alice)

    async def scenario():
        ws = raw_communicator(f"/ws/matches/{match.pk}/", cookie, origin, host=host, scheme=scheme)
        connected, _ = await ws.connect()
        assert connected is allowed
        if connected:
            data, _ = await next_state(ws)
            assert data["my_seat"] == 0
            await ws.disconnect()

    run(scenario())


@pytest.mark.parametrize("frame,binary", [
    ("not json", False), ("[1, 2]", False), ('{"type": "teleport"}', False),
    ('{"type": "sync", "version": "x"}', False), ('{"type": "sync", "version": 1', False),
    ("[" * 5000 + "]" * 5000, False), ('{"type": "sync", "pad": "' + "x" * 2000 + '"}', False),
    (b"\x00\x01binary", True),
])
def test_malformed_frames_close_with_4400_not_a_traceback(make_match, frame, binary):
    match, (alice, _) = make_match()
    cookie = session_cookie(alice)

    async def scenario():
        ws = communicator(f"/ws/matches/{match.pk}/", cookie)
        assert (await ws.connect())[0]
        await next_state(ws)
        if binary:
            await ws.send_to(bytes_data=frame)
        else:
            await ws.send_to(text_data=frame)
        closed = await ws.receive_output(timeout=5)
        assert closed == {"type": "websocket.close", "code": consumers.CLOSE["bad_frame"],
                          "reason": closed.get("reason")} and closed.get("reason")
        await ws.wait()

    run(scenario())


def test_a_flood_of_syncs_is_cut_off_and_costs_no_game_loads(make_match, settings, monkeypatch):
    settings.WS_MESSAGE_BURST, settings.WS_MESSAGES_PER_SECOND = 5, 0.5
    match, (alice, _) = make_match()
    cookie = session_cookie(alice)
    loads = []

    def counting(real):
        async def load(*args):
            loads.append(args)
            return await real(*args)
        return load

    # The socket's opening frame, and any frame loaded later (none here).
    monkeypatch.setattr(consumers, "_load_opening", counting(consumers._load_opening))
    monkeypatch.setattr(consumers, "_load_frame", counting(consumers._load_frame))

    async def scenario():
        ws = communicator(f"/ws/matches/{match.pk}/", cookie)
        assert (await ws.connect())[0]
        data, _ = await next_state(ws)
        for _ in range(20):
            await ws.send_json_to({"type": "sync", "version": data["version"]})
        while True:
            out = await ws.receive_output(timeout=5)
            if out["type"] == "websocket.close":
                assert out["code"] == consumers.CLOSE["too_many"]
                break
        await ws.wait()

    run(scenario())
    assert len(loads) == 1  # the connect; every sync was answered from the version alone


def test_a_ping_when_behind_brings_the_state_then_a_pong(make_match):
    """The page's heartbeat: a push that never arrived (Redis dropped it) is caught up."""
    match, (alice, bob) = make_match()
    cookie = session_cookie(bob)

    async def scenario():
        ws = communicator(f"/ws/matches/{match.pk}/", cookie)
        assert (await ws.connect())[0]
        first, _ = await next_state(ws)
        # Lose the subscription, as a Redis restart can, then move: no push arrives.
        move = {"type": "play", "card": match.state["hands"][0][0]}
        layer = channel_layers["default"]
        await layer.flush()
        await database_sync_to_async(services.move_submit)(match_id=match.pk, user=alice, move=move,
                                                           version=match.version)
        assert await ws.receive_nothing(timeout=0.5)
        await ws.send_json_to({"type": "ping", "version": first["version"]})
        caught_up, _ = await next_state(ws)
        assert caught_up["version"] == first["version"] + 1
        pong = json.loads(await ws.receive_from(timeout=5))
        assert pong == {"type": "pong", "version": first["version"] + 1}
        await ws.send_json_to({"type": "ping", "version": caught_up["version"]})
        assert json.loads(await ws.receive_from(timeout=5))["type"] == "pong"
        await ws.disconnect()

    run(scenario())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def private_redis():
    """A Redis of this test's own (never the shared one), stopped by the test."""
    if not shutil.which("redis-server"):
        pytest.skip("redis-server is not installed")
    port = _free_port()
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--save", "", "--appendonly", "no"],
                            stdout=subprocess.DEVNULL)
    for _ in range(50):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.1)
    yield proc, port
    proc.kill()
    proc.wait()


def test_with_redis_down_a_new_socket_is_refused_with_1013(make_match, settings, private_redis):
    proc, port = private_redis
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                                           "CONFIG": {"hosts": [f"redis://127.0.0.1:{port}/0"], "prefix": "hard"}}}
    channel_layers.backends.pop("default", None)
    match, (alice, _) = make_match()
    cookie = session_cookie(alice)

    async def scenario():
        up = communicator(f"/ws/matches/{match.pk}/", cookie)
        assert (await up.connect())[0]
        await next_state(up)
        await up.disconnect()
        proc.kill()
        proc.wait()
        down = communicator(f"/ws/matches/{match.pk}/", cookie)
        connected, code = await down.connect(timeout=10)
        if connected:  # accepted, then closed with the code at once
            closed = await down.receive_output(timeout=10)
            code = closed.get("code")
        assert code == consumers.CLOSE["try_later"]

    try:
        run(scenario())
    finally:
        channel_layers.backends.pop("default", None)


def test_the_personal_channel_takes_no_messages(make_match):
    match, (alice, _) = make_match()
    cookie = session_cookie(alice)

    async def scenario():
        ws = communicator("/ws/me/", cookie)
        assert (await ws.connect())[0]
        await ws.send_to(text_data='{"type": "sync"}')
        closed = await ws.receive_output(timeout=5)
        assert closed["type"] == "websocket.close" and closed["code"] == consumers.CLOSE["bad_frame"]

    run(scenario())


def test_a_refused_origin_is_answered_without_the_channel_layer(make_match, settings):
    """A connect from another site is refused before anything else looks at it: with the
    channel layer's Redis out of reach the refusal used to fail itself (channels' denier is
    a consumer, which subscribes a channel first): "Exception in ASGI application", a 500."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                                           "CONFIG": {"hosts": [f"redis://127.0.0.1:{_free_port()}/0"],
                                                      "prefix": "hard"}}}
    channel_layers.backends.pop("default", None)
    match, (alice, _) = make_match()
    cookie = session_cookie(alice)

    async def scenario():
        comm = raw_communicator(f"/ws/matches/{match.pk}/", cookie, "http://evil.example")
        connected, _ = await comm.connect(timeout=5)
        assert not connected
        await comm.wait(timeout=5)  # the application returned, raising nothing

    try:
        run(scenario())
    finally:
        channel_layers.backends.pop("default", None)
