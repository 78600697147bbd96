"""Requests the site makes to an address someone else gave it (a browser's Web Push
endpoint): which addresses may be named, and connecting to no other address than the one
that was checked.

A URL's host can name this machine or its private network in many spellings. To the
resolver (inet_aton's forms) ``127.1``, ``2130706433``, ``0x7f000001`` and ``0177.0.0.1`` are
all 127.0.0.1; ``[::ffff:127.0.0.1]`` is 127.0.0.1 over IPv6 (and Python 3.11's ``ipaddress``
does not call it loopback); and any name may resolve to a private address, when it is
checked or only later (DNS rebinding). So:

* ``check`` parses the URL as the URL library does and normalises its host as the resolver
  would (IDNA, lower case, no trailing dot). It refuses an IP address written in any form
  but its one plain form (a.b.c.d, or IPv6 in brackets), then refuses the host unless
  EVERY address it stands for is public (``is_public``: no loopback, private, shared,
  link-local, multicast, reserved or unspecified address, nor IPv6 that carries an IPv4
  one). A name is resolved for that, and refused if it does not resolve.
* ``post`` checks again, and connects to an address it checked, never to the name: the
  TLS handshake still names the host (SNI) and the certificate must be the host's, and the
  Host header is the host's. It follows no redirect (a 3xx is an answer like any other),
  only https and the policy's ports are allowed, and its time is bounded: the connect,
  each read, and the whole exchange.

``Policy.allow_loopback`` lets a loopback address in, over http too and on any port: the
test suite's and the benches' push service listens on loopback. Nothing else is let in by it.
"""
from __future__ import annotations

import contextlib
import dataclasses
import heapq
import http.client
import ipaddress
import itertools
import re
import socket
import ssl
import threading
import time
from functools import lru_cache
from urllib.parse import urlsplit

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

# A host name's labels as DNS has them (letters, digits, hyphens), after IDNA.
_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")
# IPv6 ranges that carry an IPv4 address another hop turns back into IPv4 (NAT64, the
# deprecated IPv4-compatible form); 6to4 and Teredo are asked of ``ipaddress`` itself.
_CARRIES_IPV4 = (ipaddress.IPv6Network("64:ff9b::/96"), ipaddress.IPv6Network("64:ff9b:1::/48"),
                 ipaddress.IPv6Network("::/96"))
MAX_ANSWER = 64 * 1024  # bytes of an answer's body read; a push service's is a line or two


class Refused(ValueError):
    """The URL may not be called. ``lasting``: the URL itself is refused (its scheme, host
    or port), whatever names resolve to; otherwise it is what the host resolves to now."""

    def __init__(self, message: str, *, lasting: bool = True):
        super().__init__(message)
        self.message, self.lasting = message, lasting


class ExchangeFailed(OSError):
    """The exchange broke off (an answer that was not HTTP, a connection closed half way)."""


@dataclasses.dataclass(frozen=True)
class Policy:
    """What may be called. ``hosts``: the host names allowed ("*.notify.windows.com" is any
    name under notify.windows.com); empty, any public host. ``ports``: the https ports
    allowed. ``allow_loopback``: see the module's text."""

    hosts: tuple[str, ...] = ()
    ports: tuple[int, ...] = (443,)
    allow_loopback: bool = False


@dataclasses.dataclass(frozen=True)
class Target:
    """A checked URL: the normalised host, and the addresses it was found to stand for."""

    scheme: str
    host: str
    port: int
    path: str
    addresses: tuple[Address, ...]


@dataclasses.dataclass
class Response:
    """What came back (the parts of ``requests``' response that pywebpush reads)."""

    status_code: int
    reason: str
    headers: http.client.HTTPMessage
    content: bytes

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", "replace")


# --- checking ------------------------------------------------------------------------------

def is_public(address: Address) -> bool:
    """Whether ``address`` is one the site may connect to on someone else's word."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return is_public(address.ipv4_mapped)
        if address.sixtofour is not None or address.teredo is not None or any(address in n for n in _CARRIES_IPV4):
            return False
        if address.is_site_local:
            return False
    return address.is_global and not (address.is_private or address.is_loopback or address.is_link_local
                                      or address.is_multicast or address.is_reserved or address.is_unspecified)


def is_loopback(address: Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


def resolve(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to now (the system's resolver). A function of its
    own so tests can stand in for DNS."""
    return [info[4][0] for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)]


