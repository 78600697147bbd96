"""Where a change's writes and after-commit work go: executed at once (the usual, synchronous
path inside Django's ``transaction.atomic``), or collected by a ``UnitOfWork`` for an
executor that runs them itself (games/live/live_moves.py, on the event loop).

The services decide what a move changes; they never wait on the database or Redis between
the lock and the commit except through ``persistence``. So the same service code can run on
an event loop: its lock is read beforehand, its statements are collected here instead of
executed, and the executor sends them and the COMMIT in one round trip, then runs the
collected after-commit work, whose group messages are collected in turn and sent in one
pipelined round trip. One implementation of what a move does; two ways of doing its I/O.

Anything on that path that would still touch the database itself (an ORM query in a hook,
say) raises Django's ``SynchronousOnlyOperation`` on the event loop, and code that knows it
needs the ordinary path calls ``require_sync()``: either way the executor rolls back and
runs the whole submission again on the synchronous path.
"""
from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass, field
from typing import Callable

from django.db import transaction


class NeedsSync(Exception):
    """This change must be made on the synchronous path (raised while collecting)."""


@dataclass
class UnitOfWork:
    # (sql, params, done): ``done(row)`` receives the statement's first row, or None.
    statements: list[tuple[str, list, Callable | None]] = field(default_factory=list)
    # Work for once the transaction commits: quick, non-blocking code run on the loop ...
    after_commit: list[Callable] = field(default_factory=list)
    # ... work whose only effect is what it publishes (building the change's frames), which
    # an executor may run while the COMMIT is on its way, sending what it published only
    # once the commit succeeded ...
    publish_only: list[Callable] = field(default_factory=list)
    # ... and blocking calls (a Celery send) run in a worker thread after that.
    blocking: list[Callable] = field(default_factory=list)
    # (group, message) pairs that after-commit work published (games/live/publisher.py).
    messages: list[tuple[str, dict]] = field(default_factory=list)
    # How many of the statements lock card holdings (the ante's ledger writes): an executor
    # lets only one change of a batch make such writes, so holdings are locked in the
    # ledger's order (user, card) within a transaction, as on the synchronous path.
    ledger_writes: int = 0


_current: contextvars.ContextVar[UnitOfWork | None] = contextvars.ContextVar("unit_of_work", default=None)


def current() -> UnitOfWork | None:
    return _current.get()


@contextlib.contextmanager
def collecting(unit: UnitOfWork):
    """Collect into ``unit`` the statements, after-commit work and group messages of the
    code run inside."""
    token = _current.set(unit)
    try:
        yield unit
    finally:
        _current.reset(token)


def on_commit(fn: Callable, *, blocking: bool = False, publish_only: bool = False) -> None:
    """Run ``fn`` once the change commits. ``blocking``: it may wait on the network (a Celery
    send), so a collecting executor runs it in a worker thread rather than on its loop.
    ``publish_only``: its only effect is what it publishes through ``publisher`` (building a
    change's frames from the decided state), so a collecting executor may run it before the
    COMMIT has returned, while the database works, and sends what it published once the
    commit succeeded (or drops it). Such work must not write, nor depend on after-commit work."""
    unit = _current.get()
    if unit is None:
        transaction.on_commit(fn)
    elif blocking:
        unit.blocking.append(fn)
    elif publish_only:
        unit.publish_only.append(fn)
    else:
        unit.after_commit.append(fn)


def require_sync(why: str) -> None:
    """Say that the change in progress needs the synchronous path (``why`` is for the log)."""
    if _current.get() is not None:
        raise NeedsSync(why)
