"""The site's one JSON API (django-ninja): the games' routes under /api/, the decks' under
/decks/api/, one error shape for both, and one OpenAPI document generated from their typed
schemas, served at /api/schema/.

Why django-ninja rather than DRF: the move endpoint is the busiest path of the site (the
aim is 1,000 moves/s), and ninja validates a request with pydantic-core (compiled) straight
into the view's arguments, with no serializer objects, renderer negotiation or viewset
dispatch per request; docs/api.md gives the measured cost per move."""
from __future__ import annotations

from django.http import Http404, JsonResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from decks.api import router as decks_router
from games.web.api import router as games_router
from games.inbox.push_api import router as push_router
from games.inbox.recap_api import router as recap_router
from games.tournaments.api import router as tournaments_router
from grailsite.api_auth import BoundedParser
from games import registry
from grailsite.errors import ServiceError, error_response, service_error_response


class SiteAPI(NinjaAPI):
    """Mounted at the site's root (its routes carry their own prefixes), so the document's
    paths are the site's real paths."""

    def get_root_path(self, path_params) -> str:
        return "/"


api = SiteAPI(title="grailsite", version="1", description="Play the Holy Grail games by web: see docs/api.md.",
              parser=BoundedParser(), openapi_url="api/schema/", docs_url=None, urls_namespace="api")
api.add_router("api/", games_router)
api.add_router("api/", push_router)
api.add_router("api/", recap_router)
api.add_router("api/", tournaments_router)
for _room in registry.rooms():  # a game's own operations (the CCG's preset), beside the shell's
    if _room.api is not None:
        api.add_router("api/", _room.api)
api.add_router("decks/api/", decks_router)


def _field(loc) -> str:
    # ("body", "body", "clock", "amount") -> "clock.amount": where pydantic found it, in the
    # body's own terms; the source and the parameter's name are noise to a person.
    parts = [str(p) for p in loc]
    while len(parts) > 1 and parts[0] in ("body", "query", "path"):
        parts = parts[1:]
    return ".".join(parts)


def validation_message(errors: list[dict]) -> str:
    """pydantic's findings as one sentence per field, at most five."""
    said = [f"'{_field(e.get('loc', ()))}': {e.get('msg', 'is not valid')}" for e in errors[:5]]
    more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
    return "; ".join(said) + more + "."


@api.exception_handler(ValidationError)
def _invalid(request, exc: ValidationError) -> JsonResponse:
    return error_response(400, "bad_request", validation_message(exc.errors))


@api.exception_handler(ServiceError)
def _refused(request, exc: ServiceError) -> JsonResponse:
    return service_error_response(exc)


@api.exception_handler(AuthenticationError)
def _unauthenticated(request, exc: AuthenticationError) -> JsonResponse:
    return error_response(401, "unauthenticated", "Log in, or send an API token.")


@api.exception_handler(Http404)
def _not_found(request, exc: Http404) -> JsonResponse:
    return error_response(404, "not_found", "Not found.")


@api.exception_handler(HttpError)
def _http_error(request, exc: HttpError) -> JsonResponse:
    # ninja wraps the body parser's refusal ("Cannot parse request body"): say the parser's reason.
    if isinstance(exc.__cause__, ServiceError):
        return service_error_response(exc.__cause__)
    return error_response(exc.status_code, "bad_request" if exc.status_code < 500 else "server_error", str(exc))


def urlpatterns() -> list:
    """The API's URL patterns without ninja's catch-all root view (the site's home page owns
    ``/``), with the document under its documented address."""
    patterns, _app, _namespace = api.urls
    return [p for p in patterns if getattr(p, "name", None) != "api-root"]
