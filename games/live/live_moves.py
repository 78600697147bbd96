"""Moves that arrive over a game's websocket, made on the event loop in batches.

The synchronous service (``services.move_submit``) costs each move a hop to a worker thread
and back, Django's transaction and cursor machinery, and five round trips to PostgreSQL
(BEGIN, two lock statements, the write, COMMIT), each a few system calls and a wake-up on
both sides. Under load that per-move overhead, not the rules or the database's own work,
was what limited the site (docs/performance.md). Here, on PostgreSQL with the Redis pub/sub
layer, one committer per event loop takes every move that is waiting and makes them all in
one transaction (group commit):

1. BEGIN, the locks of every match in the batch (rows by id, then their seats) and the
   moves already made with the batch's keys: one round trip
   (``persistence.lock_many_statements``, the house's lock order; ``aiodb.run_script``);
2. each match's moves, in the order they came, are decided by the very code of the
   synchronous path (``services.move_submit_locked``) while a ``UnitOfWork`` per match
   collects its writes and after-commit work (games/table/unit_of_work.py): pure computation
   by then, run on the loop;
3. every match's writes (the same statements as the synchronous path) and COMMIT: one
   round trip;
4. while that round trip is with PostgreSQL (the COMMIT waits for the disk), the batch's
   frames are built from the states just decided (``_publish``; they go nowhere yet);
5. once it returns, the after-commit work of each match runs (the states just written are
   kept for the next batch) and the moves are answered; blocking work (a Celery send for a
   near deadline or a computer player) goes to a worker thread; and every group message of
   the batch goes to Redis in one pipelined round trip, after the batch before's. A batch
   that failed publishes nothing.

A quiet site makes batches of one: a move waits for nothing but its own round trips. Under
load a batch holds whatever arrived while the last one was being made, so the round trips,
the wake-ups and the commit are shared.

A refused move (illegal, stale, not yours) is answered with its refusal and changes nothing.
A match whose move needs the ordinary path (a hook that works through the ORM, such as the
CCG's rematch after a drawn game; a second move of the batch that writes the card ledger; a
match without seats) takes no part in the batch: its moves are made on the
synchronous path after the batch commits, in the order they came, each in a transaction of
its own. If the batch itself fails (a broken connection), nothing of it was written and
every move in it is made on the synchronous path. The embedded default (SQLite, in-memory
layer) uses the synchronous path for every move. The answers, refusals and rows are the same
either way; the tests run both.
"""
from __future__ import annotations

import asyncio
import logging
import os
import weakref
from dataclasses import dataclass, field

from channels.db import database_sync_to_async
from django.conf import settings
from django.core.exceptions import SynchronousOnlyOperation

from games.live import aiodb, frames, move_trace, publisher
from games.table import persistence, services, unit_of_work
from grailsite.errors import NotFound, ServiceError
from grailsite.dbpool import DATABASE_DOWN

log = logging.getLogger(__name__)

# The most moves one transaction makes: a bound on how long the first of them waits.
MAX_BATCH = 64

# The ordinary path, in the thread pool (not the one shared thread: moves of different games
# run side by side).
_in_thread = database_sync_to_async(services.move_submit, thread_sensitive=False)

# How many moves each path made in this process, and in how many batches (tests, benchmarks).
counts = {"batched": 0, "batches": 0, "ordinary": 0}


def available() -> bool:
    return settings.MOVES_IN_BATCHES and persistence.fast() and publisher.pubsub()


async def move_submit(*, match_id: int, user, move, version: int | None, key: str | None) -> dict:
    """``services.move_submit``'s answer for this submission."""
    if not available():
        return await _ordinary(match_id=match_id, user=user, move=move, version=version, key=key)
    key, supplied = services.move_submission(move, key)
    match_id = persistence.match_id_checked(match_id)
    submission = _Submission(match_id, user, move, version, key, supplied,
                             asyncio.get_running_loop().create_future(), move_trace.now())
    # A refusal nobody waits for any more (the socket closed) is not "never retrieved".
    submission.answer.add_done_callback(lambda answer: answer.cancelled() or answer.exception())
    _committer(match_id).put(submission)
    # Shielded: a socket that closes while its move is being made does not undo the move.
    return await asyncio.shield(submission.answer)


async def _ordinary(**submission) -> dict:
    counts["ordinary"] += 1
    return await _in_thread(**submission)


