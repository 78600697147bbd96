"""Shared fixtures for the card database, collections and decks."""
import itertools

import pytest
from django.contrib.auth import get_user_model

from decks import services

_names = itertools.count(1)


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
