"""Fault scenarios too slow for the test suite; prints the figures docs/reliability.md records.

    make faults                       # every scenario (about six minutes)
    .venv/bin/python bench/faults.py --only burst,db_kill

Scenarios (each on resources of its own: the machine's PostgreSQL and Redis are shared):
  timer_redis   a turn deadline with the worker holding its timer task; Redis (a private
                redis-server on a free port) is restarted empty before it: timer lateness
  timer_worker  the worker is killed (SIGKILL) just before a deadline and started again two
                seconds later, as compose's `restart` would: timer lateness
  burst         500 requests at once against 2 web processes (uvicorn, production pool of 10
                connections each): requests failed, most connections PostgreSQL saw
  db_kill       moves under load (40 players) while every backend of the bench database is terminated
                twice (pg_terminate_backend filtered by datname): requests failed, moves
                acknowledged = moves stored
  soak          moves and reads for SOAK seconds: RSS of the web processes before and after
  edge          CPU of a move POST and a match GET through the typed edge, against a floor
  held_redis    timers across a Redis restart: the worker holds a turn timer's task and a computer move's
                task; Redis is restarted empty 20 s before both fall due: how late each fires,
                and how soon after Redis is back the worker reconnects
  camelot_computer  Camelot, a computer player holding one turn token while
                two people keep moving (every 0.3 s) with the other: the computer's moves
                in 30 s and how long each waited from its decision falling due
  sweep_cost    the timers' short-horizon sweep's cost, in the process, with 300
                games whose deadlines are days away
  analysis      12 clients (each its own account) asking for analyses of the heaviest deck the
                schema allows, flat out, against one web process: median and p95 of others'
                match reads, and of a websocket ping (answered on the event loop that serves
                socket moves), before and during; analyses answered and refused (429)
  forwarded     70 wrong passwords and 35 sign-ups, each with a new made-up X-Forwarded-For,
                against uvicorn started with docker-compose.yml's command (and with the old
                `--proxy-headers --forwarded-allow-ips "*"` for comparison): 429s counted
  db_recover    every backend terminated every 0.2 s for 3 s, then left
                alone: one client's GETs and websocket handshakes in the 10 s after (failed,
                p99), alone and beside 40 players, and when service was normal again
  connect_flood 106 anonymous websocket connects a second to one game from
                one address: web CPU per connect, and 4 players' request times without and
                with the flood
  rolling_restart `make prod`'s shape (nginx, 2 web, the clocks' worker, 2 side workers, beat:
                bench/prod_shape.py)
                with 40 games at a time moving flat out over websockets through nginx while
                web1 then web2 are restarted: moves acknowledged, stored, lost (must be 0),
                reconnect time p95, error pages a browser polling through nginx saw
  timer_restarts the same shape, 30 turn deadlines falling due over 30 s while
                the clocks' worker (the one that fires them), worker1 and beat are restarted
                one after the other: fired once, missed, twice (must be 0), lateness
  flood_and_tarpit  deadlines falling due while games move flat out over websockets and 40 push
                endpoints accept connections and never answer (bench/clock_lateness.py): lateness
                p50/p99/max, moves a second, and PASS or FAIL against the goal (every deadline
                fired, p99 <= 5 s, max <= 10 s)
  db_down_moves a move over a player's socket while the bench database
                refuses connections: how soon and how it is answered, and how soon the same
                move is acknowledged once the database lets connections in again

It creates and drops its own database (grailsite_faults, or FAULTS_DB) on the PostgreSQL of
DATABASE_URL.
A floor (a fixed pure-Python workload) is printed so figures compare across machines.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
BASE = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/grailsite")
PG = BASE.rsplit("/", 1)[0]
# FAULTS_DB: a name of one's own when several people run the bench on one PostgreSQL.
DB_NAME = os.environ.get("FAULTS_DB", "grailsite_faults")
DB_URL = f"{PG}/{DB_NAME}"
PREFIX = "faults"
SOAK = int(os.environ.get("SOAK", "60"))
RUNNING: list[subprocess.Popen] = []   # servers and workers started here; main() stops them all


# -- processes of our own -------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port}")


class PrivateRedis:
    """A redis-server of this bench's own; restart() empties it (no persistence)."""

    def __init__(self):
        self.port = free_port()
        self.proc = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        self.proc = subprocess.Popen(["redis-server", "--port", str(self.port), "--save", "", "--appendonly", "no"],
                                     stdout=subprocess.DEVNULL)
        wait_port(self.port)

    def stop(self):
        self.proc.kill()
        self.proc.wait()

    def restart(self, down_for: float = 2.0):
        self.stop()
        time.sleep(down_for)
        self.start()


def site_env(redis_url: str, **extra) -> dict:
    """The production settings (pooled connections), on the bench's database and Redis."""
    env = dict(os.environ, DATABASE_URL=DB_URL, REDIS_URL=redis_url, GRAILSITE_CHANNEL_PREFIX=PREFIX,
               GRAILSITE_PRODUCTION="1", SECRET_KEY="faults-bench-" + "k" * 50, GRAILSITE_HTTPS="false",
               ALLOWED_HOSTS="127.0.0.1,localhost,testserver",
               CSRF_TRUSTED_ORIGINS="http://127.0.0.1,http://localhost", LOG_LEVEL="ERROR", RATELIMIT_ENABLE="false",
               DJANGO_SETTINGS_MODULE="grailsite.settings", PYTHONPATH=str(ROOT))
    env.pop("GRAILSITE_TEST_DB", None)
    return {**env, **extra}


def start(cmd: list[str], env: dict, log: Path) -> subprocess.Popen:
    return subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT,
                            start_new_session=True)


def stop(proc: subprocess.Popen, sig=signal.SIGTERM) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def celery(kind: str, env: dict, log: Path, workdir: Path) -> subprocess.Popen:
    args = ["worker", "--pool", "solo", "--loglevel", "info"] if kind == "worker" else \
        ["beat", "--loglevel", "info", "--schedule", str(workdir / "beat-schedule")]
    proc = start([sys.executable, "-m", "celery", "-A", "grailsite", *args], env, log)
    RUNNING.append(proc)
    return proc


def web(port: int, env: dict, log: Path) -> subprocess.Popen:
    return start([sys.executable, "-m", "uvicorn", "grailsite.asgi:application", "--port", str(port),
                  "--ws-per-message-deflate", "false", "--log-level", "warning"], env, log)


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def floor_ms() -> float:
    t = time.perf_counter()
    x = 0
    for i in range(1_000_000):
        x += i * i % 7
    return (time.perf_counter() - t) * 1000


# -- the bench database ---------------------------------------------------------------------

def psql(sql: str, db: str = "postgres") -> str:
    return subprocess.run(["psql", f"{PG}/{db}", "-Atqc", sql], check=True, capture_output=True, text=True).stdout


