"""Python's cycle collector, tuned for a long-running server process.

Measured on the move path (docs/performance.md, 2026-11-25): with the interpreter's default
thresholds a web process ran a collection every couple of moves, 0.4 ms of CPU a move in
all, and every few hundred moves a full collection that walked everything Django, the
rules and the caches had built, holding the GIL for up to ~80 ms: every socket of that
process waited, which is what a player sees as a late frame.

So, once the application is loaded, ``tune`` moves everything that exists then (modules,
settings, URL patterns, card and board data: objects that live as long as the process) to
the permanent generation, which collections never walk. Objects made later are collected
as before. (A larger young threshold was tried too: fewer collections, but each young one
then paused ~10 ms instead of ~2, for the same total: not kept.)
``GRAILSITE_GC=default`` leaves the interpreter alone.
"""
from __future__ import annotations

import gc
import os


def tune() -> None:
    if os.environ.get("GRAILSITE_GC", "").lower() == "default":
        return
    gc.collect()  # what start-up left as garbage is freed, not frozen
    gc.freeze()
