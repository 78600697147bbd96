"""`make prod`: nginx in front of two web processes, the clocks' Celery worker, two side
workers and beat, as compose describes them and with its files; a game served through nginx,
over both web processes, HTTP and websockets alike; static files, probes, metrics and JSON
logs; each lane's workers as both deployments declare them."""
from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
import move_roundtrip  # noqa: E402  (bench/move_roundtrip.py: its player)
import prod_shape  # noqa: E402  (bench/prod_shape.py)

from grailsite.deploy import prod  # noqa: E402

DEPLOY = ROOT / "grailsite" / "deploy"
needs_nginx = pytest.mark.skipif(not Path("/usr/sbin/nginx").exists(),
                                 reason="Debian's nginx: make test installs it (grailsite/deploy/ensure_packages.sh)")


def _server() -> str:
    return os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/grailsite").rsplit("/", 1)[0]


# -- compose and make prod share their files ---------------------------------------------------

def test_compose_runs_the_scripts_environment_and_nginx_site_make_prod_runs():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    for name in ("web", "worker", "beat"):
        assert services[name]["command"] == [f"grailsite/deploy/{name}.sh"]
        assert services[name]["env_file"] == ["grailsite/deploy/app.env"]
    conf = prod.supervisord_conf(prod.Config({"PROD_DIR": "/tmp/x"}))
    for name in ("web1", "web2", "worker1", "worker2", "beat"):
        script = re.sub(r"\d", "", name)
        assert re.search(rf"\[program:{name}\]\ncommand={DEPLOY}/{script}\.sh\n", conf)
    assert "grailsite/deploy/nginx.conf.template:/etc/nginx/templates/default.conf.template:ro" in \
        services["proxy"]["volumes"][0]
    # Every variable of the template is one compose gives the nginx image, and make prod renders.
    names = set(re.findall(r"\$\{(GRAIL_[A-Z_]+)\}", (DEPLOY / "nginx.conf.template").read_text()))
    assert names == {k for k in services["proxy"]["environment"] if k.startswith("GRAIL_")}
    rendered = prod.nginx_site(prod.Config({"PROD_DIR": "/tmp/x"}), {"MEDIA_ROOT": "/tmp/m"})
    assert "${GRAIL_" not in rendered and "$proxy_add_x_forwarded_for" in rendered
    # The healthchecks ask the probes.
    assert "/readyz" in " ".join(services["web"]["healthcheck"]["test"])
    assert services["beat"]["healthcheck"]["test"][-2:] == ["grailsite.health", "sweep"]
    # What app.env says is what a process of make prod gets.
    env = prod.Config({"PROD_DIR": "/tmp/x", "SECRET_KEY": "k"}).app_env()
    for key, value in prod.read_env_file(DEPLOY / "app.env").items():
        assert env[key] == value


def test_the_clocks_lane_has_a_worker_of_its_own_in_compose_and_make_prod():
    """Both deployments give the clocks' lane one worker that takes nothing else, and the
    side lane its own workers: a worker left on the default lane would take no deadline at
    all, and one on both would let side work sit in front of a clock again."""
    from django.conf import settings

    assert set(settings.LANE_QUEUES) == {"clocks", "side"}
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    for name, lane in (("clocks", "clocks"), ("worker", "side")):
        assert services[name]["command"] == ["grailsite/deploy/worker.sh"], name
        assert services[name]["environment"]["WORKER_LANES"] == lane, name
    conf = prod.supervisord_conf(prod.Config({"PROD_DIR": "/tmp/x", "PROD_WORKERS": "2"}))
    programs = dict(re.findall(r"^\[program:(\w+)\]\n(.*?)(?=^\[|\Z)", conf, re.M | re.S))
    assert f"command={DEPLOY}/worker.sh\n" in programs["clocks"]
    assert 'environment=WORKER_NAME="clocks",WORKER_LANES="clocks"\n' in programs["clocks"]
    side = sorted(name for name, body in programs.items() if f"command={DEPLOY}/worker.sh\n" in body and name != "clocks")
    assert side == ["worker1", "worker2"], programs.keys()
    for name in side:
        assert f'environment=WORKER_NAME="{name}",WORKER_LANES="side"\n' in programs[name]


