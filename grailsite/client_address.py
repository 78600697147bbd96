"""The address a request really came from, for per-address limits.

``X-Forwarded-For`` is written by whoever sends the request: a client can put anything in
it. Only the proxies we run (``settings.TRUSTED_PROXIES``) are believed, and each of them
only about the hop it saw. So: start from the connection's own peer; while that address is a
trusted proxy, step one entry left in ``X-Forwarded-For`` (each proxy appends the address it
was reached from). The first address that is not a trusted proxy is the client. With no
trusted proxies (the default) the header is never read.

This is the only place proxy headers are read for addresses: uvicorn runs with
``--no-proxy-headers`` (docker-compose.yml, Dockerfile), so the peer we see is the socket's
own (docs/reliability.md, "Hardening round 2: addresses behind the proxy").

``client_address`` takes a Django request or an ASGI scope (a websocket consumer's
``self.scope``), so HTTP views and sockets count one client as the same address."""
from __future__ import annotations

import functools
import ipaddress
from collections.abc import Iterable, Mapping

from django.conf import settings

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


@functools.lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(e.strip(), strict=False) for e in entries if e.strip())


def is_trusted(address: Address, proxies: Iterable[str] | None = None) -> bool:
    """Whether ``address`` is one of our proxies (an address or CIDR of TRUSTED_PROXIES)."""
    nets = _networks(tuple(settings.TRUSTED_PROXIES if proxies is None else proxies))
    return any(address.version == net.version and address in net for net in nets)


def parse(text: str | None) -> Address | None:
    """An address as a peer or a proxy header gives it ('1.2.3.4', '1.2.3.4:5678', '::1',
    '[::1]:5678'), IPv4-mapped IPv6 as the IPv4 it is; None when it is not an address."""
    if not text:
        return None
    text = text.strip()
    if text.startswith("["):  # [v6]:port
        text = text[1:].split("]", 1)[0]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped
    return address


def resolve(peer: str | None, forwarded_for: str, proxies: Iterable[str] | None = None) -> str | None:
    """The client's address given the connection's peer and the X-Forwarded-For text (all
    the header's lines joined by commas, in order); None when there is no peer address."""
    current = parse(peer)
    if current is None:
        return None
    hops = [h for h in forwarded_for.split(",") if h.strip()] if forwarded_for else []
    while is_trusted(current, proxies) and hops:
        previous = parse(hops.pop())
        if previous is None:
            # A trusted proxy never writes a non-address, so whoever sent it is untrusted:
            # count the request against the last hop we could vouch for, never a made-up one.
            break
        current = previous
    return str(current)


def _from_scope(scope: Mapping) -> tuple[str | None, str]:
    client = scope.get("client")
    peer = client[0] if client else None
    values = [value.decode("latin-1") for name, value in scope.get("headers", ()) if name.lower() == b"x-forwarded-for"]
    return peer, ",".join(values)


def client_address(request_or_scope) -> str | None:
    """The client's address for a Django request or an ASGI scope (see the module's text);
    None when the connection has no address (a unix socket, a test harness without one)."""
    if isinstance(request_or_scope, Mapping):
        peer, forwarded_for = _from_scope(request_or_scope)
    else:
        meta = request_or_scope.META
        # Django joins repeated header lines with commas, in order, as _from_scope does.
        peer, forwarded_for = meta.get("REMOTE_ADDR"), meta.get("HTTP_X_FORWARDED_FOR", "")
    return resolve(peer, forwarded_for)


def counted_as(address: str) -> str:
    """The address as limits count it: IPv4 as it is, IPv6 by its /64 (one host holds a
    whole /64, and could otherwise take a fresh allowance with each of its addresses)."""
    ip = parse(address)
    if ip is None or ip.version == 4:
        return str(ip) if ip is not None else address
    return str(ipaddress.IPv6Network(f"{ip}/64", strict=False))
