"""Moves made on the event loop in batches (games/live/live_moves.py), on PostgreSQL and Redis:
the same answers, refusals and rows as the synchronous service, several moves and several
games in one transaction, and the ordinary path for whatever cannot be batched."""
import asyncio
import logging
from unittest import mock

import pytest
from channels.db import database_sync_to_async

from games.live import aiodb, frames, live_moves, publisher
from games.table import services, unit_of_work
from grailsite.errors import MoveRejected, NotAllowed, NotFound, StaleVersion
from games.models import Match, MoveRecord, Notification, Seat
from tests.platform.batch_counts import counts, since

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def _card(match, seat, n=0):
    return match.state["hands"][seat][n]


def _rows(match_id):
    """What a match's moves left in the database, minus ids and times."""
    match = Match.objects.get(pk=match_id)
    seats = list(Seat.objects.filter(match=match).order_by("index")
                 .values("index", "waiting_for", "waiting_key", "situation_version", "deadline"))
    for seat in seats:
        seat["deadline"] = seat["deadline"] is not None
    records = list(MoveRecord.objects.filter(match=match).order_by("seq")
                   .values("seq", "seat", "user_id", "move", "events", "key", "version_after"))
    notices = sorted(Notification.objects.filter(match=match, read_at__isnull=True).values_list("user_id", "kind"))
    return {"state": match.state, "version": match.version, "moves": match.move_count, "status": match.status,
            "seats": seats, "records": records, "notices": notices}


async def _submit(match_id, user, move, version=None, key=None):
    return await live_moves.move_submit(match_id=match_id, user=user, move=move, version=version, key=key)


def test_a_batch_leaves_the_same_rows_and_answers_as_the_synchronous_service(make_match, make_user):
    """Two games from the same seed, one played through the service, one through batches:
    the same states, versions, move records, seats and notifications."""
    users = [make_user(), make_user()]
    plain, _ = make_match(kind="secret", users=users, seed=77)
    batched, _ = make_match(kind="secret", users=users, seed=77)
    answers = {"plain": [], "batched": []}
    before = counts()
    for turn in range(4):
        seat = turn % 2
        plain.refresh_from_db()
        move = {"type": "play", "card": _card(plain, seat)}
        answers["plain"].append(services.move_submit(match_id=plain.pk, user=users[seat], move=move,
                                                     version=plain.version, key=f"k{turn}"))
        answers["batched"].append(asyncio.run(_submit(batched.pk, users[seat], move, version=plain.version,
                                                      key=f"k{turn}")))
    assert answers["batched"] == answers["plain"]
    assert _rows(batched.pk) == _rows(plain.pk)
    assert since(before) == {"batched": 4, "batches": 4, "ordinary": 0}


def test_one_transaction_makes_several_games_moves_and_several_moves_of_one_game(make_match):
    one, (alice, bob) = make_match(kind="secret")
    two, (carol, dave) = make_match(kind="secret")
    before = counts()

    async def scenario():
        # Submitted in one go: the committer finds them all waiting and makes them together.
        return await asyncio.gather(
            _submit(one.pk, alice, {"type": "play", "card": _card(one, 0)}, key="a1"),
            _submit(two.pk, carol, {"type": "play", "card": _card(two, 0)}, key="c1"),
            # bob's move is legal only once alice's is made: the batch makes one game's moves in order
            _submit(one.pk, bob, {"type": "play", "card": _card(one, 1)}, key="b1"))

    first, other, second = asyncio.run(scenario())
    assert first == {"version": one.version + 1, "seq": 1, "repeated": False}
    assert second == {"version": one.version + 2, "seq": 2, "repeated": False}
    assert other == {"version": two.version + 1, "seq": 1, "repeated": False}
    assert since(before) == {"batched": 3, "batches": 1, "ordinary": 0}
    assert list(MoveRecord.objects.filter(match=one).order_by("seq").values_list("key", flat=True)) == ["a1", "b1"]
    one.refresh_from_db()
    assert one.state["table"] == [_card_of(one, "a1"), _card_of(one, "b1")] and one.state["turn"] == 0


def _card_of(match, key):
    return MoveRecord.objects.get(match=match, key=key).move["card"]


def test_a_key_sent_twice_in_one_batch_is_made_once(make_match):
    match, (alice, _) = make_match(kind="secret")
    move = {"type": "play", "card": _card(match, 0)}
    before = counts()

    async def scenario():
        return await asyncio.gather(_submit(match.pk, alice, move, key="twice"),
                                    _submit(match.pk, alice, move, key="twice"))

    first, again = asyncio.run(scenario())
    assert since(before) == {"batched": 2, "batches": 1, "ordinary": 0}
    assert first["repeated"] is False and again == {**first, "repeated": True}
    assert MoveRecord.objects.filter(match=match).count() == 1


