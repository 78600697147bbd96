"""The embedded default of `make run` takes concurrent writers (moves once failed with
500 "database is locked" when a chat line or the timer thread wrote at the same moment).

This is the one test that runs on SQLite, because it tests the embedded default itself: it
runs tests/newplayer/embedded_load.py in a process of its own with the embedded settings."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _embedded_env(db_path: Path) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in {"REDIS_URL", "GRAILSITE_TEST_DB", "DB_POOL", "DB_CONN_MAX_AGE"}}
    env.update({"DATABASE_URL": f"sqlite:///{db_path}", "DJANGO_SETTINGS_MODULE": "grailsite.settings",
                "PYTHONPATH": str(ROOT), "LOG_LEVEL": "ERROR",
                # A busy table, not the rate limits, is what this measures (those have their own tests).
                "RATE_CHAT_USER": "100000/m", "RATE_MOVE_USER": "100000/m"})
    return env


def test_concurrent_moves_chat_and_timers_on_the_embedded_default(tmp_path):
    done = subprocess.run([sys.executable, "-m", "tests.newplayer.embedded_load"], cwd=ROOT,
                          env=_embedded_env(tmp_path / "db.sqlite3"), capture_output=True, text=True, timeout=280)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["failures"] == [], report["failures"][:10]
    assert report["worker_alive"], "the in-process timer thread died"
    # Every game was played out (by moves or by the timer), every chat line was stored, and
    # the timer did fire under the players' feet.
    assert report["finished"] == report["matches"]
    assert report["chats"] == report["matches"] * 25
    assert report["timeouts"] > 0
