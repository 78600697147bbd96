"""Move round trip: N concurrent two-player games on PostgreSQL + Redis; players submit moves
over HTTP (`--path http`) or over the game's own websocket (`--path ws`) and receive the
updates over websockets. Prints moves/s and the latency from a move's submission to the
opponent's websocket frame (p50/p95/p99), the CPU each part used per move, and, measured in
the same run for the same time, `pgbench`'s simple-update TPS on the same machine as the
floor, with the ratio moves/s ÷ pgbench TPS (figures from noisy machines compare as ratios).

    make bench                      # every benchmark
    .venv/bin/python bench/move_roundtrip.py --games 40 --seconds 20 --path ws             # flat out
    .venv/bin/python bench/move_roundtrip.py --games 40 --seconds 20 --path ws --rate 200  # paced
    .venv/bin/python bench/move_roundtrip.py --kind cupquest       # a Cup Quest-sized state
    .venv/bin/python bench/move_roundtrip.py --kind ccg            # a CCG-sized state
    .venv/bin/python bench/move_roundtrip.py --kind ccg --path ws --rate 200 --stages /tmp/stages
                                                    # and where each move's time went (bench/move_stages.py)

It creates (and drops) its own database `grailsite_bench` on the PostgreSQL of
DATABASE_URL, and starts the ASGI server it measures (uvicorn, --workers N).

Every game starts at once, so the first second is a storm no site sees in steady play: 2 ×
games websockets connecting and, for the CCG, every game's opening cut staking its ante on the
synchronous path together. ``--warmup`` seconds (default 3) are played before anything is
counted (moves, latencies, CPU); ``--warmup 0`` counts the storm too (as every run before
2026-11-25 night did).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import orjson
import uvloop

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from client_gc import collector_off  # noqa: E402  (bench/client_gc.py)

PG = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
# BENCH_DB: another name, so two benches on one machine do not drop each other's database.
BENCH_DB = os.environ.get("BENCH_DB", "grailsite_bench")
DB_URL = f"{PG}/{BENCH_DB}"
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


def server_env() -> dict:
    return dict(os.environ, DATABASE_URL=DB_URL, REDIS_URL=REDIS_URL, DJANGO_DEBUG="false", DB_POOL=os.environ.get("DB_POOL", "1"),
                ALLOWED_HOSTS="127.0.0.1,localhost,testserver", GRAILSITE_CHANNEL_PREFIX="bench", LOG_LEVEL="ERROR",
                # One bench player makes far more moves a second than a person, and every
                # bench player comes from one address: the socket's move allowance and the
                # API's move limits (guards against floods) are not what this measures. They
                # still count every move; they just never refuse one.
                WS_MOVE_BURST="100000", WS_MOVES_PER_SECOND="100000",
                RATE_MOVE_USER="100000/s", RATE_MOVE_IP="100000/s",
                # Hundreds of sockets from one address to one game (games/live/connect_gate.py).
                WS_CONNECT_BURST_ADDRESS="100000", WS_CONNECTS_PER_SECOND_ADDRESS="100000",
                WS_CONNECT_BURST_GAME="100000", WS_CONNECTS_PER_SECOND_GAME="100000",
                SECRET_KEY="bench-only")


def prepare_database(games: int, rounds: int, kind: str = "duel") -> list[dict]:
    """Fresh bench database with 2 × games users and `games` started two-player games."""
    subprocess.run(["psql", PG + "/postgres", "-qc", f"DROP DATABASE IF EXISTS {BENCH_DB}"], check=True)
    subprocess.run(["psql", PG + "/postgres", "-qc", f"CREATE DATABASE {BENCH_DB}"], check=True)
    env = server_env()
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "grailsite.settings"
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from django.db.models.signals import post_save

    from games.table import services
    from grailsite.accounts.models import Profile

    # Starter collections are not what this measures: skip the sign-up grant (the CCG needs
    # them for its decks, so it keeps it).
    if kind != "ccg":
        post_save.disconnect(sender=settings.AUTH_USER_MODEL, dispatch_uid="decks_starter_grant")
    User = get_user_model()
    out = []
    for g in range(games):
        pair = []
        for s in range(2):
            user = User.objects.create(username=f"bench{g}_{s}")  # no password: bench players use tokens
            Profile.objects.filter(user=user).update(api_token=f"token-{g}-{s}")
            session = SessionStore()
            session["_auth_user_id"] = str(user.pk)
            session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
            session["_auth_user_hash"] = user.get_session_auth_hash()
            session.create()
            pair.append({"user": user, "token": f"token-{g}-{s}", "cookie": session.session_key})
        options, choices = _table(kind, rounds, [p["user"] for p in pair])
        match = services.match_create(creator=pair[0]["user"], kind=kind, num_seats=2, options=options,
                                      invite=[pair[1]["user"].username], clock_kind="days", clock_amount=3,
                                      creator_choice=choices[0])
        services.match_join(match_id=match.pk, user=pair[1]["user"], choice=choices[1])
        out.append({"match": match.pk, "players": [{"token": p["token"], "cookie": p["cookie"]} for p in pair],
                    "session_cookie_name": settings.SESSION_COOKIE_NAME})
    return out


def _table(kind: str, rounds: int, users) -> tuple[dict, list]:
    """Table options and each player's choice for a bench game of ``kind``."""
    if kind == "duel":
        return {"rounds": rounds}, [None, None]
    if kind == "ccg":  # each player's first starter deck, no response windows to wait on
        return ({"rules_off": ["response_windows"]},
                [{"deck": u.decks.order_by("pk").first().pk} for u in users])
    return {}, [None, None]


