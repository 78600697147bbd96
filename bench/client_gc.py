"""The load generators' cycle collector, off while they measure.

A load generator stands for many browsers, which in real play run on their players' own
machines; here it shares the server's two cores, so what it spends is taken from what it
measures. It holds every game's last parsed view (a CCG view is hundreds of dicts and
lists), and each frame it parses makes hundreds more: with the interpreter's default
thresholds Python's cycle collector ran every few frames and walked all of them. Measured
2026-11-26 (docs/performance.md), CCG: the load generator's CPU a move 1.48 ms with it and
0.56 without, and its pauses stamped frames late (p95 at 200/s 67.7 ms with it, 13.6
without, in the same hour).

Nothing the generators build is cyclic for long (frames are parsed, merged and dropped), so
reference counting frees it; the collector is turned back on, and run, when measuring ends.
``--client-gc`` keeps it on, to compare with figures taken before the change.
"""
from __future__ import annotations

import contextlib
import gc


@contextlib.contextmanager
def collector_off(keep_on: bool = False):
    """Run the body with the cycle collector off (unless ``keep_on``), then restore it."""
    if keep_on or not gc.isenabled():
        yield
        return
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect()
