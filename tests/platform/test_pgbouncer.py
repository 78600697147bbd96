"""PostgreSQL behind PgBouncer in transaction mode (docs/deploy.md): a web process
with production's pools (the synchronous pool of Django's backend and the event loop's own,
games/live/aiodb.py) makes moves over HTTP (the synchronous path) and over websockets (the
batched path on the loop) through Debian's PgBouncer, with server-side prepared statements
off (DB_PREPARE_THRESHOLD=-1: PgBouncer before 1.21 cannot keep them across transactions)."""
from __future__ import annotations

import asyncio
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from django.conf import settings

from games.models import Match, MoveRecord
from games.table.replay import replay_check
from grailsite.accounts.models import Profile
from tests.browser_fixtures import _database_url, _free_port, wait_listening
from tests.platform.wsclient import session_cookie

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
import move_roundtrip  # noqa: E402
from prod_shape import BENCH_LIMITS  # noqa: E402

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True),
              pytest.mark.skipif(not Path("/usr/sbin/pgbouncer").exists(),
                                 reason="Debian's pgbouncer: make test installs it (grailsite/deploy/ensure_packages.sh)")]


@pytest.fixture
def bouncer():
    """PgBouncer in transaction mode in front of this machine's PostgreSQL, on a free port.
    It will not run as root: as root it drops to the postgres user, who must read its files."""
    folder = Path(tempfile.mkdtemp(prefix="grail-pgbouncer-"))
    folder.chmod(0o755)
    port = _free_port()
    db = settings.DATABASES["default"]
    (folder / "users.txt").write_text(f'"{db.get("USER") or "postgres"}" ""\n')
    (folder / "pgbouncer.ini").write_text(f"""[databases]
* = host={db.get('HOST') or '127.0.0.1'} port={db.get('PORT') or 5432}
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {port}
unix_socket_dir =
auth_type = trust
auth_file = {folder}/users.txt
pool_mode = transaction
default_pool_size = 12
max_client_conn = 200
ignore_startup_parameters = extra_float_digits,options
logfile = {folder}/pgbouncer.log
pidfile = {folder}/pgbouncer.pid
""")
    command = ["pgbouncer", str(folder / "pgbouncer.ini")]
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        for path in folder.iterdir():
            os.chown(path, user.pw_uid, user.pw_gid)
        os.chown(folder, user.pw_uid, user.pw_gid)
        command[1:1] = ["-u", "postgres"]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    wait_listening(port, proc, folder / "pgbouncer.log")
    yield port
    proc.terminate()
    proc.wait(timeout=10)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def web_through_bouncer(bouncer, tmp_path):
    url = _database_url().replace(f":{settings.DATABASES['default'].get('PORT') or 5432}/", f":{bouncer}/")
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != "GRAILSITE_TEST_DB"}
    env.update(DATABASE_URL=url, DB_POOL="1", DB_POOL_MAX="4", DB_ASYNC_POOL_MAX="4", DB_PREPARE_THRESHOLD="-1",
               DJANGO_SETTINGS_MODULE="tests.live_settings", GRAILSITE_CHANNEL_PREFIX=settings.CHANNEL_PREFIX,
               ALLOWED_HOSTS="127.0.0.1", LOG_LEVEL="WARNING", HOST="127.0.0.1", PORT=str(port),
               PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}", **BENCH_LIMITS)
    log = tmp_path / "web.log"
    proc = subprocess.Popen([str(ROOT / "grailsite/deploy/web.sh")], cwd=ROOT, env=env, stdout=log.open("w"),
                            stderr=subprocess.STDOUT)
    wait_listening(port, proc, log)
    yield f"http://127.0.0.1:{port}", log
    proc.terminate()
    proc.wait(timeout=30)


def test_moves_over_http_and_websockets_through_pgbouncer_in_transaction_mode(web_through_bouncer, make_match):
    base, log = web_through_bouncer
    games = []
    for n in range(8):
        match, users = make_match("duel", options={"rounds": 6})
        tokens = []
        for i, user in enumerate(users):
            Profile.objects.filter(user=user).update(api_token=f"bouncer-{n}-{i}")
            tokens.append(f"bouncer-{n}-{i}")
        games.append({"match": match.pk, "session_cookie_name": "sessionid",
                      "players": [{"token": t, "cookie": session_cookie(u)} for t, u in zip(tokens, users)]})
    counts = {}

    async def play(path: str, some: list):
        import httpx

        counts[path] = {"moves": 0, "errors": 0, "stalled": 0, "refusals": {}, "measured_from": 0.0, "types": [],
                        "stamps": []}
        async with httpx.AsyncClient(timeout=30) as client:
            deadline = time.monotonic() + 60
            await asyncio.gather(*(move_roundtrip.play_game(g, base, client, deadline, move_roundtrip.Pace(0, 0), [],
                                                            counts[path], path=path) for g in some))

    async def both():
        await asyncio.gather(play("http", games[:4]), play("ws", games[4:]))
    asyncio.run(both())
    for path in ("http", "ws"):
        assert counts[path]["errors"] == 0 and counts[path]["stalled"] == 0, (path, counts[path], log.read_text()[-2000:])
    # Every game played to its end, every move stored once, every game replays.
    ids = [g["match"] for g in games]
    assert Match.objects.filter(pk__in=ids, status=Match.Status.FINISHED).count() == len(ids)
    assert MoveRecord.objects.filter(match_id__in=ids).count() == counts["http"]["moves"] + counts["ws"]["moves"]
    for match in Match.objects.filter(pk__in=ids):
        assert replay_check(match) is None
    # The batched path ran as batches (no fallback to one by one), with nothing prepared.
    assert "prepared statement" not in log.read_text() and "one by one" not in log.read_text()
