"""Deployment fails closed: the production switch refuses to start without a real secret,
passes `check --deploy` with no warning, and the embedded `make run` needs nothing set."""
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# What a production site must name besides its secret (compose and `make prod` set them).
SITE = {"ALLOWED_HOSTS": "grail.example.org", "CSRF_TRUSTED_ORIGINS": "https://grail.example.org"}


def _clean(env: dict) -> dict:
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("DJANGO_", "GRAILSITE_", "SECRET_KEY", "DATABASE_URL", "REDIS_URL"))}
    return {**clean, **env}


def manage(*args, **env):
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=_clean(env),
                          capture_output=True, text=True, timeout=120)


def start(**env):
    """What every process of the site does first (web, worker, beat, manage.py): read the
    settings. A refusal to start is an error raised there, before any app is loaded."""
    return subprocess.run([sys.executable, "-c", "import grailsite.settings"], cwd=ROOT, env=_clean(env),
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("key", [None, "", "short", "dev-only-not-secret-change-me-in-production", "a" * 60])
def test_production_refuses_to_start_without_a_real_secret_key(key):
    env = {"GRAILSITE_PRODUCTION": "1", **SITE} | ({"SECRET_KEY": key} if key is not None else {})
    result = start(**env)
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr and "Traceback" in result.stderr


def test_production_settings_pass_check_deploy_with_no_warning():
    result = manage("check", "--deploy", "--fail-level", "WARNING",
                    GRAILSITE_PRODUCTION="1", SECRET_KEY=secrets.token_urlsafe(50), **SITE,
                    DATABASE_URL="postgres://postgres@127.0.0.1:5432/grailsite", REDIS_URL="redis://127.0.0.1:6379/0")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_turns_debug_off_whatever_else_is_said():
    code = "from django.conf import settings as s; print(s.DEBUG, s.SESSION_COOKIE_SECURE, s.SECURE_HSTS_SECONDS > 0)"
    result = manage("shell", "-c", code, GRAILSITE_PRODUCTION="1", DJANGO_DEBUG="true",
                    SECRET_KEY=secrets.token_urlsafe(50), **SITE)
    assert result.stdout.strip().splitlines()[-1].split() == ["False", "True", "True"], result.stderr


def test_the_embedded_default_needs_no_variable():
    code = ("from django.conf import settings as s; print(s.DEBUG, s.DATABASES['default']['ENGINE'].rsplit('.', 1)[1],"
            " s.CHANNEL_LAYERS['default']['BACKEND'].rsplit('.', 1)[1])")
    result = manage("shell", "-c", code)
    assert result.stdout.strip().splitlines()[-1].split() == ["True", "sqlite3", "InMemoryChannelLayer"], result.stderr


def test_production_pools_connections_and_checks_them_on_checkout():
    code = ("from django.conf import settings as s; d = s.DATABASES['default']; "
            "from django.db import connection; "
            "print(d['OPTIONS']['pool']['max_size'], connection.pool._check.__name__, d['CONN_MAX_AGE'])")
    result = manage("shell", "-c", code, GRAILSITE_PRODUCTION="1", SECRET_KEY=secrets.token_urlsafe(50), **SITE,
                    DATABASE_URL="postgres://postgres@127.0.0.1:5432/grailsite", DB_POOL_MAX="7")
    # The check itself is tested in tests/platform/test_move_path_pool_check.py.
    assert result.stdout.strip().splitlines()[-1].split() == ["7", "check_pooled_connection", "0"], result.stderr


@pytest.mark.parametrize("missing", ["ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS"])
@pytest.mark.parametrize("value", [None, "", " , "])
def test_production_refuses_to_start_without_its_hosts_and_origins(missing, value):
    env = {"GRAILSITE_PRODUCTION": "1", "SECRET_KEY": secrets.token_urlsafe(50), **SITE}
    env.pop(missing)
    if value is not None:
        env[missing] = value
    result = start(**env)
    assert result.returncode != 0
    assert f"{missing} must be set" in result.stderr
