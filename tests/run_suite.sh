#!/usr/bin/env bash
# The whole suite, as `make test` runs it: one pytest over every folder, its test files shared
# out to TEST_WORKERS processes (pytest-xdist; a file's tests stay together in one process, so
# a module's server or browser is started once). Each process has a test database, a Redis
# database and channel, cache and queue names of its own (tests/parallel.py). Most of the
# suite waits on browsers, servers, workers and clocks rather than computing, so more
# processes than cores keep both cores busy; the pure rules tests fill the gaps.
# Usage: tests/run_suite.sh PYTHON [pytest arguments]
set -u
py=$1
shift
workers=${TEST_WORKERS:-4}
if [ "$workers" -le 1 ]; then
    exec "$py" -m pytest "$@"
fi
exec "$py" -m pytest -n "$workers" --dist loadscope --durations=25 "$@"
