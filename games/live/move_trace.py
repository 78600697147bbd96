"""Stage stamps of moves made over a game's socket, for ``bench/move_stages.py``: where the
time from a submission to the opponent's frame goes (docs/performance.md).

Off unless ``GRAILSITE_MOVE_TRACE`` (``settings.MOVE_TRACE``) names a folder; then each
process appends a line per stamp to ``<folder>/<pid>.txt``. A stamp is ``perf_counter()``,
which on Linux is the system's monotonic clock, so the stamps of the web processes and of
the load generator compare directly. Lines are written through a small buffer that is flushed every
``FLUSH_EVERY`` lines: a worker of uvicorn ends without running exit handlers, so a bench
reads what was flushed (the last few lines of a run may be missing). Off, every call is
one test of a module global.

Lines, fields separated by spaces:

* ``move <match> <version> <batch size> <queued> <taken> <locked> <sent> <committed>``: a
  socket move a batch made (games/live/live_moves.py): handed to the committer, its batch taken,
  the locks read, the writes and COMMIT sent, the commit's answer;
* ``frames <group> <version> <built from> <built> <publishing>``: a change's frame for one
  group (a seat's, or the watchers'), built, and handed to Redis, by the process that made it;
* ``forward <match> <version> <seat> <arrived>``: a frame reaching a socket, to be sent on to
  its page (``None`` for a watcher).

Each stamp is taken before the step it starts (an answer awaited after a step may come after
the next process has already begun the next).
"""
from __future__ import annotations

import os
import time

from django.conf import settings

FOLDER = settings.MOVE_TRACE  # GRAILSITE_MOVE_TRACE
FLUSH_EVERY = 200

_lines: list[str] = []


def on() -> bool:
    return FOLDER is not None


def now() -> float:
    """The time for a stamp when tracing, else 0.0 (nothing read)."""
    return time.perf_counter() if FOLDER is not None else 0.0


def stamp(kind: str, *fields) -> None:
    """Record one line (see the module's docstring); nothing when tracing is off."""
    if FOLDER is None:
        return
    _lines.append(" ".join([kind, *(f"{f:.6f}" if isinstance(f, float) else str(f) for f in fields)]))
    if len(_lines) >= FLUSH_EVERY:
        flush()


def flush() -> None:
    if FOLDER is None or not _lines:
        return
    text = "\n".join(_lines) + "\n"
    _lines.clear()
    with open(os.path.join(FOLDER, f"{os.getpid()}.txt"), "a") as out:
        out.write(text)
