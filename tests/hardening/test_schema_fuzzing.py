"""Schemathesis against the generated OpenAPI document: for every operation, bounded numbers
of generated requests (valid ones and ones that break the schema on purpose), signed in by
token, with path ids pointing at a real game and deck so requests get past the lookup.

Checks: no server error, every status and content type documented, every answer matching
its declared schema, every request that breaks the schema refused with a 4xx, and no request
the schema allows refused as malformed (15 such were found once): the document
states every limit the server holds a request to. A request the schema allows may still be
refused for what it asks (not your turn, no such card): that is a refusal in words, not a
malformed-request one."""
import re
import zlib

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi import checks as openapi_checks

from decks.models import Deck
from schemathesis import checks as core_checks

pytestmark = pytest.mark.django_db

EXAMPLES = 20  # per operation; the whole file stays well under a minute
# The refusals of a malformed request: pydantic's, one sentence per field ("'cards.x': ..."),
# and the body parser's (grailsite/api_auth.py).
MALFORMED = re.compile(r"^'[^']*': |^The request body |^Text may not contain ")


@schemathesis.check
def schema_valid_is_not_malformed(ctx, response, case):
    """A request generated to fit the document is never refused as malformed."""
    if case.meta is not None and case.meta.generation.mode.is_negative or response.status_code != 400:
        return None
    message = response.json().get("error", {}).get("message", "")
    if MALFORMED.match(message):
        raise AssertionError(f"valid by the document but refused: {message}")
    return None


CHECKS = [core_checks.not_a_server_error, openapi_checks.status_code_conformance,
          openapi_checks.content_type_conformance, openapi_checks.response_schema_conformance,
          openapi_checks.negative_data_rejection, schema_valid_is_not_malformed]


@pytest.fixture
def keep_test_connection():
    """The WSGI app closes the database connection after each request; Django's own test
    client stops that during tests (the test's transaction lives on that connection), and so
    do we while schemathesis drives the app."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture
def site(keep_test_connection, make_match, make_user, api_token, cards):
    """A started duel between a token-holding player and another; the player's starter deck."""
    from decks import services as deck_services
    match, (alice, bob) = make_match()
    deck_services.starter_grant(user=alice)
    return {"match": match.pk, "deck": Deck.objects.filter(owner=alice).first().pk, "token": api_token(alice)}


# Loaded through the site itself, as a client would (the schema view reads no database).
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_no_request_the_schema_allows_or_forbids_is_a_server_error(case, site):
    # Real ids half the time (decided from the body's text, not Python's salted hash, so a run
    # repeats), so generated bodies and queries reach the views' own checks. Never in a case
    # generated to break the schema: a real id would make it a valid request.
    negative = case.meta is not None and case.meta.generation.mode.is_negative
    if case.path_parameters and not negative and zlib.crc32(repr(case.body).encode()) % 2 == 0:
        if "id" in case.path_parameters:
            case.path_parameters["id"] = site["match"]
        if "pk" in case.path_parameters:
            case.path_parameters["pk"] = site["deck"]
    # Unknown query parameters are ignored, as HTTP servers do: not a refusal we owe.
    documented = {p.name for p in case.operation.query}
    unknown = set(case.query or {}) - documented
    checks = [c for c in CHECKS if c is not openapi_checks.negative_data_rejection] if unknown else CHECKS
    case.call_and_validate(headers={"Authorization": f"Token {site['token']}"}, checks=checks)
