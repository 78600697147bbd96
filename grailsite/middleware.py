"""Bounds every request meets before any view, page or API alike, and the JSON shape of the
API's own refusals that Django (not a view) makes.

- A NUL character in a path, query or form field is refused with 400: PostgreSQL cannot
  store one, so it would otherwise surface as a 500 from whichever query first saw it.
- A query value of more than 15 digits is refused with 400: pages and offsets are multiplied
  into SQL, where 20 digits overflow a bigint.
- Under the API's prefixes, Django's HTML 404 (an id that is not a number) and 405 become
  ``{"error": {"code", "message"}}``, the 405 keeping its ``Allow`` header.
- A view that finds the database out of reach (a dropped connection, a refused connect:
  ``grailsite.dbpool``) answers 503 with ``Retry-After``, in JSON under the API, instead of
  the 500 page (``DatabaseDownMiddleware``)."""
from __future__ import annotations

import logging

from django.http import HttpResponse, HttpResponseBadRequest

from grailsite.errors import error_response
from grailsite.dbpool import DATABASE_DOWN, RETRY_AFTER, UNAVAILABLE

log = logging.getLogger(__name__)

API_PREFIXES = ("/api/", "/decks/api/")
MAX_DIGITS = 15


def is_api(path: str) -> bool:
    return path.startswith(API_PREFIXES)


def _refusal(request) -> str | None:
    if "\x00" in request.path:
        return "The address may not contain NUL characters."
    # The API's JSON bodies are checked by its own parser; reading a form body here would
    # leave nothing for it to read.
    form = request.POST if request.method == "POST" and not is_api(request.path) else None
    for params in (request.GET, form) if form is not None else (request.GET,):
        for key, values in params.lists():
            if "\x00" in key or any("\x00" in v for v in values if isinstance(v, str)):
                return f"'{key.replace(chr(0), '')}' may not contain NUL characters."
            if params is request.GET and any(v.isdigit() and len(v) > MAX_DIGITS for v in values):
                return f"'{key}' is too large a number."
    return None


class BoundedRequestMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        reason = _refusal(request)
        if reason:
            if is_api(request.path):
                return error_response(400, "bad_request", reason)
            return HttpResponseBadRequest(reason, content_type="text/plain; charset=utf-8")
        response = self.get_response(request)
        if is_api(request.path) and not response.get("Content-Type", "").startswith("application/json"):
            if response.status_code == 404:
                return error_response(404, "not_found", "No such address in the API.")
            if response.status_code == 405:
                allow = response.get("Allow", "")
                return error_response(405, "method_not_allowed", f"Use {allow or 'another method'}.", Allow=allow)
        return response


class DatabaseDownMiddleware:
    """A database that is out of reach is an outage to retry, not a bug: the request gets a
    503 at once (JSON under the API), and the log one warning line without a traceback."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, DATABASE_DOWN):
            return None
        log.warning("database unavailable for %s %s: %s", request.method, request.path,
                    str(exception).strip().splitlines()[0] if str(exception).strip() else type(exception).__name__)
        if is_api(request.path):
            response = error_response(503, "unavailable", UNAVAILABLE, Retry_After=str(RETRY_AFTER))
        else:
            response = HttpResponse(UNAVAILABLE, status=503, content_type="text/plain; charset=utf-8")
            response["Retry-After"] = str(RETRY_AFTER)
        response._has_been_logged = True  # logged above, in one line (Django would add another)
        return response
