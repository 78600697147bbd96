"""Celery tasks: thin wrappers over services."""
from celery import shared_task

from games import services
from games import emails


@shared_task(ignore_result=True)
def deadline_fire(match_id: int, seat_index: int, version: int) -> bool:
    """Fast path: fires at the deadline; does nothing if the game moved on."""
    return services.deadline_expire(match_id=match_id, seat_index=seat_index, version=version)


@shared_task(ignore_result=True)
def deadlines_sweep() -> int:
    """Beat, every minute: the guarantee that no deadline is lost."""
    return services.deadlines_sweep()


@shared_task(ignore_result=True)
def notification_emails_send() -> int:
    return emails.notification_emails_send()
