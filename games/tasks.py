"""Celery tasks: thin wrappers over services. Each goes to its lane by name
(settings.CELERY_TASK_ROUTES): deadlines, computer moves and the timers' sweeps to the
clocks' lane, the rest to the side lane."""
from datetime import datetime

from celery import shared_task

from games.table import services
from games.inbox import emails, push, reminders
from games.tournaments import rounds as tournament_rounds, services as tournaments


@shared_task(ignore_result=True)
def deadline_fire(match_id: int, seat_index: int, version: int, deadline: str | None = None) -> bool:
    """Fast path: fires at the deadline; does nothing if that deadline was replaced since
    (or, for a task naming no deadline, if the game moved on from ``version``)."""
    when = datetime.fromisoformat(deadline) if deadline else None
    return services.deadline_expire(match_id=match_id, seat_index=seat_index, version=version, deadline=when)


@shared_task(ignore_result=True)
def timers_sweep() -> int:
    """Beat, every few seconds (TIMERS_SWEEP_SECONDS): the guarantee that no deadline nor
    computer move is lost, and soon: every one that fell due and was not fired (its task lost
    with a restarted Redis or a killed worker, or never sent) fires now. Two indexed reads
    when nothing is due. Then it says it ran: /readyz wants a sweep within two minutes."""
    from grailsite.health import sweep_done

    fired = services.deadlines_fire_due() + services.computer_moves_sweep()
    sweep_done()
    return fired


@shared_task(ignore_result=True)
def deadlines_sweep() -> int:
    """Beat, every minute: the day-ahead warnings, and the same guarantee as ``timers_sweep``."""
    fired = services.deadlines_sweep()
    return fired + services.computer_moves_sweep()


@shared_task(ignore_result=True)
def computer_move(match_id: int, seat_index: int, version: int, due: str | None = None) -> bool:
    """A computer player's move, at its due time; nothing if that decision was made or
    replaced since (the change that replaced it scheduled its own)."""
    when = datetime.fromisoformat(due) if due else None
    return services.computer_move_apply(match_id=match_id, seat_index=seat_index, version=version, due=when)


@shared_task(ignore_result=True)
def notification_emails_send() -> int:
    return emails.notification_emails_send()


@shared_task(ignore_result=True)
def push_sweep(waited: float | None = None) -> int:
    """The side lane's batch of pushes: asked for a window after changes notified people
    (push.flush_on_commit: everything waiting by then), and by beat every few seconds as the
    guarantee (a lost message, quiet hours over, retries due)."""
    return push.sweep(waited=waited)


@shared_task(ignore_result=True)
def reminders_sweep() -> int:
    """Beat, every few seconds: plan what a lost task did not, fire every reminder due."""
    return reminders.sweep()


@shared_task(ignore_result=True)
def reminders_forget() -> int:
    """Beat, hourly: fired reminders of deadlines long gone."""
    return reminders.forget_old()


@shared_task(ignore_result=True)
def tournament_start(tournament_id: int) -> bool:
    """At a tournament's start time (within the hour it was scheduled): start it, or say on its
    page why it could not (the sweep does the same for one whose task was lost)."""
    return tournaments.sweep_start(tournament_id)


@shared_task(ignore_result=True)
def tournament_advance(tournament_id: int) -> bool:
    """Sent as a tournament game's end commits: its page reloads, and if that was the round's
    last game the round closes and the next is paired (nothing if that happened already)."""
    return tournament_rounds.advance(tournament_id, changed=True)


@shared_task(ignore_result=True)
def tournament_round_close(tournament_id: int, number: int) -> bool:
    """At a round's deadline: settle its games still running by the time-out rules, close it
    and pair the next; nothing if it closed already (its last game ended) or is not due."""
    return tournament_rounds.round_close(tournament_id, number)


@shared_task(ignore_result=True)
def tournaments_sweep() -> int:
    """Beat, every minute: the tournaments' timers' guarantee (starts, round deadlines, and a
    round whose last result was not followed by the next pairing)."""
    return tournaments.sweep()
