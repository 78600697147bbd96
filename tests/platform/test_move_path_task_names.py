"""The move path sends its deferred work to Celery by task name (games/inbox/notify.py,
games/table/computers.py), so the shell's modules do not import the tasks that call them back.
A renamed or moved task must fail here, not silently in production."""
from games import tasks
from games.inbox import notify
from games.table import computers
from grailsite.celery import app


def test_the_named_tasks_are_the_registered_ones():
    app.loader.import_default_modules()
    assert notify.DEADLINE_TASK in app.tasks and tasks.deadline_fire.name == notify.DEADLINE_TASK
    assert computers.COMPUTER_MOVE_TASK in app.tasks and tasks.computer_move.name == computers.COMPUTER_MOVE_TASK


def test_the_push_sweep_is_the_registered_task():
    from games.inbox import push

    app.loader.import_default_modules()
    assert push.SWEEP_TASK in app.tasks and tasks.push_sweep.name == push.SWEEP_TASK
