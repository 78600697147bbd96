"""The web process keeps what it loaded at start-up out of the cycle collector's way
(grailsite/gctuning.py): a full collection then walks only what was made since, instead of
pausing every socket of the process for the whole heap."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = "import gc; import grailsite.asgi; gc.collect(); print(gc.get_freeze_count(), len(gc.get_objects()))"


def _probe(**env) -> tuple[int, int]:
    result = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120,
                            env={**os.environ, "DJANGO_SETTINGS_MODULE": "grailsite.settings", **env})
    assert result.returncode == 0, result.stderr
    frozen, walked = result.stdout.split()[-2:]
    return int(frozen), int(walked)


def test_the_asgi_application_freezes_what_start_up_built():
    frozen, walked = _probe()
    assert frozen > 50_000  # Django, the apps, the rules' data
    assert walked < frozen // 10  # what a full collection still walks


def test_the_interpreters_default_can_be_kept():
    frozen, walked = _probe(GRAILSITE_GC="default")
    assert frozen == 0 and walked > 50_000
