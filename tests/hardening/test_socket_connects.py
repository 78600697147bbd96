"""Websocket connects are limited per address and per game before any
other work (games/live/connect_gate.py), through the site's real ASGI stack and Redis layer, and
through a real uvicorn for the refusal a browser gets."""
import asyncio
import json
import logging
import re
import time
import uuid

import pytest
import websockets

from games.live import connect_gate
from grailsite.asgi import application
from tests.platform.wsclient import communicator, next_state

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def address() -> str:
    n = uuid.uuid4().int
    return f"10.{n % 250}.{(n >> 8) % 250}.{(n >> 16) % 250 + 1}"


@pytest.fixture
def inner_calls(monkeypatch):
    """Every connect that gets past the gate (to the origin check, the session, the user,
    the consumer and the database), counted."""
    gate = application.application_mapping["websocket"]
    assert isinstance(gate, connect_gate.ConnectGate)
    calls = []
    inner = gate.application

    async def counting(scope, receive, send):
        calls.append(scope["path"])
        return await inner(scope, receive, send)

    monkeypatch.setattr(gate, "application", counting)
    return calls


async def _open(path: str, ip: str | None):
    """(connected, ws): an anonymous spectator's socket from ``ip``."""
    ws = communicator(path)
    if ip is not None:
        ws.scope["client"] = (ip, 40000)
    connected, _ = await ws.connect(timeout=10)
    if connected:
        await next_state(ws)
    return connected, ws


def test_connects_are_limited_per_address_before_any_work(make_match, settings, inner_calls):
    settings.WS_CONNECT_LIMITS = {"address": (3, 0.001), "game": (100, 20)}
    match, _ = make_match()
    path = f"/ws/matches/{match.pk}/"
    ip, other = address(), address()

    async def scenario():
        opened = [await _open(path, ip) for _ in range(4)]
        assert [connected for connected, _ in opened] == [True, True, True, False]
        assert len(inner_calls) == 3  # the refused one never reached the origin check
        connected, ws = await _open(path, other)  # another address is not held back
        assert connected
        for connected, ws_open in [*opened, (connected, ws)]:
            if connected:
                await ws_open.disconnect()

    asyncio.run(scenario())


def test_an_ipv6_host_is_counted_by_its_64(make_match, settings):
    settings.WS_CONNECT_LIMITS = {"address": (2, 0.001), "game": (100, 20)}
    match, _ = make_match()
    path = f"/ws/matches/{match.pk}/"
    prefix = f"2001:db8:{uuid.uuid4().int % 0xffff:x}:1"

    async def scenario():
        first = await _open(path, f"{prefix}::1")
        second = await _open(path, f"{prefix}:ffff::2")
        third = await _open(path, f"{prefix}::3")
        assert [first[0], second[0], third[0]] == [True, True, False]
        for connected, ws in (first, second):
            await ws.disconnect()

    asyncio.run(scenario())


def test_connects_are_limited_per_game_whatever_the_address(make_match, settings, inner_calls):
    settings.WS_CONNECT_LIMITS = {"address": (100, 20), "game": (2, 0.001)}
    match, _ = make_match()
    other_game, _ = make_match()

    async def scenario():
        opened = [await _open(f"/ws/matches/{match.pk}/", address()) for _ in range(3)]
        assert [connected for connected, _ in opened] == [True, True, False]
        elsewhere = await _open(f"/ws/matches/{other_game.pk}/", address())
        assert elsewhere[0]  # another game's allowance is its own
        for connected, ws in [*opened, elsewhere]:
            if connected:
                await ws.disconnect()

    asyncio.run(scenario())
    assert len(inner_calls) == 3


def test_a_refused_address_spends_nothing_of_the_game_s_allowance(make_match, settings):
    settings.WS_CONNECT_LIMITS = {"address": (1, 0.001), "game": (2, 0.001)}
    match, _ = make_match()
    path = f"/ws/matches/{match.pk}/"
    flooder = address()

    async def scenario():
        results = [(await _open(path, flooder))[0] for _ in range(5)]
        assert results == [True, False, False, False, False]
        assert (await _open(path, address()))[0]  # the game's second connect is still there

    asyncio.run(scenario())


