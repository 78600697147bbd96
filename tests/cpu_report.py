"""Where the suite's time goes: with ``SUITE_CPU_REPORT=<file>`` set, each test appends one
JSON line to the file: its id, its wall time, the CPU time of the test process itself and of
the child processes it waited for (servers, workers, browsers), setup and teardown included.
The wall time of a run split over processes is bounded by CPU as much as by waiting, so this
finds the tests worth making cheaper (docs/performance.md, the suite's own time).

    SUITE_CPU_REPORT=/tmp/cpu.jsonl make test
    python -m tests.cpu_report /tmp/cpu.jsonl     # the tests and files that cost most

Loaded by tests/conftest.py; does nothing unless the variable is set."""
from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections import defaultdict

import pytest

REPORT = os.environ.get("SUITE_CPU_REPORT")


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if not REPORT:
        yield
        return
    wall, (own, children) = time.monotonic(), _cpu()
    yield
    own_after, children_after = _cpu()
    line = {"test": item.nodeid, "wall": round(time.monotonic() - wall, 3),
            "cpu": round(own_after - own, 3), "children_cpu": round(children_after - children, 3),
            "worker": os.environ.get("PYTEST_XDIST_WORKER", "")}
    with open(REPORT, "a") as out:
        out.write(json.dumps(line) + "\n")


def summarize(path: str, top: int = 30) -> None:
    rows = [json.loads(line) for line in open(path)]
    total = sum(r["cpu"] + r["children_cpu"] for r in rows)
    print(f"{len(rows)} tests: {total:.0f} s of CPU in the test processes and the children they waited for, "
          f"{sum(r['wall'] for r in rows):.0f} s of wall time summed")
    by_file = defaultdict(lambda: [0.0, 0.0, 0])
    for r in rows:
        f = by_file[r["test"].split("::")[0]]
        f[0] += r["cpu"] + r["children_cpu"]
        f[1] += r["wall"]
        f[2] += 1
    print(f"\nfiles by CPU (top {top}): cpu s, wall s, tests")
    for name, (cpu, wall, n) in sorted(by_file.items(), key=lambda kv: -kv[1][0])[:top]:
        print(f"{cpu:8.1f} {wall:8.1f} {n:5d}  {name}")
    print(f"\ntests by wall (top {top}): wall s, cpu s (own + children)")
    for r in sorted(rows, key=lambda r: -r["wall"])[:top]:
        print(f"{r['wall']:8.1f} {r['cpu']:7.1f}+{r['children_cpu']:<6.1f} {r['test']}")


if __name__ == "__main__":
    summarize(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 30)
