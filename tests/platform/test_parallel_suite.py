"""The suite's split over processes (tests/parallel.py): each worker's Redis database, and
the units work is handed out in."""
import logging

import pytest

from tests.conftest import restore_logging
from tests.parallel import MANY_PROCESSES, start_rank, work_unit, worker_redis_url


def test_each_worker_gets_the_redis_database_after_the_runs_own():
    assert worker_redis_url("redis://127.0.0.1:6379/0", 0) == "redis://127.0.0.1:6379/1"
    assert worker_redis_url("redis://127.0.0.1:6379/0", 3) == "redis://127.0.0.1:6379/4"
    assert worker_redis_url("redis://:pw@10.0.0.7:6380/7", 1) == "redis://:pw@10.0.0.7:6380/9"
    assert worker_redis_url("redis://127.0.0.1:6379", 0) == "redis://127.0.0.1:6379/1"


def test_a_worker_beyond_redis_s_databases_is_refused_with_the_reason():
    with pytest.raises(RuntimeError, match="Redis database 16"):
        worker_redis_url("redis://127.0.0.1:6379/14", 1)


def test_a_file_is_a_unit_and_the_many_process_files_are_one_handed_out_first():
    assert work_unit("tests/platform/test_api.py") == "tests/platform/test_api.py"
    assert work_unit("tests/platform/test_prod_shape.py") == work_unit("tests/platform/test_pgbouncer.py") == MANY_PROCESSES
    ranks = [start_rank(p) for p in ("tests/platform/test_prod_shape.py", "tests/browser/test_ccg_browser.py",
                                     "tests/rules/test_rng.py")]
    assert ranks == sorted(ranks) and len(set(ranks)) == 3


def test_each_test_starts_with_loggers_as_the_settings_left_them_even_ones_made_later():
    """An in-process server an earlier test started may configure logging again, disabling
    loggers or stopping them short of the root; the next test's capture must hear them."""
    named = logging.getLogger("tests.probe.named")
    named.setLevel(logging.INFO)
    root_level = logging.root.level
    snapshot = (logging.root.manager.disable, {"tests.probe.named": (logging.INFO, True, False),
                                               "": (root_level, True, False)})
    logging.root.setLevel(logging.CRITICAL)
    late = logging.getLogger("tests.probe.made_after_the_snapshot")
    for logger in (named, late):
        logger.setLevel(logging.CRITICAL)
        logger.propagate, logger.disabled = False, True
    restore_logging(*snapshot)
    assert (named.level, named.propagate, named.disabled) == (logging.INFO, True, False)
    assert (late.level, late.propagate, late.disabled) == (logging.NOTSET, True, False)
    assert logging.root.level == root_level