@dataclass
class _Submission:
    match_id: int
    user: object
    move: dict
    version: int | None
    key: str
    supplied: bool  # the client chose the key, so it may have been used before
    answer: asyncio.Future
    queued: float = 0.0  # when it was handed to the committer (tracing only: games/live/move_trace.py)

    def ordinary(self) -> dict:
        # Always with its key, the one the server chose included: a batch whose COMMIT went
        # out but whose answer was lost may have stored the move, and then the ordinary
        # path finds it made with this key instead of making it twice.
        return {"match_id": self.match_id, "user": self.user, "move": self.move, "version": self.version,
                "key": self.key}


@dataclass
class _MatchWork:
    """One match's part of a batch: its moves in order, and what deciding them collected."""
    submissions: list[_Submission]
    unit: unit_of_work.UnitOfWork = field(default_factory=unit_of_work.UnitOfWork)
    results: list = field(default_factory=list)  # (submission, answer dict or ServiceError)
    elsewhere: bool = False  # made on the ordinary path after the batch
    stamps: list = field(default_factory=list)  # tracing only: batch taken, locked, writes sent


class _Committer:
    """A task of an event loop that makes the moves waiting for it, a batch at a time."""

    def __init__(self):
        self.queue: asyncio.Queue[_Submission] = asyncio.Queue()
        self.task: asyncio.Task | None = None
        self.publishing: asyncio.Task | None = None  # the last batch's frames, built or on their way

    def put(self, submission: _Submission) -> None:
        self.queue.put_nowait(submission)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run(), name="grailsite-moves")

    async def _run(self) -> None:
        while True:
            batch = [await self.queue.get()]
            while len(batch) < MAX_BATCH and not self.queue.empty():
                batch.append(self.queue.get_nowait())
            # Resolved True once the batch committed and its after-commit work ran, False if
            # it failed (or this task ended first): its frames are published or dropped.
            settled = asyncio.get_running_loop().create_future()
            try:
                await _make(batch, while_writing=lambda units: self._frames_out(units, settled))
            except Exception as exc:  # noqa: BLE001 - nothing of the batch was written
                if isinstance(exc, DATABASE_DOWN):  # an outage, not a bug: one line, no traceback
                    log.warning("a batch of %d moves failed, the database is unavailable (%s); making them one by "
                                "one", len(batch), str(exc).strip().splitlines()[0] if str(exc).strip() else
                                type(exc).__name__)
                else:
                    log.warning("a batch of %d moves failed; making them one by one", len(batch), exc_info=True)
                _elsewhere([s for s in batch if not s.answer.done()])
            else:
                settled.set_result(True)
            finally:
                if not settled.done():
                    settled.set_result(False)

    def _frames_out(self, units: list[unit_of_work.UnitOfWork], settled: asyncio.Future) -> None:
        """Build the frames of the batch whose COMMIT has just gone to PostgreSQL, and publish
        them once it returns (after the batch before's).

        Built then, the frames cost the move's latency nothing: the loop builds them while
        the database writes and flushes, instead of after (docs/performance.md). Nothing
        the commit does changes them: they read the states and seats the batch decided."""
        self.publishing = asyncio.get_running_loop().create_task(_publish(units, settled, after=self.publishing))


# Committers an event loop runs side by side (a match always goes to the same one, so a
# process makes one match's moves in the order they came). One is best on two cores: four
# made batches smaller and cost more CPU a move than the waits they overlapped
# (docs/performance.md).
LANES = max(1, int(os.environ.get("MOVE_LANES", "1")))
_committers: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _committer(match_id: int) -> _Committer:
    loop = asyncio.get_running_loop()
    lanes = _committers.get(loop)
    if lanes is None:
        lanes = _committers[loop] = [_Committer() for _ in range(LANES)]
    return lanes[match_id % LANES]