def host_matches(host: str, patterns) -> bool:
    for pattern in patterns:
        pattern = pattern.strip().lower().rstrip(".")
        if pattern == "*" or host == pattern or (pattern.startswith("*.") and host.endswith(pattern[1:])):
            return True
    return False


def _split(url: str):
    """(scheme, host as the URL library reads it, port or None, path and query)."""
    if not isinstance(url, str) or not re.fullmatch(r"[!-~]+", url):
        raise Refused("The address must be a plain URL (printable ASCII, no spaces).")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise Refused("The address is not a URL.") from None
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise Refused("The address is not an http(s) URL.")
    if "@" in parts.netloc:
        raise Refused("The address may not carry a user name or password.")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, parts.hostname, port, path


def normalise_host(raw: str) -> str | Address:
    """The host as the resolver reads it: an address (written in its plain form only) or a
    lower-case ASCII name without a trailing dot."""
    if ":" in raw:  # the URL library took it from brackets: IPv6
        try:
            return ipaddress.IPv6Address(raw)  # a zone ("%eth0") is refused here
        except ValueError:
            raise Refused("The address's IPv6 host is not an address.") from None
    name = raw.rstrip(".")
    try:
        name = name.encode("idna").decode("ascii").lower()
    except UnicodeError:
        raise Refused("The address's host is not a host name.") from None
    labels = name.split(".")
    last = labels[-1]
    if last.isdigit() or re.fullmatch(r"0x[0-9a-f]*", last):
        # The resolver reads this as an IPv4 address (127.1, 2130706433, 0x7f000001, 0177.0.0.1):
        # only the one plain spelling is taken, so that what is checked is what is called.
        try:
            address = ipaddress.IPv4Address(name)
        except ValueError:
            raise Refused("Write an IPv4 host as four decimal numbers (a.b.c.d).") from None
        if str(address) != name:
            raise Refused("Write an IPv4 host as four decimal numbers (a.b.c.d).")
        return address
    if not name or len(name) > 253 or not all(_LABEL.match(label) for label in labels):
        raise Refused("The address's host is not a host name.")
    return name


def check(url: str, policy: Policy) -> Target:
    """The URL as it will be called, or ``Refused`` with a reason a person can read."""
    scheme, raw_host, port, path = _split(url)
    host = normalise_host(raw_host)
    port = port or (443 if scheme == "https" else 80)
    if isinstance(host, str):
        named = host
        try:
            found = resolve(host, port)
        except (OSError, UnicodeError):
            raise Refused("The address's host does not resolve.", lasting=False) from None
        try:
            addresses = tuple(dict.fromkeys(ipaddress.ip_address(a.split("%", 1)[0]) for a in found))
        except ValueError:
            raise Refused("The address's host resolves to something that is not an address.", lasting=False) from None
        if not addresses:
            raise Refused("The address's host does not resolve.", lasting=False)
    else:
        named, addresses = str(host), (host,)
    if policy.allow_loopback and all(is_loopback(a) for a in addresses):
        return Target(scheme, named, port, path, addresses)
    if scheme != "https":
        raise Refused("The address must use https.")
    if port not in policy.ports:
        raise Refused(f"The address must use the port {' or '.join(map(str, policy.ports))}.")
    if policy.hosts and not (isinstance(host, str) and host_matches(host, policy.hosts)):
        raise Refused("The address is not one of the known push services.")
    if not all(is_public(a) for a in addresses):
        raise Refused("The address must be a public host.", lasting=not isinstance(host, str))
    return Target(scheme, named, port, path, addresses)


# --- calling -------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _tls() -> ssl.SSLContext:
    """Certificates checked against certifi's authorities (as requests does)."""
    try:
        import certifi
    except ImportError:  # pragma: no cover - requests brings it
        return ssl.create_default_context()
    return ssl.create_default_context(cafile=certifi.where())


