"""The fixed pure-Python workload every engine benchmark prints beside its figures.

Machines here differ by up to 2x from one session to the next, and other work shares the
cores: a figure divided by the floor measured in the same run compares across runs. The
workload is dict and list churn of the kind a rules engine does; never change it, or old
ratios stop comparing."""
from __future__ import annotations

import time


def floor_run() -> int:
    counts: dict[int, int] = {}
    items = []
    for i in range(100_000):
        key = i % 97
        counts[key] = counts.get(key, 0) + i * 3 % 11
        items.append(key)
        if len(items) > 50:
            items.pop(0)
    return sum(sorted(counts.values())[:5]) + len(items)


def floor_per_second(seconds: float = 1.0) -> float:
    """Runs of ``floor_run`` per second of this process's CPU time."""
    runs, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        floor_run()
        runs += 1
    return runs / (time.process_time() - start)
