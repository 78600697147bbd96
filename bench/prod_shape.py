"""`make prod`'s shape (grailsite/deploy/prod.py) started on free ports with a run folder,
database and Redis prefix of its own, for the tests and the benches that need nginx in front
of two web processes, the clocks' worker, two side workers and beat; and games made in its
database.

    start(...) -> (Config, env)     stop(cfg)     make_games(env, n, kind) -> [game, ...]
    Player: plays games flat out over websockets through nginx, reconnecting and catching up
            when a web process goes away (the rolling restart's client)
    due_deadlines(env, n, first, last) -> [match ids]: games whose deadlines fall due soon

A game is {"match": id, "players": [{"token", "cookie"}, ...], "session_cookie_name"}, as
bench/move_roundtrip.py plays them (its play_game works through nginx unchanged).
"""
from __future__ import annotations

import asyncio
import json
import os
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from grailsite.deploy import prod  # noqa: E402

# One bench player moves far faster than a person, and every bench player comes from one
# address: the floods' guards are not what is measured (as in bench/move_roundtrip.py).
BENCH_LIMITS = {
    "WS_MOVE_BURST": "100000", "WS_MOVES_PER_SECOND": "100000", "RATE_MOVE_USER": "100000/s",
    "RATE_MOVE_IP": "100000/s", "WS_CONNECT_BURST_ADDRESS": "100000", "WS_CONNECTS_PER_SECOND_ADDRESS": "100000",
    "WS_CONNECT_BURST_GAME": "100000", "WS_CONNECTS_PER_SECOND_GAME": "100000", "WS_MESSAGE_BURST": "100000",
    "WS_MESSAGES_PER_SECOND": "100000",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(run_dir: Path, database_url: str, redis_url: str, *, redis_urls: str = "", workers: int = 2,
          webs: int = 2, prefix: str | None = None, extra: dict | None = None) -> tuple[prod.Config, dict]:
    """`make prod` on free ports; returns its Config and the environment its processes get."""
    environ = {k: v for k, v in os.environ.items()
               if k not in ("DATABASE_URL", "REDIS_URL", "REDIS_URLS", "GRAILSITE_TEST_DB", "GRAILSITE_CHANNEL_PREFIX",
                            "DJANGO_SETTINGS_MODULE", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "SITE_URL",
                            "GRAILSITE_PRODUCTION", "SECRET_KEY", "TRUSTED_PROXIES", "MEDIA_ROOT", "LOG_LEVEL")}
    environ.update({
        "SECRET_KEY": secrets.token_urlsafe(50), "PROD_DIR": str(run_dir), "PROD_PORT": str(free_port()),
        "PROD_WEB_PORTS": ",".join(str(free_port()) for _ in range(webs)), "PROD_WORKERS": str(workers),
        "PROD_DATABASE_URL": database_url, "PROD_REDIS_URL": redis_url, "PROD_REDIS_URLS": redis_urls,
        "PROD_PREFIX": prefix or f"prod{time.time_ns() % 10**8}", "MEDIA_ROOT": str(run_dir / "media"),
        "RATELIMIT_ENABLE": "false", **BENCH_LIMITS, **(extra or {}),
    })
    result = subprocess.run([sys.executable, str(prod.DEPLOY / "prod.py"), "start"], cwd=ROOT, env=environ,
                            capture_output=True, text=True, timeout=300)
    cfg = prod.Config(environ)
    if result.returncode != 0:
        stop(cfg)
        raise RuntimeError(f"make prod did not start:\n{result.stdout}\n{result.stderr}")
    return cfg, cfg.app_env()


def stop(cfg: prod.Config) -> None:
    prod.stop(cfg)


def make_games(env: dict, n: int, kind: str = "duel") -> list[dict]:
    """``n`` started two-player games of ``kind`` in the site's database (made by a process on
    its settings), with a token and a session for each player."""
    out = subprocess.run([sys.executable, str(Path(__file__)), "games", str(n), kind], cwd=ROOT,
                         env={**env, "LOG_LEVEL": "WARNING"}, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-3000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def _make_games(n: int, kind: str) -> list[dict]:
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from django.db.models.signals import post_save

    from games.table import services
    from grailsite.accounts.models import Profile

    if kind != "ccg":  # the CCG's decks come from the sign-up grant; the others need none
        post_save.disconnect(sender=settings.AUTH_USER_MODEL, dispatch_uid="decks_starter_grant")
    User = get_user_model()
    tag = f"{time.time_ns() % 10**9}"
    games = []
    for g in range(n):
        pair = []
        for s in range(2):
            user = User.objects.create(username=f"p{tag}_{g}_{s}")
            token = f"t{tag}-{g}-{s}"
            Profile.objects.filter(user=user).update(api_token=token)
            session = SessionStore()
            session.update({"_auth_user_id": str(user.pk),
                            "_auth_user_backend": "django.contrib.auth.backends.ModelBackend",
                            "_auth_user_hash": user.get_session_auth_hash()})
            session.create()
            pair.append((user, token, session.session_key))
        options, choices = {}, [None, None]
        if kind == "duel":
            options = {"rounds": 6}
        elif kind == "ccg":  # each player's first starter deck, no response windows to wait on
            options = {"rules_off": ["response_windows"]}
            choices = [{"deck": u.decks.order_by("pk").first().pk} for u, _, _ in pair]
        match = services.match_create(creator=pair[0][0], kind=kind, num_seats=2, options=options,
                                      invite=[pair[1][0].username], clock_kind="days", clock_amount=3,
                                      creator_choice=choices[0])
        services.match_join(match_id=match.pk, user=pair[1][0], choice=choices[1])
        games.append({"match": match.pk, "players": [{"token": t, "cookie": c} for _, t, c in pair],
                      "session_cookie_name": settings.SESSION_COOKIE_NAME})
    return games


def due_deadlines(env: dict, n: int, first: float, last: float) -> list[int]:
    """``n`` started duels on a one-minute clock whose first deadlines are moved to fall due
    between ``first`` and ``last`` seconds from now, each with its fast-path task sent for
    that moment, as a move would (games/inbox/notify.py): what the worker and beat restarts race."""
    out = subprocess.run([sys.executable, str(Path(__file__)), "deadlines", str(n), str(first), str(last)], cwd=ROOT,
                         env={**env, "LOG_LEVEL": "WARNING"}, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-3000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def _due_deadlines(n: int, first: float, last: float) -> list[int]:
    import django

    django.setup()
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.inbox import notify
    from games.table import services
    from games.models import Seat

    User = get_user_model()
    tag = f"{time.time_ns() % 10**9}"
    now = timezone.now()
    ids = []
    for g in range(n):
        a, b = (User.objects.create(username=f"d{tag}_{g}_{s}") for s in range(2))
        match = services.match_create(creator=a, kind="duel", num_seats=2, options={"rounds": 6}, invite=[b.username],
                                      clock_kind="minutes", clock_amount=1)
        services.match_join(match_id=match.pk, user=b)
        # Both have played: a deadline that falls due is a loss on time, made as the clock's
        # move (before anyone's first move it would abort the game, leaving no move to count).
        Seat.objects.filter(match=match).update(own_moves=1)
        due = now + timedelta(seconds=first + (last - first) * g / max(1, n - 1))
        seats = list(Seat.objects.filter(match=match).exclude(deadline=None))
        Seat.objects.filter(pk__in=[s.pk for s in seats]).update(deadline=due)
        match.refresh_from_db()
        notify._schedule(match.pk, match.version, [(s.index, due) for s in seats])
        ids.append(match.pk)
    return ids


# -- the rolling restart's client ----------------------------------------------------------

class _Seat:
    """One player's socket through nginx; reopened when it closes (a web process restarted)."""

    def __init__(self, game: dict, index: int, url: str):
        self.game, self.index, self.url = game, index, url
        self.ws = self.reader = None
        self.view: dict | None = None
        self.answers: asyncio.Queue = asyncio.Queue()
        self.changed = asyncio.Event()
        self.closed = asyncio.Event()

    async def open(self, stats: dict, reconnect: bool) -> None:
        """Connect (again) and wait for the state the site sends on connect."""
        import websockets

        started = time.perf_counter()
        cookie = f"{self.game['session_cookie_name']}={self.game['players'][self.index]['cookie']}"
        for attempt in range(60):
            try:
                self.ws = await websockets.connect(self.url.replace("http://", "ws://") + f"/ws/matches/{self.game['match']}/",
                                                   origin=self.url, max_size=2 ** 24, open_timeout=10,
                                                   additional_headers={"Cookie": cookie})
                break
            except (OSError, asyncio.TimeoutError, websockets.InvalidStatus, websockets.InvalidHandshake) as exc:
                stats["handshake_failures"] += 1
                stats.setdefault("handshake_errors", []).append(repr(exc)[:100])
                await asyncio.sleep(min(0.1 * 2 ** attempt, 1.0))  # the page's backoff, shortened
        else:
            raise RuntimeError("could not reconnect")
        self.closed.clear()
        self.view = None
        self.reader = asyncio.create_task(self._read())
        await self.until(0)
        if reconnect:
            stats["reconnects"].append(time.perf_counter() - started)

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                msg = json.loads(raw)
                if msg["type"] in ("state", "change"):
                    self.view = msg["data"] if msg["type"] == "state" else {**(self.view or {}), **msg["data"]}
                    self.changed.set()
                elif msg["type"] in ("ack", "refused"):
                    await self.answers.put(msg)
        except Exception:  # noqa: BLE001 - a close of any kind: the player reconnects
            pass
        finally:
            self.closed.set()
            self.changed.set()

    async def until(self, version: int, timeout: float = 20.0) -> bool:
        """Until this seat's view is at ``version``; False if the socket closed first."""
        end = time.monotonic() + timeout
        while self.view is None or self.view["version"] < version:
            if self.closed.is_set():
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), max(0.01, end - time.monotonic()))
            except asyncio.TimeoutError:
                raise RuntimeError(f"seat {self.index} of {self.game['match']} stuck before {version}") from None
        return True

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()


class Player:
    """Plays games two seats at a time, flat out, through ``url``: every acknowledged move is
    recorded by its key; a socket that closes is reopened (its state is sent on connect);
    a move whose answer was lost is sent again with the same key (stored once: the key is
    the site's idempotency key). ``stats``: acknowledged keys, reconnect times, handshake
    failures, games whose seats could not catch up."""

    def __init__(self, url: str):
        self.url = url
        self.stats = {"acked": {}, "reconnects": [], "handshake_failures": 0, "left_behind": 0, "refused": 0,
                      "final": {}}
        self.stopped = False

    async def play(self, game: dict, until: float = float("inf")) -> None:
        seats = [_Seat(game, i, self.url) for i in (0, 1)]
        n = 0
        try:
            for seat in seats:
                await seat.open(self.stats, reconnect=False)
            while time.monotonic() < until and not self.stopped:
                for seat in seats:
                    if seat.closed.is_set():
                        await seat.open(self.stats, reconnect=True)
                mover = next((s for s in seats if s.view["legal_moves"]), None)
                if mover is None:
                    break  # over
                n += 1
                key = f"r{game['match']}-{n}"
                content = {"type": "move", "move": mover.view["legal_moves"][0], "version": mover.view["version"],
                           "key": key}
                answer = await self._submit(mover, content)
                if answer is None:
                    continue  # refused (the game moved on under a reconnect): look again
                self.stats["acked"][(game["match"], key)] = answer["version"]
                for seat in seats:
                    while not await seat.until(answer["version"]):
                        await seat.open(self.stats, reconnect=True)
        except RuntimeError:
            self.stats["left_behind"] += 1
        finally:
            self.stats["final"][game["match"]] = [s.view["version"] if s.view else None for s in seats]
            for seat in seats:
                await seat.close()

    async def slot(self, queue: list[dict]) -> None:
        """One player at a time: the next game of ``queue`` when one ends (a duel is 12 moves)."""
        while queue and not self.stopped:
            await self.play(queue.pop())

    async def _submit(self, seat: _Seat, content: dict) -> dict | None:
        """Send until answered; after a reconnect the same key is sent again."""
        while True:
            while not seat.answers.empty():
                seat.answers.get_nowait()
            try:
                await seat.ws.send(json.dumps(content))
                get = asyncio.create_task(seat.answers.get())
                closed = asyncio.create_task(seat.closed.wait())
                done, _ = await asyncio.wait({get, closed}, timeout=20, return_when=asyncio.FIRST_COMPLETED)
                for task in (get, closed):
                    if task not in done:
                        task.cancel()
                if get in done:
                    answer = get.result()
                    if answer["type"] == "ack":
                        return answer
                    self.stats["refused"] += 1
                    if answer.get("status") in (409, 503):  # stale, or try again: look again
                        return None
                    raise RuntimeError(f"refused: {answer}")
            except Exception as exc:  # noqa: BLE001 - the socket went with its process
                if isinstance(exc, RuntimeError):
                    raise
            await seat.open(self.stats, reconnect=True)


async def poll_pages(url: str, games: list[dict], stop: asyncio.Event, every: float = 0.05) -> dict:
    """A browser's requests through nginx while it runs: the game page and the API, in turn;
    how many answered, and every answer that was an error page (5xx) or no answer at all."""
    import httpx

    out = {"requests": 0, "errors": []}
    async with httpx.AsyncClient(timeout=20) as client:
        i = 0
        while not stop.is_set():
            game = games[i % len(games)]
            player = game["players"][i % 2]
            if i % 2:
                request = client.get(f"{url}/api/matches/{game['match']}/",
                                     headers={"Authorization": f"Token {player['token']}"})
            else:
                request = client.get(f"{url}/games/{game['match']}/",
                                     headers={"Cookie": f"{game['session_cookie_name']}={player['cookie']}"})
            try:
                r = await request
                if r.status_code >= 500:
                    out["errors"].append(f"{r.status_code} {r.request.url.path}")
            except httpx.HTTPError as exc:
                out["errors"].append(repr(exc)[:100])
            out["requests"] += 1
            i += 1
            await asyncio.sleep(every)
    return out


def stored_keys(cfg: prod.Config, match_ids) -> dict[tuple[int, str], int]:
    """(match, key) -> how many stored moves carry it (the site's database)."""
    rows = prod.psql(cfg.database_url, "SELECT match_id, key, count(*) FROM games_moverecord WHERE match_id IN ("
                     + ",".join(str(int(m)) for m in match_ids) + ") GROUP BY match_id, key")
    out = {}
    for line in rows.splitlines():
        match, key, n = line.split("|")
        out[(int(match), key)] = int(n)
    return out


def versions(cfg: prod.Config, match_ids) -> dict[int, int]:
    rows = prod.psql(cfg.database_url, "SELECT id, version FROM games_match WHERE id IN ("
                     + ",".join(str(int(m)) for m in match_ids) + ")")
    return {int(a): int(b) for a, b in (line.split("|") for line in rows.splitlines())}


def p95(values) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * 0.95))] if values else float("nan")


