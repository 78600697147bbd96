"""The first thing a websocket connect meets: how many connects an address, and a game, may
make.

A served connect costs the web process a few milliseconds of CPU (the origin check, the
session and the user, the game's state loaded and serialized, two Redis subscriptions):
106 anonymous connects a second raised the other players' median request time from 20 to
178 ms. So before any of that, each connect takes a token from its address's bucket and,
for a game's socket, from that game's bucket (``WS_CONNECT_LIMITS``: so many at once, then
so many a second). Without one it is refused at once: no session, user, database or Redis
work, only the handshake's answer, a denied handshake (uvicorn answers 403), as for a bad
origin. The page retries with backoff as after any failed connect (a browser sees neither
status nor reason of a failed handshake). Not a 429 through ASGI's handshake-response
extension: uvicorn 0.54 then logs "ASGI callable returned without completing handshake" at
error level for every refusal, a log line per connect of a flood.

The counting is in this process's memory: a refusal costs no round trip to Redis and still
works when Redis is down, and the limits are per web process (a site of N processes lets
N times through). The address is ``grailsite.client_address``'s (the socket's peer, or
what a trusted proxy says it was), as for the HTTP limits, counted IPv6 by /64 as
``grailsite.ratelimits`` counts it. Memory is bounded: at most
``MAX_KEYS`` buckets of each kind are kept, the least recently used forgotten first."""
from __future__ import annotations

import ipaddress
import logging
import re
import time
from collections import OrderedDict

from django.conf import settings

from grailsite.client_address import client_address
from grailsite.logs import CountedLine

log = logging.getLogger(__name__)

MAX_KEYS = 10_000
_GAME_PATH = re.compile(r"^/ws/matches/(\d{1,18})/$")


class Buckets:
    """Token buckets by key: ``burst`` at once, refilled at ``rate`` a second."""

    def __init__(self, max_keys: int = MAX_KEYS):
        self._state: OrderedDict = OrderedDict()  # key -> [tokens, when last counted]
        self.max_keys = max_keys

    def take(self, key, burst: float, rate: float, now: float) -> bool:
        state = self._state.get(key)
        if state is None:
            state = self._state[key] = [float(burst), now]
            if len(self._state) > self.max_keys:
                self._state.popitem(last=False)
        else:
            self._state.move_to_end(key)
            state[0] = min(float(burst), state[0] + (now - state[1]) * rate)
            state[1] = now
        if state[0] < 1:
            return False
        state[0] -= 1
        return True

    def clear(self) -> None:
        self._state.clear()


by_address, by_game = Buckets(), Buckets()


def address_key(address: str) -> str:
    """The address as it is counted: IPv4 as it is, IPv6 by its /64 (one host holds a /64)."""
    if ":" not in address:
        return address  # IPv4 (or a name): no parsing on the common path
    try:
        ip = ipaddress.IPv6Address(address)
    except ValueError:
        return address
    if ip.ipv4_mapped:
        return str(ip.ipv4_mapped)
    return str(ipaddress.IPv6Network(f"{ip}/64", strict=False))


def game_of(path: str) -> int | None:
    match = _GAME_PATH.match(path)
    return int(match.group(1)) if match else None


def refusal(scope, now: float | None = None) -> str | None:
    """Why this connect is refused ("address" or "game"), or None; counts it if not refused
    by its address (a refused address spends nothing of the game's allowance)."""
    if not settings.RATELIMIT_ENABLE:
        return None
    limits = settings.WS_CONNECT_LIMITS
    now = time.monotonic() if now is None else now
    address = client_address(scope)
    if address and not by_address.take(address_key(address), *limits["address"], now):
        return "address"
    game = game_of(scope.get("path", ""))
    if game is not None and not by_game.take(game, *limits["game"], now):
        return "game"
    return None


async def refuse(scope, receive, send) -> None:
    """Deny the handshake, doing nothing else."""
    message = await receive()
    if message["type"] == "websocket.connect":
        await send({"type": "websocket.close"})


def _write_refusals(count: int, span: float | None, details: tuple) -> None:
    reason, address, path = details
    said = f"in the last {round(span, 1):g} s" if span is not None else "after a quiet spell"
    log.warning("websocket connects refused: %d %s (the last over the %s limit, from %s to %s)",
                count, said, reason, address, path)


# Refused connects, a line at once after a quiet spell, then their count every ten seconds
# while they go on: a flood must not also flood the log, and none goes unreported.
refusals = CountedLine(10.0, _write_refusals)


class ConnectGate:
    """ASGI middleware, outermost on the websocket route: refuses a connect over its limits
    before anything else looks at it."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            reason = refusal(scope)
            if reason is not None:
                refusals.add(reason, client_address(scope) or "an unknown address", scope.get("path"))
                return await refuse(scope, receive, send)
        return await self.application(scope, receive, send)