async def _publish(units: list[unit_of_work.UnitOfWork], settled: asyncio.Future, *,
                   after: asyncio.Task | None) -> None:
    """Build the frames of a batch's changes (their publish-only work) at once; once the
    batch is ``settled``, publish every message of the batch (its after-commit work's, then
    its frames, change by change) in one pipelined round trip, after the batch before has:
    pages get versions in order. A failed batch publishes nothing."""
    built_from = move_trace.now()
    built = []
    for unit in units:
        side = unit_of_work.UnitOfWork(publish_only=unit.publish_only)
        _run_after_commit(side, side.publish_only)
        built.append(side.messages)
    built_at = move_trace.now()
    if not await settled:
        # Nothing was written. The frames built remembered what they showed each viewer
        # (``frames.shown``), and a frame that never went must not be what the next one is
        # trimmed against: forget it all (a failed batch is rare; frames go whole once).
        frames.shown.clear()
        return
    if after is not None:
        await after
    messages: list = []
    for unit, frames_built in zip(units, built):
        messages += unit.messages + frames_built
    if move_trace.on():
        publishing = move_trace.now()
        for group, message in (m for frames_built in built for m in frames_built):
            if message.get("type") == "match.frame" and message.get("text") is not None:
                move_trace.stamp("frames", group, message["version"], built_from, built_at, publishing)
    try:
        frames.heard(messages, await publisher.send_collected(messages))
    except Exception:  # noqa: BLE001 - a dropped push is caught up by the page's heartbeat
        log.warning("could not publish the frames of a batch of moves", exc_info=True)


async def _make(batch: list[_Submission], *, while_writing) -> None:
    """Make a batch of moves and answer them. ``while_writing(units)`` is called with the
    units of the changes to be made once the batch's writes and COMMIT are on their way to
    the database; their messages are collected in them."""
    works: dict[int, _MatchWork] = {}
    taken = move_trace.now()
    for submission in batch:  # each match's moves in the order they came
        works.setdefault(submission.match_id, _MatchWork([])).submissions.append(submission)
    async with aiodb.connection() as conn:
        try:
            written = await _decide_and_write(conn, works, while_writing)
        except BaseException:
            await aiodb.roll_back(conn)
            raise
    # Committed: nothing below may send the batch to be made again.
    counts["batches"] += 1
    if move_trace.on():
        _trace(works, len(batch), taken, move_trace.now())
    blocking: list = []
    for (_, _, done), row in written:
        _logged(done, row)
    for work in works.values():
        if work.elsewhere:
            continue
        _run_after_commit(work.unit, work.unit.after_commit)  # keeps the states for the next batch
        blocking += work.unit.blocking
        for submission, answer in work.results:
            counts["batched"] += 1
            if isinstance(answer, ServiceError):
                submission.answer.set_exception(answer)
            else:
                submission.answer.set_result(answer)
    loop = asyncio.get_running_loop()
    for fn in blocking:
        loop.run_in_executor(None, _logged, fn)
    _elsewhere([s for work in works.values() if work.elsewhere for s in work.submissions])


async def _decide_and_write(conn, works: dict[int, _MatchWork], while_writing) -> list:
    """Lock, decide and write a batch, and commit; each write's (statement, first row)."""
    match_ids = sorted(works)
    keys = sorted({(s.match_id, s.key) for w in works.values() for s in w.submissions if s.supplied})
    locked = await aiodb.run_script(conn, persistence.lock_many_statements(match_ids, keys), begin=True)
    locked_at = move_trace.now()
    match_rows = {row[0]: row for row in locked[0]}
    seat_rows: dict[int, list] = {}
    for row in locked[1]:
        seat_rows.setdefault(row[_SEAT_MATCH], []).append(row)
    earlier = {(row[0], row[1]): tuple(row[2:]) for row in locked[2]} if keys else {}
    for match_id in match_ids:
        ledger_taken = any(w.unit.ledger_writes for w in works.values() if not w.elsewhere)
        await _decide(conn, works[match_id], match_id, match_rows.get(match_id), seat_rows.get(match_id, []),
                      earlier, ledger_taken)
    writes = [(sql, params, done) for w in works.values() if not w.elsewhere for sql, params, done in w.unit.statements]
    if move_trace.on():
        sent_at = move_trace.now()
        for work in works.values():
            work.stamps = [locked_at, sent_at]
    writing = asyncio.ensure_future(aiodb.run_script(conn, [(sql, params) for sql, params, _ in writes], commit=True))
    # Created after the write's task, so that runs first: the statements are sent before
    # the frames are built.
    while_writing([w.unit for w in works.values() if not w.elsewhere])
    results = await writing
    return [(write, rows[0] if rows else None) for write, rows in zip(writes, results) if write[2] is not None]


_SEAT_MATCH = persistence._SEAT_COLUMNS.index("match_id")


