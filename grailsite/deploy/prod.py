"""`make prod`: the production shape of docker-compose.yml as ordinary processes on this
machine, under supervisord: Debian's nginx in front of two web processes (uvicorn), a Celery
worker for the clocks' lane, two for the side lane and one beat, on the PostgreSQL and Redis
its configuration names (started when they are on this machine and down; see
``ensure_services``).

It runs what compose runs: the same scripts (web.sh, worker.sh, beat.sh beside this file),
the same application environment (app.env, compose's env_file), and the same nginx site
(nginx.conf.template, rendered here as the nginx image renders it for compose). Only the
addresses differ: loopback ports instead of containers.

    python grailsite/deploy/prod.py start     # migrate, replay ratings, collect static, start, wait until ready
    python grailsite/deploy/prod.py stop
    python grailsite/deploy/prod.py status
    python grailsite/deploy/prod.py restart web1 [web2 ...]   # one after the other, each ready

The secret is the operator's, as in compose: SECRET_KEY must be set (the settings refuse to
start without it, and without ALLOWED_HOSTS and CSRF_TRUSTED_ORIGINS, given here for the
local URL). Everything else has a default, overridable from the environment:

    PROD_DIR          run folder: configs, logs, pids, metrics (default: .prod in the repo)
    PROD_PORT         nginx's port (8080)          PROD_WEB_PORTS   the web processes' (8001,8002)
    PROD_WORKERS      Celery workers of the side lane (2); the clocks' lane has one of its own
    PROD_DATABASE_URL (postgres://postgres@127.0.0.1:5432/grailsite_prod; created if missing)
    PROD_REDIS_URL    (redis://127.0.0.1:6379/0)   PROD_REDIS_URLS  channel-layer shards (none)
    PROD_PREFIX       Redis key and queue prefix (grailprod)
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

DEPLOY = Path(__file__).resolve().parent
ROOT = DEPLOY.parents[1]
VENV_BIN = Path(sys.executable).parent


def read_env_file(path: Path) -> dict[str, str]:
    """KEY=VALUE lines as compose's env_file reads them (comments and blank lines skipped)."""
    env = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            env[key.strip()] = value.strip()
    return env


def render(template: str, values: dict[str, str]) -> str:
    """The template with its ${GRAIL_*} names replaced, as the nginx image's envsubst does
    (only the names given: nginx's own $variables are left alone)."""
    def one(m):
        name = m.group(1)
        if name not in values:
            raise KeyError(f"{name} is not given")
        return values[name]
    return re.sub(r"\$\{(GRAIL_[A-Z_]+)\}", one, template)


class Config:
    """Where everything goes, from the environment (see the module's text)."""

    def __init__(self, environ: dict[str, str] | None = None):
        e = dict(os.environ if environ is None else environ)
        self.environ = e
        self.run = Path(e.get("PROD_DIR", ROOT / ".prod")).resolve()
        self.port = int(e.get("PROD_PORT", "8080"))
        self.web_ports = [int(p) for p in e.get("PROD_WEB_PORTS", "8001,8002").split(",")]
        self.workers = int(e.get("PROD_WORKERS", "2"))
        self.database_url = e.get("PROD_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/grailsite_prod")
        self.redis_url = e.get("PROD_REDIS_URL", "redis://127.0.0.1:6379/0")
        self.redis_urls = e.get("PROD_REDIS_URLS", "")
        self.prefix = e.get("PROD_PREFIX", "grailprod")
        self.url = f"http://127.0.0.1:{self.port}"

    @property
    def supervisor_conf(self) -> Path:
        return self.run / "supervisord.conf"

    def app_env(self) -> dict[str, str]:
        """The environment every process gets: this one, app.env, then this machine's
        addresses (compose's `environment:` block, for loopback)."""
        keep = {k: v for k, v in self.environ.items()
                if not k.startswith(("GRAILSITE_TEST", "PROD_", "DJANGO_SETTINGS", "PYTEST"))}
        env = {**keep, **read_env_file(DEPLOY / "app.env")}
        local = {
            "DATABASE_URL": self.database_url, "REDIS_URL": self.redis_url,
            "GRAILSITE_CHANNEL_PREFIX": self.prefix,
            "ALLOWED_HOSTS": self.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost"),
            "CSRF_TRUSTED_ORIGINS": self.environ.get(
                "CSRF_TRUSTED_ORIGINS", f"http://127.0.0.1:{self.port},http://localhost:{self.port}"),
            "SITE_URL": self.environ.get("SITE_URL", self.url),
            # Plain http on loopback; behind TLS set GRAILSITE_HTTPS=true as compose does.
            "GRAILSITE_HTTPS": self.environ.get("GRAILSITE_HTTPS", "false"),
            # nginx is on this host: its X-Forwarded-For is believed, nobody else's.
            "TRUSTED_PROXIES": self.environ.get("TRUSTED_PROXIES", "127.0.0.1,::1"),
            "MEDIA_ROOT": self.environ.get("MEDIA_ROOT", str(ROOT / "media")),
            # Every process of the host writes its metrics here; /metrics adds them up.
            "PROMETHEUS_MULTIPROC_DIR": str(self.run / "metrics"),
            "BEAT_SCHEDULE": str(self.run / "celerybeat-schedule"),
            "PATH": f"{VENV_BIN}:{self.environ.get('PATH', '/usr/bin:/bin')}",
            "DJANGO_SETTINGS_MODULE": "grailsite.settings",
        }
        if self.redis_urls:
            local["REDIS_URLS"] = self.redis_urls
        env.update(local)
        return env


