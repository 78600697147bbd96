import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "grailsite.settings")

app = Celery("grailsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


# -- logs and metrics in the worker and beat (grailsite/logs.py, grailsite/metrics.py) ------
from celery import signals  # noqa: E402


@signals.task_prerun.connect
def _task_ids(task_id=None, task=None, args=None, kwargs=None, **_):
    """A task's log lines carry its id as the request id, and its match when it names one."""
    from grailsite import logs

    logs.request_id.set(task_id)
    match = (kwargs or {}).get("match_id", args[0] if args and task.name.endswith(("deadline_fire", "computer_move"))
                               else None)
    logs.match_id.set(match if isinstance(match, int) else None)
    logs.user_id.set(None)


@signals.task_postrun.connect
def _task_ids_done(**_):
    """What follows a task in its process (the next task's prerun, a beat tick) is not it."""
    from grailsite import logs

    for var in logs.CONTEXT.values():
        var.set(None)


@signals.worker_process_init.connect
@signals.beat_init.connect
@signals.worker_init.connect
def _metrics_process(**_):
    from grailsite import metrics

    metrics.forget_dead_processes()


@signals.worker_ready.connect
def _metrics_port(**_):
    """A worker in a container of its own serves its host's metrics (compose: METRICS_PORT)."""
    port = os.environ.get("METRICS_PORT")
    if port:
        from grailsite import metrics

        metrics.serve_on_port(int(port))