def pgbench_tps(seconds: float) -> float:
    """The floor: PostgreSQL's own simple-update transactions per second on this machine,
    two clients, measured for as long as the moves were."""
    db = f"{PG}/{BENCH_DB}"
    subprocess.run(["pgbench", "-i", "-q", "-s", "1", db], check=True, capture_output=True)
    out = subprocess.run(["pgbench", "-n", "-b", "simple-update", "-c", "2", "-j", "2", "-T", str(max(1, int(seconds))),
                          db], check=True, capture_output=True, text=True).stdout
    line = next(ln for ln in out.splitlines() if ln.startswith("tps"))
    return float(line.split("=")[1].split()[0])


CLK = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLK  # utime + stime


def _children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


def cpu_by_component(server_pid: int) -> dict:
    """CPU seconds used so far by the server's process tree, PostgreSQL and Redis.

    On a shared machine wall-clock rates depend on the neighbours; CPU per move does not
    much, and says where a move's cost goes (docs/performance.md)."""
    tree, todo = [], [server_pid]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo += _children(pid)
    totals = {"server": sum(_cpu_seconds(p) for p in tree), "postgres": 0.0, "redis": 0.0}
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            name = (proc / "comm").read_text().strip()
        except OSError:
            continue
        if name.startswith("postgres"):
            totals["postgres"] += _cpu_seconds(int(proc.name))
        elif name.startswith("redis-server"):
            totals["redis"] += _cpu_seconds(int(proc.name))
    return totals


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, workers: int, wsgi: bool = False) -> subprocess.Popen:
    """uvicorn (ASGI: HTTP and websockets), or with ``wsgi`` gunicorn for plain HTTP."""
    if wsgi:
        cmd = [sys.executable, "-m", "gunicorn", "grailsite.wsgi:application", "-b", f"127.0.0.1:{port}",
               "-w", str(workers), "--threads", "4", "--log-level", "warning"]
    else:
        cmd = [sys.executable, "-m", "uvicorn", "grailsite.asgi:application", "--host", "127.0.0.1",
               "--port", str(port), "--workers", str(workers), "--log-level", "warning",
               "--ws-per-message-deflate", "false", "--no-access-log"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=server_env())
    for _ in range(150):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not start")


