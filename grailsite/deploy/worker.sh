#!/bin/sh
# One Celery worker (deadlines, computer moves, e-mails), as compose's `worker` and `make
# prod`'s worker1/worker2 run it: two processes, two database connections each at most.
# WORKER_NAME tells apart workers on one host (make prod); compose leaves it "celery".
set -e
cd "$(dirname "$0")/../.."
export DB_POOL_MAX="${WORKER_DB_POOL_MAX:-2}"
exec celery -A grailsite --quiet worker --loglevel "${TASKS_LOG_LEVEL:-info}" --concurrency "${WORKER_CONCURRENCY:-2}" \
    --hostname "${WORKER_NAME:-celery}@%h"