def test_a_refused_move_changes_nothing_and_its_batch_goes_on(make_match, make_user):
    match, (alice, bob) = make_match(kind="secret")
    stranger = make_user()
    before = counts()

    async def scenario():
        return await asyncio.gather(
            _submit(match.pk, bob, {"type": "play", "card": _card(match, 1)}),  # not bob's turn
            _submit(match.pk, alice, {"type": "play", "card": "NOT-IN-HAND"}),
            _submit(match.pk, stranger, {"type": "play", "card": _card(match, 0)}),
            _submit(match.pk, alice, {"type": "play", "card": _card(match, 0)}, version=match.version - 1),
            _submit(match.pk + 1000, alice, {"type": "play", "card": _card(match, 0)}),
            _submit(match.pk, alice, {"type": "play", "card": _card(match, 0)}, version=match.version),
            return_exceptions=True)

    *refusals, made = asyncio.run(scenario())
    assert [type(r) for r in refusals] == [MoveRejected, MoveRejected, NotAllowed, StaleVersion, NotFound]
    assert str(refusals[0]) == "It is not your turn."
    assert made == {"version": match.version + 1, "seq": 1, "repeated": False}
    assert since(before)["batches"] == 1 and since(before)["ordinary"] == 0
    assert MoveRecord.objects.filter(match=match).count() == 1


def test_a_game_that_needs_the_ordinary_path_leaves_the_batch_and_is_made_there(make_match):
    """A hook that works through the ORM says so (unit_of_work.require_sync): its game's moves
    are made by the synchronous service after the batch, in order; the other game's stay."""
    slow, (alice, bob) = make_match(kind="secret")
    fast, (carol, _) = make_match(kind="secret")
    real = services._apply_auto_moves

    def needs_orm(match, seats):
        if match.pk == slow.pk:
            unit_of_work.require_sync("the test's hook reads the ORM")
        return real(match, seats)

    before = counts()

    async def scenario():
        return await asyncio.gather(
            _submit(slow.pk, alice, {"type": "play", "card": _card(slow, 0)}),
            _submit(fast.pk, carol, {"type": "play", "card": _card(fast, 0)}),
            _submit(slow.pk, bob, {"type": "play", "card": _card(slow, 1)}))

    with mock.patch.object(services, "_apply_auto_moves", needs_orm):
        first, other, second = asyncio.run(scenario())
    assert (first["seq"], second["seq"], other["seq"]) == (1, 2, 1)
    assert since(before) == {"batched": 1, "batches": 1, "ordinary": 2}
    assert MoveRecord.objects.filter(match=slow).count() == 2 and MoveRecord.objects.filter(match=fast).count() == 1


def test_code_that_reaches_the_orm_on_the_loop_is_made_on_the_ordinary_path(make_match, caplog):
    match, (alice, _) = make_match(kind="secret")
    real = services._apply_auto_moves

    def reads_the_orm(match, seats):
        Match.objects.get(pk=match.pk)  # SynchronousOnlyOperation on the loop
        return real(match, seats)

    before = counts()
    with mock.patch.object(services, "_apply_auto_moves", reads_the_orm), \
            caplog.at_level(logging.WARNING, logger="games.live.live_moves"):
        answer = asyncio.run(_submit(match.pk, alice, {"type": "play", "card": _card(match, 0)}))
    assert answer["seq"] == 1 and since(before)["ordinary"] == 1
    assert "reached the ORM on the loop" in caplog.text
    assert MoveRecord.objects.filter(match=match).count() == 1


