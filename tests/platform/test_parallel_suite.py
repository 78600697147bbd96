"""The suite's split over processes (tests/parallel.py): each worker's Redis database, and
the units work is handed out in."""
import pytest

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
