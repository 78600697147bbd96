"""Reading a bot stream in a test: each JSON line, with a time-out, keep-alives counted."""
from __future__ import annotations

import http.client
import json
import socket
import urllib.parse


class Stream:
    def __init__(self, base: str, path: str, key: str | None, timeout: float = 10):
        parts = urllib.parse.urlsplit(base)
        self.conn = http.client.HTTPConnection(parts.netloc, timeout=timeout)
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self.conn.request("GET", path, headers=headers)
        self.response = self.conn.getresponse()
        self.keepalives = 0

    @property
    def status(self) -> int:
        return self.response.status

    def error(self) -> dict:
        return json.loads(self.response.read())

    def next(self, *, skip=("chatLine",)) -> dict | None:
        """The next line that is not a keep-alive (nor of a type in ``skip``); None when the
        server ended the stream."""
        while True:
            raw = self.response.readline()
            if not raw:
                return None
            if not raw.strip():
                self.keepalives += 1
                continue
            line = json.loads(raw)
            if line["type"] not in skip:
                return line

    def ended(self) -> bool:
        """Whether the server ends the stream before the socket's time-out (keep-alives aside)."""
        try:
            return self.next(skip=("chatLine", "gameState", "gameFull")) is None
        except (socket.timeout, TimeoutError):
            return False

    def close(self) -> None:
        sock = self.conn.sock
        if sock is not None:
            sock.shutdown(socket.SHUT_RDWR)
        self.conn.close()