def test_a_batch_that_fails_on_its_way_to_the_database_is_made_move_by_move(make_match):
    """Nothing of a failed batch was written; each of its moves is then made once."""
    one, (alice, bob) = make_match(kind="secret")
    two, (carol, _) = make_match(kind="secret")
    real = aiodb.run_script
    failures = []

    async def fails_to_commit(conn, statements, *, begin=False, commit=False):
        if commit and not failures:
            failures.append(1)
            await real(conn, statements[:1], commit=False)  # part of the batch reaches the server...
            raise OSError("the connection broke")  # ... and then the connection breaks
        return await real(conn, statements, begin=begin, commit=commit)

    # The batch's frames were built while its COMMIT was on its way; none of them may go.
    sent = []

    async def send_collected(messages):
        sent.extend(messages)
        return [1] * len(messages)

    before = counts()

    async def scenario():
        return await asyncio.gather(
            _submit(one.pk, alice, {"type": "play", "card": _card(one, 0)}),
            _submit(two.pk, carol, {"type": "play", "card": _card(two, 0)}),
            _submit(one.pk, bob, {"type": "play", "card": _card(one, 1)}))

    with mock.patch.object(aiodb, "run_script", fails_to_commit), \
            mock.patch.object(publisher, "send_collected", send_collected), \
            mock.patch.object(frames.shown, "clear", wraps=frames.shown.clear) as forgot:
        answers = asyncio.run(scenario())
    assert [a["seq"] for a in answers] == [1, 1, 2]
    assert since(before) == {"batched": 0, "batches": 0, "ordinary": 3}
    assert sent == [] and forgot.call_count == 1  # and what those frames showed is forgotten
    assert MoveRecord.objects.filter(match=one).count() == 2 and MoveRecord.objects.filter(match=two).count() == 1


def test_a_socket_that_closes_while_its_move_is_made_does_not_undo_it(make_match):
    match, (alice, _) = make_match(kind="secret")

    async def scenario():
        task = asyncio.ensure_future(_submit(match.pk, alice, {"type": "play", "card": _card(match, 0)}))
        await asyncio.sleep(0)  # queued
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        for _ in range(200):  # the committer carries on
            if await database_sync_to_async(MoveRecord.objects.filter(match=match).count)():
                return
            await asyncio.sleep(0.01)

    asyncio.run(scenario())
    assert MoveRecord.objects.filter(match=match).count() == 1


def test_without_batches_every_socket_move_takes_the_ordinary_path(make_match, settings):
    settings.MOVES_IN_BATCHES = False
    match, (alice, _) = make_match(kind="secret")
    before = counts()
    asyncio.run(_submit(match.pk, alice, {"type": "play", "card": _card(match, 0)}))
    assert since(before) == {"batched": 0, "batches": 0, "ordinary": 1}


def test_scripts_prepare_each_statement_once_a_connection_and_quote_any_text(db):
    sql = "SELECT %s::text, %s::integer, %s::bigint[]"
    hostile = "it's a \\ 'quote'; DROP TABLE games_match; -- ☃ 日本"

    async def scenario():
        async with aiodb.connection() as conn:
            first = await aiodb.run_script(conn, [(sql, [hostile, 7, [1, 2]])], begin=True, commit=True)
            again = await aiodb.run_script(conn, [(sql, ["plain", None, []])])
            prepared = (await (await conn.execute("SELECT count(*) FROM pg_prepared_statements")).fetchone())[0]
            return first, again, prepared

    first, again, prepared = asyncio.run(scenario())
    assert first == [[(hostile, 7, [1, 2])]] and again == [[("plain", None, [])]]
    assert prepared == 1
    assert Match.objects.count() == 0  # the table is there (and empty): the text stayed text


def test_a_failed_script_rolls_back_and_forgets_what_it_prepared(db):
    async def scenario():
        async with aiodb.connection() as conn:
            with pytest.raises(Exception, match="division by zero"):
                await aiodb.run_script(conn, [("SELECT %s::integer", [1]), ("SELECT 1 / %s::integer", [0])],
                                       begin=True)
            await aiodb.roll_back(conn)
            # The same statements again: prepared afresh, on a connection fit for use.
            return await aiodb.run_script(conn, [("SELECT %s::integer", [1]), ("SELECT 1 / %s::integer", [1])])

    assert asyncio.run(scenario()) == [[(1,)], [(1,)]]


def test_a_connection_whose_backend_was_killed_is_replaced_before_the_next_batch(make_match):
    """An idle async connection whose backend died (a restart, a failover) is noticed when it
    is taken (games/live/aiodb.py), and the next batch runs on a new one."""
    match, (alice, bob) = make_match(kind="secret")
    before = counts()

    async def scenario():
        await _submit(match.pk, alice, {"type": "play", "card": _card(match, 0)})
        async with aiodb.connection() as conn:  # the committer's, back in the idle list
            pid = conn.info.backend_pid
        await database_sync_to_async(_terminate)(pid)
        async with aiodb.connection() as conn:
            assert conn.info.backend_pid != pid
        await asyncio.sleep(0)
        return await _submit(match.pk, bob, {"type": "play", "card": _card(match, 1)})

    assert asyncio.run(scenario())["seq"] == 2
    assert since(before) == {"batched": 2, "batches": 2, "ordinary": 0}


def _terminate(pid):
    import time

    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        for _ in range(250):  # until the server has let it go
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
            if cursor.fetchone()[0] == 0:
                return
            time.sleep(0.02)