# -- rendering ------------------------------------------------------------------------------

# nginx never counts a web process out (max_fails=0): a connect to one that is restarting is
# refused at once and the request goes to the next (proxy_next_upstream). Counting them out
# (max_fails=1) left nginx with none for a moment when the second went down before it had
# taken the first back: 502s and slow reconnects in the rolling restart (docs/reliability.md).
# The price: a process that hangs without refusing costs each request proxy_connect_timeout.
UPSTREAM_PARAMS = "max_fails=0"


def nginx_site(cfg: Config, env: dict[str, str]) -> str:
    servers = " ".join(f"server 127.0.0.1:{p} {UPSTREAM_PARAMS};" for p in cfg.web_ports)
    return render((DEPLOY / "nginx.conf.template").read_text(), {
        "GRAIL_RESOLVER": "# (fixed loopback upstreams: no resolver)",
        "GRAIL_UPSTREAM_SERVERS": servers,
        "GRAIL_LISTEN": f"127.0.0.1:{cfg.port}",
        "GRAIL_ACCESS_LOG": str(cfg.run / "logs" / "nginx-access.log"),
        "GRAIL_MEDIA_ROOT": env["MEDIA_ROOT"].rstrip("/"),
    })


def nginx_main(cfg: Config) -> str:
    return render((DEPLOY / "nginx-main.conf.template").read_text(), {
        # As root, nginx's workers would drop to "nobody", who may not read the media
        # folder: they stay the user who started it (nothing here needs root).
        "GRAIL_USER": "user root;" if os.geteuid() == 0 else "",
        "GRAIL_RUN": str(cfg.run),
        "GRAIL_MIME_TYPES": "/etc/nginx/mime.types",
    })


