"""Bots' streams: what 200 idle game streams cost the server, how soon a move reaches the
other bot's stream compared with the other player's page (its websocket frame), and the
server's CPU per streamed change.

    .venv/bin/python bench/bot_streams.py --idle 200 --games 40 --interval 0.25

Three phases on one uvicorn worker (the production server), on its own database
(``grailsite_bench_bots``, made and dropped here) and Redis:

1. idle: the server's CPU for ``--seconds`` with no stream open, then with ``--idle`` game
   streams open (each on its own game, keep-alives every 5 s as in production);
2. pages only: ``--games`` two-player games played over HTTP, each seat watching through a
   page's websocket; the latency from a move's POST to the other seat's frame;
3. pages and bots: as 2 on as many fresh games, each seat also following its bot stream; the
   latency of the other seat's stream line beside that of its frame, for the same moves.

CPU per streamed change: moves made in the bench's own process (as on another web process)
in each of the idle streams' games, so the server under test only forwards them; its CPU
per line, then the same with one page's websocket per game instead of the stream.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("BENCH_DB", "grailsite_bench_bots")
import move_roundtrip as rt  # noqa: E402  (database, server and CPU helpers)

STALL = 15.0


def pct(values, q):
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 2)


async def _lines(response, queue):
    try:
        async for line in response.aiter_lines():
            at = time.perf_counter()
            if line.strip():
                await queue.put((at, orjson.loads(line)))
    except Exception:  # the stream ended with the run
        pass


async def open_stream(client, base, match_id, token):
    """A game stream: (its reader task, its queue of (arrival, line), the context to close)."""
    ctx = client.stream("GET", f"{base}/api/stream/games/{match_id}/", headers={"Authorization": f"Token {token}"},
                        timeout=None)
    response = await ctx.__aenter__()
    assert response.status_code == 200, response.status_code
    queue = asyncio.Queue()
    task = asyncio.create_task(_lines(response, queue))
    return task, queue, ctx


async def _ws_reader(ws, queue):
    try:
        async for raw in ws:
            at = time.perf_counter()
            await queue.put((at, orjson.loads(raw)))
    except Exception:
        pass


async def until_version(queue, version, *, stream: bool):
    """(arrival, data) of the first message at ``version`` or later."""
    async def wanted():
        while True:
            at, msg = await queue.get()
            if stream:
                if msg["type"] in ("gameFull", "gameState") and msg["version"] >= version:
                    return at, msg
            elif msg["type"] in ("state", "change") and msg["data"]["version"] >= version:
                return at, msg["data"]
    return await asyncio.wait_for(wanted(), STALL)


async def play(game, base, client, *, streams: bool, interval: float, seconds: float, out: dict,
               barrier: asyncio.Barrier):
    import httpx
    import websockets

    ws_base = base.replace("http://", "ws://")
    cookie = game["session_cookie_name"]
    sockets, wsq, data = [], [], []
    for p in game["players"]:
        ws = await websockets.connect(f"{ws_base}/ws/matches/{game['match']}/", origin=base, max_size=2 ** 24,
                                      additional_headers={"Cookie": f"{cookie}={p['cookie']}"})
        q = asyncio.Queue()
        asyncio.create_task(_ws_reader(ws, q))
        sockets.append(ws)
        wsq.append(q)
        data.append((await until_version(q, 0, stream=False))[1])
    opened = []
    if streams:
        for p in game["players"]:
            task, q, ctx = await open_stream(client, base, game["match"], p["token"])
            await until_version(q, 0, stream=True)
            opened.append((task, q, ctx))
    await barrier.wait()  # every game connected: the measured part starts
    deadline = time.perf_counter() + seconds
    try:
        while time.perf_counter() < deadline:
            movers = [i for i in (0, 1) if data[i]["legal_moves"] and data[i]["status"] == "active"]
            if not movers:
                break
            mover = movers[0]
            await asyncio.sleep(interval)
            sent = time.perf_counter()
            body = {"move": data[mover]["legal_moves"][0], "version": data[mover]["version"], "key": uuid.uuid4().hex}
            for attempt in range(3):
                try:
                    answer = await client.post(f"{base}/api/matches/{game['match']}/moves/", json=body,
                                               headers={"Authorization": f"Token {game['players'][mover]['token']}"})
                    break
                except (httpx.ReadError, httpx.RemoteProtocolError):
                    # A pooled connection the server closed as idle: sent again with its key, made once.
                    if attempt == 2:
                        raise
            if answer.status_code != 200:
                out["refused"] += 1
                break
            version = answer.json()["version"]
            other = 1 - mover
            for seat in (0, 1):
                at, frame = await until_version(wsq[seat], version, stream=False)
                data[seat] = {**data[seat], **frame}
                if seat == other:
                    out["ws"].append(at - sent)
            if streams:
                for seat in (0, 1):
                    at, _line = await until_version(opened[seat][1], version, stream=True)
                    if seat == other:
                        out["stream"].append(at - sent)
            out["moves"] += 1
    finally:
        for ws in sockets:
            await ws.close()
        for task, _q, ctx in opened:
            task.cancel()
            await ctx.__aexit__(None, None, None)


async def phase(games, base, client, server_cpu, *, streams: bool, interval: float, seconds: float) -> dict:
    out = {"ws": [], "stream": [], "moves": 0, "refused": 0}
    barrier = asyncio.Barrier(len(games) + 1)
    players = asyncio.gather(*(play(g, base, client, streams=streams, interval=interval, seconds=seconds, out=out,
                                    barrier=barrier) for g in games))
    await barrier.wait()
    before = server_cpu()
    await players
    after = server_cpu()
    moves = max(out["moves"], 1)
    return {"moves": out["moves"], "refused": out["refused"],
            "server_cpu_ms_per_move": round((after["server"] - before["server"]) * 1000 / moves, 3),
            "ws_p50_ms": pct(out["ws"], 0.5), "ws_p95_ms": pct(out["ws"], 0.95),
            "stream_p50_ms": pct(out["stream"], 0.5), "stream_p95_ms": pct(out["stream"], 0.95)}


def _moves_in_process(match_ids, rounds: int) -> int:
    """``rounds`` moves in each game, made here through the table's service (as a move on
    another web process would be): the server under test only forwards what is published."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    from games import registry
    from games.models import Match, Seat
    from games.table import services

    users = {u.pk: u for u in get_user_model().objects.filter(seats__match_id__in=match_ids).distinct()}
    made = 0
    try:
        for _ in range(rounds):
            for match_id in match_ids:
                match = Match.objects.get(pk=match_id)
                game = registry.get(match.kind)
                pending = game.pending(match.state)
                if match.status != "active" or not pending:
                    continue
                seat = pending[0].seat
                user = users[Seat.objects.get(match_id=match_id, index=seat).user_id]
                services.move_submit(match_id=match_id, user=user, move=game.legal_moves(match.state, seat)[0],
                                     version=match.version)
                made += 1
    finally:
        connection.close()
    return made