def test_make_prod_refuses_to_start_without_a_secret(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    result = subprocess.run([sys.executable, str(DEPLOY / "prod.py"), "start"], cwd=ROOT, timeout=60,
                            env={**env, "PROD_DIR": str(tmp_path)}, capture_output=True, text=True)
    assert result.returncode != 0 and "set SECRET_KEY" in result.stderr


# -- make prod serves a game ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def site(tmp_path_factory):
    name = f"{os.environ.get('GRAILSITE_TEST_DB', 'test')}_shape"
    server = _server()
    subprocess.run(["psql", f"{server}/postgres", "-qc", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'], check=True)
    run = tmp_path_factory.mktemp("prod")
    redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    cfg, env = prod_shape.start(run, f"{server}/{name}", redis_url)
    try:
        yield cfg, env
    finally:
        prod_shape.stop(cfg)
        subprocess.run(["psql", f"{server}/postgres", "-qc", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'])


def get(url: str, **headers) -> tuple[int, bytes, "email.message.Message"]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, r.read(), r.headers
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), exc.headers


def assert_running(cfg: prod.Config, *names: str) -> None:
    status = prod.supervisorctl(cfg, "status", check=False).stdout
    for name in names:
        assert re.search(rf"^{name}\s+RUNNING", status, re.M), status


def assert_workers_answer(env: dict, *names: str) -> None:
    """Each Celery worker named answers a ping, by its own node name (WORKER_NAME@host)."""
    ping = subprocess.run([sys.executable, "-m", "celery", "-A", "grailsite", "inspect", "ping", "--timeout", "10"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120).stdout
    for name in names:
        assert f"{name}@" in ping, ping


@needs_nginx
def test_make_prod_serves_a_game_through_nginx_over_two_web_processes(site):
    cfg, env = site
    assert_running(cfg, "nginx", "web1", "web2", "clocks", "worker1", "worker2", "beat")
    assert_workers_answer(env, "clocks", "worker1", "worker2")
    code, body, _ = get(f"{cfg.url}/readyz?format=json")
    assert code == 200 and set(json.loads(body).values()) == {"OK"}, body

    games = prod_shape.make_games(env, 4)
    counts = {"moves": 0, "errors": 0, "stalled": 0, "refusals": {}, "measured_from": 0.0, "types": [], "stamps": []}

    async def play():
        import httpx

        async with httpx.AsyncClient(timeout=30) as client:
            deadline = time.monotonic() + 8
            await asyncio.gather(*(move_roundtrip.play_game(g, cfg.url, client, deadline, move_roundtrip.Pace(0, 0),
                                                            [], counts, path="ws") for g in games))
    asyncio.run(play())
    assert counts["moves"] >= 8 and counts["errors"] == 0 and counts["stalled"] == 0, counts

    # HTTP through nginx too: the API as the first player, a static file, the probes.
    game = games[0]
    code, body, headers = get(f"{cfg.url}/api/matches/{game['match']}/",
                              Authorization=f"Token {game['players'][0]['token']}")
    assert code == 200 and json.loads(body)["version"] > 1
    request_id = headers["X-Request-ID"]
    code, body, headers = get(f"{cfg.url}/static/css/site.css")
    assert code == 200 and b"{" in body
    assert get(f"{cfg.url}/healthz")[0] == 200

    # Both web processes served sockets (101) and requests: nginx's JSON access log says which.
    access = [json.loads(line) for line in (cfg.run / "logs" / "nginx-access.log").read_text().splitlines()]
    upgraded = {a["upstream"] for a in access if a["status"] == 101}
    assert upgraded == {f"127.0.0.1:{p}" for p in cfg.web_ports}, upgraded

    # /metrics: the host's processes added up, for this host only; a client writing
    # X-Forwarded-For itself is still the client nginx saw.
    code, body, _ = get(f"{cfg.url}/metrics")
    assert code == 200
    moved = sum(float(m) for m in re.findall(rb'^grailsite_moves_applied_total\{by="player",kind="duel"\} (\S+)$',
                                              body, re.M))
    assert moved >= counts["moves"]
    assert re.search(rb"^grailsite_frames_sent_total (\S+)$", body, re.M)
    assert get(f"{cfg.url}/metrics", **{"X-Forwarded-For": "203.0.113.9"})[0] == 404

    # Every line the web processes wrote is JSON; the API call's carries its ids.
    lines = [json.loads(line) for i in (1, 2) for line in (cfg.run / "logs" / f"web{i}.log").read_text().splitlines()
             if line.strip()]
    call = next(line for line in lines if line.get("request_id") == request_id)
    assert call["match_id"] == game["match"] and call["user_id"] and call["status"] == 200


# -- faults that must cost nothing (the short setting; bench/faults.py runs them at full size) ---

@needs_nginx
def test_a_rolling_restart_of_both_web_processes_loses_no_move_and_leaves_no_one_behind(site):
    cfg, env = site
    games = prod_shape.make_games(env, 150)  # three at a time; a duel is 12 moves
    figures = prod_shape.rolling_restart(cfg, games, slots=3, before=1, after=1)
    print("rolling restart:", json.dumps(figures))
    # Games were still under way when the second process came back (the queue was not used up).
    assert figures["acknowledged"] > 0 and figures["games_played"] < len(games), figures
    assert figures["reconnects"] >= 2, figures  # sockets of both processes came back
    assert figures["lost"] == 0 and figures["stored"] == figures["acknowledged"], figures
    assert figures["stored_twice"] == 0 and figures["left_behind"] == 0, figures
    assert figures["page_requests"] > 0 and figures["error_pages"] == 0, json.dumps(figures)
    status = prod.supervisorctl(cfg, "status", check=False).stdout
    assert re.search(r"^web1\s+RUNNING", status, re.M) and re.search(r"^web2\s+RUNNING", status, re.M)


@needs_nginx
def test_worker_and_beat_restarts_while_deadlines_fall_due_fire_each_once(site):
    cfg, env = site
    figures = prod_shape.timer_restarts(cfg, env, 4, first=4, last=12, settle=10)
    print("timer restarts:", json.dumps(figures))
    # The worker that fires deadlines is among those restarted (the side workers never take
    # the clocks' queue), and it serves again afterwards.
    assert figures["restarted"][0] == "clocks", figures
    assert_running(cfg, "clocks", "worker1", "worker2", "beat")
    assert_workers_answer(env, "clocks", "worker1", "worker2")
    assert figures["missed"] == 0 and figures["fired_once"] == figures["deadlines"], figures
    assert figures["fired_twice_or_more"] == 0, figures


def test_the_deploy_scripts_read_no_variable_celery_itself_writes():
    """Celery's logging setup writes CELERY_LOG_LEVEL (as a number, "40") and CELERY_LOG_FILE
    into its process's environment, so anything started from a process that ran a worker (the
    suite's in-process worker, then `make prod` from the same test run) inherited "40", and
    `celery worker --loglevel 40` refused to start: every worker and beat died at once."""
    written_by_celery = ("CELERY_LOG_LEVEL", "CELERY_LOG_FILE")
    for script in DEPLOY.glob("*.sh"):
        text = script.read_text()
        assert not any(name in text for name in written_by_celery), script.name


def test_the_flood_and_tarpit_scenario_says_whether_the_clocks_goal_held():
    """bench/faults.py's flood_and_tarpit ends its figures with PASS or FAIL against the goal
    (every deadline fired, p99 within 5 s, worst within 10 s), so a run cannot be read as a
    success by its figures alone."""
    import faults  # bench/faults.py (bench/ is on the path above)

    held = {"deadlines": 24, "fired": 24, "missed": 0, "lateness_p99_s": 0.13, "lateness_max_s": 0.13}
    assert faults.clock_goal(held).startswith("PASS")
    assert faults.clock_goal({**held, "lateness_p99_s": 5.2, "lateness_max_s": 9.0}).startswith("FAIL (p99 5.2 s")
    assert faults.clock_goal({**held, "lateness_max_s": 10.5}) == "FAIL (max 10.5 s > 10 s)"
    # A deadline that never fired has no lateness: the percentiles alone would hide it.
    assert faults.clock_goal({**held, "fired": 23, "missed": 1}) == "FAIL (1 missed of 24)"
