"""A game's state is stored in a json column compressed with lz4 on PostgreSQL
(games/fields.py): what is written is what every reader gets back, through the move path's
own statements and through the ORM alike."""
import pytest
from django.db import connection, transaction

from games.table import persistence
from games.models import Match

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

AWKWARD = {"zeta": 1, "alpha": [1, 2.5, None, True, "é ☃ \"quoted\" \\ back"], "big": 2**63 - 1,
           "nested": {"b": {}, "a": []}, "empty": ""}


def test_the_state_column_is_json_with_lz4():
    with connection.cursor() as cur:
        cur.execute("SELECT data_type FROM information_schema.columns WHERE table_name = 'games_match' "
                    "AND column_name = 'state'")
        assert cur.fetchone()[0] == "json"
        cur.execute("SELECT attcompression FROM pg_attribute WHERE attrelid = 'games_match'::regclass "
                    "AND attname = 'state'")
        assert cur.fetchone()[0] == "l"  # lz4


def test_a_state_reads_back_as_written_by_either_path(make_match):
    match, _users = make_match(kind="duel")
    Match.objects.filter(pk=match.pk).update(state=AWKWARD)  # the ORM's write
    match.refresh_from_db()
    assert match.state == AWKWARD and list(match.state) == list(AWKWARD)  # json keeps key order
    with transaction.atomic():
        locked, seats = persistence.lock(match.pk)  # the move path's read
        assert locked.state == AWKWARD
        locked.state = {**AWKWARD, "more": [{"x": 1}] * 3}
        locked.version += 1
        persistence.write(locked, [], None)  # the move path's write
    match.refresh_from_db()
    assert match.state == {**AWKWARD, "more": [{"x": 1}] * 3}
    Match.objects.filter(pk=match.pk).update(state=None)
    match.refresh_from_db()
    assert match.state is None
    assert not Match.objects.filter(pk=match.pk).exclude(state__isnull=True).exists()
