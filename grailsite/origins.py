"""The websocket origin check: a socket opened from another page carries the player's session
cookie, so only this site's own pages (and origins an operator lists) may open one.

Channels' AllowedHostsOriginValidator compares host names only: a page served from
``http://127.0.0.1:6666`` passed for a site on ``http://127.0.0.1:8000``. Here the scheme, the
host and the port of the Origin must all be the site's own, as the browser reached it (the
socket's Host header and scheme), and that host must be one of ALLOWED_HOSTS."""
from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_triple(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an http(s) origin, or None if it is not one."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname.lower(), port or DEFAULT_PORTS[parts.scheme]


def site_origin(scope) -> tuple[str, str, int] | None:
    """The origin of this site as the socket reached it, if its host is an allowed one."""
    headers = dict(scope.get("headers") or [])
    host = headers.get(b"host", b"").decode("latin-1")
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    return origin_triple(f"{scheme}://{host}")


def origin_allowed(scope) -> bool:
    headers = dict(scope.get("headers") or [])
    origin = origin_triple(headers.get(b"origin", b"").decode("latin-1"))
    if origin is None:
        return False
    listed = {origin_triple(o) for o in settings.WEBSOCKET_ALLOWED_ORIGINS + settings.CSRF_TRUSTED_ORIGINS}
    return origin == site_origin(scope) or origin in listed


async def deny(receive, send) -> None:
    """Refuse the handshake (the server answers 403), and do nothing else. Not with
    channels' ``WebsocketDenier``: it is a consumer, and a consumer first opens a channel on
    the channel layer, so every refused connect cost a Redis subscription, and with the
    layer's Redis out of reach the refusal itself failed: "Exception in ASGI application",
    answered 500."""
    message = await receive()
    if message["type"] == "websocket.connect":
        await send({"type": "websocket.close"})


class SameOriginValidator:
    """ASGI middleware: refuses the websocket handshake unless ``origin_allowed``."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await deny(receive, send)
        return await self.application(scope, receive, send)
