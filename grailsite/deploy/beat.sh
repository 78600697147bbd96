#!/bin/sh
# Celery beat, exactly one per site: sends the timer sweep every 5 s (its last run is what
# /sweepz and beat's healthcheck ask about) and the minute's and five minutes' sweeps.
set -e
cd "$(dirname "$0")/../.."
export DB_POOL_MAX=1
exec celery -A grailsite --quiet beat --loglevel "${TASKS_LOG_LEVEL:-info}" --schedule "${BEAT_SCHEDULE:-/tmp/celerybeat-schedule}"
