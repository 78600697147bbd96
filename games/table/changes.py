"""Who else acts on a change the table makes. The table stands below the parts that show a
change (live: each viewer's frame), tell players of it (inbox: nudges, reminders, pushes,
chat lines) and rate a finished game (players): it announces each change here and they
listen, registered once when the app is ready (``games.apps``). So the move path imports
none of them, and every listener of a change is named in one place.

Each announcement runs its listeners in the order they registered, at the point of the
change the table gives, inside its transaction: work for after the commit is theirs to put
on ``unit_of_work.on_commit``."""
from __future__ import annotations

from typing import Callable

# (match, seats, record or None), before the change is written: build the frames it shows.
_shown: list[Callable] = []
# (match, seats), inside the transaction that records a game's end.
_finished: list[Callable] = []
# (match, seats, seat), inside the transaction that aborts a game (no result, not rated):
# ``seat`` is the one whose person left before their first move (games/table/referee.py).
_aborted: list[Callable] = []
# (match, seats to nudge, timers=seats whose deadline was set), once the change is written.
_written: list[Callable] = []
# (chat message, its public line), once the line is written.
_chatted: list[Callable] = []
# (user ids), once notices to them are written: each may become a push.
_noticed: list[Callable] = []


def listen(*, shown: Callable | None = None, finished: Callable | None = None, aborted: Callable | None = None,
           written: Callable | None = None, chatted: Callable | None = None, noticed: Callable | None = None) -> None:
    """Add listeners (``games.apps`` calls this once per part)."""
    for hooks, fn in ((_shown, shown), (_finished, finished), (_aborted, aborted), (_written, written),
                      (_chatted, chatted), (_noticed, noticed)):
        if fn is not None and fn not in hooks:
            hooks.append(fn)


def shown(match, seats, record=None) -> None:
    for fn in _shown:
        fn(match, seats, record)


def finished(match, seats) -> None:
    for fn in _finished:
        fn(match, seats)


def aborted(match, seats, seat) -> None:
    for fn in _aborted:
        fn(match, seats, seat)


def written(match, seats_to_nudge, *, timers=()) -> None:
    for fn in _written:
        fn(match, seats_to_nudge, timers=timers)


def chatted(message, line: dict) -> None:
    for fn in _chatted:
        fn(message, line)


def noticed(user_ids) -> None:
    for fn in _noticed:
        fn(user_ids)
