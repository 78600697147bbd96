"""The restore drill checks the restored copy with no Redis (grailsite/deploy/backup.py
``check``): run in the operator's shell, with the live site's REDIS_URL, its checks and the
drill's moves would have published frames and sent timer and push tasks to the live site's
Redis, where the live workers take them."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from grailsite.deploy import backup

ROOT = Path(__file__).resolve().parents[2]
LIVE = {"REDIS_URL": "redis://10.0.0.7:6379/0", "REDIS_URLS": "redis://10.0.0.7:6379/0,redis://10.0.0.8:6379/0",
        "GRAILSITE_CHANNEL_PREFIX": "grailprod", "GRAILSITE_CELERY_QUEUE": "grailprod-tasks",
        "CELERY_BROKER_URL": "redis://10.0.0.7:6379/0", "GRAILSITE_PRODUCTION": "1", "PATH": "/usr/bin:/bin",
        "DATABASE_URL": "postgres://postgres@10.0.0.5:5432/grailsite_prod"}

SETTINGS = """
import json, django
django.setup()
from django.conf import settings
print(json.dumps({"layer": settings.CHANNEL_LAYERS["default"]["BACKEND"], "cache": settings.CACHES["default"]["BACKEND"],
                  "broker": settings.CELERY_BROKER_URL, "celery_timers": settings.TIMERS_USE_CELERY,
                  "database": settings.DATABASES["default"]["NAME"], "redis": [settings.REDIS_URL, *settings.REDIS_URLS]}))
"""


def test_the_checks_environment_names_the_restored_database_and_no_redis():
    env = backup.check_environment("postgres://postgres@127.0.0.1:5432/restored_x", LIVE)
    assert env["DATABASE_URL"].endswith("/restored_x")
    assert env["REDIS_URL"] == "" and env["REDIS_URLS"] == ""
    assert not any("10.0.0.7" in v or "10.0.0.8" in v for v in env.values())
    assert "GRAILSITE_PRODUCTION" not in env and env["GRAILSITE_CHANNEL_PREFIX"] != "grailprod"


def test_a_process_in_it_has_nothing_that_reaches_a_redis():
    env = backup.check_environment("postgres://postgres@127.0.0.1:5432/restored_x", LIVE)
    out = subprocess.run([sys.executable, "-c", SETTINGS], cwd=ROOT, env={**env, "PYTHONPATH": str(ROOT)},
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["layer"] == "channels.layers.InMemoryChannelLayer"
    assert seen["cache"].endswith("LocMemCache") and seen["broker"] == "memory://"
    assert seen["celery_timers"] is False and seen["redis"] == [""] and seen["database"] == "restored_x"


def test_the_documented_drill_is_the_check_command():
    deploy = (ROOT / "docs" / "deploy.md").read_text()
    assert "make restore-check" in deploy
    assert "restore-check:" in (ROOT / "Makefile").read_text()