def kill_backends() -> int:
    """Terminate every backend of the bench database (and only of it)."""
    out = psql(f"SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '{DB_NAME}' "
               "AND pid <> pg_backend_pid()")
    return int(out.strip() or 0)


def backends() -> int:
    return int(psql(f"SELECT count(*) FROM pg_stat_activity WHERE datname = '{DB_NAME}'").strip())


def prepare_database(redis_url: str) -> None:
    """A fresh bench database, and Django set up in this process on it and on the private
    Redis (so what this process schedules reaches the bench's worker)."""
    psql(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
    psql(f"CREATE DATABASE {DB_NAME}")
    env = site_env(redis_url, GRAILSITE_PRODUCTION="0")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    os.environ.update(env)
    import django

    django.setup()


def make_games(n: int, *, clock=("days", 3)) -> list[dict]:
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db.models.signals import post_save

    from games.models import Seat
    from games.table import services
    from grailsite.accounts.models import Profile

    post_save.disconnect(sender=settings.AUTH_USER_MODEL, dispatch_uid="decks_starter_grant")
    User = get_user_model()
    tag = f"{time.time_ns() % 10**9}"
    games = []
    for g in range(n):
        players = []
        for s in range(2):
            user = User.objects.create(username=f"f{tag}_{g}_{s}")
            Profile.objects.update_or_create(user=user, defaults={"api_token": f"t{tag}-{g}-{s}"})
            players.append(user)
        match = services.match_create(creator=players[0], kind="duel", num_seats=2, 
                                      invite=[players[1].username], clock_kind=clock[0], clock_amount=clock[1])
        services.match_join(match_id=match.pk, user=players[1])
        # As games under way: a deadline that falls due is a loss on time, made as the
        # clock's move (before anyone's first move it would abort, with no move to time).
        Seat.objects.filter(match=match).update(own_moves=1)
        games.append({"match": match.pk, "tokens": [f"t{tag}-{g}-0", f"t{tag}-{g}-1"]})
    return games


# -- load -----------------------------------------------------------------------------------

async def player_loop(client, base_urls, games, until, stats):
    """Plays games as both seats, flat out (GET, pick a legal move, POST it), taking the next
    unplayed game from ``games`` whenever one ends."""
    import httpx

    i = 0
    game = games.pop() if games else None
    while game is not None and time.monotonic() < until:
        base = base_urls[i % len(base_urls)]
        i += 1
        try:
            headers = {"Authorization": f"Token {game['tokens'][0]}"}
            data = (await client.get(f"{base}/api/matches/{game['match']}/", headers=headers)).json()
            stats["requests"] += 1
            if data.get("status") != "active":
                game = games.pop() if games else None
                continue
            seat = next(s["seat"] for s in data["seats"] if s["to_act"])
            headers = {"Authorization": f"Token {game['tokens'][seat]}"}
            mine = (await client.get(f"{base}/api/matches/{game['match']}/", headers=headers)).json()
            key = f"{game['match']}-{mine['version']}"
            r = await client.post(f"{base}/api/matches/{game['match']}/moves/", headers=headers,
                                  json={"move": mine["legal_moves"][0], "version": mine["version"], "key": key})
            stats["requests"] += 2
            if r.status_code == 200 and not r.json()["repeated"]:
                stats["acknowledged"] += 1
            elif r.status_code >= 500:
                stats["failed"] += 1
        except (httpx.HTTPError, ValueError, KeyError, StopIteration) as exc:
            stats["failed"] += 1
            stats.setdefault("errors", []).append(repr(exc)[:120])
            await asyncio.sleep(0.05)


async def load(base_urls, games, seconds, during=None, players=40):
    """``players`` concurrent loops over ``games`` for ``seconds``; ``during`` runs alongside."""
    import httpx

    stats = {"requests": 0, "acknowledged": 0, "failed": 0}
    until = time.monotonic() + seconds
    queue = list(games)
    limits = httpx.Limits(max_connections=200)
    async with httpx.AsyncClient(timeout=30, limits=limits) as client:
        tasks = [asyncio.create_task(player_loop(client, base_urls, queue, until, stats)) for _ in range(players)]
        if during:
            await during()
        await asyncio.gather(*tasks)
    stats["unplayed"] = len(queue)
    return stats


def stored_moves(games) -> int:
    from games.models import MoveRecord

    return MoveRecord.objects.filter(match_id__in=[g["match"] for g in games], by_timeout=False).count()


# -- scenarios ------------------------------------------------------------------------------

def timer_lateness(redis: PrivateRedis, workdir: Path, fault) -> tuple[float, bool]:
    """Seconds between a seat's deadline and the stored timeout move, with ``fault`` applied,
    and whether the worker process was still running at the end."""
    from django.db import connection

    from games.models import MoveRecord, Seat

    env = site_env(redis.url, GRAILSITE_PRODUCTION="0")
    log = workdir / "celery.log"
    worker, beat = celery("worker", env, log, workdir), celery("beat", env, log, workdir)
    time.sleep(6)
    # The fast-path timer task is queued on commit by the site itself, as in production.
    game = make_games(1, clock=("minutes", 1))[0]
    seat = Seat.objects.filter(match_id=game["match"]).exclude(deadline=None).first()
    procs = {"worker": worker, "beat": beat}
    fault(seat.deadline, procs, env, log, workdir)
    end = time.time() + 240
    found = None
    while time.time() < end:
        connection.close()
        record = MoveRecord.objects.filter(match_id=game["match"], by_timeout=True).order_by("id").first()
        if record:
            found = record.created_at.timestamp()
            break
        time.sleep(0.5)
    worker_alive = procs["worker"].poll() is None
    for proc in procs.values():
        stop(proc)
    return (float("inf") if found is None else found - seat.deadline.timestamp()), worker_alive


def scenario_timer_redis(redis, workdir):
    def fault(deadline, procs, env, log, workdir):
        time.sleep(max(0, deadline.timestamp() - time.time() - 40))
        redis.restart()

    late, alive = timer_lateness(redis, workdir, fault)
    return {"timer lateness after Redis restarted empty (s)": f"{late:.1f}",
            "worker still running": "yes" if alive else "no"}


def scenario_timer_worker(redis, workdir):
    def fault(deadline, procs, env, log, workdir):
        time.sleep(max(0, deadline.timestamp() - time.time() - 5))
        stop(procs["worker"], signal.SIGKILL)
        time.sleep(2)
        procs["worker"] = celery("worker", env, log, workdir)

    late, _alive = timer_lateness(redis, workdir, fault)
    return {"timer lateness, worker killed 5 s before the deadline (s)": f"{late:.1f}"}


def start_web(redis, workdir, n=2):
    ports = [free_port() for _ in range(n)]
    procs = [web(p, site_env(redis.url, DB_POOL_MAX="10"), workdir / f"web{p}.log") for p in ports]
    RUNNING.extend(procs)
    for p in ports:
        wait_port(p)
    return procs, [f"http://127.0.0.1:{p}" for p in ports]


def scenario_burst(redis, workdir):
    """500 requests at once, each reading a game, against 2 web processes."""
    import httpx

    procs, urls = start_web(redis, workdir)
    games = make_games(250)
    peak = {"backends": 0}

    async def burst():
        async def watch():
            for _ in range(100):
                peak["backends"] = max(peak["backends"], backends())
                await asyncio.sleep(0.1)

        async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=600)) as client:
            async def one(i):
                g = games[i // 2]
                base = urls[i % 2]
                headers = {"Authorization": f"Token {g['tokens'][0]}"}
                try:
                    if i % 2:
                        return (await client.get(f"{base}/api/matches/{g['match']}/", headers=headers)).status_code
                    data = (await client.get(f"{base}/api/games/")).status_code
                    return data
                except httpx.HTTPError:
                    return 0
            watcher = asyncio.create_task(watch())
            t = time.monotonic()
            codes = await asyncio.gather(*(one(i) for i in range(500)))
            elapsed = time.monotonic() - t
            watcher.cancel()
            return codes, elapsed

    codes, elapsed = asyncio.run(burst())
    for p in procs:
        stop(p)
    errors = sum(1 for c in codes if c == 0 or c >= 500)
    return {"requests": len(codes), "failed": errors, "seconds": f"{elapsed:.1f}",
            "most backends PostgreSQL saw (pool 2 x 10)": peak["backends"]}


def scenario_db_kill(redis, workdir):
    procs, urls = start_web(redis, workdir)
    games = make_games(120)
    killed = []

    async def during():
        for _ in range(2):
            await asyncio.sleep(6)
            killed.append(kill_backends())

    stats = asyncio.run(load(urls, games, 20, during))
    for p in procs:
        stop(p)
    from django.db import connection

    connection.close()
    stored = stored_moves(games)
    return {"backends terminated": "+".join(map(str, killed)), "requests": stats["requests"],
            "failed": stats["failed"], "moves acknowledged": stats["acknowledged"], "moves stored": stored,
            "first errors": "; ".join(stats.get("errors", [])[:2]) or "none"}


# -- Hardening round 2: dead connections, connect floods, a database down -------------------

KILL_FOR, KILL_EVERY, AFTER = 3.0, 0.2, 10.0


def _p99(values: list[float]) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


async def _timed_requests(urls, game, until, log, *, websocket=True):
    """One client, one thing at a time, until ``until``: a GET of the game (token), then a
    websocket handshake to its first frame (anonymous spectator), in turn. Each is logged as
    (kind, started, seconds, ok, what)."""
    import httpx
    import websockets

    headers = {"Authorization": f"Token {game['tokens'][0]}"}
    i = 0
    async with httpx.AsyncClient(timeout=30) as client:
        while time.monotonic() < until:
            base = urls[i % len(urls)]
            i += 1
            t = time.monotonic()
            try:
                r = await client.get(f"{base}/api/matches/{game['match']}/", headers=headers)
                json_answer = r.headers.get("content-type", "").startswith("application/json")
                log.append(("get", t, time.monotonic() - t, r.status_code == 200,
                            f"{r.status_code}{'' if json_answer else ' not JSON'}"))
            except httpx.HTTPError as exc:
                log.append(("get", t, time.monotonic() - t, False, type(exc).__name__))
            if not websocket:
                continue
            t = time.monotonic()
            ws_url = base.replace("http", "ws") + f"/ws/matches/{game['match']}/"
            try:
                async with websockets.connect(ws_url, origin=base, open_timeout=30, close_timeout=1) as ws:
                    first = await asyncio.wait_for(ws.recv(), 30)
                    ok = '"type": "state"' in first or '"type":"state"' in first
                    log.append(("ws", t, time.monotonic() - t, ok, "state" if ok else first[:40]))
            except (OSError, asyncio.TimeoutError, websockets.WebSocketException) as exc:
                log.append(("ws", t, time.monotonic() - t, False, f"{type(exc).__name__} {exc}"[:80]))


def _after_kills(log, stopped: float) -> dict:
    """Figures of the requests under way in the AFTER seconds once the kills stopped (begun
    in them, or begun before and still waiting then), and when the last failed or slow
    (> 1 s) one of the whole run ended, counted from the stop."""
    window = [e for e in log if e[1] < stopped + AFTER and e[1] + e[2] >= stopped]
    bad = [e for e in log if not e[3] or e[2] > 1.0]
    normal_after = max((e[1] + e[2] - stopped for e in bad), default=0.0)
    figures = {}
    for kind in ("get", "ws"):
        done = [e for e in window if e[0] == kind]
        if not done:
            continue
        failed = [e for e in done if not e[3]]
        figures[kind] = (f"{len(done)} done, {len(failed)} failed, p99 {_p99([e[2] for e in done]) * 1000:.0f} ms, "
                         f"max {max(e[2] for e in done) * 1000:.0f} ms"
                         + (f" ({'; '.join(sorted({e[4] for e in failed}))[:120]})" if failed else ""))
    figures["normal again after the kills stopped (s)"] = f"{max(0.0, normal_after):.1f}"
    return figures


def scenario_db_recover(redis, workdir):
    """Dead pooled connections: every backend of the bench database terminated every
    KILL_EVERY s for KILL_FOR s (what a restart or a failover looks like to the pools),
    then left alone. One client alone, then the same client beside 40 players: its
    requests in the AFTER s once the kills stopped (failed, p99), and when service was
    normal again."""
    from django.db import connections

    procs, urls = start_web(redis, workdir)
    games = make_games(121)
    probe = games.pop()
    connections.close_all()
    out = {}
    for label, players in (("one client", 0), ("one client beside 40 players", 40)):
        log: list = []
        marks = {}

        async def run():
            start = time.monotonic()
            until = start + 3 + KILL_FOR + AFTER
            tasks = [asyncio.create_task(_timed_requests(urls, probe, until, log))]
            if players:
                tasks.append(asyncio.create_task(load(urls, games, until - start, players=players)))
            await asyncio.sleep(3)
            kills, end = 0, time.monotonic() + KILL_FOR
            while time.monotonic() < end:
                kills += await asyncio.to_thread(kill_backends)
                await asyncio.sleep(KILL_EVERY)
            marks["stopped"], marks["kills"] = time.monotonic(), kills
            results = await asyncio.gather(*tasks)
            marks["load"] = results[1] if players else None

        asyncio.run(run())
        connections.close_all()  # this process's own connection was terminated with the rest
        figures = _after_kills(log, marks["stopped"])
        out[label] = f"backends terminated {marks['kills']}; " + "; ".join(f"{k}: {v}" for k, v in figures.items())
        if marks["load"]:
            out[label] += f"; players' requests {marks['load']['requests']}, failed {marks['load']['failed']}"
    for p in procs:
        stop(p)
    return out


def cpu_seconds(pid: int) -> float:
    """User and system CPU a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _anonymous_connects(base: str, match_id: int, rate: float, seconds: float) -> dict:
    """``rate`` anonymous websocket connects a second to one game for ``seconds``, each
    waiting for its first frame and then hanging up: how many were served, refused, failed.

    The handshake is written and read by hand (asyncio streams): a websocket library's
    client costs this 2-core machine enough CPU to slow the server it measures."""
    host = base.split("//", 1)[1]
    port = int(host.rsplit(":", 1)[1])
    request = (f"GET /ws/matches/{match_id}/ HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
               f"Sec-WebSocket-Version: 13\r\nOrigin: {base}\r\n\r\n").encode()
    counts = {"served": 0, "refused": 0, "failed": 0}

    async def first_frame(reader) -> bytes:
        head = await reader.readexactly(2)
        size = head[1] & 0x7F
        if size == 126:
            size = int.from_bytes(await reader.readexactly(2), "big")
        elif size == 127:
            size = int.from_bytes(await reader.readexactly(8), "big")
        return await reader.readexactly(size)

    async def one():
        writer = None
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 20)
            writer.write(request)
            headers = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 20)
            status = int(headers.split(b" ", 2)[1])
            if status == 101 and b'"state"' in await asyncio.wait_for(first_frame(reader), 20):
                counts["served"] += 1
            elif status in (403, 429):
                counts["refused"] += 1
            else:
                counts["failed"] += 1
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError, IndexError):
            counts["failed"] += 1
        finally:
            if writer is not None:
                writer.transport.abort()

    tasks, start = [], time.monotonic()
    for i in range(int(rate * seconds)):
        await asyncio.sleep(max(0.0, start + i / rate - time.monotonic()))
        tasks.append(asyncio.create_task(one()))
    await asyncio.gather(*tasks)
    return counts


async def _player_latencies(base: str, games: list, until: float, latencies: list) -> None:
    """One player's requests (a GET, then a move, in turn) until ``until``: their times."""
    import httpx

    async with httpx.AsyncClient(timeout=30) as client:
        while games and time.monotonic() < until:
            game = games[-1]
            t = time.monotonic()
            headers = {"Authorization": f"Token {game['tokens'][0]}"}
            data = (await client.get(f"{base}/api/matches/{game['match']}/", headers=headers)).json()
            latencies.append(time.monotonic() - t)
            if data.get("status") != "active":
                games.pop()
                continue
            seat = next(s["seat"] for s in data["seats"] if s["to_act"])
            headers = {"Authorization": f"Token {game['tokens'][seat]}"}
            mine = (await client.get(f"{base}/api/matches/{game['match']}/", headers=headers)).json()
            t = time.monotonic()
            await client.post(f"{base}/api/matches/{game['match']}/moves/", headers=headers,
                              json={"move": mine["legal_moves"][0], "version": mine["version"]})
            latencies.append(time.monotonic() - t)


def _flood_process(base: str, match_id: int, rate: float, seconds: float) -> subprocess.Popen:
    """The flood from a process of its own, so its client work does not slow the players'
    client (this process's event loop) and distort their times."""
    return subprocess.Popen([sys.executable, __file__, "--flood", base, str(match_id), str(rate), str(seconds)],
                            stdout=subprocess.PIPE, text=True)


def _gate_refusal_cpu(n: int = 20000) -> float:
    """CPU seconds the site's ASGI application spends on one connect refused by its address
    limit (games/live/connect_gate.py), with the server's part (the handshake) left out."""
    from django.conf import settings

    from games.live import connect_gate
    from grailsite.asgi import application

    saved = settings.RATELIMIT_ENABLE, settings.WS_CONNECT_LIMITS
    settings.RATELIMIT_ENABLE = True
    settings.WS_CONNECT_LIMITS = {"address": (0, 0.0), "game": (10**9, 10**9)}  # every connect refused
    scope = {"type": "websocket", "path": "/ws/matches/1/", "client": ("192.0.2.1", 5000), "headers": [],
             "extensions": {"websocket.http.response": {}}}
    connect = {"type": "websocket.connect"}

    async def receive():
        return connect

    async def send(message):
        pass

    async def loop():
        for _ in range(n):
            await application(dict(scope), receive, send)

    try:
        asyncio.run(loop())  # warm
        t = time.process_time()
        asyncio.run(loop())
        return (time.process_time() - t) / n
    finally:
        settings.RATELIMIT_ENABLE, settings.WS_CONNECT_LIMITS = saved
        connect_gate.by_address.clear()


def scenario_connect_flood(redis, workdir, rate=106.0, seconds=8.0):
    """A connect flood: anonymous websocket connects to one game from one address, ``rate``
    a second, against one web process with the production settings (connect limits on):
    the web process's CPU per connect, first with every connect refused (a limit of 0),
    then with the production limits (the flood alone), and the median and p90 request
    times of 4 players making moves in other games, without and with the flood."""
    import statistics

    def serve(**extra):
        port = free_port()
        # Limits on (the other scenarios turn them off, so their load is not counted as a flood).
        proc = web(port, site_env(redis.url, RATELIMIT_ENABLE="true", **extra), workdir / f"web{port}.log")
        RUNNING.append(proc)
        wait_port(port)
        return proc, f"http://127.0.0.1:{port}"

    def flood_cpu(proc, base, match_id, flood_seconds) -> str:
        before = cpu_seconds(proc.pid)
        counts = asyncio.run(_anonymous_connects(base, match_id, rate, flood_seconds))
        used = cpu_seconds(proc.pid) - before
        return (f"{used / sum(counts.values()) * 1000:.2f} ms a connect ("
                + ", ".join(f"{k} {v}" for k, v in counts.items()) + ")")

    target = make_games(1)[0]
    try:
        out = {"gate CPU per refused connect, in process (us)": f"{_gate_refusal_cpu() * 1e6:.1f}"}
    except ImportError:  # a checkout from before the gate (games/live/connect_gate.py)
        out = {"gate": "none"}
    proc, base = serve(WS_CONNECT_BURST_ADDRESS="0", WS_CONNECTS_PER_SECOND_ADDRESS="0")
    out["web CPU, every connect refused"] = flood_cpu(proc, base, target["match"], seconds / 2)
    stop(proc)
    proc, base = serve()
    out["web CPU, production limits, flood alone"] = flood_cpu(proc, base, target["match"], seconds)

    def players(flood: bool, span: float) -> list[float]:
        latencies: list[float] = []
        games = make_games(40)

        async def run():
            until = time.monotonic() + span
            tasks = [asyncio.create_task(_player_latencies(base, games[i::4], until, latencies)) for i in range(4)]
            flooder = _flood_process(base, target["match"], rate, span) if flood else None
            await asyncio.gather(*tasks)
            if flooder:
                flooded.append(flooder.communicate()[0].strip())

        asyncio.run(run())
        return latencies

    # Alone and beside the flood in turn, three times each: the machine's other work comes
    # and goes, and should weigh on both alike.
    time.sleep(2)  # the connects above may still be refilling their allowance
    times: dict[bool, list[float]] = {False: [], True: []}
    flooded: list[str] = []
    for _ in range(3):
        for flood in (False, True):
            times[flood] += players(flood, seconds / 2)
    for label, flood in (("players alone", False), ("players beside the flood", True)):
        lat = sorted(times[flood])
        out[label] = (f"median {statistics.median(lat) * 1000:.0f} ms, p90 {lat[int(len(lat) * 0.9)] * 1000:.0f} ms "
                      f"({len(lat)} requests)")
    out["connects beside the players"] = " / ".join(flooded)
    stop(proc)
    return out


def database_allows_connections(allowed: bool) -> None:
    """The bench database accepts new connections, or refuses them all (superusers' too)."""
    psql(f"ALTER DATABASE {DB_NAME} ALLOW_CONNECTIONS {'true' if allowed else 'false'}")


def scenario_db_down_moves(redis, workdir, down_for=5.0):
    """A socket move while the database is down: a player's socket is open when the bench
    database starts refusing connections (every backend terminated, none let in) for
    ``down_for`` s. A move sent over the socket then: how soon it is answered, and with
    what; whether the socket stays open; a GET meanwhile; and, once the database lets
    connections in again, how soon the same move (same key) is acknowledged."""
    import httpx
    import websockets
    from django.contrib.auth import get_user_model
    from django.test import Client

    port = free_port()
    proc = web(port, site_env(redis.url), workdir / f"web{port}.log")
    RUNNING.append(proc)
    wait_port(port)
    base = f"http://127.0.0.1:{port}"
    game = make_games(1)[0]
    from games.models import Match, Seat

    match = Match.objects.get(pk=game["match"])
    seat = Seat.objects.get(match=match, index=0)
    client = Client()
    client.force_login(get_user_model().objects.get(pk=seat.user_id))
    cookie = client.cookies["sessionid"].value
    from django.db import connections

    connections.close_all()
    out = {}

    async def run():
        url = base.replace("http", "ws") + f"/ws/matches/{game['match']}/"
        async with websockets.connect(url, origin=base, additional_headers={"Cookie": f"sessionid={cookie}"}) as ws:
            state = json.loads(await ws.recv())["data"]
            move = {"type": "move", "move": state["legal_moves"][0], "version": state["version"], "key": "down-1"}
            database_allows_connections(False)
            try:
                kill_backends()
                t = time.monotonic()
                await ws.send(json.dumps(move))
                try:
                    answer = await _answer(ws, "down-1")
                    out["move while the database is down"] = (
                        f"answered in {(time.monotonic() - t) * 1000:.0f} ms: {answer['type']} "
                        f"{answer.get('status', '')} {answer.get('error', {}).get('code', '')}".strip())
                except websockets.ConnectionClosed as exc:
                    out["move while the database is down"] = (
                        f"no answer: the socket was closed after {(time.monotonic() - t) * 1000:.0f} ms "
                        f"({exc.rcvd.code if exc.rcvd else 'no close frame'})")
                    return
                async with httpx.AsyncClient(timeout=30) as http:
                    t = time.monotonic()
                    r = await http.get(f"{base}/api/matches/{game['match']}/",
                                       headers={"Authorization": f"Token {game['tokens'][0]}"})
                    out["GET while the database is down"] = (
                        f"{r.status_code} {r.headers.get('content-type', '').split(';')[0]} in "
                        f"{(time.monotonic() - t) * 1000:.0f} ms")
                await asyncio.sleep(max(0.0, down_for - (time.monotonic() - t)))
            finally:
                database_allows_connections(True)
            up = time.monotonic()
            while time.monotonic() - up < 30:
                await ws.send(json.dumps(move))
                answer = await _answer(ws, "down-1")
                if answer["type"] == "ack":
                    out["same move once the database is back"] = (
                        f"acknowledged {(time.monotonic() - up) * 1000:.0f} ms after it let connections in")
                    break
                await asyncio.sleep(0.1)
            out["socket stayed open"] = "yes" if ws.state is websockets.State.OPEN else "no"

    async def _answer(ws, key):
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if message.get("type") in ("ack", "refused") and message.get("key") == key:
                return message

    try:
        asyncio.run(run())
    except (OSError, asyncio.TimeoutError, websockets.WebSocketException) as exc:
        out["socket"] = f"failed: {type(exc).__name__} {exc}"[:120]
    finally:
        database_allows_connections(True)
    stop(proc)
    return out


def scenario_soak(redis, workdir):
    procs, urls = start_web(redis, workdir)
    warm = asyncio.run(load(urls, make_games(60), 10, players=20))
    before = [rss_kib(p.pid) for p in procs]
    stats = asyncio.run(load(urls, make_games(SOAK * 6), SOAK, players=20))
    after = [rss_kib(p.pid) for p in procs]
    for p in procs:
        stop(p)
    return {"seconds": SOAK, "requests": stats["requests"], "moves": stats["acknowledged"],
            "failed": stats["failed"] + warm["failed"], "games left unplayed": stats["unplayed"],
            "RSS before (MiB)": "/".join(f"{b / 1024:.0f}" for b in before),
            "RSS after (MiB)": "/".join(f"{a / 1024:.0f}" for a in after),
            "RSS growth (%)": "/".join(f"{(a - b) / b * 100:+.1f}" for a, b in zip(after, before))}


def scenario_edge(redis, workdir, n=300):
    """CPU of one move POST and one match GET through the whole edge (middleware, token,
    schemas, rate limits, output schema) in this process, as a ratio to the floor."""
    import statistics

    from django.conf import settings
    from django.test import Client

    from games import registry
    from games.models import Match

    settings.RATELIMIT_ENABLE = True
    game = registry.get("duel")
    posts, gets, games = [], [], make_games(n // 10 + 1)
    client = Client()
    for i in range(n):
        g = games[i // 10]
        match = Match.objects.get(pk=g["match"])
        if match.status != "active":
            continue
        seat = game.pending(match.state)[0].seat
        auth = {"HTTP_AUTHORIZATION": f"Token {g['tokens'][seat]}"}
        move = game.legal_moves(match.state, seat)[0]
        t = time.thread_time()
        r = client.post(f"/api/matches/{match.pk}/moves/", {"move": move, "version": match.version},
                        content_type="application/json", **auth)
        posts.append(time.thread_time() - t)
        assert r.status_code == 200, r.content[:200]
        t = time.thread_time()
        client.get(f"/api/matches/{match.pk}/", **auth)
        gets.append(time.thread_time() - t)
    floor = statistics.median(_thread_floor() for _ in range(5))
    post, get = statistics.median(posts), statistics.median(gets)
    return {"move POST CPU (ms)": f"{post * 1000:.2f}", "match GET CPU (ms)": f"{get * 1000:.2f}",
            "floor CPU (ms)": f"{floor * 1000:.1f}", "POST/floor": f"{post / floor:.3f}",
            "GET/floor": f"{get / floor:.3f}", "requests timed": len(posts) * 2}


def _thread_floor() -> float:
    t = time.thread_time()
    x = 0
    for i in range(300_000):
        x += i * i % 7
    return time.thread_time() - t


# -- Hardening round 2: timers and computer moves across a Redis restart -----------------

def _log_times(log: Path, text: str) -> list[float]:
    """Epoch seconds of the Celery log lines containing ``text`` (their local-time stamps)."""
    from datetime import datetime

    times = []
    for line in log.read_text(errors="replace").splitlines():
        if text in line and line.startswith("["):
            try:
                times.append(datetime.strptime(line[1:24], "%Y-%m-%d %H:%M:%S,%f").timestamp())
            except ValueError:
                continue
    return times


def _vs_computer(delay: int, *, kind="duel", seats=2, people=1, seed=7):
    """A started game with people at the first ``people`` seats and computer players (knights)
    at the rest; returns (match, users)."""
    from django.contrib.auth import get_user_model

    from games.table import services

    User = get_user_model()
    tag = f"{time.time_ns() % 10**9}"
    users = [User.objects.create(username=f"c{tag}_{i}") for i in range(people)]
    match = services.match_create(creator=users[0], kind=kind, num_seats=seats, seed=seed,
                                  invite=[u.username for u in users[1:]],
                                  computers_at={i: "knight" for i in range(people, seats)}, computer_delay=delay,
                                  clock_kind="seconds", clock_amount=300)
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user)
    match.refresh_from_db()
    return match, users


def scenario_held_redis(redis, workdir):
    """The worker holds two ETA tasks (a turn deadline, a computer move, both 40 s ahead);
    Redis restarts empty 20 s before they fall due."""
    from django.db import connection

    from games.table import services
    from games.models import MoveRecord, Seat

    env = site_env(redis.url, GRAILSITE_PRODUCTION="0")
    log = workdir / "celery-held.log"
    procs = [celery("worker", env, log, workdir), celery("beat", env, log, workdir)]
    time.sleep(6)
    timed = make_games(1, clock=("seconds", 40))[0]["match"]
    deadline = Seat.objects.filter(match_id=timed).exclude(deadline=None).get().deadline.timestamp()
    match, (alice,) = _vs_computer(40)
    services.move_submit(match_id=match.pk, user=alice, move={"type": "play", "card": match.state["hands"][0][0]},
                         version=match.version)
    computer_due = MoveRecord.objects.get(match=match, seat=0).created_at.timestamp() + 40
    time.sleep(max(0.0, min(deadline, computer_due) - time.time() - 20))
    redis.restart()
    back = time.time()
    fired = {}
    end = time.time() + 150
    while time.time() < end and len(fired) < 2:
        connection.close()
        for name, match_id, query in (("timer", timed, {"by_timeout": True}), ("computer", match.pk, {"seat": 1})):
            record = MoveRecord.objects.filter(match_id=match_id, **query).order_by("id").first()
            if record and name not in fired:
                fired[name] = record.created_at.timestamp()
        time.sleep(0.5)
    alive = procs[0].poll() is None
    for proc in procs:
        stop(proc)
    reconnected = [t for t in _log_times(log, "Connected to redis") if t > back - 1]
    late = {k: (f"{fired[k] - due:.1f}" if k in fired else "never (150 s)")
            for k, due in (("timer", deadline), ("computer", computer_due))}
    return {"turn timer late (s)": late["timer"], "computer move late (s)": late["computer"],
            "worker still running": "yes" if alive else "no",
            "worker reconnected after Redis was back (s)": f"{reconnected[0] - back:.1f}" if reconnected else "not seen"}


def _camelot_person_move(game, state: dict, seat: int) -> dict | None:
    """A quick player (tests/platform/test_computer_delays.py's): answers, enters, moves, else
    ends the turn; never pauses, declares or asks."""
    legal = game.legal_moves(state, seat)
    for kinds in (("decide",), ("entry",), ("enter", "move"), ("end_turn",)):
        moves = [m for m in legal if m["type"] in kinds]
        if moves:
            return moves[0]
    return None


def scenario_camelot_computer(redis, workdir, seconds=30, delay=2):
    """Camelot for three: two people at seats 0 and 1 moving every 0.3 s, a computer player
    (delay 2 s) at seat 2; how long each computer decision waited from falling due."""
    import statistics

    from django.db import connection

    from games.table import services
    from games import registry
    from grailsite.errors import MoveRejected, StaleVersion
    from games.models import Match, MoveRecord, Seat

    env = site_env(redis.url, GRAILSITE_PRODUCTION="0")
    log = workdir / "celery-camelot.log"
    procs = [celery("worker", env, log, workdir), celery("beat", env, log, workdir)]
    time.sleep(6)
    game = registry.get("camelot")
    match, users = _vs_computer(delay, kind="camelot", seats=3, people=2, seed=31)
    owed, people_moves, turn = {}, 0, 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        connection.close()
        m = Match.objects.get(pk=match.pk)
        computer = Seat.objects.get(match=m, index=2)
        if computer.waiting_for:
            owed.setdefault(computer.situation_version, time.time())
        for seat in (turn % 2, (turn + 1) % 2):
            move = _camelot_person_move(game, m.state, seat)
            if move is not None:
                try:
                    services.move_submit(match_id=m.pk, user=users[seat], move=move, version=m.version)
                    people_moves += 1
                except (StaleVersion, MoveRejected):
                    pass
                break
        turn += 1
        time.sleep(0.3)
    ended = time.time()
    for proc in procs:
        stop(proc)
    records = list(MoveRecord.objects.filter(match=match).order_by("seq"))
    at_version = {r.version_after: r for r in records}
    waits, still_owed = [], 0.0
    for version in sorted(owed):
        if version not in at_version:
            continue
        made = next((r for r in records if r.seat == 2 and r.version_after > version), None)
        since = at_version[version].created_at.timestamp()
        if made is None:
            still_owed = max(still_owed, ended - since)
        else:
            waits.append(made.created_at.timestamp() - since)
    return {"seconds": seconds, "people's moves": people_moves,
            "computer moves": sum(1 for r in records if r.seat == 2),
            "wait from due, median/max (s)": (f"{statistics.median(waits):.1f}/{max(waits):.1f}" if waits else "none"),
            "longest still owed at the end (s)": f"{still_owed:.1f}", "delay (s)": delay}


def scenario_sweep_cost(redis, workdir, n=300, rounds=200):
    """The short-horizon sweep's work when nothing is due, with ``n`` games whose deadlines
    are days away (and the computer seats of the scenarios before): milliseconds a round."""
    import statistics

    from django.db import connection

    from games import tasks

    from django.conf import settings

    make_games(n)
    sweeps = [tasks.deadlines_sweep] + ([tasks.timers_sweep] if hasattr(tasks, "timers_sweep") else [])
    times = {sweep.name: [] for sweep in sweeps}
    for _ in range(rounds):  # interleaved, so the machine's load weighs on both alike
        for sweep in sweeps:
            t = time.perf_counter()
            sweep.run()
            times[sweep.name].append(time.perf_counter() - t)
    connection.close()
    figures = {"games": n, "rounds": rounds}
    for name, ts in times.items():
        short = name.rsplit(".", 1)[-1]
        figures[f"{short} median/p95 (ms)"] = (f"{statistics.median(ts) * 1000:.2f}/"
                                               f"{sorted(ts)[int(rounds * 0.95)] * 1000:.2f}")
    interval = getattr(settings, "TIMERS_SWEEP_SECONDS", 60.0)
    short = sweeps[-1].name.rsplit(".", 1)[-1]
    figures[f"{short} every {interval:g} s: share of one core (%)"] = (
        f"{statistics.median(times[sweeps[-1].name]) / interval * 100:.3f}")
    return figures


def compose_web_command(port: int, old_flags: bool = False) -> list[str]:
    """docker-compose.yml's web command (grailsite/deploy/web.sh, as `make prod` runs it too)
    on a local port, with this venv's uvicorn; ``old_flags``: with uvicorn's proxy headers
    believed from anyone, as compose had them before TRUSTED_PROXIES."""
    import yaml

    command = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["web"]["command"]
    command = ["env", "HOST=127.0.0.1", f"PORT={port}", f"PATH={Path(sys.executable).parent}:{os.environ['PATH']}",
               str(ROOT / command[0])]
    if old_flags:  # web.sh passes its arguments on to uvicorn, after its own (the last one counts)
        command += ["--proxy-headers", "--forwarded-allow-ips", "*"]
    return command


def _forms(base, path, n, source, forwarded, form):
    """``n`` form posts from the local address ``source``, each with a new X-Forwarded-For."""
    import httpx

    with httpx.Client(base_url=base, transport=httpx.HTTPTransport(local_address=source), timeout=30) as c:
        c.get(path)
        token = c.cookies["csrftoken"]
        return [c.post(path, data={**form(i), "csrfmiddlewaretoken": token},
                       headers={"X-Forwarded-For": forwarded(i)}).status_code for i in range(n)]


def scenario_forwarded(redis, workdir, logins=70, signups=35):
    """One machine making up a new X-Forwarded-For for every wrong password and sign-up, at the
    default limits (60 log-ins a minute, 30 sign-ups an hour per address). 127.0.0.1 plays the
    proxy (compose's TRUSTED_PROXIES is the proxy's fixed address); the machine is another
    loopback address, straight at the web process, or behind the proxy."""
    figures = {}
    made_up = lambda i: f"10.{i // 250 % 250}.{i % 250}.{7 + i % 200}"  # noqa: E731
    login = lambda i: {"username": "nobody", "password": f"guess{i}"}  # noqa: E731
    signup = lambda i: {"username": f"spam{time.time_ns() % 10**9}{i}"}  # noqa: E731
    for n, (label, old, source, chain) in enumerate([
            ("old flags, straight", True, "127.0.0.2", made_up),
            ("compose now, straight", False, "127.0.0.3", made_up),
            ("compose now, through the proxy", False, "127.0.0.1", lambda i: f"{made_up(i)}, 192.0.2.44")]):
        port = free_port()
        # The suite's quick password hasher (tests/live_settings.py): with the real one 70
        # log-ins take 20 s and may straddle two of the limit's one-minute windows.
        env = site_env(redis.url, RATELIMIT_ENABLE="true", TRUSTED_PROXIES="127.0.0.1",
                       GRAILSITE_CHANNEL_PREFIX=f"{PREFIX}-fwd{n}-{time.time_ns()}",
                       DJANGO_SETTINGS_MODULE="tests.live_settings")
        proc = start(compose_web_command(port, old_flags=old), env, workdir / f"forwarded{n}.log")
        RUNNING.append(proc)
        wait_port(port)
        base = f"http://127.0.0.1:{port}"
        logins_429 = _forms(base, "/accounts/login/", logins, source, chain, login).count(429)
        signups_429 = _forms(base, "/accounts/signup/", signups, source, chain, signup).count(429)
        stop(proc)
        figures[label] = f"{logins_429}/{logins} log-ins and {signups_429}/{signups} sign-ups refused (429)"
    return figures


def scenario_analysis(redis, workdir, clients=12, seconds=20):
    """Heavy deck analyses against everyone else's reads and the socket loop."""
    import statistics

    import httpx
    import websockets

    from decks import cardformat, services as deck_services
    from decks.models import Card

    if not Card.objects.exists():
        deck_services.cards_upsert(cards=cardformat.starter_set(), source="bench")
    # The heaviest list the schema takes: every code (at most 200) at the most copies.
    heavy = {code: deck_services.MAX_DECK_COPIES
             for code in Card.objects.order_by("code").values_list("code", flat=True)[:deck_services.MAX_DECK_SIZE]}
    games = make_games(clients // 2 + 1)
    tokens = [t for g in games for t in g["tokens"]][:clients]
    probe = games[-1]
    port = free_port()
    proc = start(compose_web_command(port), site_env(redis.url, RATELIMIT_ENABLE="true"), workdir / "analysis.log")
    RUNNING.append(proc)
    wait_port(port)
    base = f"http://127.0.0.1:{port}"

    async def probe_for(until, reads, pings):
        """A read and a ping every 0.2 s, each on its own (a queue behind the analyses still
        gets one sample per 0.2 s, however long each waits)."""
        headers = {"Authorization": f"Token {probe['tokens'][0]}"}
        async with httpx.AsyncClient(timeout=120) as client, websockets.connect(
                f"ws://127.0.0.1:{port}/ws/matches/{probe['match']}/", origin=base) as ws:
            async def read():
                t = time.perf_counter()
                await client.get(f"{base}/api/matches/{probe['match']}/", headers=headers)
                reads.append(time.perf_counter() - t)

            async def ping():
                t = time.perf_counter()
                await (await ws.ping())
                pings.append(time.perf_counter() - t)

            tasks = []
            while time.monotonic() < until:
                tasks += [asyncio.create_task(read()), asyncio.create_task(ping())]
                await asyncio.sleep(0.2)
            await asyncio.gather(*tasks)

    async def analyst(token, until, codes):
        async with httpx.AsyncClient(timeout=60) as client:
            while time.monotonic() < until:
                r = await client.post(f"{base}/decks/api/analyse/", json={"cards": heavy},
                                      headers={"Authorization": f"Token {token}"})
                codes.append(r.status_code)
                if r.status_code == 429:
                    await asyncio.sleep(1)  # a client told to wait, waiting a little

    async def run(with_load):
        reads, pings, codes = [], [], []
        until = time.monotonic() + seconds
        tasks = [analyst(t, until, codes) for t in tokens] if with_load else []
        await asyncio.gather(probe_for(until, reads, pings), *tasks)
        return reads, pings, codes

    def ms(values, q):
        return f"{statistics.quantiles(values, n=20)[18] * 1000:.0f}" if q == 95 else \
            f"{statistics.median(values) * 1000:.0f}"

    quiet_reads, quiet_pings, _ = asyncio.run(run(False))
    reads, pings, codes = asyncio.run(run(True))
    stop(proc)
    return {"match read median/p95 quiet (ms)": f"{ms(quiet_reads, 50)}/{ms(quiet_reads, 95)}",
            f"during {clients} analysts (ms)": f"{ms(reads, 50)}/{ms(reads, 95)}",
            "socket ping median/p95 quiet (ms)": f"{ms(quiet_pings, 50)}/{ms(quiet_pings, 95)}",
            "during (ms) ": f"{ms(pings, 50)}/{ms(pings, 95)}",
            "analyses answered": codes.count(200), "refused (429)": codes.count(429),
            "other": len(codes) - codes.count(200) - codes.count(429), "seconds": seconds}


def _prod_shape(redis, workdir):
    """`make prod`'s shape on the bench database and private Redis (bench/prod_shape.py);
    a prefix (queue, cache, groups) of its own each time."""
    sys.path.insert(0, str(ROOT / "bench"))
    import prod_shape

    tag = time.time_ns() % 10**8
    cfg, env = prod_shape.start(workdir / f"prod-{tag}", DB_URL, redis.url, prefix=f"{PREFIX}-prod{tag}")
    return prod_shape, cfg, env


def scenario_rolling_restart(redis, workdir, slots=40, games=900):
    """The production shape: both web processes restarted in turn under 40 games moving flat out."""
    prod_shape, cfg, env = _prod_shape(redis, workdir)
    try:
        made = prod_shape.make_games(env, games)
        return prod_shape.rolling_restart(cfg, made, slots=slots, before=5, after=5)
    finally:
        prod_shape.stop(cfg)


def scenario_timer_restarts(redis, workdir, n=30):
    """The production shape: the clocks' worker, worker1 and beat restarted while 30 deadlines
    fall due."""
    prod_shape, cfg, env = _prod_shape(redis, workdir)
    try:
        return prod_shape.timer_restarts(cfg, env, n, first=10, last=40, settle=20)
    finally:
        prod_shape.stop(cfg)


# The clocks' goal under a flood and a tarpit (docs/reliability.md): deadlines fire at most
# this late, at the 99th percentile and at worst.
CLOCK_GOAL_P99_S, CLOCK_GOAL_MAX_S = 5.0, 10.0


def clock_goal(figures: dict) -> str:
    """PASS, or FAIL with what missed the goal: a deadline that never fired fails it too (it
    has no lateness, so the percentiles alone would hide it)."""
    failed = []
    if figures.get("missed") or not figures.get("fired"):
        failed.append(f"{figures.get('missed')} missed of {figures.get('deadlines')}")
    p99, worst = figures.get("lateness_p99_s"), figures.get("lateness_max_s")
    if p99 is not None and p99 > CLOCK_GOAL_P99_S:
        failed.append(f"p99 {p99} s > {CLOCK_GOAL_P99_S:g} s")
    if worst is not None and worst > CLOCK_GOAL_MAX_S:
        failed.append(f"max {worst} s > {CLOCK_GOAL_MAX_S:g} s")
    return "FAIL (" + "; ".join(failed) + ")" if failed else \
        f"PASS (p99 <= {CLOCK_GOAL_P99_S:g} s, max <= {CLOCK_GOAL_MAX_S:g} s)"


def scenario_flood_and_tarpit(redis, workdir):
    """Deadlines falling due while games move flat out over websockets and 40 push endpoints
    never answer: bench/clock_lateness.py, on `make prod`'s shape with the clocks' lane; the
    figures end with whether the goal held."""
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "clock_lateness.py"), "--seconds", "60"], cwd=ROOT,
                         env={**os.environ, "REDIS_URL": redis.url}, capture_output=True, text=True, timeout=1800)
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-2000:])
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    return {**figures, "goal": clock_goal(figures)}


