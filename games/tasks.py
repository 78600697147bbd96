"""Celery tasks: thin wrappers over services."""
from datetime import datetime

from celery import shared_task

from games import services
from games import emails


@shared_task(ignore_result=True)
def deadline_fire(match_id: int, seat_index: int, version: int, deadline: str | None = None) -> bool:
    """Fast path: fires at the deadline; does nothing if that deadline was replaced since
    (or, for a task naming no deadline, if the game moved on from ``version``)."""
    when = datetime.fromisoformat(deadline) if deadline else None
    return services.deadline_expire(match_id=match_id, seat_index=seat_index, version=version, deadline=when)


@shared_task(ignore_result=True)
def deadlines_sweep() -> int:
    """Beat, every minute: the guarantee that no deadline is lost, nor a computer player's move."""
    fired = services.deadlines_sweep()
    return fired + services.computer_moves_sweep()


@shared_task(ignore_result=True)
def computer_move(match_id: int, seat_index: int, version: int) -> bool:
    """A computer player's move, after the table's delay; nothing if the game moved on from
    ``version`` (the change that moved it scheduled its own)."""
    return services.computer_move_apply(match_id=match_id, seat_index=seat_index, version=version)


@shared_task(ignore_result=True)
def notification_emails_send() -> int:
    return emails.notification_emails_send()