def supervisord_conf(cfg: Config) -> str:
    """One program a process, each with the script compose runs; supervisord restarts any
    that exits (compose's `restart: unless-stopped`)."""
    logs = cfg.run / "logs"
    common = ("autorestart=true\nstartsecs=2\nstopasgroup=true\nkillasgroup=true\n"
              f"directory={ROOT}\nredirect_stderr=true\nstdout_logfile_maxbytes=20MB\n")
    parts = [f"""[supervisord]
logfile={logs}/supervisord.log
pidfile={cfg.run}/supervisord.pid
childlogdir={logs}
nodaemon=false

[unix_http_server]
file={cfg.run}/supervisor.sock

[rpcinterface:supervisor]
supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface

[supervisorctl]
serverurl=unix://{cfg.run}/supervisor.sock
"""]
    for i, port in enumerate(cfg.web_ports, 1):
        parts.append(f"[program:web{i}]\ncommand={DEPLOY}/web.sh\nenvironment=HOST=\"127.0.0.1\",PORT=\"{port}\"\n"
                     f"stdout_logfile={logs}/web{i}.log\nstopwaitsecs=30\n{common}")
    # The clocks' lane has a worker of its own, which nothing else uses (settings.LANE_QUEUES);
    # the side lane's workers take pushes, reminders and e-mail.
    parts.append(f"[program:clocks]\ncommand={DEPLOY}/worker.sh\nenvironment=WORKER_NAME=\"clocks\",WORKER_LANES=\"clocks\"\n"
                 f"stdout_logfile={logs}/clocks.log\nstopwaitsecs=30\n{common}")
    for i in range(1, cfg.workers + 1):
        parts.append(f"[program:worker{i}]\ncommand={DEPLOY}/worker.sh\nenvironment=WORKER_NAME=\"worker{i}\",WORKER_LANES=\"side\"\n"
                     f"stdout_logfile={logs}/worker{i}.log\nstopwaitsecs=30\n{common}")
    # Beat leaves at once on SIGINT; on SIGTERM it sat until supervisord killed it 10 s later.
    parts.append(f"[program:beat]\ncommand={DEPLOY}/beat.sh\nstdout_logfile={logs}/beat.log\nstopsignal=INT\n"
                 f"stopwaitsecs=10\n{common}")
    parts.append(f"[program:nginx]\ncommand=/usr/sbin/nginx -p {cfg.run}/nginx -c {cfg.run}/nginx.conf "
                 f"-g \"daemon off;\"\nstdout_logfile={logs}/nginx.log\nstopsignal=QUIT\nstopwaitsecs=10\n{common}")
    return "\n".join(parts)


# -- the services it runs on ------------------------------------------------------------------

LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", ""}


def redis_up(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2).ping())
    except (redis.RedisError, OSError, ValueError):
        return False


def start_local_redis(cfg: Config, port: int) -> None:
    """A Redis of this site's own on a port of this machine (its data in the run folder,
    append-only as compose's)."""
    data = cfg.run / f"redis-{port}"
    data.mkdir(parents=True, exist_ok=True)
    (cfg.run / "logs").mkdir(parents=True, exist_ok=True)
    subprocess.run(["redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "--port", str(port),
                    "--appendonly", "yes", "--dir", str(data), "--logfile", str(cfg.run / "logs" / f"redis-{port}.log"),
                    "--pidfile", str(data / "redis.pid")], check=True)


def ensure_redis(cfg: Config, url: str, wait: float = 15.0) -> None:
    """The Redis ``url`` names answers: if not, and it is on this machine, it is started on
    the port it names; one elsewhere is the operator's to start."""
    from urllib.parse import urlsplit

    if redis_up(url):
        return
    parts = urlsplit(url)
    host, port = parts.hostname or "", parts.port or 6379
    if host not in LOCAL_HOSTS:
        sys.exit(f"make prod: the Redis of PROD_REDIS_URL(S) does not answer: {host}:{port}")
    print(f"make prod: the Redis on port {port} is down; starting it", flush=True)
    start_local_redis(cfg, port)
    end = time.monotonic() + wait
    while not redis_up(url):
        if time.monotonic() > end:
            sys.exit(f"make prod: started a Redis on port {port}, and it does not answer")
        time.sleep(0.2)


def ensure_postgres(url: str) -> None:
    """The PostgreSQL ``url`` names answers; this machine's cluster is started if it is the
    one named and is down (as tests/ensure_services.sh does), any other is the operator's."""
    from urllib.parse import urlsplit

    server = url.rsplit("/", 1)[0] + "/postgres"
    if subprocess.run(["pg_isready", "-q", "-t", "3", "-d", server]).returncode == 0:
        return
    parts = urlsplit(url)
    if (parts.hostname or "") not in LOCAL_HOSTS or (parts.port or 5432) != 5432:
        sys.exit(f"make prod: the PostgreSQL of PROD_DATABASE_URL does not answer: {parts.hostname}:{parts.port or 5432}")
    print("make prod: this machine's PostgreSQL is down; starting it", flush=True)
    version = sorted(os.listdir("/etc/postgresql"))[-1]
    subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "start"], check=True)
    end = time.monotonic() + 30
    while subprocess.run(["pg_isready", "-q", "-t", "2", "-d", server]).returncode != 0:
        if time.monotonic() > end:
            sys.exit("make prod: started this machine's PostgreSQL, and it does not answer")
        time.sleep(0.5)


