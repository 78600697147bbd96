"""Timing helpers shared by the engine benchmarks (CPU time of this process, so a busy
shared machine distorts the figures less than wall-clock time would)."""
from __future__ import annotations

import time


def per_call(fn, states, repeat=3) -> float:
    """Microseconds of CPU per call of ``fn`` over ``states``, ``repeat`` times each."""
    start = time.process_time()
    for _ in range(repeat):
        for s in states:
            fn(s)
    return (time.process_time() - start) / (repeat * len(states)) * 1e6