def rolling_restart(cfg: prod.Config, games: list[dict], *, slots: int, before: float = 3.0,
                    after: float = 3.0) -> dict:
    """``slots`` games at a time played flat out over websockets through nginx (each slot
    taking the next of ``games`` when its game ends) while web1, then web2, are restarted
    (each started again and listening before the next goes); figures and checks."""
    import uvloop

    player = Player(cfg.url)

    async def run():
        stop = asyncio.Event()
        poller = asyncio.create_task(poll_pages(cfg.url, games, stop))
        queue = list(reversed(games))
        plays = [asyncio.create_task(player.slot(queue)) for _ in range(slots)]
        await asyncio.sleep(before)
        started = time.monotonic()
        for name in ("web1", "web2"):
            await asyncio.to_thread(prod.restart, cfg, [name])
        restarting = time.monotonic() - started
        await asyncio.sleep(after)
        player.stopped = True
        await asyncio.gather(*plays)
        stop.set()
        return restarting, await poller

    restarting, pages = uvloop.run(run())
    acked = player.stats["acked"]
    played = list(player.stats["final"])
    stored = stored_keys(cfg, played)
    finals = versions(cfg, played)
    behind = sorted(m for m, seen in player.stats["final"].items() if any(v != finals[m] for v in seen))
    return {
        "slots": slots, "games_played": len(played), "restart_seconds": round(restarting, 1),
        "acknowledged": len(acked), "stored": sum(1 for k in acked if stored.get(k) == 1),
        "lost": sum(1 for k in acked if k not in stored), "stored_twice": sum(1 for n in stored.values() if n > 1),
        "reconnects": len(player.stats["reconnects"]),
        "reconnect_p95_ms": round(p95(player.stats["reconnects"]) * 1000, 1),
        "reconnect_max_ms": round(max(player.stats["reconnects"], default=0) * 1000, 1),
        "handshake_failures": player.stats["handshake_failures"], "left_behind": player.stats["left_behind"] + len(behind),
        "page_requests": pages["requests"], "error_pages": len(pages["errors"]), "error_samples": pages["errors"][:5],
    }


