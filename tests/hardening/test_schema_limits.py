"""Every limit the OpenAPI document states is the server's: for each
bounded field of each request body and query (read from the document itself, so a limit
added later is covered), a request at the limit passes the schema, and one past it is
refused with a JSON 400 naming the field. (The API's status for a malformed request is 400,
docs/api.md; "passes the schema" means no 400 naming the field: the request may still be
refused for what it asks, such as an unknown card.)"""
import json

import pytest
from django.test import Client

from decks.models import Deck
from tests.hardening.conftest import assert_json_error, post_json

pytestmark = pytest.mark.django_db

# Each operation with a body the schema takes as it is; the limits are tried one at a time.
BODIES = {
    ("post", "/api/matches/"): {"kind": "duel"},
    ("post", "/api/matches/{id}/moves/"): {"move": {}},
    ("post", "/api/matches/{id}/chat/"): {"text": "Ni"},
    ("post", "/api/notifications/read/"): {},
    ("post", "/api/tournaments/"): {"kind": "duel", "format": "swiss"},
    ("post", "/decks/api/analyse/"): {},
    ("post", "/decks/api/opening/"): {},
    ("post", "/decks/api/decks/{pk}/save/"): {},
}
LIMITS = ("maxLength", "minLength", "maximum", "minimum", "maxItems", "maxProperties")


@pytest.fixture(scope="module")
def document():
    return json.loads(Client().get("/api/schema/").content)


def resolve(doc, schema):
    while "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    if "allOf" in schema and len(schema["allOf"]) == 1 and "$ref" in schema["allOf"][0]:
        return resolve(doc, schema["allOf"][0])
    if "anyOf" in schema:  # "X or null": the X
        return resolve(doc, next(s for s in schema["anyOf"] if s.get("type") != "null"))
    return schema


def sample(doc, schema):
    """A small value the schema takes."""
    schema = resolve(doc, schema)
    kind = schema.get("type")
    if "enum" in schema:
        return schema["enum"][0]
    if kind == "string":
        return "a" * max(1, schema.get("minLength", 1))
    if kind == "integer":
        return max(schema.get("minimum", 1), 1) if schema.get("maximum", 1) >= 1 else schema["minimum"]
    if kind == "boolean":
        return False
    if kind == "array":
        return []
    if kind == "object":
        return {name: sample(doc, schema["properties"][name]) for name in schema.get("required", [])}
    return None


def sized(doc, schema, limit: str, n: int):
    """A value of ``schema`` whose ``limit`` measure is ``n``."""
    schema = resolve(doc, schema)
    if limit in ("maxLength", "minLength"):
        return "a" * n
    if limit in ("maximum", "minimum"):
        return n
    if limit == "maxItems":
        return [sample(doc, schema["items"]) for _ in range(n)]
    values = schema.get("additionalProperties")
    value = sample(doc, values) if isinstance(values, dict) and values else 0
    return {f"k{i}": value for i in range(n)}


def cases(doc):
    """(method, path, field, limit, at, past, body builder) for every bounded field."""
    for (method, path), base in BODIES.items():
        op = doc["paths"][path][method]
        body = resolve(doc, op["requestBody"]["content"]["application/json"]["schema"])
        for name, prop in body["properties"].items():
            target = resolve(doc, prop)
            nested = [(name, None, target)]
            if target.get("type") == "object" and "properties" in target:  # a nested schema (the clock)
                nested = [(name, sub, resolve(doc, p)) for sub, p in target["properties"].items()]
            for field, sub, schema in nested:
                for limit in LIMITS:
                    if limit not in schema or schema[limit] >= 2**31:
                        continue  # ids up to 2**63: the database's bound, not a request's
                    bound = schema[limit]
                    past = bound + 1 if limit.startswith("max") else bound - 1
                    if past < 0 and limit != "minimum":
                        continue  # no string or list is shorter than nothing
                    yield method, path, base, field, sub, limit, schema, bound, past
    for path, method in (("/decks/api/cards/", "get"), ("/api/matches/{id}/chat/", "get"),
                         ("/api/matches/{id}/replay/", "get")):
        for param in doc["paths"][path][method].get("parameters", []):
            if param["in"] != "query":
                continue
            schema = resolve(doc, param["schema"])
            for limit in LIMITS:
                if limit in schema:
                    bound = schema[limit]
                    past = bound + 1 if limit.startswith("max") else bound - 1
                    if past >= 0 or limit == "minimum":
                        yield method, path, None, param["name"], None, limit, schema, bound, past


def names_field(response, field: str) -> bool:
    if response.status_code != 400:
        return False
    message = response.json()["error"]["message"]
    return f"'{field}" in message or f"'{field}." in message


def test_every_documented_limit_is_the_server_s(document, make_match, api_token, settings, cards):
    settings.RATELIMIT_ENABLE = False
    from decks import services as deck_services

    match, (alice, _bob) = make_match()
    deck_services.starter_grant(user=alice)
    ids = {"id": match.pk, "pk": Deck.objects.filter(owner=alice).first().pk}
    client = Client(HTTP_AUTHORIZATION=f"Token {api_token(alice)}")
    tried = []
    for method, path, base, field, sub, limit, schema, bound, past in cases(document):
        url = path.format(**ids)
        answers = []
        for n in (bound, past):
            if base is None:  # a query parameter
                value = "a" * n if limit.endswith("Length") else n
                answers.append(client.get(url, {field: value}))
                continue
            body = dict(base)
            value = sized(document, schema, limit, n)
            body[field] = {**body.get(field, {}), sub: value} if sub else value
            answers.append(post_json(client, url, body))
        label = f"{field}.{sub}" if sub else field
        at, over = answers
        assert not names_field(at, label), (path, label, limit, bound, at.content[:300])
        assert_json_error(over, 400)
        assert names_field(over, label), (path, label, limit, past, over.content[:300])
        tried.append(f"{path} {label} {limit}")
    # The document's bounded fields, not a handful: moves' keys, chat, the match's options,
    # seats, invites, computers, clock, deck lists, searches, ids lists...
    assert len(tried) >= 30, tried