async def _reader(ws, queue: asyncio.Queue):
    """Every message of one socket, stamped when it arrived (the latency's end)."""
    try:
        async for raw in ws:
            await queue.put((time.perf_counter(), raw))
    except Exception:  # the socket closed at the end of the game or the run
        pass


# A frame or answer that has not come after this long is counted as a stall and the game
# is left (a page would catch up with its heartbeat; the bench reports it instead of hanging).
STALL_SECONDS = 15.0


async def _next(queue: asyncio.Queue, want) -> tuple[float, dict]:
    async def wanted():
        while True:
            at, raw = await queue.get()
            msg = orjson.loads(raw)
            if want(msg):
                return at, msg
    return await asyncio.wait_for(wanted(), STALL_SECONDS)


def _frame_at_least(version: int):
    return lambda m: m["type"] in ("state", "change") and m["data"]["version"] >= version


class Pace:
    """A slot's timeline when paced: a move every ``interval`` seconds from ``first_at``; a
    move that took longer than that is followed at once, without a burst to catch up."""

    def __init__(self, interval: float, first_at: float):
        self.interval, self.next_at = interval, first_at

    async def wait(self) -> None:
        if not self.interval:
            return
        delay = self.next_at - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        self.next_at = max(self.next_at + self.interval, time.perf_counter())


async def play_game(game: dict, base: str, client, deadline: float, pace: Pace, latencies: list, counts: dict,
                    ws_base: str | None = None, path: str = "http"):
    import websockets

    ws_base = ws_base or base.replace("http://", "ws://")
    sockets, queues, readers = [], [], []
    for p in game["players"]:
        ws = await websockets.connect(f"{ws_base}/ws/matches/{game['match']}/", origin=base, max_size=2 ** 24,
                                      additional_headers={"Cookie": f"{game['session_cookie_name']}={p['cookie']}"})
        queue = asyncio.Queue()
        sockets.append(ws)
        queues.append(queue)
        readers.append(asyncio.create_task(_reader(ws, queue)))
    key = 0
    try:
        views = [(await _next(q, lambda m: m["type"] == "state"))[1]["data"] for q in queues]
        while time.monotonic() < deadline:
            mover = next((i for i, v in enumerate(views) if v["legal_moves"]), None)
            if mover is None:
                break  # game over
            other = 1 - mover
            move = views[mover]["legal_moves"][0]
            key += 1
            await pace.wait()
            started = time.perf_counter()
            if path == "ws":
                await sockets[mover].send(orjson.dumps({"type": "move", "move": move, "version": views[mover]["version"],
                                                        "key": f"b{game['match']}-{key}"}).decode())
                _, answer = await _next(queues[mover], lambda m: m["type"] in ("ack", "refused"))
                if answer["type"] != "ack":
                    counts["errors"] += 1
                    reason = answer.get("error", {}).get("message", "?")[:80]
                    counts["refusals"][reason] = counts["refusals"].get(reason, 0) + 1
                    break
                target = answer["version"]
            else:
                r = await client.post(f"{base}/api/matches/{game['match']}/moves/",
                                      json={"move": move, "version": views[mover]["version"]},
                                      headers={"Authorization": f"Token {game['players'][mover]['token']}"})
                if r.status_code != 200:
                    counts["errors"] += 1
                    reason = f"HTTP {r.status_code}: {r.text[:70]}"
                    counts["refusals"][reason] = counts["refusals"].get(reason, 0) + 1
                    break
                target = r.json()["version"]
            at, msg = await _next(queues[other], _frame_at_least(target))  # the opponent's frame
            views[other] = _merged(views[other], msg)
            if started >= counts["measured_from"]:  # past the warm-up
                latencies.append(at - started)
                counts["stamps"].append(f"client {game['match']} {target} {other} {started:.6f} {at:.6f}")
                counts["types"].append(move.get("type", "?"))
                counts["moves"] += 1
            _, msg = await _next(queues[mover], _frame_at_least(target))  # the mover's own next state
            views[mover] = _merged(views[mover], msg)
    except asyncio.TimeoutError:
        counts["stalled"] += 1
    finally:
        for ws in sockets:
            await ws.close()
        for task in readers:
            task.cancel()


