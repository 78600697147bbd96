"""Shared fixtures. Tests run on PostgreSQL and Redis (see Makefile: `make test`)."""
from __future__ import annotations

import logging
import os
import threading

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from games.live import aiodb, connect_gate, frames
from games.table import persistence
from games import registry
from games.kinds.base import plain_room
from tests.council_game import Council
from tests.podium_game import Podium
from tests.secret_game import SecretHand

# Every state the move path keeps between moves is checked, when it is used, against its JSON
# at the time it was kept: nothing may change a state after the rules made it (see
# persistence._Recent). Servers the suite starts read the variable.
os.environ.setdefault("GRAILSITE_CHECK_HELD_STATES", "1")
persistence.recent.check = True

# A test game whose hands are unmistakable strings, so leak checks can search for them.
registry.register(plain_room(SecretHand()))
# A test game whose seats all act at once, each on its own decision.
registry.register(plain_room(Council()))
# A test game whose result the test declares (ratings: any number of players, any result).
registry.register(plain_room(Podium()))

PASSWORD = "a-long-test-password-42"
pytest_plugins = ["tests.db_reset", "tests.browser_fixtures", "tests.celery_worker", "tests.cpu_report"]


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """Database tests run on PostgreSQL with the Redis channel layer, never on stand-ins.
    (Pure rules tests need neither and never reach this.)"""
    assert settings.DATABASES["default"]["ENGINE"].endswith("postgresql"), (
        "Tests run on PostgreSQL: use `make test` (it sets DATABASE_URL and REDIS_URL).")
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"].startswith("channels_redis."), "Tests need REDIS_URL."


@pytest.fixture(autouse=True)
def process_state_reset():
    """A test's event loop ends with the test: so do the PostgreSQL connections that moves
    made on it (games/live/aiodb.py), before the next test resets the database or the session
    drops it. And the next test's games may reuse this one's ids: the frame groups that had
    no listener here (games/live/frames.py) are forgotten. And no state the move path kept was
    changed afterwards, on any path (a batch that fails on it is retried one by one, so
    only this catches it there)."""
    yield
    aiodb.close_all()
    connect_gate.by_address.clear()  # connect allowances by address and by game id, which a reset
    connect_gate.by_game.clear()     # database hands out again
    connect_gate.refusals.reset()  # a refusal's counted line: no timer writes into the next test
    frames._unheard.clear()
    frames.shown.clear()  # keyed by match id, which a reset database hands out again
    changed, persistence.recent.changed[:] = list(persistence.recent.changed), []
    assert not changed, f"states kept for the next move were changed afterwards: matches {changed}"


def _loggers_state() -> dict:
    state = {name: (logger.level, logger.propagate, logger.disabled)
             for name, logger in logging.root.manager.loggerDict.items() if isinstance(logger, logging.Logger)}
    state[""] = (logging.root.level, logging.root.propagate, logging.root.disabled)
    return state


@pytest.fixture(scope="session")
def logging_as_configured():
    """Each logger's level, propagation and switch as the site's settings left them."""
    return logging.root.manager.disable, _loggers_state()


@pytest.fixture(autouse=True)
def logging_reset(logging_as_configured):
    """A server or worker an earlier test of this process started in-process may have
    configured logging again (disabling, raising or stopping short of the root the loggers it
    did not name): each test starts with the site's own logging, so what it logs reaches the
    root, where pytest's capture listens. Handlers are left alone (the capture's own is one)."""
    restore_logging(*logging_as_configured)
    yield


def restore_logging(disable: int, loggers: dict) -> None:
    """Every logger back to ``loggers``' (level, propagate, disabled), the root's under the
    name ""; a logger made after they were taken (its module imported later) as a new logger
    is: every level passed on to the root."""
    logging.root.manager.disable = disable
    if "" in loggers:  # the root, which is not among the named loggers
        logging.root.level, logging.root.propagate, logging.root.disabled = loggers[""]
    for name, logger in list(logging.root.manager.loggerDict.items()):
        if isinstance(logger, logging.Logger):
            logger.level, logger.propagate, logger.disabled = loggers.get(name, (logging.NOTSET, True, False))


@pytest.fixture(scope="session", autouse=True)
def fast_password_hashing():
    """Hash the suite's passwords quickly (tests/hashers.py says why); the test server
    started by tests/browser_fixtures.py runs with the same list (tests/live_settings.py)."""
    from django.test import override_settings

    from tests.hashers import PASSWORD_HASHERS
    with override_settings(PASSWORD_HASHERS=PASSWORD_HASHERS):
        yield


@pytest.fixture
def make_user(db):
    User = get_user_model()
    counter = {"n": 0}

    def make(username: str | None = None, **extra):
        counter["n"] += 1
        username = username or f"player{counter['n']}"
        user = User.objects.create_user(username=username, password=PASSWORD,
                                        email=extra.pop("email", f"{username}@example.com"), **extra)
        return user

    return make


@pytest.fixture
def make_match(make_user):
    """A started match of ``kind`` between fresh users; returns (match, [users])."""
    from games.table import services

    def make(kind: str = "duel", seats: int = 2, users=None, **kwargs):
        users = users or [make_user() for _ in range(seats)]
        match = services.match_create(creator=users[0], kind=kind, num_seats=seats,
                                      invite=[u.username for u in users[1:]], seed=kwargs.pop("seed", 1234), **kwargs)
        for user in users[1:]:
            services.match_join(match_id=match.pk, user=user)
        match.refresh_from_db()
        return match, users

    return make


@pytest.fixture
def run_threads():
    """Run callables at the same moment in threads; returns their results or exceptions."""
    from django.db import connection

    def run(*funcs):
        barrier = threading.Barrier(len(funcs))
        results = [None] * len(funcs)

        def body(i, fn):
            try:
                barrier.wait()
                results[i] = fn()
            except Exception as exc:  # collected for the test to assert on
                results[i] = exc
            finally:
                connection.close()

        threads = [threading.Thread(target=body, args=(i, f)) for i, f in enumerate(funcs)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        return results

    return run


def seated_players_moved(match, *users) -> None:
    """As if each of ``users`` (every person at the table, by default) had made a move of their
    own. The referee aborts a game that a person leaves before their first move
    (games/table/referee.py); tests of what follows a time-out or a resignation in a game under
    way are not about that, so they start from here."""
    from games.models import Seat

    seats = Seat.objects.filter(match=match, user__isnull=False)
    if users:
        seats = seats.filter(user__in=users)
    seats.update(own_moves=1)
