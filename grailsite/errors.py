"""The one error type of the shell and the one JSON shape it takes on the wire.

Services raise a ``ServiceError`` (or a subclass naming its status); the API, the decks'
JSON endpoints and the websocket consumers all turn it into ``{"error": {"code", "message"}}``
with the status below, so a client reads every refusal the same way."""
from __future__ import annotations

from django.http import JsonResponse


class ServiceError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Unauthenticated(ServiceError):
    status = 401
    code = "unauthenticated"


class NotAllowed(ServiceError):
    status = 403
    code = "forbidden"


class NotFound(ServiceError):
    status = 404
    code = "not_found"


class StaleVersion(ServiceError):
    status = 409
    code = "stale"


class MoveRejected(ServiceError):
    status = 422
    code = "illegal_move"


class TooManyRequests(ServiceError):
    """``retry_after``: whole seconds after which the request may go through (the answer's
    ``Retry-After`` header and its ``retry_after`` field)."""
    status = 429
    code = "rate_limited"

    def __init__(self, message: str, retry_after: int = 1):
        super().__init__(message)
        self.retry_after = max(1, int(retry_after))


def error_body(code: str, message: str) -> dict:
    return {"error": {"code": code, "message": message}}


def error_response(status: int, code: str, message: str, **headers) -> JsonResponse:
    response = JsonResponse(error_body(code, message), status=status)
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def service_error_payload(exc: ServiceError) -> dict:
    """A refusal's JSON: its code and words, and how many seconds to wait when it says."""
    retry_after = getattr(exc, "retry_after", None)
    if retry_after is None:
        return error_body(exc.code, exc.message)
    return {"error": {"code": exc.code, "message": exc.message, "retry_after": retry_after}}


def service_error_response(exc: ServiceError) -> JsonResponse:
    response = JsonResponse(service_error_payload(exc), status=exc.status)
    retry_after = getattr(exc, "retry_after", None)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response
