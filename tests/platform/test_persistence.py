"""The move path's own reads and writes (games/table/persistence.py), on PostgreSQL: a state this
process holds is used only for the exact row it was read or written as; any other write to
the row, and any rolled-back change, sends the next move back to the database."""
import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.table import persistence, services
from games.models import Match, MoveRecord, Notification, Seat

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def _turn_user(match, users):
    match.refresh_from_db()
    seat = match.seats.get(waiting_for__gt="")
    return next(u for u in users if u.pk == seat.user_id)


def _play(match, users, card_index=0):
    user = _turn_user(match, users)
    seat = match.seats.get(user=user).index
    card = match.state["hands"][seat][card_index]
    return services.move_submit(match_id=match.pk, user=user, move={"type": "play", "card": card},
                                version=match.version)


class _StateReads:
    """How many locks read the state from the database (not from this process's copy)."""

    def __enter__(self):
        self.before = persistence.recent.misses
        return self

    def __exit__(self, *exc):
        self.count = persistence.recent.misses - self.before


def test_a_move_is_one_lock_and_one_write_when_this_process_holds_the_state(make_match):
    match, users = make_match(kind="duel")
    _play(match, users)
    _turn_user(match, users)
    with CaptureQueriesContext(connection) as ctx, _StateReads() as reads:
        _play(match, users)
    assert reads.count == 0
    locks = [q["sql"] for q in ctx.captured_queries if "FOR UPDATE" in q["sql"]]
    assert len(locks) == 2  # the match, then its seats
    writes = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith("WITH w0 AS (UPDATE games_match")]
    assert len(writes) == 1 and "INSERT INTO games_moverecord" in writes[0] and "UPDATE games_seat" in writes[0]
    # The next player's "Your move" rides in the same statement, refreshed or added.
    assert "INSERT INTO games_notification" in writes[0]
    assert not [q for q in ctx.captured_queries if q["sql"].startswith("WITH nr AS")]
    match.refresh_from_db()
    record = MoveRecord.objects.get(match=match, seq=match.move_count)
    assert record.version_after == match.version and record.move["type"] == "play"
    assert {s.index: s.waiting_for for s in match.seats.all()} in ({0: "turn", 1: ""}, {0: "", 1: "turn"})
    due = match.seats.get(waiting_for="turn")
    assert list(Notification.objects.filter(user_id=due.user_id, match=match, read_at__isnull=True)
                .values_list("kind", flat=True)) == [Notification.Kind.YOUR_TURN]


def test_a_keyed_move_finds_its_earlier_submission_in_the_lock_itself(make_match):
    match, users = make_match(kind="duel")
    user = _turn_user(match, users)
    card = match.state["hands"][match.seats.get(user=user).index][0]
    first = services.move_submit(match_id=match.pk, user=user, move={"type": "play", "card": card},
                                 version=match.version, key="same-key")
    with CaptureQueriesContext(connection) as ctx:
        again = services.move_submit(match_id=match.pk, user=user, move={"type": "play", "card": card},
                                     version=match.version, key="same-key")
    assert again == {**first, "repeated": True}
    selects = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith("SELECT")]
    assert len(selects) == 2 and 'r."key" = ' in selects[1]  # no third statement for the key
    other = next(u for u in users if u != user)
    with pytest.raises(services.NotAllowed):
        services.move_submit(match_id=match.pk, user=other, move={"type": "play", "card": card},
                             version=match.version, key="same-key")


def test_a_write_by_any_other_path_is_read_back_from_the_database(make_match):
    match, users = make_match(kind="duel")
    _play(match, users)
    match.refresh_from_db()
    changed = dict(match.state)
    seat = match.seats.get(waiting_for="turn").index
    changed["hands"] = [list(h) for h in match.state["hands"]]
    changed["hands"][seat] = changed["hands"][seat][:1]  # one card left in the mover's hand
    Match.objects.filter(pk=match.pk).update(state=changed)  # no version bump, no updated_at
    with _StateReads() as reads:
        _play(match, users)
    assert reads.count == 1
    match.refresh_from_db()
    assert len(match.state["hands"][seat]) in (0, 1)  # played from the one-card hand (and maybe drew)


def test_a_rolled_back_change_leaves_nothing_behind(make_match):
    match, users = make_match(kind="duel")
    _play(match, users)
    match.refresh_from_db()
    before_version, before_state = match.version, match.state

    class Boom(Exception):
        pass

    with pytest.raises(Boom):
        with transaction.atomic():
            locked, seats = persistence.lock(match.pk)
            locked.state = {**locked.state, "poisoned": True}
            locked.version += 1
            persistence.write(locked, [], None)
            raise Boom
    match.refresh_from_db()
    assert match.version == before_version and match.state == before_state
    with transaction.atomic():
        locked, _seats = persistence.lock(match.pk)
    assert "poisoned" not in locked.state and locked.version == before_version


def test_the_seats_come_locked_with_their_players_names(make_match):
    match, users = make_match(kind="duel")
    with transaction.atomic():
        locked, seats = persistence.lock(match.pk)
        assert [s.index for s in seats] == [0, 1]
        assert [s.user.username for s in seats] == list(
            Seat.objects.filter(match=match).order_by("index").values_list("user__username", flat=True))
        assert all(s.user.username in {u.username for u in users} for s in seats)
    with pytest.raises(services.NotFound):
        persistence.lock(10**30)


def test_the_state_kept_after_a_move_equals_the_row_and_serves_the_next_move(make_match):
    match, users = make_match(kind="duel")
    _play(match, users)
    match.refresh_from_db()
    version, stamp = persistence.recent.peek(match.pk)
    assert version == match.version
    state, _fixed = persistence.recent.take(match.pk, version, stamp)
    assert state == match.state  # what a read of the row gives
    persistence.recent.put(match.pk, version, stamp, state, _fixed)
    with _StateReads() as reads:
        _play(match, users)
    assert reads.count == 0


def test_a_state_kept_too_long_is_read_with_the_lock_not_after_it(make_match, monkeypatch):
    """An expired state is not offered to the lock's statement: the row brings the state,
    and no statement of its own reads it afterwards."""
    match, users = make_match(kind="duel")
    _play(match, users)
    monkeypatch.setattr(persistence.recent, "ttl", -1.0)
    assert persistence.recent.peek(match.pk) is None
    _turn_user(match, users)
    with CaptureQueriesContext(connection) as ctx, _StateReads() as reads:
        _play(match, users)
    assert reads.count == 1
    assert not [q for q in ctx.captured_queries if q["sql"].startswith(persistence.STATE_SQL.split("%")[0])]


def test_a_kept_state_changed_afterwards_is_caught_when_checking():
    recent = persistence._Recent(check=True)
    state = {"hands": [["a"], ["b"]], "turn": 0}
    recent.put(7, 3, "900", state, None)
    assert recent.take(7, 3, "900") == (state, None)  # unchanged: served
    recent.put(7, 3, "900", state, None)
    state["turn"] = 1  # someone changed what the rules made
    with pytest.raises(AssertionError, match="changed after it was kept"):
        recent.take(7, 3, "900")
    assert recent.changed == [7]  # what tests/conftest.py asserts empty after every test


def test_the_suite_checks_every_kept_state():
    assert persistence.recent.check  # tests/conftest.py turns it on for every test
