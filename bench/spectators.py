"""Spectator fan-out: S anonymous websocket spectators watch one game; for each move, how
long from its submission until every spectator has the new frame (and the p50/p95 of the
individual spectators' latencies).

Beside the figures it prints two floors measured in the same run, so runs on machines of
different speed compare as ratios: the fixed pure-Python workload of the engine benchmarks
(``bench/floor.py``, runs/s, before and after; fan-out is Python work on the server and in
the load generator) and ``pgbench``'s simple-update TPS for two seconds.

    .venv/bin/python bench/spectators.py --spectators 500 --moves 10 --workers 2
"""
from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

import orjson
import uvloop

sys.path.insert(0, str(Path(__file__).resolve().parent))
import move_roundtrip as rt  # noqa: E402  (shares the database and server set-up)
from floor import floor_per_second  # noqa: E402  (the fixed workload every bench prints)
from client_gc import collector_off  # noqa: E402  (bench/client_gc.py)


async def watch(url: str, origin: str, ready: asyncio.Event, arrivals: dict, count: list):
    import websockets

    async with websockets.connect(url, origin=origin, open_timeout=60, max_queue=None) as ws:
        first = orjson.loads(await ws.recv())
        count[0] += 1
        if count[0] == count[1]:
            ready.set()
        version = first["data"]["version"]
        async for raw in ws:
            at = time.perf_counter()  # stamped before the load generator's own parsing
            msg = orjson.loads(raw)
            if msg["type"] in ("state", "change") and msg["data"]["version"] > version:
                version = msg["data"]["version"]
                arrivals.setdefault(version, []).append(at)


async def run(game: dict, base: str, spectators: int, moves: int, server_cpu=None) -> dict:
    import httpx

    url = base.replace("http://", "ws://") + f"/ws/matches/{game['match']}/"
    ready, arrivals, count = asyncio.Event(), {}, [0, spectators]
    tasks = []
    for i in range(spectators):
        tasks.append(asyncio.create_task(watch(url, base, ready, arrivals, count)))
        if i % 50 == 49:
            await asyncio.sleep(0.05)  # do not stampede the accept queue
    await asyncio.wait_for(ready.wait(), timeout=120)
    # The CPU of the fan-out alone, from here (every spectator connected) to the last move.
    cpu_before, client_before = (server_cpu() if server_cpu else None), time.process_time()
    worst, each = [], []
    async with httpx.AsyncClient(timeout=30) as client:
        headers = [{"Authorization": f"Token {p['token']}"} for p in game["players"]]
        for _ in range(moves):
            mover = None
            for seat in (0, 1):
                view = (await client.get(f"{base}/api/matches/{game['match']}/", headers=headers[seat])).json()
                if view["legal_moves"]:
                    mover = seat
                    break
            if mover is None:
                break
            started = time.perf_counter()
            r = await client.post(f"{base}/api/matches/{game['match']}/moves/", headers=headers[mover],
                                  json={"move": view["legal_moves"][0], "version": view["version"]})
            version = r.json()["version"]
            end = time.monotonic() + 10
            while len(arrivals.get(version, [])) < spectators and time.monotonic() < end:
                await asyncio.sleep(0.002)
            got = arrivals.get(version, [])
            each.extend(t - started for t in got)
            worst.append((max(got) - started) if len(got) == spectators else float("inf"))
            await asyncio.sleep(0.2)
    cpu = {}
    if server_cpu:
        cpu_after = server_cpu()
        frames = max(1, len(worst) * spectators)
        cpu = {"cpu_us_per_frame_delivered": {
            "server": round(1e6 * (cpu_after["server"] - cpu_before["server"]) / frames, 1),
            "redis": round(1e6 * (cpu_after["redis"] - cpu_before["redis"]) / frames, 1),
            "load_generator": round(1e6 * (time.process_time() - client_before) / frames, 1)}}
    for t in tasks:
        t.cancel()
    q = statistics.quantiles(each, n=100)
    return {"spectators": spectators, "moves": len(worst),
            "all_reached_ms_median": round(statistics.median(worst) * 1000, 1),
            "all_reached_ms_max": round(max(worst) * 1000, 1),
            "per_spectator_p50_ms": round(q[49] * 1000, 1), "per_spectator_p95_ms": round(q[94] * 1000, 1), **cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spectators", type=int, default=500)
    parser.add_argument("--moves", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-floor", action="store_true", help="skip the floors")
    parser.add_argument("--client-gc", action="store_true",
                        help="keep the spectators' cycle collector on (as before 2026-11-26; bench/client_gc.py)")
    args = parser.parse_args()
    floors = {} if args.no_floor else {"floor_runs_per_s_before": round(floor_per_second(2.0), 1)}
    games = rt.prepare_database(1, 6)
    port = rt.free_port()
    server = rt.start_server(port, args.workers)
    try:
        # The 500 spectators share the two cores with the server: uvloop, orjson and no cycle
        # collector keep the load generator's own cost per frame down (its CPU is printed
        # beside the server's).
        with collector_off(keep_on=args.client_gc):
            result = uvloop.run(run(games[0], f"http://127.0.0.1:{port}", args.spectators, args.moves,
                                    server_cpu=lambda: rt.cpu_by_component(server.pid)))
    finally:
        server.terminate()
        server.wait(timeout=10)
    if not args.no_floor:
        floors["floor_runs_per_s_after"] = round(floor_per_second(2.0), 1)
        floors["pgbench_tps"] = round(rt.pgbench_tps(2), 1)
        # The per-spectator p95 in floor runs: a figure that compares across machines.
        floors["p95_ms_x_floor"] = round(result["per_spectator_p95_ms"] * floors["floor_runs_per_s_before"] / 1000, 2)
    print(json.dumps({"benchmark": "spectators", "workers": args.workers,
                      "client_gc": "on" if args.client_gc else "off", **result, **floors}))


if __name__ == "__main__":
    main()
