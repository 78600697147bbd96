"""The edge of the JSON API: who is asking, what their body may hold, and how refusals look.

Authentication is the browser's session (with CSRF on writes) or, for bots and other
clients, ``Authorization: Token <key>`` from the account settings page. Bodies are parsed
once here, bounded in size, nesting and characters before any schema sees them: PostgreSQL
cannot store a NUL or a lone surrogate, and a deep enough nesting exhausts the parser's
stack, so each of those is a 400 here instead of a 500 later."""
from __future__ import annotations

import json

from django.middleware.csrf import CsrfViewMiddleware
from ninja.parser import Parser
from ninja.security import APIKeyHeader

from grailsite.errors import NotAllowed, ServiceError, Unauthenticated
from grailsite.accounts import tokens

MAX_BODY = 64 * 1024
MAX_DEPTH = 16         # the deepest legitimate body (a CCG move with a choice) is 4 levels
MAX_NODES = 5000       # values in one body, all levels together
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


class CsrfFailed(NotAllowed):
    code = "csrf"


class ScopeMissing(NotAllowed):
    code = "scope"


def bad_text(value: str) -> str | None:
    """Why a string cannot be stored (NUL, lone surrogate), or None when it can."""
    if "\x00" in value:
        return "Text may not contain NUL characters."
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "Text may not contain unpaired surrogate characters."
    return None


def check_bounds(data) -> None:
    """Walk a parsed JSON value without recursion: depth, size and every string and key."""
    stack, nodes = [(data, 1)], 0
    while stack:
        value, depth = stack.pop()
        nodes += 1
        if depth > MAX_DEPTH:
            raise ServiceError(f"The request body is nested more than {MAX_DEPTH} levels deep.")
        if nodes > MAX_NODES:
            raise ServiceError(f"The request body holds more than {MAX_NODES} values.")
        if isinstance(value, str):
            reason = bad_text(value)
            if reason:
                raise ServiceError(reason)
        elif isinstance(value, dict):
            for key, item in value.items():
                stack.append((key, depth + 1))
                stack.append((item, depth + 1))
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)


def parse_json(raw: bytes):
    if len(raw) > MAX_BODY:
        raise ServiceError(f"The request body is larger than {MAX_BODY // 1024} KiB.")
    try:
        data = json.loads(raw or b"{}")
    except RecursionError:
        raise ServiceError(f"The request body is nested more than {MAX_DEPTH} levels deep.") from None
    except (ValueError, UnicodeDecodeError):
        raise ServiceError("The request body is not valid JSON.") from None
    check_bounds(data)
    return data


def json_body(request) -> dict:
    data = parse_json(request.body)
    if not isinstance(data, dict):
        raise ServiceError("The request body must be a JSON object.")
    return data


class BoundedParser(Parser):
    """Ninja's body parser, with the bounds above. Every body of this API is a JSON object
    (ninja's schemas read attributes too, so an array would otherwise pass as all defaults)."""

    def parse_body(self, request):
        return json_body(request)


def request_key(headers) -> str | None:
    """The key of ``Authorization: Bearer <key>`` or ``Token <key>``, if it could be one."""
    header = headers.get("Authorization", "")
    for scheme in ("Bearer ", "Token "):
        if header.startswith(scheme):
            key = header[len(scheme):].strip()
            if key and len(key) <= 128 and not bad_text(key):
                return key
    return None


def token_auth(request):
    """(user, scopes, token id) of the request's token, or None; remembered on the request."""
    if hasattr(request, "_token_auth"):
        return request._token_auth
    key = request_key(request.headers)
    found = tokens.key_user(key) if key else None
    request._token_auth = found
    return found


def token_user(request):
    found = token_auth(request)
    return found[0] if found else None


def check_scope(request, scopes, *, write: bool) -> None:
    """A token reads with the "read" scope and changes anything with the "play" scope."""
    needed = "play" if write else "read"
    if needed not in scopes:
        raise ScopeMissing(f"This token lacks the '{needed}' scope.")


def _csrf_failure(request) -> bool:
    check = CsrfViewMiddleware(lambda r: None)
    check.process_request(request)
    return check.process_view(request, lambda r: None, (), {}) is not None


def resolve_user(request, *, required: bool):
    """Token first, then the session (CSRF-checked on writes); sets ``request.user``."""
    found = token_auth(request)
    if found is not None:
        request.user = found[0]
        check_scope(request, found[1], write=request.method not in SAFE_METHODS)
    elif request.headers.get("Authorization", "").startswith(("Bearer ", "Token ")):
        # A token that opens nothing (revoked, mistyped) is said so, never read as "anonymous":
        # a bot whose token was revoked learns it at once instead of seeing public games only.
        raise Unauthenticated("This API token is not valid: it was revoked, or is not one of this site's.")
    elif request.method not in SAFE_METHODS and request.user.is_authenticated and _csrf_failure(request):
        raise CsrfFailed("CSRF check failed: send the csrftoken cookie's value as X-CSRFToken.")
    if required and not request.user.is_authenticated:
        raise Unauthenticated("Log in, or send an API token.")
    return request.user


class Viewer(APIKeyHeader):
    """Ninja authentication for operations that need a signed-in user: the token's user, or
    the session's (CSRF-checked on writes); 401 otherwise. Declared as an API-key header, so
    the generated document tells clients about tokens."""

    param_name = "Authorization"

    def __call__(self, request):
        resolve_user(request, required=True)
        return True  # truthy: ninja's sign that authentication passed

    def authenticate(self, request, key):  # pragma: no cover - __call__ above does the work
        return token_user(request)


class MaybeViewer:
    """For operations anyone may call (public games): the token's or session's user when
    there is one, anonymous otherwise. A plain callable, so the document marks no security
    as required for them."""

    def __call__(self, request):
        resolve_user(request, required=False)
        return True