def _connection(target: Target, address: Address, connect_timeout: float) -> http.client.HTTPConnection:
    """A connection to ``target``'s host that opens its socket to ``address``: the Host
    header, SNI and the certificate check stay the host's (http.client's own, unchanged:
    only where the socket goes is replaced)."""
    if target.scheme == "https":
        conn = http.client.HTTPSConnection(target.host, target.port, timeout=connect_timeout, context=_tls())
    else:
        conn = http.client.HTTPConnection(target.host, target.port, timeout=connect_timeout)

    def pinned(_where, timeout, source_address=None):
        return socket.create_connection((str(address), target.port), timeout, source_address)

    conn._create_connection = pinned  # http.client's hook for opening the socket
    return conn


class _Watchdog:
    """Cuts off exchanges that outlive their deadline. A socket's timeout bounds each read,
    not their sum: a server that trickles a byte a second would hold the caller for as long
    as it liked. One thread for all of them; it shuts the socket down, so the blocked read
    returns at once and the exchange fails."""

    def __init__(self):
        self._heap: list = []
        self._order = itertools.count()
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    @contextlib.contextmanager
    def limit(self, sock: socket.socket, deadline: float):
        entry = [deadline, next(self._order), sock]
        with self._changed:
            heapq.heappush(self._heap, entry)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="outbound-watchdog", daemon=True)
                self._thread.start()
            self._changed.notify()
        try:
            yield
        finally:
            entry[2] = None  # done in time: nothing to cut

    def _run(self) -> None:
        while True:
            with self._changed:
                while self._heap and self._heap[0][2] is None:
                    heapq.heappop(self._heap)
                if not self._heap:
                    self._changed.wait()
                    continue
                wait = self._heap[0][0] - time.monotonic()
                if wait > 0:
                    self._changed.wait(wait)
                    continue
                sock = heapq.heappop(self._heap)[2]
            if sock is not None:
                with contextlib.suppress(OSError):
                    # The plain socket's shutdown, under TLS too: the blocked read sees the end.
                    socket.socket.shutdown(sock, socket.SHUT_RDWR)


_watchdog = _Watchdog()


def post(url: str, *, body: bytes, headers: dict[str, str], policy: Policy, connect_timeout: float,
         read_timeout: float, total_timeout: float) -> Response:
    """POST ``body`` to ``url`` (checked by ``check`` first, see the module's text). The
    connect waits at most ``connect_timeout``, each read ``read_timeout``, and the whole
    exchange, connects included, ``total_timeout`` (a little more: the watchdog's wake-up).
    Raises ``Refused``, or an ``OSError`` (``TimeoutError`` when a wait ran out)."""
    deadline = time.monotonic() + total_timeout
    target = check(url, policy)
    conn = _connect(target, connect_timeout, deadline)
    try:
        with _watchdog.limit(conn.sock, deadline):
            conn.sock.settimeout(read_timeout)
            conn.request("POST", target.path, body=body, headers=headers)
            answer = conn.getresponse()
            content = answer.read(MAX_ANSWER)
        return Response(answer.status, answer.reason, answer.headers, content)
    except http.client.HTTPException as exc:
        raise _late(deadline) or ExchangeFailed(f"the exchange broke off: {exc!r}") from exc
    except OSError as exc:
        raise _late(deadline) or exc
    finally:
        conn.close()


def _late(deadline: float) -> TimeoutError | None:
    """What the watchdog's cut looks like to the caller: a time-out, not a broken exchange."""
    return TimeoutError("the exchange took longer than it may") if time.monotonic() >= deadline else None


def _connect(target: Target, connect_timeout: float, deadline: float) -> http.client.HTTPConnection:
    """A connection to one of the target's addresses: a second one is tried when the first
    refuses, within the deadline."""
    last_error: OSError = ExchangeFailed("no address to connect to")
    for address in target.addresses[:2]:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the exchange took longer than it may")
        conn = _connection(target, address, min(connect_timeout, left))
        try:
            conn.connect()
        except OSError as exc:
            last_error = exc
            conn.close()
            continue
        return conn
    raise last_error