SCENARIOS = {"edge": scenario_edge, "timer_redis": scenario_timer_redis, "timer_worker": scenario_timer_worker, "burst": scenario_burst,
             "db_kill": scenario_db_kill, "soak": scenario_soak, "held_redis": scenario_held_redis,
             "camelot_computer": scenario_camelot_computer, "sweep_cost": scenario_sweep_cost,
             "forwarded": scenario_forwarded,
             "analysis": scenario_analysis,
             "db_recover": scenario_db_recover, "connect_flood": scenario_connect_flood,
             "db_down_moves": scenario_db_down_moves,
             "rolling_restart": scenario_rolling_restart, "timer_restarts": scenario_timer_restarts,
             "flood_and_tarpit": scenario_flood_and_tarpit}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default=",".join(SCENARIOS))
    parser.add_argument("--flood", nargs=4, metavar=("BASE", "MATCH", "RATE", "SECONDS"),
                        help="(used by connect_flood) make the flood and print its counts")
    args = parser.parse_args()
    if args.flood:
        base, match_id, rate, seconds = args.flood
        counts = asyncio.run(_anonymous_connects(base, int(match_id), float(rate), float(seconds)))
        print(", ".join(f"{k} {v}" for k, v in counts.items()))
        return
    if not shutil.which("redis-server"):
        sys.exit("redis-server is needed (apt-get install redis-server)")
    print(f"floor (1M-step pure-Python loop): {floor_ms():.0f} ms")
    redis = PrivateRedis()
    prepare_database(redis.url)
    workdir = Path(tempfile.mkdtemp(prefix="grail-faults-"))
    try:
        for name in args.only.split(","):
            t = time.monotonic()
            figures = SCENARIOS[name](redis, workdir)
            print(f"{name} ({time.monotonic() - t:.0f} s): " + ", ".join(f"{k}: {v}" for k, v in figures.items()),
                  flush=True)
    finally:
        for proc in RUNNING:
            stop(proc)
        redis.stop()
        from django.db import connections

        connections.close_all()
        psql(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        print(f"logs: {workdir}")


if __name__ == "__main__":
    main()
