"""Every quantity, list, string and nesting depth is bounded at the edge: the probes of
the first hardening round (docs/reliability.md, findings 1, 5 and 12) each get a clear
4xx, in the documented JSON shape for the API, and write nothing."""
import pytest

from decks.models import Deck, DeckVersion
from games.models import ChatMessage, Match, MoveRecord
from tests.hardening.conftest import assert_json_error, post_json

pytestmark = pytest.mark.django_db

HUGE = [1_000_000, 1_000_000_000, 10**20]


@pytest.fixture
def deck_owner(cards, make_user):
    from decks import services as deck_services
    user = make_user()
    deck_services.starter_grant(user=user)
    return user


@pytest.mark.parametrize("endpoint", ["/decks/api/analyse/", "/decks/api/opening/"])
@pytest.mark.parametrize("quantity", HUGE + [-1, "3", 3.5, True, None, [1], {"n": 1}])
def test_deck_quantities_are_bounded_before_any_loop(logged_in, deck_owner, endpoint, quantity):
    response = post_json(logged_in(deck_owner), endpoint, {"cards": {"arthur": quantity}})
    error = assert_json_error(response, 400)
    assert "cards.arthur" in error["message"]


@pytest.mark.parametrize("endpoint", ["/decks/api/analyse/", "/decks/api/opening/"])
def test_deck_lists_and_codes_are_bounded(logged_in, deck_owner, endpoint):
    client = logged_in(deck_owner)
    too_many = {f"card-{n}": 1 for n in range(201)}
    assert_json_error(post_json(client, endpoint, {"cards": too_many}), 400)
    assert_json_error(post_json(client, endpoint, {"cards": {"x" * 101: 1}}), 400)
    assert_json_error(post_json(client, endpoint, {"cards": {"art\x00hur": 1}}), 400)
    assert_json_error(post_json(client, endpoint, {"cards": ["arthur"]}), 400)
    within = post_json(client, endpoint, {"cards": {"arthur": 99}})
    assert within.status_code == 200, within.content


def test_deck_save_refuses_bad_names_and_quantities_and_keeps_the_deck(logged_in, deck_owner):
    deck = Deck.objects.filter(owner=deck_owner).first()
    versions = DeckVersion.objects.filter(deck=deck).count()
    client = logged_in(deck_owner)
    url = f"/decks/api/decks/{deck.pk}/save/"
    for body in ({"name": "Bad\x00name", "cards": deck.cards}, {"name": "n" * 81, "cards": deck.cards},
                 {"name": "ok", "cards": {"arthur": 1_000_000}}, {"name": "ok", "cards": {"arthur": "2"}},
                 {"name": "\ud800", "cards": deck.cards}):
        assert_json_error(post_json(client, url, body), 400)
    assert DeckVersion.objects.filter(deck=deck).count() == versions


def test_nul_bytes_and_lone_surrogates_never_reach_the_database(logged_in, make_match, make_user):
    match, (alice, bob) = make_match()
    client = logged_in(alice)
    base = f"/api/matches/{match.pk}"
    move = match.state and {"type": "play", "card": match.state["hands"][0][0]}
    refused = [
        (f"{base}/chat/", {"text": "Ni\x00!"}),
        (f"{base}/chat/", '{"text": "\\ud800"}'),                         # a lone surrogate, as JSON escapes it
        (f"{base}/moves/", {"move": move, "version": match.version, "key": "k\x00"}),
        (f"{base}/moves/", {"move": {"type": "play\x00"}, "version": match.version}),
        ("/api/matches/", {"kind": "duel", "title": "Holy\x00Grail"}),
        ("/api/matches/", {"kind": "duel", "invite": ["bo\x00b"]}),
        ("/api/matches/", {"kind": "duel\udfff"}),
    ]
    before = (ChatMessage.objects.count(), Match.objects.count(), MoveRecord.objects.count())
    for url, body in refused:
        assert_json_error(post_json(client, url, body), 400)
    assert (ChatMessage.objects.count(), Match.objects.count(), MoveRecord.objects.count()) == before


def test_nul_bytes_in_queries_and_forms_of_pages_are_a_400(logged_in, deck_owner):
    client = logged_in(deck_owner)
    deck = Deck.objects.filter(owner=deck_owner).first()
    for url in ("/decks/cards/?q=a%00b", "/decks/collection/?q=%00", "/decks/collection/?card=%00",
                "/lobby/?x=%00"):
        response = client.get(url)
        assert response.status_code == 400, (url, response.status_code)
    api = client.get("/decks/api/cards/?q=%00")
    assert_json_error(api, 400)
    form = client.post(f"/decks/{deck.pk}/import/", {"name": "x\x00", "text": "1 arthur"})
    assert form.status_code == 400
    new = client.post("/decks/new/", {"name": "Deck\x00", "text": ""})
    assert new.status_code == 400
    assert Deck.objects.filter(owner=deck_owner, name__contains="Deck").count() == 0


