"""Bots' fixtures: bot accounts with tokens, and a server of their own (short keep-alives, so
a stopped bot notices within a second)."""
from __future__ import annotations

import pytest

from grailsite.accounts import tokens
from grailsite.accounts.models import Profile

ALL_KINDS = [{"kind": k, "seats": [2, 6], "clocks": ["days", "hours", "minutes", "none"]}
             for k in ("duel", "camelot", "ccg", "cupquest", "fluxx")]


@pytest.fixture
def make_bot(make_user):
    """A bot account accepting ``accepts`` (every game, by default): (user, its token's key)."""

    def make(name=None, accepts=None, scopes=("read", "play")):
        user = make_user(name)
        Profile.objects.update_or_create(user=user, defaults={"is_bot": True, "bot_accepts": ALL_KINDS
                                                              if accepts is None else accepts})
        _token, key = tokens.token_create(user=user, name="test bot", scopes=scopes)
        return user, key

    return make


@pytest.fixture(scope="session")
def bot_server_url(django_db_setup, tmp_path_factory):
    from tests.browser_fixtures import start_server

    url, proc, log = start_server(tmp_path_factory.mktemp("bots") / "server.log", BOT_STREAM_KEEPALIVE="1",
                                  RATE_MOVE_USER="100000/m", RATE_MOVE_IP="100000/m")
    yield url
    proc.terminate()
    proc.wait(timeout=10)
    log.close()


@pytest.fixture
def bot_server(bot_server_url, transactional_db, django_db_serialized_rollback):
    """The server's URL, for a test whose rows it must see (committed, not in a test's transaction)."""
    return bot_server_url
