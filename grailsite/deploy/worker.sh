#!/bin/sh
# One Celery worker of one lane (settings.LANE_QUEUES, docs/deploy.md): WORKER_LANES=clocks
# takes deadlines, computer moves, the timers' sweeps and the tournaments' timers and nothing
# else; WORKER_LANES=side (the default) takes pushes, reminders and e-mail. Compose's `clocks`
# and `worker` and `make prod`'s clocks and worker1/worker2 run it: two processes, two
# database connections each at most. WORKER_NAME tells apart workers on one host (make
# prod); compose leaves it "celery".
set -e
cd "$(dirname "$0")/../.."
export DB_POOL_MAX="${WORKER_DB_POOL_MAX:-2}"
queues=$(python -m grailsite.lanes ${WORKER_LANES:-side})
exec celery -A grailsite --quiet worker --loglevel "${TASKS_LOG_LEVEL:-info}" --concurrency "${WORKER_CONCURRENCY:-2}" \
    --queues "$queues" --hostname "${WORKER_NAME:-celery}@%h"
