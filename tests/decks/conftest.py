"""Shared fixtures for the card database, collections and decks."""
import itertools

import pytest
from django.contrib.auth import get_user_model

from decks import services

_names = itertools.count(1)


@pytest.fixture(autouse=True)
def card_database(request):
    """The starter set, for every database test.

    The data migration loads it into a fresh test database, but a transactional test
    anywhere in the suite (ours or another app's) ends with a flush that empties every
    table; load it again when that has happened.
    """
    if not {"db", "transactional_db"} & set(request.fixturenames):
        return
    request.getfixturevalue("transactional_db" if "transactional_db" in request.fixturenames else "db")
    from decks import cardformat
    from decks.models import Card
    if not Card.objects.exists():
        services.cards_upsert(cards=cardformat.starter_set(), source="test")


@pytest.fixture
def make_user(db):
    """A user without the starter grant (the grant runs on commit, which these tests never reach)."""
    def make(name=None, **extra):
        return get_user_model().objects.create_user(username=name or f"player{next(_names)}", password="pw-x9-grail",
                                                    **extra)
    return make


@pytest.fixture
def starter_user(make_user):
    user = make_user()
    services.starter_grant(user=user)
    return user


def grant(user, **codes):
    return services.collection_grant(user=user, cards={c.replace("_", "-"): n for c, n in codes.items()},
                                     reason="admin_grant")