async def _decide(conn, work: _MatchWork, match_id: int, match_row, seat_rows, earlier: dict,
                  ledger_taken: bool) -> None:
    """Decide one match's moves of the batch, collecting their writes in ``work.unit``; a
    match that needs the ordinary path is marked so, with nothing of it kept.

    Only one move of a batch may write the card ledger (an ante staked or settled): each of
    its statements locks holdings in the ledger's order, but two moves' statements one after
    the other would not, and could deadlock with a transaction that keeps the order. A
    second such move (``ledger_taken``: another match's already did) goes to the ordinary
    path with the rest of its match's moves."""
    if match_row is None:
        work.results = [(s, NotFound("No such game.")) for s in work.submissions]
        return
    if not seat_rows and any(s.supplied for s in work.submissions):
        work.elsewhere = True  # a match without seats: its earlier moves are asked on their own
        return
    with unit_of_work.collecting(work.unit):
        match, stamp, held = persistence.match_from_row(match_id, match_row)
        if held is None:  # the row said this process holds the state; it no longer does
            rows = (await aiodb.run_script(conn, [(persistence.STATE_SQL, [match_id])]))[0]
            held = persistence.state_from_row(rows[0])
        match, seats, _ = persistence.locked(match, stamp, held, seat_rows, None)
        made: dict[str, tuple] = {}  # keys used by this batch's own moves of this match
        for submission in work.submissions:
            before = (match.version, len(work.unit.statements))
            ledger_before = work.unit.ledger_writes
            try:
                answer = services.move_submit_locked(
                    match, seats, made.get(submission.key) or earlier.get((match_id, submission.key)),
                    user=submission.user, move=submission.move, version=submission.version, key=submission.key)
            except ServiceError as exc:
                if (match.version, len(work.unit.statements)) != before:
                    raise RuntimeError("a move was refused after it changed the match") from exc
                work.results.append((submission, exc))
                continue
            except (unit_of_work.NeedsSync, SynchronousOnlyOperation) as exc:
                if isinstance(exc, SynchronousOnlyOperation):  # should have said require_sync
                    log.warning("a move in match %s reached the ORM on the loop", match_id, exc_info=True)
                work.elsewhere = True
                return
            if work.unit.ledger_writes > ledger_before and (ledger_taken or ledger_before):
                work.elsewhere = True
                return
            if not answer["repeated"]:
                made[submission.key] = (submission.user.id, answer["version"], answer["seq"])
            work.results.append((submission, answer))


def _run_after_commit(unit: unit_of_work.UnitOfWork, work: list) -> None:
    """Run ``work``, a change's after-commit work (keep its state, nudges) once it is stored,
    or its publish-only work (frames) while it is being stored, collecting what they publish
    in the unit. None of this may undo or fail the move: failures are logged, and pages
    catch up by version."""
    with unit_of_work.collecting(unit):
        i = 0
        while i < len(work):  # work may add work
            try:
                work[i]()
            except Exception:  # noqa: BLE001
                log.exception("after-commit work of a move failed")
            i += 1


def _trace(works: dict[int, _MatchWork], size: int, taken: float, committed: float) -> None:
    """A ``move`` line for each move the batch made (games/live/move_trace.py)."""
    for work in works.values():
        if work.elsewhere or not work.stamps:
            continue
        for submission, answer in work.results:
            if isinstance(answer, dict) and not answer["repeated"]:
                move_trace.stamp("move", submission.match_id, answer["version"], size, submission.queued, taken,
                                 *work.stamps, committed)


def _elsewhere(submissions: list[_Submission]) -> None:
    """Make these moves on the ordinary path, each match's in the order they came."""
    by_match: dict[int, list[_Submission]] = {}
    for submission in submissions:
        by_match.setdefault(submission.match_id, []).append(submission)
    for queue in by_match.values():
        asyncio.get_running_loop().create_task(_one_by_one(queue))


async def _one_by_one(submissions: list[_Submission]) -> None:
    for submission in submissions:
        try:
            submission.answer.set_result(await _ordinary(**submission.ordinary()))
        except Exception as exc:  # noqa: BLE001 - the submitter gets it, as from the service
            submission.answer.set_exception(exc)


def _logged(fn, *args) -> None:
    try:
        fn(*args)
    except Exception:  # noqa: BLE001
        log.exception("after-commit work of a move failed")