def ensure_services(cfg: Config) -> None:
    """The database and every Redis the configuration names, and only those (never the
    machine's defaults whatever PROD_REDIS_URL says)."""
    ensure_postgres(cfg.database_url)
    for url in dict.fromkeys([cfg.redis_url, *[u.strip() for u in cfg.redis_urls.split(",") if u.strip()]]):
        ensure_redis(cfg, url)


# -- steps ----------------------------------------------------------------------------------

def psql(url: str, sql: str) -> str:
    return subprocess.run(["psql", url, "-Atqc", sql], check=True, capture_output=True, text=True).stdout.strip()


def ensure_database(url: str) -> None:
    server, name = url.rsplit("/", 1)
    name = name.split("?", 1)[0]
    if not psql(f"{server}/postgres", f"SELECT 1 FROM pg_database WHERE datname = '{name}'"):
        psql(f"{server}/postgres", f'CREATE DATABASE "{name}"')


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True)


def prepare(cfg: Config) -> dict[str, str]:
    """Configs written, the database migrated and its ratings replayed, static files
    collected: compose's `migrate` service and the image's build step."""
    if not cfg.environ.get("SECRET_KEY"):
        sys.exit("make prod: set SECRET_KEY to 50+ random characters, as compose asks, e.g.\n"
                 "  SECRET_KEY=$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))') make prod")
    if not shutil.which("nginx") and not Path("/usr/sbin/nginx").exists():
        sys.exit("make prod: Debian's nginx is needed (make prod installs it: apt-get install nginx)")
    ensure_services(cfg)
    env = cfg.app_env()
    for sub in ("logs", "metrics", "nginx/body", "nginx/proxy", "nginx/fastcgi", "nginx/uwsgi", "nginx/scgi"):
        (cfg.run / sub).mkdir(parents=True, exist_ok=True)
    # Counters start from nothing with a new start of the whole (a restart of one process
    # keeps them: its files stay).
    for old in (cfg.run / "metrics").glob("*.db"):
        old.unlink()
    Path(env["MEDIA_ROOT"]).mkdir(parents=True, exist_ok=True)
    (cfg.run / "nginx-site.conf").write_text(nginx_site(cfg, env))
    (cfg.run / "nginx.conf").write_text(nginx_main(cfg))
    cfg.supervisor_conf.write_text(supervisord_conf(cfg))
    subprocess.run(["/usr/sbin/nginx", "-t", "-q", "-p", f"{cfg.run}/nginx", "-c", str(cfg.run / "nginx.conf")],
                   check=True)
    ensure_database(cfg.database_url)
    manage(env, "migrate", "--noinput", "-v0")
    # The ratings shown are the ones this release's rules give the stored games (docs/ratings.md:
    # a replay, idempotent, not a data migration, so a later rule change applies the same way).
    manage(env, "ratings_recompute", "--write")
    # As the image's build: the development settings collect (no secret is needed for it).
    manage({**env, "GRAILSITE_PRODUCTION": "0"}, "collectstatic", "--noinput", "-v0")
    return env


