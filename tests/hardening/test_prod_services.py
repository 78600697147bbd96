"""`make prod` runs on the services its configuration names (grailsite/deploy/prod.py): it
pinged, and would have started, the machine's Redis on 6379 whatever PROD_REDIS_URL said
(the Makefile's prod target depended on `services`, tests/ensure_services.sh). Now it asks
the Redis of PROD_REDIS_URL (and each of PROD_REDIS_URLS) and the PostgreSQL of
PROD_DATABASE_URL, starts one that is down only when it is on this machine, on the port
named, and never touches another."""
from __future__ import annotations

import os
import re
import shutil
import socket
from pathlib import Path

import pytest
import redis

from grailsite.deploy import prod

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _database_url() -> str:
    return os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/grailsite")


def test_the_prod_target_does_not_ask_for_the_machine_s_default_services():
    rule = re.search(r"^prod:(.*)$", (ROOT / "Makefile").read_text(), re.M)
    assert rule and "services" not in rule.group(1).split(), rule.group(0)


def test_only_the_configured_redis_is_asked_and_started(tmp_path, monkeypatch):
    if not shutil.which("redis-server"):
        pytest.skip("redis-server is not installed")
    port, shard = _free_port(), _free_port()
    cfg = prod.Config({"PROD_DIR": str(tmp_path), "PROD_DATABASE_URL": _database_url(),
                       "PROD_REDIS_URL": f"redis://127.0.0.1:{port}/3",
                       "PROD_REDIS_URLS": f"redis://127.0.0.1:{port}/3,redis://127.0.0.1:{shard}/0"})
    asked, started = [], []
    real_up, real_start = prod.redis_up, prod.start_local_redis
    monkeypatch.setattr(prod, "redis_up", lambda url: asked.append(url) or real_up(url))
    monkeypatch.setattr(prod, "start_local_redis", lambda cfg, port: started.append(port) or real_start(cfg, port))
    try:
        prod.ensure_services(cfg)
        assert sorted(started) == sorted([port, shard])
        assert all(f":{port}/" in url or f":{shard}/" in url for url in asked), asked
        assert redis.Redis(port=port).ping() and redis.Redis(port=shard).ping()
        asked.clear()
        prod.ensure_services(cfg)  # up now: nothing more is started
        assert sorted(started) == sorted([port, shard]) and asked
    finally:
        for p in (port, shard):
            try:
                redis.Redis(port=p).shutdown(nosave=True)
            except redis.RedisError:
                pass


def test_a_configured_redis_elsewhere_that_does_not_answer_stops_the_start(tmp_path, monkeypatch):
    cfg = prod.Config({"PROD_DIR": str(tmp_path), "PROD_DATABASE_URL": _database_url(),
                       "PROD_REDIS_URL": "redis://redis.invalid:6390/0"})
    monkeypatch.setattr(prod, "start_local_redis", lambda cfg, port: pytest.fail("started a Redis here"))
    with pytest.raises(SystemExit) as stopped:
        prod.ensure_services(cfg)
    assert "redis.invalid:6390" in str(stopped.value)


def test_a_configured_postgresql_elsewhere_that_does_not_answer_stops_the_start(tmp_path):
    cfg = prod.Config({"PROD_DIR": str(tmp_path), "PROD_DATABASE_URL": f"postgres://postgres@127.0.0.1:{_free_port()}/x"})
    with pytest.raises(SystemExit) as stopped:
        prod.ensure_services(cfg)
    assert "PROD_DATABASE_URL" in str(stopped.value)
