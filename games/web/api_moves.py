"""A bot's move through the API at the cost of a socket's: ``POST /api/matches/<id>/moves/``
with ``Authorization: Token <key>``, answered on the event loop and made in the socket
moves' batches (games/live/live_moves.py).

Through Django, such a request cost 13 ms of server CPU against under 3 ms for the same
move sent over a game's websocket (docs/performance.md, "A move costs less"): the request
went to a worker thread and, for the middleware that is not async, back and forth between
the thread and the loop, the token was looked up through the ORM, the rate limits were
counted with a blocking Redis call each, and the move was made alone, in its own ORM
transaction, with its frames built in that thread. Here the same request takes none of
those detours: the token is looked up in one statement on the loop's own connection, the
limits are counted by the same script on an asyncio Redis client, and the move joins the
batch of whatever other moves are waiting.

Only what this path answers exactly as the ninja operation would is answered here: a POST
to that address with no query, an allowed ``Host``, a body the API's bounded parser and
``MoveIn`` accept, and a token that names an active player. Anything else (no token or an
unknown one, which may fall back to the session and its CSRF check; a body refused; a
plain-http request the site redirects) is handed to Django unchanged, body included, and
meets the whole middleware stack and the operation as before. The answer carries the
headers the middleware would add (tests/hardening/test_api_moves.py compares the two
paths header for header), and each request is logged once, as RequestContextMiddleware
logs it.
"""
from __future__ import annotations

import json
import logging
import re
import time
from http import HTTPStatus

from django.conf import settings
from django.contrib.auth import get_user_model
from django.http.request import split_domain_port, validate_host
from django.utils import timezone
from pydantic import TypeAdapter, ValidationError

from games.live import aiodb, live_moves
from grailsite import logs, ratelimits
from grailsite.api_auth import MAX_BODY, bad_text, json_body
from grailsite.api_types import MatchId
from grailsite.client_address import client_address
from grailsite.dbpool import DATABASE_DOWN, RETRY_AFTER, UNAVAILABLE
from grailsite.errors import ServiceError, error_body, service_error_payload

log = logging.getLogger(__name__)
_django_log = logging.getLogger("django.request")

# Requests this path answered itself (tests, benchmarks).
counts = {"answered": 0}

_PATH = re.compile(r"^/api/matches/([0-9]+)/moves/$")
_MATCH_ID = TypeAdapter(MatchId)


def available() -> bool:
    """Whether moves may be made here (PostgreSQL and the Redis layers: the batched path)."""
    return settings.API_MOVES_ON_LOOP and live_moves.available() and ratelimits.counts_on_loop()