def supervisorctl(cfg: Config, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run([str(VENV_BIN / "supervisorctl"), "-c", str(cfg.supervisor_conf), *args],
                          capture_output=True, text=True, check=check)


def running_pid(cfg: Config) -> int | None:
    try:
        pid = int((cfg.run / "supervisord.pid").read_text().strip())
        os.kill(pid, 0)
        return pid
    except (OSError, ValueError):
        return None


def wait_ready(url: str, timeout: float = 120.0) -> None:
    """Until, through nginx, /readyz answers 200 (a web process reaches PostgreSQL and Redis)
    and then /sweepz (beat's timer sweep ran: the site's timers are kept)."""
    end = time.monotonic() + timeout
    for probe in ("readyz?format=json", "sweepz"):
        last = "no answer"
        while True:
            try:
                with urllib.request.urlopen(f"{url}/{probe}", timeout=5) as r:
                    if r.status == 200:
                        break
            except urllib.error.HTTPError as exc:
                last = f"{exc.code} {exc.read()[:300]!r}"
            except OSError as exc:
                last = repr(exc)
            if time.monotonic() >= end:
                raise RuntimeError(f"{url}/{probe} not ready after {timeout:.0f} s: {last}")
            time.sleep(0.5)


def probe_text(url: str) -> str:
    """What a probe answers, in one line (its status and body)."""
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return f"{r.status} {r.read(300).decode(errors='replace').strip()}"
    except urllib.error.HTTPError as exc:
        return f"{exc.code} {exc.read(300).decode(errors='replace').strip()}"
    except OSError as exc:
        return f"no answer ({exc!r})"


def wait_port(port: int, timeout: float = 60.0) -> None:
    import socket

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise RuntimeError(f"nothing listens on {port}")


def start(cfg: Config) -> None:
    if running_pid(cfg):
        sys.exit(f"make prod: already running (supervisord pid {running_pid(cfg)}); make prod-stop first")
    env = prepare(cfg)
    subprocess.run([str(VENV_BIN / "supervisord"), "-c", str(cfg.supervisor_conf)], cwd=ROOT, env=env, check=True)
    wait_ready(cfg.url)
    print(f"grailsite is served at {cfg.url}/ (nginx; web processes on {', '.join(map(str, cfg.web_ports))}; "
          f"a clocks worker, {cfg.workers} side workers and beat). Logs: {cfg.run / 'logs'}. Stop: make prod-stop", flush=True)


def stop(cfg: Config, timeout: float = 60.0) -> None:
    pid = running_pid(cfg)
    if pid is None:
        print("make prod: not running")
        return
    supervisorctl(cfg, "shutdown", check=False)
    end = time.monotonic() + timeout
    while time.monotonic() < end and running_pid(cfg):
        time.sleep(0.2)
    if running_pid(cfg):  # supervisord did not go: end it (its children go with it)
        os.kill(pid, signal.SIGKILL)
    print("make prod: stopped")


def wait_healthy(port: int, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the web process on {port} does not answer /healthz")


# What a program's log says once it serves again after a (re)start.
READY_LINES = {"worker": " ready.", "clocks": " ready.", "beat": "beat: Starting..."}


def wait_log(path: Path, offset: int, text: str, timeout: float = 180.0) -> None:
    """Until ``text`` appears in the log past ``offset`` (what the new process wrote)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with contextlib.suppress(OSError), path.open("rb") as f:
            f.seek(offset)
            if text.encode() in f.read():
                return
        time.sleep(0.2)
    raise RuntimeError(f"{path.name}: no {text!r} after {timeout:.0f} s")


def restart(cfg: Config, names: list[str]) -> None:
    """Restart each program in turn, each serving again before the next goes: a rolling
    restart. supervisord stops it (a web process: SIGTERM, uvicorn stops accepting, closes
    its websockets with 1012 and finishes its requests; a worker: warm shutdown, the tasks it
    held go back to the queue), then starts it; "RUNNING" is only that it did not exit at
    once, so a web process must answer /healthz, a worker log that it is ready and beat that
    it started. (Restarting worker2 while worker1 was still starting left no worker for 30 s:
    deadlines fired up to a minute late.)"""
    for name in names:
        log = cfg.run / "logs" / f"{name}.log"
        offset = log.stat().st_size if log.exists() else 0
        supervisorctl(cfg, "restart", name)
        if name.startswith("web"):
            port = cfg.web_ports[int(name[3:]) - 1]
            wait_port(port)
            wait_healthy(port)
        elif name.rstrip("0123456789") in READY_LINES:
            wait_log(log, offset, READY_LINES[name.rstrip("0123456789")])


def main(argv: list[str]) -> None:
    cfg = Config()
    command = argv[1] if len(argv) > 1 else "start"
    if command == "start":
        start(cfg)
    elif command == "stop":
        stop(cfg)
    elif command == "status":
        print(supervisorctl(cfg, "status", check=False).stdout, end="")
        print(f"timers' sweep: {probe_text(f'{cfg.url}/sweepz')}")
    elif command == "restart":
        restart(cfg, argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
