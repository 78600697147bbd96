"""`make backup` and `make restore`: the database (pg_dump's custom format) and the media
folder, together, and back into a fresh database.

    python grailsite/deploy/backup.py backup [--database-url URL] [--media-root DIR] [--out DIR]
    python grailsite/deploy/backup.py restore BACKUP_DIR [--database-url URL] [--media-root DIR]
    python grailsite/deploy/backup.py check --database-url URL

A backup is a folder: ``database.dump`` (pg_dump -Fc: consistent as of its start, taken
while the site runs), ``media.tar.gz`` and ``manifest.json`` (when, from where, sizes, the
last migration of each app). Without options both act on `make prod`'s site
(grailsite/deploy/prod.py: PROD_DATABASE_URL, MEDIA_ROOT); a backup goes to
backups/<UTC time>/.

A restore never writes over anything: the target database must not exist (it is created;
by default ``<name>_restored_<time>`` beside the source), and media files already in the
target folder are kept. Afterwards ``check`` the restored database: `manage.py migrate` (a
restore into a newer release), `manage.py replay_check` and `manage.py ledger_check` on it,
in an environment of their own (``check_environment``: no Redis at all, so nothing they
publish or schedule reaches the live site, whatever the shell's REDIS_URL says); then point
the site at it (PROD_DATABASE_URL / DATABASE_URL).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

DEPLOY = Path(__file__).resolve().parent
ROOT = DEPLOY.parents[1]
sys.path.insert(0, str(ROOT))
from grailsite.deploy.prod import Config, psql  # noqa: E402


def _split(url: str) -> tuple[str, str]:
    server, name = url.rsplit("/", 1)
    return server, name.split("?", 1)[0]


def backup(database_url: str, media_root: Path, out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=False)
    subprocess.run(["pg_dump", "--format=custom", "--no-owner", "--file", str(out / "database.dump"), database_url],
                   check=True)
    with tarfile.open(out / "media.tar.gz", "w:gz") as tar:
        if media_root.exists():
            tar.add(media_root, arcname="media")
    migrations = psql(database_url, "SELECT app || ' ' || max(name) FROM django_migrations GROUP BY app ORDER BY app")
    manifest = {
        "taken_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "database": _split(database_url)[1], "media_root": str(media_root),
        "database_bytes": (out / "database.dump").stat().st_size, "media_bytes": (out / "media.tar.gz").stat().st_size,
        "migrations": dict(line.split(" ", 1) for line in migrations.splitlines() if line),
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return out


def restore(source: Path, database_url: str, media_root: Path) -> None:
    server, name = _split(database_url)
    if psql(f"{server}/postgres", f"SELECT 1 FROM pg_database WHERE datname = '{name}'"):
        sys.exit(f"restore: database {name} exists; a restore goes into a fresh one (name another)")
    psql(f"{server}/postgres", f'CREATE DATABASE "{name}"')
    subprocess.run(["pg_restore", "--no-owner", "--exit-on-error", "--dbname", database_url,
                    str(source / "database.dump")], check=True)
    media_root.mkdir(parents=True, exist_ok=True)
    with tarfile.open(source / "media.tar.gz") as tar:
        for member in tar.getmembers():
            if not member.name.startswith("media/") or not (member.isfile() or member.isdir()):
                continue  # only the media folder's own files and folders
            target = media_root / member.name[len("media/"):]
            if member.isfile() and not target.exists():
                member.name = member.name[len("media/"):]
                tar.extract(member, media_root, filter="data")


# Variables that would point the checks at the live site's Redis, or need its secrets.
_LIVE_ONLY = ("REDIS_URL", "REDIS_URLS", "CELERY_BROKER_URL", "GRAILSITE_CELERY_QUEUE", "GRAILSITE_CHANNEL_PREFIX",
              "PROMETHEUS_MULTIPROC_DIR", "GRAILSITE_PRODUCTION", "DB_POOL")
CHECKS = (("migrate", "--noinput"), ("replay_check",), ("ledger_check",))


def check_environment(database_url: str, environ: dict[str, str] | None = None) -> dict[str, str]:
    """The environment a restored copy is checked in: its own database, and no Redis: the
    in-memory channel layer and cache, no broker, timers and pushes not sent (the settings'
    embedded default), e-mail to nowhere. A check that makes a move (the drill's "every game
    goes on") publishes its frames and schedules its timers there, never on the live site."""
    env = {k: v for k, v in (os.environ if environ is None else environ).items() if k not in _LIVE_ONLY}
    env.update(DATABASE_URL=database_url, REDIS_URL="", REDIS_URLS="", DJANGO_SETTINGS_MODULE="grailsite.settings",
               GRAILSITE_CHANNEL_PREFIX="restore-check", EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend")
    return env


def check(database_url: str) -> bool:
    """migrate, replay_check and ledger_check on the restored database (``check_environment``)."""
    env = check_environment(database_url)
    ok = True
    for command in CHECKS:
        print(f"check: manage.py {' '.join(command)}", flush=True)
        ok &= subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env).returncode == 0
    return ok


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    cfg = Config()
    media_default = Path(cfg.app_env()["MEDIA_ROOT"])
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
    b = sub.add_parser("backup")
    b.add_argument("--database-url", default=cfg.database_url)
    b.add_argument("--media-root", type=Path, default=media_default)
    b.add_argument("--out", type=Path, default=ROOT / "backups" / stamp)
    r = sub.add_parser("restore")
    r.add_argument("source", type=Path)
    r.add_argument("--database-url")
    r.add_argument("--media-root", type=Path, default=media_default)
    c = sub.add_parser("check")
    c.add_argument("--database-url", required=True, help="the restored database")
    args = parser.parse_args(argv)
    if args.command == "check":
        if not check(args.database_url):
            sys.exit("check: a check failed (above)")
        print(f"check: {_split(args.database_url)[1]} migrated, replays and ledgers agree")
    elif args.command == "backup":
        out = backup(args.database_url, args.media_root, args.out)
        print(f"backup: {out} ({json.loads((out / 'manifest.json').read_text())['database_bytes']} bytes of database)")
    else:
        server, name = _split(cfg.database_url)
        target = args.database_url or f"{server}/{name}_restored_{stamp.lower()}"
        restore(args.source, target, args.media_root)
        print(f"restore: {args.source} -> {target} (media into {args.media_root}); next: "
              f"make restore-check TARGET={target} (docs/deploy.md)")


if __name__ == "__main__":
    main()