async def fan_out(queues, match_ids, server_cpu, *, stream: bool, rounds: int) -> dict:
    """Moves made in this process in every game; the server's CPU until each observer has had
    its lines (one a change), per line forwarded."""
    before = server_cpu()
    loop = asyncio.get_running_loop()
    made = await loop.run_in_executor(None, _moves_in_process, match_ids, rounds)
    from games.models import Match
    versions = dict(await loop.run_in_executor(None, lambda: list(
        Match.objects.filter(pk__in=match_ids).values_list("pk", "version"))))
    for match_id, queue in zip(match_ids, queues):
        await until_version(queue, versions[match_id], stream=stream)
    after = server_cpu()
    return {"changes": made, "server_cpu_ms_per_line": round((after["server"] - before["server"]) * 1000 / max(made, 1), 3)}


async def run(games, base, server_cpu, args) -> dict:
    import httpx

    idle_games, page_games, bot_games = (games[:args.idle], games[args.idle:args.idle + args.games],
                                         games[args.idle + args.games:])
    limits = httpx.Limits(max_connections=args.idle + 4 * args.games + 50)
    async with httpx.AsyncClient(limits=limits, timeout=30) as client:
        await asyncio.sleep(1)
        before = server_cpu()["server"]
        await asyncio.sleep(args.seconds)
        quiet = server_cpu()["server"] - before
        idle = []
        for g in idle_games:  # seat 2's stream of each game
            task, q, ctx = await open_stream(client, base, g["match"], g["players"][1]["token"])
            idle.append((task, q, ctx))
        for _task, q, _ctx in idle:
            await until_version(q, 0, stream=True)
        await asyncio.sleep(1)
        before = server_cpu()["server"]
        await asyncio.sleep(args.seconds)
        with_streams = server_cpu()["server"] - before
        result = {"idle_streams": len(idle), "idle_seconds": args.seconds,
                  "server_cpu_pct_no_streams": round(quiet * 100 / args.seconds, 3),
                  "server_cpu_pct_idle_streams": round(with_streams * 100 / args.seconds, 3),
                  "server_cpu_ms_per_idle_stream_per_minute": round((with_streams - quiet) * 1000 * 60
                                                                    / args.seconds / max(len(idle), 1), 4)}
        print(json.dumps({"idle": result}), flush=True)
        # Fan-out alone: moves made in this process, each forwarded by the server to one
        # listener of its game: one page's websocket, then (reopened) the bot streams. Pages
        # first, so neither figure carries the other's warm-up.
        ids = [g["match"] for g in idle_games]
        for task, _q, ctx in idle:
            task.cancel()
            await ctx.__aexit__(None, None, None)
        idle = []
        import websockets
        sockets, ws_queues = [], []
        for g in idle_games:
            player = g["players"][1]
            ws = await websockets.connect(f"{base.replace('http://', 'ws://')}/ws/matches/{g['match']}/", origin=base,
                                          additional_headers={"Cookie": f"{g['session_cookie_name']}={player['cookie']}"})
            q = asyncio.Queue()
            asyncio.create_task(_ws_reader(ws, q))
            await until_version(q, 0, stream=False)
            sockets.append(ws)
            ws_queues.append(q)
        await asyncio.sleep(1)
        result["fan_out_websockets"] = await fan_out(ws_queues, ids, server_cpu, stream=False, rounds=3)
        for ws in sockets:
            await ws.close()
        for g in idle_games:
            idle.append(await open_stream(client, base, g["match"], g["players"][1]["token"]))
        for _task, q, _ctx in idle:
            await until_version(q, 0, stream=True)
        await asyncio.sleep(1)
        result["fan_out_streams"] = await fan_out([q for _t, q, _c in idle], ids, server_cpu, stream=True, rounds=3)
        print(json.dumps({"fan_out": [result["fan_out_streams"], result["fan_out_websockets"]]}), flush=True)
        pages = await phase(page_games, base, client, server_cpu, streams=False, interval=args.interval,
                            seconds=args.play_seconds)
        bots = await phase(bot_games, base, client, server_cpu, streams=True, interval=args.interval,
                           seconds=args.play_seconds)
        for task, _q, ctx in idle:
            task.cancel()
            await ctx.__aexit__(None, None, None)
    result["pages_only"] = pages
    result["pages_and_bots"] = bots
    result["server_cpu_ms_per_streamed_change"] = result["fan_out_streams"]["server_cpu_ms_per_line"]
    result["server_cpu_ms_per_websocket_frame"] = result["fan_out_websockets"]["server_cpu_ms_per_line"]
    result["stream_p95_minus_ws_p95_ms"] = (round(bots["stream_p95_ms"] - bots["ws_p95_ms"], 2)
                                            if bots["stream_p95_ms"] is not None else None)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--idle", type=int, default=200, help="idle game streams")
    parser.add_argument("--games", type=int, default=40, help="games played in each of phases 2 and 3")
    parser.add_argument("--interval", type=float, default=0.25, help="seconds between a game's moves")
    parser.add_argument("--seconds", type=float, default=20, help="each idle measurement")
    parser.add_argument("--play-seconds", type=float, default=30, help="longest each playing phase lasts")
    args = parser.parse_args()
    games = rt.prepare_database(args.idle + 2 * args.games, 6)
    port = rt.free_port()
    server = rt.start_server(port, 1)
    try:
        import uvloop
        result = uvloop.run(run(games, f"http://127.0.0.1:{port}", lambda: rt.cpu_by_component(server.pid), args))
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(json.dumps({"benchmark": "bot_streams", **result}))


if __name__ == "__main__":
    main()
