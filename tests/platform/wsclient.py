"""Helpers to open the site's real websocket routes (through the Redis channel layer)."""
from __future__ import annotations

import json

from channels.testing import WebsocketCommunicator
from django.test import Client

from grailsite.asgi import application


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def communicator(path: str, cookie: str | None = None, origin: str = "http://testserver") -> WebsocketCommunicator:
    """``cookie`` comes from ``session_cookie(user)``, called before entering the event loop."""
    headers = [(b"origin", origin.encode()), (b"host", b"testserver")]
    if cookie is not None:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    return WebsocketCommunicator(application, path, headers=headers)


async def next_state(comm, timeout: float = 5, *, whole: bool = False) -> tuple[dict, str]:
    """The next frame's data and its raw text (for leak searches): a whole 'state', or a
    'change' (games/live/frames.py) unless ``whole`` is asked for."""
    while True:
        raw = await comm.receive_from(timeout=timeout)
        msg = json.loads(raw)
        if msg["type"] == "state" or (msg["type"] == "change" and not whole):
            return msg["data"], raw
