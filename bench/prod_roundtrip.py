"""Moves through `make prod`'s shape: moves/s and submit -> opponent frame (p50/p95)
through nginx with two web processes, against one web process of the same site asked
directly, for the CCG and Cup Quest; pgbench's simple-update TPS in the same run as the
floor (figures from noisy machines compare as ratios).

    .venv/bin/python bench/prod_roundtrip.py --games 20 --seconds 20

The site is bench/prod_shape.py's (grailsite/deploy/prod.py: nginx, web1 and web2, two
workers, beat, production settings) on a database of its own (grailsite_bench_prod, dropped
after) and a private redis-server. "Direct" is web1's own port, the same process nginx sends
half the sockets to; fresh games for each run. Moves go over the games' websockets, flat out,
as bench/move_roundtrip.py --path ws plays them (its player).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import uvloop

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import move_roundtrip  # noqa: E402
import prod_shape  # noqa: E402
from client_gc import collector_off  # noqa: E402

PG = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
DB = "grailsite_bench_prod"


def psql(sql: str) -> None:
    subprocess.run(["psql", f"{PG}/postgres", "-qc", sql], check=True, capture_output=True)


def pgbench_tps(seconds: float) -> float:
    url = f"{PG}/{DB}"
    subprocess.run(["pgbench", "-i", "-q", "-s", "1", url], check=True, capture_output=True)
    out = subprocess.run(["pgbench", "-n", "-b", "simple-update", "-c", "2", "-j", "2", "-T", str(max(1, int(seconds))),
                          url], check=True, capture_output=True, text=True).stdout
    return float(next(ln for ln in out.splitlines() if ln.startswith("tps")).split("=")[1].split()[0])


def measure(env: dict, url: str, kind: str, slots: int, seconds: float, warmup: float) -> dict:
    games = prod_shape.make_games(env, slots * 6, kind)
    with collector_off(keep_on=False):
        result = uvloop.run(move_roundtrip.run(games, url, seconds, None, slots, path="ws", warmup=warmup))
    return {k: result[k] for k in ("moves", "moves_per_s", "p50_ms", "p95_ms", "p99_ms", "errors", "stalled")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20, help="games played at once")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--kinds", default="ccg,cupquest")
    args = parser.parse_args()
    psql(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
    redis_port = prod_shape.free_port()
    redis = subprocess.Popen(["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
                              "--appendonly", "no"], stdout=subprocess.DEVNULL)
    run_dir = Path(tempfile.mkdtemp(prefix="grail-prod-bench-"))
    cfg = None
    rows = []
    try:
        cfg, env = prod_shape.start(run_dir, f"{PG}/{DB}", f"redis://127.0.0.1:{redis_port}/0", prefix="benchprod")
        direct = f"http://127.0.0.1:{cfg.web_ports[0]}"
        for kind in args.kinds.split(","):
            for label, url in (("nginx, 2 web processes", cfg.url), ("1 web process, direct", direct)):
                figures = measure(env, url, kind, args.games, args.seconds, args.warmup)
                rows.append({"kind": kind, "path": label, **figures})
                print(json.dumps(rows[-1]), flush=True)
        tps = pgbench_tps(args.seconds)
    finally:
        if cfg is not None:
            prod_shape.stop(cfg)
        redis.kill()
        psql(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
    print(f"pgbench simple-update (2 clients, {args.seconds:g} s): {tps:.0f} tps")
    print(f"{'kind':9} {'path':24} {'moves/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'/pgbench':>9} errors stalled")
    for r in rows:
        print(f"{r['kind']:9} {r['path']:24} {r['moves_per_s']:8.1f} {r['p50_ms']:8.1f} {r['p95_ms']:8.1f} "
              f"{r['moves_per_s'] / tps:9.4f} {r['errors']:6} {r['stalled']:7}")
    print(json.dumps({"benchmark": "prod_roundtrip", "games": args.games, "seconds": args.seconds,
                      "pgbench_tps": round(tps, 1), "rows": rows, "at": time.strftime("%Y-%m-%d %H:%M")}))


if __name__ == "__main__":
    main()