def _merged(view: dict, msg: dict) -> dict:
    """A page's data after a frame: a whole state, or a change applied to what it had."""
    return msg["data"] if msg["type"] == "state" else {**view, **msg["data"]}


async def run(games: list, base: str, seconds: float, rate: float | None, slots: int, ws_base: str | None = None,
              path: str = "http", bursts: bool = False, warmup: float = 0.0, on_measuring=None) -> dict:
    """``slots`` games are played at once; when one ends its slot takes the next fresh game.

    Paced (``rate``), each slot moves every ``slots / rate`` seconds on a timeline of its own,
    the slots' timelines spread evenly over that interval, so moves arrive at a steady rate
    as independent players' would. ``bursts`` starts every timeline at the same instant
    instead: all slots move together, ``slots`` moves at once each interval (how this bench
    paced before 2026-11-25 evening).

    The first ``warmup`` seconds are played but not counted; ``on_measuring()`` is called when
    counting starts (the caller's CPU readings)."""
    import httpx

    latencies: list[float] = []
    counts = {"moves": 0, "errors": 0, "stalled": 0, "refusals": {}, "measured_from": time.perf_counter() + warmup,
              "types": [], "stamps": []}
    interval = slots / rate if rate else 0.0
    queue = list(reversed(games))

    async def slot(client, deadline, pace):
        while queue and time.monotonic() < deadline:
            await play_game(queue.pop(), base, client, deadline, pace, latencies, counts, ws_base, path)

    limits = httpx.Limits(max_connections=slots * 2)
    async with httpx.AsyncClient(limits=limits, timeout=30) as client:
        start, first = time.monotonic(), time.perf_counter()
        paces = [Pace(interval, first + (0 if bursts else i * interval / slots)) for i in range(slots)]

        async def measuring():
            await asyncio.sleep(max(0.0, counts["measured_from"] - time.perf_counter()))
            if on_measuring is not None:
                on_measuring()
        marker = asyncio.create_task(measuring())
        await asyncio.gather(*(slot(client, start + warmup + seconds, pace) for pace in paces))
        await marker
        elapsed = time.monotonic() - start - warmup
    q = statistics.quantiles(latencies, n=100) if len(latencies) >= 100 else [float("nan")] * 99
    return {"moves": counts["moves"], "errors": counts["errors"], "stalled": counts["stalled"], "refusals": counts["refusals"],
            "seconds": round(elapsed, 2),
            "moves_per_s": round(counts["moves"] / elapsed, 1),
            "p50_ms": round(q[49] * 1000, 1), "p95_ms": round(q[94] * 1000, 1), "p99_ms": round(q[98] * 1000, 1),
            "slowest_5pc_by_type": _slowest_by_type(latencies, counts["types"]),
            "all_by_type": dict(Counter(counts["types"]).most_common(8)), "stamps": counts["stamps"]}


