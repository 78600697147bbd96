"""The web processes' websocket protocol: uvicorn's own (the websockets library's sans-I/O
implementation, which uvicorn picks by default), with one change, for rolling restarts.

When uvicorn is told to stop (SIGTERM: a restart), it stops listening and shuts every
connection down at once. An open socket is closed with 1012 "service restart", and the page
reconnects to another process. But a socket still in its handshake (the site reading the
session and the game, a few milliseconds, longer when the database is slow) was answered
"500 Internal Server Error": during a rolling restart 6 of 99 reconnects met it, and a 500
reads as the site's fault. Here such a handshake is answered "503 Service Unavailable" with
``Retry-After: 1`` instead: a clean refusal, which the page retries like any failed connect
(nginx passes it on; the next connect goes to a process that is up). Whatever the
application sends afterwards finds the client gone, as after any disconnect.

web.sh runs uvicorn with ``--ws grailsite.ws_protocol:WebSocketProtocol``."""
from __future__ import annotations

from http import HTTPStatus

from uvicorn.protocols.utils import get_client_addr, get_path_with_query_string
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

RETRY_AFTER = "1"


class WebSocketProtocol(WebSocketsSansIOProtocol):
    def shutdown(self) -> None:
        if self.handshake_complete or self.close_sent or self.initial_response is not None:
            super().shutdown()
            return
        self.logger.info('%s - "WebSocket %s" 503 (the server is stopping)', get_client_addr(self.scope),
                         get_path_with_query_string(self.scope))
        response = self.conn.reject(HTTPStatus.SERVICE_UNAVAILABLE, "The server is restarting: connect again.\n")
        response.headers["Retry-After"] = RETRY_AFTER
        self.conn.send_response(response)
        self.transport.write(b"".join(self.conn.data_to_send()))
        # Answered: nothing else may go out (uvicorn's own 500 included), and the application,
        # still in its connect, hears that the client left.
        self.handshake_complete = self.close_sent = self.disconnected = True
        self.queue.put_nowait({"type": "websocket.disconnect", "code": 1012})
        self.transport.close()
