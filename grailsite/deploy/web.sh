#!/bin/sh
# One web process (ASGI: HTTP and websockets), as compose's `web` and `make prod`'s web1/web2
# run it. HOST and PORT say where it listens (compose: 0.0.0.0:8000; make prod: loopback).
# uvicorn reads no proxy header: the site does, from TRUSTED_PROXIES only
# (grailsite/client_address.py). Its access log is off: the site logs one JSON line a request
# with its ids (grailsite/logs.py), and uvicorn's own lines are JSON too (uvicorn-log.json).
# Its websocket protocol answers a handshake caught by a restart 503, not 500
# (grailsite/ws_protocol.py). Arguments given are uvicorn's, after these (bench/faults.py's
# forwarded scenario).
set -e
cd "$(dirname "$0")/../.."
exec uvicorn grailsite.asgi:application --host "${HOST:-0.0.0.0}" --port "${PORT:-8000}" \
    --ws grailsite.ws_protocol:WebSocketProtocol \
    --ws-per-message-deflate false --no-proxy-headers --no-access-log \
    --timeout-graceful-shutdown "${GRACEFUL_SECONDS:-20}" \
    --log-config grailsite/deploy/uvicorn-log.json "$@"
