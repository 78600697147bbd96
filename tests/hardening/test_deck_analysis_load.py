"""A deck analysis is bounded in cost, limited per person, and its rules work runs off both
the event loop and the thread every other synchronous request waits for (twelve clients
asking for the heaviest analysis once pushed everyone else's reads from 5 ms to 416 ms)."""
import asyncio
import secrets
import threading

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import AsyncClient

from decks import cardformat, services as deck_services
from decks.models import Card
from tests.hardening.conftest import assert_json_error, post_json

pytestmark = pytest.mark.django_db
ENDPOINTS = ["/decks/api/analyse/", "/decks/api/opening/"]


@pytest.fixture
def heaviest(cards):
    """The heaviest list the schema takes: as many codes as it allows, each at the most copies."""
    codes = Card.objects.order_by("code").values_list("code", flat=True)[:deck_services.MAX_DECK_SIZE]
    return {code: deck_services.MAX_DECK_COPIES for code in codes}


@pytest.fixture
def laid_out(monkeypatch):
    """How many copies each run of the deck rules was given."""
    sizes = []
    real = cardformat.deck_errors

    def counting(copies):
        sizes.append(len(copies))
        return real(copies)

    monkeypatch.setattr(cardformat, "deck_errors", counting)
    return sizes


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_the_heaviest_list_is_never_laid_out_copy_by_copy(logged_in, make_user, heaviest, laid_out, endpoint):
    answer = post_json(logged_in(make_user()), endpoint, {"cards": heaviest})
    assert answer.status_code == 200, answer.content[:300]
    # Before: 15,840 copies (0.9 s); now the size is the reason and the rules see none.
    assert max(laid_out, default=0) <= deck_services.MAX_DECK_SIZE
    total = sum(heaviest.values())
    reasons = answer.json()["problems" if endpoint.endswith("analyse/") else "warnings"]
    assert f"this one has {total}" in " ".join(reasons)


def test_a_list_within_a_saved_deck_s_size_still_gets_every_rule(logged_in, make_user, cards, laid_out):
    answer = post_json(logged_in(make_user()), "/decks/api/analyse/", {"cards": {"lancelot": 90, "arthur": 1}})
    assert laid_out == [91]
    text = " ".join(answer.json()["problems"])
    assert "Patsy" in text and "unique card 'lancelot'" in text and "at most 80" in text


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_analyses_are_limited_per_person(logged_in, make_user, cards, settings, endpoint):
    # Three in a long window, counted under a key of this run's own: counts are kept by user id, and
    # a reset test database hands out the same ids again.
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "deck_analysis": {"user": f"3/{secrets.randbelow(10**6) + 60}m"}}
    alice, bob = make_user(), make_user()
    answers = [post_json(logged_in(alice), endpoint, {"cards": {"arthur": 1}}) for _ in range(4)]
    assert [a.status_code for a in answers[:3]] == [200, 200, 200]
    assert assert_json_error(answers[3], 429)["code"] == "rate_limited"
    assert post_json(logged_in(bob), endpoint, {"cards": {"arthur": 1}}).status_code == 200


@pytest.mark.django_db(transaction=True, serialized_rollback=True)  # queries on other threads
def test_the_rules_work_runs_neither_on_the_event_loop_nor_on_the_shared_request_thread(
        make_user, cards, monkeypatch):
    """Under ASGI a synchronous view runs on the one thread all synchronous requests share
    (asgiref's thread-sensitive executor), where a 0.75 s analysis held up every read and
    HTTP move queued behind it; the rules work now has a thread of its own."""
    seen = {}
    real = cardformat.deck_errors

    def recording(copies):
        try:
            asyncio.get_running_loop()
            seen["loop"] = True
        except RuntimeError:
            seen["loop"] = False
        seen["thread"] = threading.current_thread().name
        return real(copies)

    monkeypatch.setattr(cardformat, "deck_errors", recording)
    user = make_user()

    async def ask():
        client = AsyncClient()
        await client.aforce_login(user)
        try:
            return await client.post("/decks/api/analyse/", {"cards": {"arthur": 1}}, content_type="application/json")
        finally:
            # The request's queries ran on asgiref's request thread: its connection ends here.
            await sync_to_async(connections.close_all)()

    answer = asyncio.run(ask())
    assert answer.status_code == 200, answer.content[:300]
    assert seen["loop"] is False
    assert seen["thread"].startswith("deck-rules"), seen["thread"]
