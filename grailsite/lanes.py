"""The Celery lanes by name, for the scripts that start workers (grailsite/deploy/worker.sh):
``python -m grailsite.lanes clocks`` prints the clocks' queue of this site's settings, so a
worker of that lane consumes it and nothing else (settings.LANE_QUEUES says why)."""
from __future__ import annotations

import os
import sys


def queues(lanes: list[str]) -> str:
    """The queues of ``lanes`` ("clocks", "side"), comma-separated as ``celery worker -Q`` takes them."""
    from django.conf import settings

    unknown = [lane for lane in lanes if lane not in settings.LANE_QUEUES]
    if unknown:
        raise SystemExit(f"unknown lane(s) {', '.join(unknown)}: one of {', '.join(settings.LANE_QUEUES)}")
    return ",".join(settings.LANE_QUEUES[lane] for lane in lanes)


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "grailsite.settings")
    print(queues(sys.argv[1:] or ["side"]))