def test_a_match_without_seats_refuses_keyed_moves_on_either_path(make_match):
    """A match whose seats are gone (an admin's doing) has no seat to find an earlier move
    through: the key is looked up on its own, and the move is refused, not a crash."""
    match, (alice, _) = make_match(kind="secret")
    Seat.objects.filter(match=match).delete()
    move = {"type": "play", "card": _card(match, 0)}
    with pytest.raises(NotAllowed):
        services.move_submit(match_id=match.pk, user=alice, move=move, version=None, key="k")
    before = counts()
    with pytest.raises(NotAllowed):
        asyncio.run(_submit(match.pk, alice, move, key="k"))
    assert since(before)["ordinary"] == 1


def test_a_batch_whose_commit_answer_was_lost_is_not_made_twice(make_match):
    """The COMMIT went through but its answer never came back (the connection broke at that
    instant): the moves go to the ordinary path with their keys, the server's own included,
    which finds them made."""
    match, (alice, _) = make_match(kind="secret")
    real = aiodb.run_script

    async def commits_then_breaks(conn, statements, *, begin=False, commit=False):
        rows = await real(conn, statements, begin=begin, commit=commit)
        if commit:
            raise OSError("the connection broke after the COMMIT")
        return rows

    before = counts()
    with mock.patch.object(aiodb, "run_script", commits_then_breaks):
        answer = asyncio.run(_submit(match.pk, alice, {"type": "play", "card": _card(match, 0)}))  # no key
    assert answer == {"version": match.version + 1, "seq": 1, "repeated": True}
    assert since(before) == {"batched": 0, "batches": 0, "ordinary": 1}
    assert MoveRecord.objects.filter(match=match).count() == 1


def test_frames_of_a_batch_are_built_while_it_commits_and_go_out_every_one_and_in_order(make_match, monkeypatch):
    """Batches of one move each, queued behind one another: each batch's frames are built
    once its writes and COMMIT are on their way and before the COMMIT's answer is read, and
    every change of each game is published to each of its groups after its commit, in
    version order, the last one included."""
    one, (alice, bob) = make_match(kind="secret")
    two, (carol, dave) = make_match(kind="secret")
    monkeypatch.setattr(live_moves, "MAX_BATCH", 1)
    published, steps = [], []
    real_send, real_frames, real_script = publisher.send_collected, frames.frames_for, aiodb.run_script

    async def recording(messages):
        steps.append("published")
        published.extend((group, m["prev"], m["version"]) for group, m in messages if m["type"] == "match.frame")
        return await real_send(messages)

    def frames_for(match, *args, **kwargs):
        steps.append("frames")
        return real_frames(match, *args, **kwargs)

    async def script(conn, statements, *, begin=False, commit=False):
        if commit:
            steps.append("write")
        rows = await real_script(conn, statements, begin=begin, commit=commit)
        if commit:
            steps.append("committed")
        return rows

    monkeypatch.setattr(publisher, "send_collected", recording)
    monkeypatch.setattr(frames, "frames_for", frames_for)
    monkeypatch.setattr(aiodb, "run_script", script)
    before = counts()

    async def scenario():
        answers = await asyncio.gather(
            _submit(one.pk, alice, {"type": "play", "card": _card(one, 0)}),
            _submit(two.pk, carol, {"type": "play", "card": _card(two, 0)}),
            _submit(one.pk, bob, {"type": "play", "card": _card(one, 1)}),
            _submit(two.pk, dave, {"type": "play", "card": _card(two, 1)}))
        await live_moves._committer(one.pk).publishing
        return answers

    asyncio.run(scenario())
    assert since(before) == {"batched": 4, "batches": 4, "ordinary": 0}
    # Each batch's frames are built while its COMMIT is with the database, and published
    # once it returned (the next batch's write may go out before that publication ends).
    # (An earlier batch's publication may come anywhere after its own commit.)
    made = [step for step in steps if step != "published"]
    assert made == ["write", "frames", "committed"] * 4 and steps.count("published") == 4
    commits = [i for i, step in enumerate(steps) if step == "committed"]
    publications = [i for i, step in enumerate(steps) if step == "published"]
    assert all(commit < publication for commit, publication in zip(commits, publications))
    for match in (one, two):
        for group in [frames.seat_group(match.pk, 0), frames.seat_group(match.pk, 1), frames.watch_group(match.pk)]:
            assert [(prev, version) for g, prev, version in published if g == group] == [
                (match.version, match.version + 1), (match.version + 1, match.version + 2)]
