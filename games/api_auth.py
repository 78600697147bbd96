"""Authentication for the JSON API: the browser's session (with CSRF on writes) or, for
bots and other clients, ``Authorization: Token <key>`` from the account settings page."""
from __future__ import annotations

import functools
import json

from django.http import JsonResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.views.decorators.csrf import csrf_exempt

from games.errors import ServiceError

MAX_BODY = 64 * 1024


def _token_user(request):
    from grailsite.accounts.models import Profile

    header = request.headers.get("Authorization", "")
    if not header.startswith("Token "):
        return None
    key = header[6:].strip()
    if not key:
        return None
    profile = Profile.objects.select_related("user").filter(api_token=key, user__is_active=True).first()
    return profile.user if profile else None


def _csrf_failure(request) -> str | None:
    check = CsrfViewMiddleware(lambda r: None)
    check.process_request(request)
    response = check.process_view(request, lambda r: None, (), {})
    return None if response is None else "CSRF check failed: send the csrftoken cookie's value as X-CSRFToken."


def error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


def api_view(methods: tuple[str, ...], *, login: bool = True):
    """Wrap a view returning a dict (or JsonResponse): method check, auth, JSON errors."""

    def decorate(view):
        @csrf_exempt
        @functools.wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method not in methods:
                return error(405, "method_not_allowed", f"Use {' or '.join(methods)}.")
            token_user = _token_user(request)
            if token_user is not None:
                request.user = token_user
            elif request.method not in ("GET", "HEAD") and request.user.is_authenticated:
                failure = _csrf_failure(request)
                if failure:
                    return error(403, "csrf", failure)
            if login and not request.user.is_authenticated:
                return error(401, "unauthenticated", "Log in, or send an API token.")
            try:
                result = view(request, *args, **kwargs)
            except ServiceError as exc:
                return error(exc.status, exc.code, exc.message)
            return result if isinstance(result, JsonResponse) else JsonResponse(result)

        return wrapper

    return decorate


def json_body(request) -> dict:
    if len(request.body) > MAX_BODY:
        raise ServiceError("The request body is too large.")
    try:
        data = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise ServiceError("The request body is not valid JSON.") from None
    if not isinstance(data, dict):
        raise ServiceError("The request body must be a JSON object.")
    return data