@pytest.mark.parametrize("depth", [17, 1000, 30_000])
def test_deep_nesting_under_the_size_limit_is_a_400(logged_in, make_match, depth):
    match, (alice, _) = make_match()
    nested = '{"move": ' + "[" * depth + "]" * depth + ', "version": 1}'
    assert len(nested) < 64 * 1024
    error = assert_json_error(post_json(logged_in(alice), f"/api/matches/{match.pk}/moves/", nested), 400)
    assert "nested" in error["message"]
    assert MoveRecord.objects.filter(match=match).count() == 0


def test_bodies_over_the_size_limit_are_a_400(logged_in, make_match):
    match, (alice, _) = make_match()
    body = {"text": "x" * (70 * 1024)}
    assert_json_error(post_json(logged_in(alice), f"/api/matches/{match.pk}/chat/", body), 400)


@pytest.mark.parametrize("url", [
    "/decks/cards/?page=99999999999999999999",
    "/decks/api/cards/?offset=99999999999999999999",
    "/decks/collection/?before=99999999999999999999",
    "/api/matches/{id}/chat/?after=99999999999999999999",
    "/api/matches/{id}/replay/?step=99999999999999999999",
    "/api/matches/{id}/replay/?step=-1",
    "/api/matches/{id}/replay/?as=1.5",
    "/api/matches/99999999999999999999/",
])
def test_huge_or_malformed_numbers_in_addresses_are_a_400(logged_in, deck_owner, make_match, url):
    match, (alice, _) = make_match()
    response = logged_in(alice).get(url.format(id=match.pk))
    assert 400 <= response.status_code < 500, (url, response.status_code)
    if url.startswith(("/api/", "/decks/api/")):
        assert_json_error(response, response.status_code)


@pytest.mark.parametrize("field,value", [("seats", "2"), ("seats", 2.5), ("seats", 10**20),
                                         ("clock", {"kind": "days", "amount": "3"}), ("invite", "bob"),
                                         ("invite", ["x"] * 17), ("title", "t" * 81), ("options", [1])])
def test_strings_or_decimals_where_numbers_go_are_refused(logged_in, make_user, field, value):
    before = Match.objects.count()
    error = assert_json_error(post_json(logged_in(make_user()), "/api/matches/", {"kind": "duel", field: value}), 400)
    assert field in error["message"]
    assert Match.objects.count() == before


def test_a_whole_number_written_with_a_decimal_point_is_that_number(logged_in, make_user):
    """2.0 is the integer 2 in JSON Schema's terms, the document's: a
    client built from the document may send it so, and the server takes it."""
    response = post_json(logged_in(make_user()), "/api/matches/", {"kind": "duel", "seats": 2.0,
                                                                    "clock": {"kind": "days", "amount": 3.0}})
    assert response.status_code == 201, response.content[:300]
    assert len(response.json()["seats"]) == 2


def test_wrong_methods_answer_405_with_allow_in_json(logged_in, make_match):
    match, (alice, _) = make_match()
    client = logged_in(alice)
    for method, url, allowed in (("put", "/api/matches/", {"GET", "POST"}),
                                 ("get", f"/api/matches/{match.pk}/moves/", {"POST"}),
                                 ("delete", f"/api/matches/{match.pk}/", {"GET"})):
        response = getattr(client, method)(url)
        assert_json_error(response, 405)
        assert {m.strip() for m in response["Allow"].split(",")} == allowed


def test_addresses_that_are_not_ids_answer_json_404(logged_in, make_user):
    client = logged_in(make_user())
    for url in ("/api/matches/abc/", "/api/matches/1.5/moves/", "/decks/api/decks/x/save/", "/api/nothing/"):
        assert_json_error(client.get(url), 404)


def test_a_private_games_chat_and_log_answer_403_like_the_rest(logged_in, private_game):
    match, _players, stranger = private_game
    client = logged_in(stranger)
    for url in (f"/api/matches/{match.pk}/", f"/api/matches/{match.pk}/chat/", f"/api/matches/{match.pk}/log/",
                f"/api/matches/{match.pk}/replay/"):
        assert_json_error(client.get(url), 403)


def test_a_bot_with_a_token_needs_no_csrf_and_a_session_write_does(client, make_match, api_token):
    match, (alice, _) = make_match()
    token = api_token(alice)
    ok = post_json(client, f"/api/matches/{match.pk}/chat/", {"text": "Ni!"}, HTTP_AUTHORIZATION=f"Token {token}")
    assert ok.status_code == 201
    assert_json_error(post_json(client, f"/api/matches/{match.pk}/chat/", {"text": "Ni!"},
                                HTTP_AUTHORIZATION="Token wrong"), 401)
    from django.test import Client
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    assert assert_json_error(post_json(strict, f"/api/matches/{match.pk}/chat/", {"text": "Ni!"}), 403)["code"] == "csrf"