class MoveFront:
    """ASGI middleware in front of Django's HTTP handler: the API's token moves on the loop."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if (scope["type"] != "http" or scope["method"] != "POST" or scope.get("query_string")
                or scope.get("root_path")):  # mounted under a prefix: Django resolves the path
            return await self.app(scope, receive, send)
        found = _PATH.match(scope["path"])
        if found is None or not available():
            return await self.app(scope, receive, send)
        headers = _headers(scope)
        token = _token(headers)
        if token is None or not _host_allowed(headers) or not _secure_enough(scope, headers):
            return await self.app(scope, receive, send)
        raw, whole, more = await _body(receive)
        if raw is None:  # the client went away before its body came: nobody to answer
            return
        if not whole:
            return await self.app(scope, _replay(raw, receive, more), send)
        submission = _submission(found.group(1), raw)
        try:
            user = await _token_user(token) if submission is not None else None
        except DATABASE_DOWN:  # Django's answer to an outage (503), in its words
            user = None
        if user is None:
            return await self.app(scope, _replay(raw, receive), send)
        await _answer(scope, headers, send, user, *submission)


def _headers(scope) -> dict[bytes, bytes]:
    out: dict[bytes, bytes] = {}
    for name, value in scope.get("headers", ()):
        out.setdefault(name.lower(), value)
    return out


def _token(headers) -> str | None:
    """The key of ``Authorization: Token <key>`` as grailsite/api_auth.py reads it, or None."""
    try:
        header = headers.get(b"authorization", b"").decode("latin-1")
    except UnicodeDecodeError:  # pragma: no cover - latin-1 decodes every byte
        return None
    if not header.startswith("Token "):
        return None
    key = header[6:].strip()
    if not key or len(key) > 128 or bad_text(key):
        return None
    return key


def _host_allowed(headers) -> bool:
    """The ``Host`` Django would accept (ALLOWED_HOSTS); Django answers any other itself."""
    host = headers.get(b"host", b"").decode("latin-1")
    domain, _port = split_domain_port(host)
    return bool(domain) and validate_host(domain, settings.ALLOWED_HOSTS)


def _secure_enough(scope, headers) -> bool:
    """Not a plain-http request that SecurityMiddleware would redirect to https."""
    if not settings.SECURE_SSL_REDIRECT:
        return True
    return _is_secure(scope, headers)


def _is_secure(scope, headers) -> bool:
    if scope.get("scheme") == "https":
        return True
    header, value = settings.SECURE_PROXY_SSL_HEADER or (None, None)
    if header is None:
        return False
    name = header.removeprefix("HTTP_").replace("_", "-").lower().encode("latin-1")
    return headers.get(name, b"").decode("latin-1").split(",")[0].strip() == value


async def _body(receive) -> tuple[bytes | None, bool, bool]:
    """(the body read, whether it is whole and within the API's bound, whether more of it is
    still to come; None: the client went away). A longer body is left to Django, which
    refuses it in its own words."""
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":  # the client went away
            return None, False, False
        chunk = message.get("body", b"")
        chunks.append(chunk)
        size += len(chunk)
        if not message.get("more_body"):
            return b"".join(chunks), size <= MAX_BODY, False
        if size > MAX_BODY:
            return b"".join(chunks), False, True


def _replay(raw: bytes, receive, more: bool = False):
    """``receive`` for Django: the body already read (``more``: and the rest still to come),
    then whatever else the client sends (the rest of a long body, a disconnect)."""
    sent = False

    async def replayed():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": raw, "more_body": more}
        return await receive()
    return replayed


def _submission(match_id: str, raw: bytes):
    """(match id, MoveIn) when the operation would take them as they are, else None (Django
    then refuses them, with the API's own messages)."""
    from games.web.api import MoveIn

    try:
        match_id = _MATCH_ID.validate_python(int(match_id))
        body = MoveIn.model_validate(json_body(_Raw(raw)))
    except (ValueError, ValidationError, ServiceError):
        return None
    return match_id, body


class _Raw:
    """What ``json_body`` reads of a request: its body."""

    def __init__(self, body: bytes):
        self.body = body


_sql: dict[str, str] = {}


def _user_columns() -> str:
    return ", ".join(f'u."{f.column}"' for f in get_user_model()._meta.concrete_fields)


def _profile_key_sql() -> str:
    """The account's older single key (every scope)."""
    if "profile" not in _sql:
        from grailsite.accounts.models import Profile

        _sql["profile"] = (
            f"SELECT {_user_columns()} FROM {Profile._meta.db_table} p JOIN {get_user_model()._meta.db_table} u "
            f"ON u.id = p.user_id WHERE p.api_token = %s AND u.is_active LIMIT 1")
    return _sql["profile"]


def _personal_token_sql() -> str:
    """A live personal token that may play, with its id and when it was last marked used."""
    if "token" not in _sql:
        from grailsite.accounts.models import ApiToken

        _sql["token"] = (
            f"SELECT t.id, t.last_used_at, {_user_columns()} FROM {ApiToken._meta.db_table} t "
            f"JOIN {get_user_model()._meta.db_table} u ON u.id = t.user_id "
            f"WHERE t.digest = %s AND t.revoked_at IS NULL AND u.is_active "
            f"AND t.scopes @> '[\"play\"]'::jsonb LIMIT 1")
    return _sql["token"]


async def _token_user(key: str):
    """The active user whose API token ``key`` is, if it may move (as ``api_auth.token_auth``
    reads it), or None: a personal token without the play scope is left to Django, which
    refuses it in its own words. A personal token's "last used" is written as often as
    Django's path writes it."""
    from grailsite.accounts import tokens

    user_model = get_user_model()
    names = [f.attname for f in user_model._meta.concrete_fields]
    async with aiodb.connection() as conn:
        if not key.startswith(tokens.PREFIX):
            cur = await conn.execute(_profile_key_sql(), [key], prepare=False)
            row = await cur.fetchone()
            return None if row is None else user_model.from_db("default", names, list(row))
        cur = await conn.execute(_personal_token_sql(), [tokens.digest(key)], prepare=False)
        row = await cur.fetchone()
        if row is None:
            return None
        token_id, last_used = row[0], row[1]
        now = timezone.now()
        if last_used is None or now - last_used > tokens.TOUCH_EVERY:
            await conn.execute(f"UPDATE {_api_token_table()} SET last_used_at = %s WHERE id = %s",
                               [now, token_id], prepare=False)
    return user_model.from_db("default", names, list(row[2:]))


def _api_token_table() -> str:
    from grailsite.accounts.models import ApiToken

    return ApiToken._meta.db_table


async def _answer(scope, headers, send, user, match_id: int, body) -> None:
    counts["answered"] += 1
    started = time.perf_counter()
    rid = logs.new_request_id(headers.get(b"x-request-id", b"").decode("latin-1") or None)
    with logs.bound(request_id=rid, user_id=user.pk, match_id=match_id):
        status, payload, extra = await _made(scope, user, match_id, body)
        await _send(send, status, payload, rid, _is_secure(scope, headers), extra)
        if status >= 400:  # as Django's handler says a refusal (django.utils.log.log_response)
            (_django_log.error if status >= 500 else _django_log.warning)(
                "%s: %s", HTTPStatus(status).phrase, scope["path"], extra={"status_code": status})
        if logs.request_log.isEnabledFor(logging.INFO):
            path = scope["path"]
            logs.request_log.info("%s %s %s", "POST", path, status,
                                  extra={"method": "POST", "path": path, "status": status,
                                         "duration_ms": round((time.perf_counter() - started) * 1000, 1)})


async def _made(scope, user, match_id: int, body) -> tuple[int, dict, list]:
    """(status, JSON body, extra headers) of the operation's answer."""
    try:
        if await ratelimits.limited_async(user.pk, client_address(scope), "move"):
            raise ratelimits.refused("move")
        result = await live_moves.move_submit(match_id=match_id, user=user, move=body.move, version=body.version,
                                              key=body.key)
    except ServiceError as exc:
        retry_after = getattr(exc, "retry_after", None)
        extra = [] if retry_after is None else [(b"retry-after", str(retry_after).encode())]
        return exc.status, service_error_payload(exc), extra
    except DATABASE_DOWN as exc:
        log.warning("an API move in match %s was refused, the database is unavailable: %s", match_id,
                    str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__)
        return 503, error_body("unavailable", UNAVAILABLE), [(b"retry-after", str(RETRY_AFTER).encode())]
    return 200, {"version": result["version"], "seq": result["seq"], "repeated": result["repeated"]}, []


async def _send(send, status: int, payload: dict, rid: str, secure: bool, extra: list) -> None:
    # As Django's JsonResponse and ninja's renderer write it (json.dumps), byte for byte.
    content = json.dumps(payload).encode()
    # ninja's renderer names the charset; a refusal is grailsite.errors' JsonResponse, which does not.
    kind = b"application/json; charset=utf-8" if status == 200 else b"application/json"
    response_headers = [(b"content-type", kind),
                        (b"content-length", str(len(content)).encode())]
    response_headers += extra
    response_headers += _security_headers(secure)
    response_headers.append((b"x-request-id", rid.encode("latin-1")))
    await send({"type": "http.response.start", "status": status, "headers": response_headers})
    await send({"type": "http.response.body", "body": content})


def _security_headers(secure: bool) -> list[tuple[bytes, bytes]]:
    """What SecurityMiddleware and XFrameOptionsMiddleware add to an API answer."""
    out = []
    if secure and settings.SECURE_HSTS_SECONDS:
        value = f"max-age={settings.SECURE_HSTS_SECONDS}"
        if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
            value += "; includeSubDomains"
        if settings.SECURE_HSTS_PRELOAD:
            value += "; preload"
        out.append((b"strict-transport-security", value.encode()))
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        out.append((b"x-content-type-options", b"nosniff"))
    if settings.SECURE_REFERRER_POLICY:
        policy = settings.SECURE_REFERRER_POLICY
        policy = policy if isinstance(policy, str) else ",".join(policy)
        out.append((b"referrer-policy", policy.encode()))
    if settings.SECURE_CROSS_ORIGIN_OPENER_POLICY:
        out.append((b"cross-origin-opener-policy", settings.SECURE_CROSS_ORIGIN_OPENER_POLICY.encode()))
    out.append((b"x-frame-options", getattr(settings, "X_FRAME_OPTIONS", "DENY").upper().encode()))
    return out
