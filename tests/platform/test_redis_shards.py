"""The channel layer on two Redis shards: with REDIS_URLS naming two servers,
channels_redis hashes each group onto one of them and the site publishes each frame on the
same one (games/live/publisher.py). Two web processes on both shards, 50 games whose two seats
sit on different processes: every seat receives every frame, in order."""
from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest
import redis
import websockets
from django.conf import settings

from games.live import publisher
from tests.browser_fixtures import _database_url, _free_port, wait_listening
from tests.platform.wsclient import session_cookie

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from prod_shape import BENCH_LIMITS  # noqa: E402

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True),
              pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server")]

GAMES = 50
MOVES = 4  # per game


@pytest.fixture
def second_redis(tmp_path):
    port = _free_port()
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no"], stdout=subprocess.DEVNULL)
    wait_listening(port, proc, tmp_path / "none")
    yield f"redis://127.0.0.1:{port}/0"
    proc.kill()
    proc.wait()


@pytest.fixture
def two_web_processes(second_redis, tmp_path):
    """grailsite/deploy/web.sh twice, on the test database, the layer on both shards."""
    shards = f"{settings.REDIS_URL},{second_redis}"
    prefix = f"{settings.CHANNEL_PREFIX}-shards-{time.time_ns() % 10**8}"
    env = {k: v for k, v in os.environ.items() if k not in ("GRAILSITE_TEST_DB",)}
    env.update(DATABASE_URL=_database_url(), REDIS_URL=settings.REDIS_URL, REDIS_URLS=shards,
               GRAILSITE_CHANNEL_PREFIX=prefix, DJANGO_SETTINGS_MODULE="tests.live_settings",
               ALLOWED_HOSTS="127.0.0.1", LOG_LEVEL="WARNING", HOST="127.0.0.1",
               PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}", **BENCH_LIMITS)
    procs, ports = [], []
    for i in range(2):
        port = _free_port()
        log = tmp_path / f"web{i}.log"
        procs.append(subprocess.Popen([str(ROOT / "grailsite/deploy/web.sh")], cwd=ROOT, env={**env, "PORT": str(port)},
                                      stdout=log.open("w"), stderr=subprocess.STDOUT))
        ports.append(port)
        wait_listening(port, procs[-1], log)
    yield ports, shards.split(","), prefix
    for proc in procs:
        proc.terminate()
    for proc in procs:
        proc.wait(timeout=30)


class Seat:
    """One player's socket: every frame it received (version, prev, type), its latest view."""

    def __init__(self, ws):
        self.ws, self.frames, self.view, self.acks = ws, [], None, asyncio.Queue()
        self.changed = asyncio.Event()

    async def read(self):
        async for raw in self.ws:
            msg = orjson.loads(raw)
            if msg["type"] in ("state", "change"):
                data = msg["data"]
                self.frames.append((data["version"], data.get("prev"), msg["type"]))
                self.view = data if msg["type"] == "state" else {**self.view, **data}
                self.changed.set()
            elif msg["type"] in ("ack", "refused"):
                await self.acks.put(msg)

    async def until(self, version: int, timeout: float = 20):
        end = time.monotonic() + timeout
        while self.view is None or self.view["version"] < version:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), max(0.01, end - time.monotonic()))


async def play(game: dict, ports: list[int]) -> list[Seat]:
    """The game's two seats on different web processes (which one first alternates), MOVES moves."""
    seats = []
    for i, cookie in enumerate(game["cookies"]):
        port = ports[(game["n"] + i) % 2]
        ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/matches/{game['match']}/",
                                      origin=f"http://127.0.0.1:{port}", max_size=2 ** 24,
                                      additional_headers={"Cookie": f"sessionid={cookie}"})
        seats.append(Seat(ws))
    readers = [asyncio.create_task(s.read()) for s in seats]
    try:
        for s in seats:
            await s.until(0)
        for n in range(MOVES):
            mover = next(i for i, s in enumerate(seats) if s.view["legal_moves"])
            view = seats[mover].view
            await seats[mover].ws.send(orjson.dumps({"type": "move", "move": view["legal_moves"][0],
                                                     "version": view["version"], "key": f"s{game['match']}-{n}"}).decode())
            answer = await asyncio.wait_for(seats[mover].acks.get(), 20)
            assert answer["type"] == "ack", answer
            for s in seats:
                await s.until(answer["version"])
    finally:
        for s in seats:
            await s.ws.close()
        for task in readers:
            task.cancel()
    return seats


def test_every_seat_of_50_games_gets_every_frame_in_order_over_two_shards(two_web_processes, make_match):
    ports, shards, prefix = two_web_processes
    games = []
    for n in range(GAMES):
        match, users = make_match("duel", options={"rounds": 6})
        games.append({"n": n, "match": match.pk, "cookies": [session_cookie(u) for u in users]})

    async def everyone():
        return await asyncio.gather(*(play(g, ports) for g in games))
    results = asyncio.run(everyone())

    from games.models import Match

    finals = dict(Match.objects.filter(pk__in=[g["match"] for g in games]).values_list("pk", "version"))
    for game, seats in zip(games, results):
        for seat in seats:
            versions = [v for v, _prev, _type in seat.frames]
            # The first frame is the whole state; then one frame a version, none missed, none twice.
            assert versions == list(range(versions[0], finals[game["match"]] + 1)), (game["match"], seat.frames)
            assert len(versions) == MOVES + 1
            for (v, prev, kind), before in zip(seat.frames[1:], versions):
                assert kind == "state" or prev == before, (game["match"], seat.frames)
    # Both shards carried frames: the seats' groups hash onto both servers, and the second
    # server (this test's own) saw subscriptions and publishes.
    from channels_redis.utils import _consistent_hash

    from games.live.frames import group_for

    channels = [publisher.group_channel(group_for(g["match"], s)) for g in games for s in (0, 1)]
    assert {_consistent_hash(c, 2) for c in channels} == {0, 1}
    stats = redis.Redis.from_url(shards[1]).info("commandstats")
    assert stats["cmdstat_publish"]["calls"] >= MOVES * 5 and stats["cmdstat_subscribe"]["calls"] >= GAMES
