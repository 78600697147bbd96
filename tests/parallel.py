"""The suite split over pytest-xdist workers (loaded with ``-p tests.parallel`` before Django's
settings are read): each worker gets services of its own, so no worker sees another's rows,
queues, frames or cached counters.

- PostgreSQL: pytest-django already gives each worker its own test database (``_gw0``...).
- Redis: each worker uses the database number after the run's own (``REDIS_URL``'s ``/0``
  gives the workers ``/1``, ``/2``...), for the cache, the channel layer and Celery's broker.
- The channel-layer, cache and queue names carry the worker's name as well
  (``GRAILSITE_CHANNEL_PREFIX``), so the servers a worker starts, which inherit this
  environment, stay in its lane even where a Redis database is shared.

Run without xdist (``PYTEST_XDIST_WORKER`` unset) nothing changes."""
from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

import pytest

REDIS_DATABASES = 16  # Redis's default number of databases


def worker_redis_url(url: str, worker_index: int) -> str:
    """``url`` pointing at the database ``worker_index + 1`` places after its own."""
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    database = base + 1 + worker_index
    if database >= REDIS_DATABASES:
        raise RuntimeError(f"{url}: worker {worker_index} would need Redis database {database}; "
                           f"Redis has {REDIS_DATABASES}: run fewer workers or start from a lower number")
    return urlunsplit(parts._replace(path=f"/{database}"))


def _isolate_worker() -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return
    index = int(worker.removeprefix("gw"))
    if os.environ.get("REDIS_URL"):
        os.environ["REDIS_URL"] = worker_redis_url(os.environ["REDIS_URL"], index)
        os.environ.pop("REDIS_URLS", None)
    prefix = os.environ.get("GRAILSITE_CHANNEL_PREFIX", "grailsite")
    os.environ["GRAILSITE_CHANNEL_PREFIX"] = f"{prefix}-{worker}"


_isolate_worker()


# Test files that each start many processes on the machine's one PostgreSQL (the production
# shape: two web processes with their pools, workers, beat; a PgBouncer; backups restored into
# databases of their own). Two of them at once beside the other workers would pass
# PostgreSQL's 100 connections, so they share one group: one worker runs them one after the
# other.
MANY_PROCESSES = "many-processes"
MANY_PROCESS_FILES = frozenset({
    "tests/platform/test_prod_shape.py",
    "tests/hardening/test_prod_services.py",
    "tests/platform/test_pgbouncer.py",
    "tests/platform/test_redis_shards.py",
    "tests/platform/test_backup_restore.py",
})


def work_unit(path: str) -> str:
    """The unit a test file's tests are sent to a worker in: the file, or the shared group
    above. A unit's tests run one after the other in one worker, so a module's fixtures
    (a server, a production shape) start once."""
    return MANY_PROCESSES if path in MANY_PROCESS_FILES else path


def start_rank(path: str) -> int:
    """Units are handed out longest first, as far as a file's name tells: the production
    shapes, then the browser tests (tens of seconds each), then the rest. What is left for
    the end is short, so no worker runs alone long after the others finished."""
    if path in MANY_PROCESS_FILES:
        return 0
    return 1 if "browser" in path else 2


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """Work units by file (``work_unit``), in the order collected (``start_rank``)."""
    from xdist.scheduler import LoadScopeScheduling

    class ByFile(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid.split("::", 1)[0])

    config.option.loadscopereorder = False
    return ByFile(config, log)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Each worker collects the same list, and the scheduler hands out units in its order."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items.sort(key=lambda item: start_rank(item.nodeid.split("::", 1)[0]))
