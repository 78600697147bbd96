"""A push service on loopback, for the push tests and bench/notifications.py: a real HTTP
server that takes Web Push requests (RFC 8030) and keeps them, and a browser's side of a
subscription (its P-256 key pair and auth secret) that decrypts them by RFC 8291 with
``cryptography`` alone, and checks the VAPID signature (RFC 8292), so nothing of the
sending library checks itself."""
from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict
    body: bytes
    at: float  # time.time() when it arrived


@dataclass
class PushService:
    """``status``: what each path answers (by its last segment's prefix), 201 otherwise;
    ``location``: a Location header to answer with, by the same prefixes (a redirect)."""
    received: list[Received] = field(default_factory=list)
    status: dict[str, int] = field(default_factory=dict)
    location: dict[str, str] = field(default_factory=dict)
    port: int = 0
    _server: ThreadingHTTPServer | None = None
    _arrived: threading.Condition = field(default_factory=threading.Condition)

    def start(self) -> "PushService":
        service = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                status = next((code for prefix, code in service.status.items()
                               if self.path.rsplit("/", 1)[-1].startswith(prefix)), 201)
                with service._arrived:
                    service.received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()},
                                                     body, time.time()))
                    service._arrived.notify_all()
                self.send_response(status)
                for prefix, url in service.location.items():
                    if self.path.rsplit("/", 1)[-1].startswith(prefix):
                        self.send_header("Location", url)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/push/{name}"

    def wait(self, count: int, timeout: float = 20.0) -> bool:
        end = time.monotonic() + timeout
        with self._arrived:
            while len(self.received) < count:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._arrived.wait(left)
        return True

    def to(self, name: str) -> list[Received]:
        return [r for r in self.received if r.path.endswith("/" + name)]


class BrowserKeys:
    """A browser's side of one subscription: what PushManager.subscribe makes."""

    def __init__(self):
        self.private = ec.generate_private_key(ec.SECP256R1())
        self.public = self.private.public_key().public_bytes(serialization.Encoding.X962,
                                                             serialization.PublicFormat.UncompressedPoint)
        self.auth = os.urandom(16)

    def subscription(self, endpoint: str) -> dict:
        return {"endpoint": endpoint, "keys": {"p256dh": b64url(self.public), "auth": b64url(self.auth)}}

    def decrypt(self, body: bytes) -> bytes:
        """RFC 8291 (aes128gcm): the header carries the salt, the record size and the sender's
        one-time public key; the key and nonce come from ECDH with it and the auth secret."""
        salt, record_size, id_length = body[:16], int.from_bytes(body[16:20], "big"), body[20]
        sender = body[21:21 + id_length]
        ciphertext = body[21 + id_length:]
        assert len(ciphertext) <= record_size
        shared = self.private.exchange(ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender))
        ikm = HKDF(hashes.SHA256(), 32, salt=self.auth,
                   info=b"WebPush: info\x00" + self.public + sender).derive(shared)
        key = HKDF(hashes.SHA256(), 16, salt=salt, info=b"Content-Encoding: aes128gcm\x00").derive(ikm)
        nonce = HKDF(hashes.SHA256(), 12, salt=salt, info=b"Content-Encoding: nonce\x00").derive(ikm)
        padded = AESGCM(key).decrypt(nonce, ciphertext, None)
        content = padded.rstrip(b"\x00")
        assert content[-1:] == b"\x02", "the last record ends with its delimiter"
        return content[:-1]

    def payload(self, received: Received) -> dict:
        assert received.headers["content-encoding"] == "aes128gcm"
        return json.loads(self.decrypt(received.body))


def vapid_claims(received: Received) -> tuple[dict, str]:
    """The VAPID JWT's claims, checked against its signature and the key it names (``k``)."""
    scheme, _, params = received.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(p.split("=", 1) for p in params.split(","))
    signing_input, _, signature = parts["t"].rpartition(".")
    raw = unb64url(signature)
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(parts["k"]))
    key.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
               signing_input.encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    header, claims = (json.loads(unb64url(p)) for p in signing_input.split("."))
    assert header["alg"] == "ES256"
    return claims, parts["k"]


# --- fixtures (imported by the test modules that use them) ---------------------------------

@pytest.fixture
def push_service():
    service = PushService().start()
    yield service
    service.stop()


@pytest.fixture
def push_on(settings):
    """A VAPID key of the test's own; the loopback push service is let in; a short window."""
    from games.inbox import push  # Django's; this module is also the benchmark's push service

    settings.VAPID_PRIVATE_KEY = push.generate_private_key()
    settings.VAPID_SUBJECT = "mailto:test@grailsite.local"
    settings.PUSH_ALLOW_LOOPBACK = True
    settings.PUSH_BATCH_SECONDS = 1
    push.forget_nudges()  # each test's first change asks the side lane for a sweep
    return settings