def _slowest_by_type(latencies: list[float], types: list[str]) -> dict:
    """The move types of the slowest 5% of moves, most frequent first: which moves make the
    tail (a type over-represented here against ``all_by_type`` costs more than the rest)."""
    slowest = sorted(zip(latencies, types), reverse=True)[:max(1, len(latencies) // 20)]
    return dict(Counter(t for _, t in slowest).most_common(8))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--rate", type=float, default=None, help="target moves/s in total (default: flat out)")
    parser.add_argument("--bursts", action="store_true",
                        help="paced: every game moves at the same instant (bursts of --games moves), not spread evenly")
    parser.add_argument("--workers", type=int, default=2, help="uvicorn worker processes")
    parser.add_argument("--pool", type=int, default=10, help="games prepared per concurrent slot (each lasts 12 moves)")
    parser.add_argument("--wsgi", action="store_true",
                        help="serve HTTP with gunicorn (WSGI) and only websockets with uvicorn")
    parser.add_argument("--path", choices=("http", "ws"), default="http",
                        help="submit moves over HTTP (the API) or over the game's websocket")
    parser.add_argument("--kind", choices=("duel", "cupquest", "ccg"), default="duel",
                        help="the game played: its state's size is what differs")
    parser.add_argument("--no-floor", action="store_true", help="skip the pgbench floor")
    parser.add_argument("--warmup", type=float, default=3.0,
                        help="seconds played before counting starts (the start of every game at once)")
    parser.add_argument("--client-gc", action="store_true",
                        help="keep the load generator's cycle collector on (as before 2026-11-26; bench/client_gc.py)")
    parser.add_argument("--ordinary", action="store_true",
                        help="socket moves through the synchronous service, one transaction each (not in batches)")
    parser.add_argument("--stages", metavar="DIR",
                        help="stamp every socket move's stages into DIR (emptied first) and print where the time "
                             "went (bench/move_stages.py)")
    args = parser.parse_args()
    if args.ordinary:
        os.environ["MOVES_IN_BATCHES"] = "false"
    if args.stages:
        stages = Path(args.stages).resolve()
        stages.mkdir(parents=True, exist_ok=True)
        for old in stages.glob("*.txt"):
            old.unlink()
        os.environ["GRAILSITE_MOVE_TRACE"] = str(stages)  # the server's (games/live/move_trace.py)
    # Enough rounds that no duel ends during the run (each round is two moves).
    rounds = 6
    games = prepare_database(args.games * args.pool, rounds, args.kind)
    port = free_port()
    server = start_server(port, args.workers)
    http_server, http_port = (start_server(free_port(), args.workers, wsgi=True), None) if args.wsgi else (None, port)
    if http_server is not None:
        http_port = int(http_server.args[http_server.args.index("-b") + 1].rsplit(":", 1)[1])
    try:
        readings = {}

        def measuring():  # CPU readings when counting starts (after the warm-up)
            readings["before"] = cpu_by_component(server.pid)
            readings["extra"] = cpu_by_component(http_server.pid)["server"] if http_server is not None else 0.0
            readings["client"] = time.process_time()
        # The load generator shares the two cores with what it measures: uvloop, orjson and
        # no cycle collector keep its own cost per move down (it is printed as load_generator).
        with collector_off(keep_on=args.client_gc):
            result = uvloop.run(run(games, f"http://127.0.0.1:{http_port}", args.seconds, args.rate, args.games,
                                     ws_base=f"ws://127.0.0.1:{port}", path=args.path, bursts=args.bursts,
                                     warmup=args.warmup, on_measuring=measuring))
        after = cpu_by_component(server.pid)
        if http_server is not None:
            after["server"] += cpu_by_component(http_server.pid)["server"] - readings["extra"]
        used = {k: after[k] - readings["before"][k] for k in readings["before"]}
        used["load_generator"] = time.process_time() - readings["client"]
        moves = max(result["moves"], 1)
        result["cpu_ms_per_move"] = {k: round(1000 * v / moves, 2) for k, v in used.items()}
    finally:
        for proc in (server, http_server):
            if proc is not None:
                proc.terminate()
                proc.wait(timeout=10)
    stamps = result.pop("stamps")
    if args.stages:
        import move_stages  # bench/move_stages.py
        (stages / "client.txt").write_text("\n".join(stamps) + "\n")
        print(move_stages.report(move_stages.join(stages)))
    if not args.no_floor:
        tps = pgbench_tps(args.seconds)
        result["pgbench_tps"] = round(tps, 1)
        result["moves_per_pgbench_tps"] = round(result["moves_per_s"] / tps, 4)
    print(json.dumps({"benchmark": "move_roundtrip", "kind": args.kind, "path": args.path,
                      "concurrent_games": args.games, "rate": args.rate, "bursts": args.bursts, "workers": args.workers,
                      "warmup_s": args.warmup, "client_gc": "on" if args.client_gc else "off",
                      "http": "wsgi" if args.wsgi else "asgi",
                      "socket_moves": "ordinary" if args.ordinary else "batched", **result}))


if __name__ == "__main__":
    main()