def test_buckets_refill_at_their_rate_and_forget_the_least_recent_keys():
    buckets = connect_gate.Buckets(max_keys=2)
    assert [buckets.take("a", 2, 1.0, now=0.0) for _ in range(3)] == [True, True, False]
    assert buckets.take("a", 2, 1.0, now=0.5) is False  # half a token
    assert buckets.take("a", 2, 1.0, now=1.0) is True
    buckets.take("b", 2, 1.0, now=1.0)
    buckets.take("c", 2, 1.0, now=1.0)  # "a" is forgotten: at most two keys are kept
    assert "a" not in buckets._state and len(buckets._state) == 2


def test_a_browser_is_refused_at_the_handshake_and_nothing_is_logged_as_an_error(live_asgi, make_match, settings,
                                                                                  caplog, monkeypatch):
    """Through uvicorn, as a browser meets it: the handshake is denied (403), and neither the
    server nor the site logs an error for it (a flood would write one a connect)."""
    settings.WS_CONNECT_LIMITS = {"address": (1, 0.001), "game": (100, 20)}
    match, _ = make_match()
    url = live_asgi.replace("http", "ws") + f"/ws/matches/{match.pk}/"
    monkeypatch.setattr(connect_gate.refusals, "interval", 0.3)

    async def scenario():
        async with websockets.connect(url, origin=live_asgi) as ws:
            assert json.loads(await ws.recv())["type"] == "state"
        for _ in range(3):
            with pytest.raises(websockets.InvalidStatus) as refused:
                await websockets.connect(url, origin=live_asgi)
            assert refused.value.response.status_code == 403

    with caplog.at_level(logging.INFO):
        asyncio.run(scenario())
        time.sleep(1.0)  # past the interval: the refusals after the first are said too
    errors = [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors
    noted = [r for r in caplog.records if r.name == "games.live.connect_gate"]
    # Two lines, not one a refusal: the first at once, the other two at the interval's end.
    assert [refused_count(r) for r in noted] == [1, 2], [r.getMessage() for r in noted]
    assert {r.levelno for r in noted} == {logging.WARNING}


def refused_count(record: logging.LogRecord) -> int:
    return int(re.match(r"websocket connects refused: (\d+) ", record.getMessage()).group(1))


def test_a_flood_of_refused_connects_is_counted_in_full_though_nothing_follows_it(settings, monkeypatch, caplog):
    """150 connects refused, then none: the counts logged add up to 150 (the flood's tail was
    never logged when no later refusal came to write it)."""
    settings.WS_CONNECT_LIMITS = {"address": (1, 0.001), "game": (100, 20)}
    monkeypatch.setattr(connect_gate.refusals, "interval", 0.2)
    served = []

    async def inner(scope, receive, send):
        served.append(scope["path"])

    async def receive():
        return {"type": "websocket.connect"}

    async def send(message):
        pass

    gate, flooder = connect_gate.ConnectGate(inner), address()

    async def flood():
        for _ in range(151):
            await gate({"type": "websocket", "path": "/ws/me/", "client": (flooder, 40000), "headers": []},
                       receive, send)

    with caplog.at_level(logging.INFO, logger="games.live.connect_gate"):
        asyncio.run(flood())
        end = time.monotonic() + 5
        while time.monotonic() < end and sum(map(refused_count, _gate_lines(caplog))) < 150:
            time.sleep(0.05)
        time.sleep(0.5)  # two intervals more: nothing else once it is quiet
    assert len(served) == 1
    noted = _gate_lines(caplog)
    assert [refused_count(r) for r in noted] == [1, 149], [r.getMessage() for r in noted]
    assert noted[1].getMessage().endswith(f"(the last over the address limit, from {flooder} to /ws/me/)")


def _gate_lines(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "games.live.connect_gate"]


def test_without_an_address_only_the_game_is_counted(make_match, settings):
    """A test harness or a unix socket without proxy headers: no address to count by, as in
    grailsite/ratelimits.py."""
    settings.WS_CONNECT_LIMITS = {"address": (1, 0.001), "game": (100, 20)}
    match, _ = make_match()

    async def scenario():
        opened = [await _open(f"/ws/matches/{match.pk}/", None) for _ in range(3)]
        assert all(connected for connected, _ in opened)
        for _, ws in opened:
            await ws.disconnect()

    asyncio.run(scenario())
