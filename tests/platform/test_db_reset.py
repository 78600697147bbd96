"""The suite's faster reset between transactional tests (tests/db_reset.py) leaves the
database exactly as the migrations left it: what Django's own flush and reload give a test that
asks for the migrations' rows back, whichever test runs next."""
import re

import pytest
from django.core.management import call_command
from django.db import connection

from decks.models import Card
from games.models import Match

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def _json_times(serialized: str) -> str:
    """Django's JSON keeps milliseconds: a time of 412 µs is written ".000Z", read back as 0 µs,
    and written again as "Z". The same instant either way, as Django's own reload gives it."""
    return re.sub(r'(T\d\d:\d\d:\d\d)\.000Z"', r'\1Z"', serialized)


def _flush():
    # What TransactionTestCase does after a serialized_rollback test.
    call_command("flush", verbosity=0, interactive=False, reset_sequences=False, allow_cascade=False,
                 inhibit_post_migrate=True)


def test_flush_then_reload_gives_back_exactly_the_migrated_rows(make_match):
    migrated = connection._test_serialized_contents
    assert _json_times(connection.creation.serialize_db_to_string()) == _json_times(migrated)
    make_match()                                    # rows the reset must remove...
    first = Card.objects.order_by("pk").first()
    Card.objects.filter(pk=first.pk).update(title="Someone Else")   # ...and a change it must undo
    assert Match.objects.exists()
    for _ in range(2):
        _flush()                                    # the flush puts the migrations' rows back itself
        assert not Match.objects.exists() and Card.objects.get(pk=first.pk).title != "Someone Else"
        assert _json_times(connection.creation.serialize_db_to_string()) == _json_times(migrated)
        connection.creation.deserialize_db_from_string(migrated)   # the reload then has nothing to do
        assert _json_times(connection.creation.serialize_db_to_string()) == _json_times(migrated)
    assert not Match.objects.exists()
