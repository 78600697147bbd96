"""`make prod`'s shape (grailsite/deploy/prod.py) started on free ports with a run folder,
database and Redis prefix of its own, for the tests and the benches that need nginx in front
of two web processes, two workers and beat; and games made in its database.

    start(...) -> (Config, env)     stop(cfg)     make_games(env, n, kind) -> [game, ...]

A game is {"match": id, "players": [{"token", "cookie"}, ...], "session_cookie_name"}, as
bench/move_roundtrip.py plays them (its play_game works through nginx unchanged).
"""
from __future__ import annotations

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
                            "DJANGO_SETTINGS_MODULE")}
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

    from games import services
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


if __name__ == "__main__":
    if sys.argv[1:2] == ["games"]:
        print(json.dumps(_make_games(int(sys.argv[2]), sys.argv[3])))
    else:
        sys.exit(__doc__)