# What the timers' restart scenario restarts, in this order.
RESTARTED = ("clocks", "worker1", "beat")


def timer_restarts(cfg: prod.Config, env: dict, n: int, *, first: float = 8.0, last: float = 20.0,
                   settle: float = 15.0) -> dict:
    """``n`` deadlines falling due between ``first`` and ``last`` seconds from now while the
    clocks' worker, worker1 and beat are restarted one after the other across that window;
    then every one must have fired, exactly once, and how late (the site's own histogram).
    The clocks' worker is the one that fires deadlines (the side workers never take the
    clocks' queue), so it is the restart that matters; a side worker's and beat's are there
    because they must not matter."""
    ids = due_deadlines(env, n, first, last)
    created = time.monotonic()
    window = last - first
    for i, name in enumerate(RESTARTED):
        # Each restart begins inside the window of falling deadlines, once the one before
        # serves again (prod.restart waits for it).
        time.sleep(max(0.0, created + first + window * i / len(RESTARTED) - time.monotonic()))
        prod.restart(cfg, [name])
    end = time.monotonic() + last + settle + 60
    query = ("SELECT count(*) FILTER (WHERE by_timeout), count(DISTINCT match_id) FILTER (WHERE by_timeout) "
             "FROM games_moverecord WHERE match_id IN (" + ",".join(map(str, ids)) + ")")
    while time.monotonic() < end:
        fired, games_fired = map(int, prod.psql(cfg.database_url, query).split("|"))
        if games_fired == len(ids):
            break
        time.sleep(0.5)
    time.sleep(2)  # anything fired twice would show now
    # A game's next deadline is a minute after its first fired (a one-minute clock): timeout
    # moves within 30 s of a game's first are its first deadline fired again.
    counts = prod.psql(cfg.database_url, "SELECT r.match_id, count(*) FROM games_moverecord r JOIN (SELECT match_id, "
                       "min(created_at) AS first FROM games_moverecord WHERE by_timeout GROUP BY match_id) f "
                       "ON f.match_id = r.match_id WHERE r.by_timeout AND r.created_at < f.first + interval '30 s' "
                       "AND r.match_id IN (" + ",".join(map(str, ids)) + ") GROUP BY r.match_id")
    once = [int(line.split("|")[1]) for line in counts.splitlines()]
    late = lateness(cfg)
    return {"restarted": list(RESTARTED), "deadlines": len(ids), "fired": len(once),
            "fired_once": sum(1 for c in once if c == 1),
            "fired_twice_or_more": sum(1 for c in once if c > 1), "missed": len(ids) - len(once),
            "timers_fired_metric": late["count"], "lateness_mean_s": late["mean"], "lateness_max_bucket_s": late["max_le"]}


def lateness(cfg: prod.Config) -> dict:
    """The site's deadline lateness histogram, every process of the host added up (/metrics)."""
    import re
    import urllib.request

    text = urllib.request.urlopen(f"{cfg.url}/metrics", timeout=10).read().decode()
    count = float(re.search(r"^grailsite_deadline_lateness_seconds_count (\S+)$", text, re.M).group(1))
    total = float(re.search(r"^grailsite_deadline_lateness_seconds_sum (\S+)$", text, re.M).group(1))
    buckets = [(float(le), float(v)) for le, v in
               re.findall(r'^grailsite_deadline_lateness_seconds_bucket\{le="([^"]+)"\} (\S+)$', text, re.M)]
    max_le = min((le for le, v in buckets if v >= count), default=float("nan"))
    return {"count": int(count), "mean": round(total / count, 2) if count else None, "max_le": max_le}


if __name__ == "__main__":
    if sys.argv[1:2] == ["games"]:
        print(json.dumps(_make_games(int(sys.argv[2]), sys.argv[3])))
    elif sys.argv[1:2] == ["deadlines"]:
        print(json.dumps(_due_deadlines(int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]))))
    else:
        sys.exit(__doc__)
