"""How long a thread may keep the interpreter (the GIL) while another waits for it.

A web process runs its event loop (every socket, the batched move path) on one thread and
the work that still needs Django's ORM (a page's socket connecting, HTTP views) on a pool of
others. When the loop lets go of the GIL for a moment (each PostgreSQL or Redis call does)
and a pool thread takes it, the loop waits until that thread blocks or its switch interval
ends: Python's default is 5 ms, so a move's frame could sit behind 5 ms of someone's page
being drawn. py-spy put 13% of a worker's samples at 200 CCG moves a second in the loop's
return from sending a statement to PostgreSQL, waiting for the GIL.

At 0.5 ms, three alternating pairs of CCG runs at 200 moves/s (2026-11-26,
docs/performance.md): p95 28.2 / 40.6 / 30.8 ms -> 27.4 / 30.1 / 22.9 ms, p99 better in
every pair, no more CPU a move. Flat out it changed nothing beyond the noise (CCG over
sockets 563 against 584 moves/s; the API, whose views run in the pool's threads, 120 and
166 against 148 and 148). ``GRAILSITE_SWITCH_INTERVAL_MS`` sets another value.
"""
from __future__ import annotations

import os
import sys

DEFAULT_MS = 0.5


def tune() -> None:
    sys.setswitchinterval(float(os.environ.get("GRAILSITE_SWITCH_INTERVAL_MS", DEFAULT_MS)) / 1000)
