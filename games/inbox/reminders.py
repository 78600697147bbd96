"""Reminders before a deadline: "1 hour left for your move", by push and/or e-mail.

A reminder is a timer row (``games.models.Reminder``), like the deadline it warns of:

- **Planned** by the side lane's sweep (``plan_missing``), in batches, for every person's
  deadline that has no plan yet: the change that set the deadline records it (the seat's row)
  and sends nothing, so a burst of moves adds no task. One row per reminder of the person's
  cadence, and one row ``before=0`` that only says "planned", so the sweep can tell a
  deadline nobody planned for from one with no reminder due. Planning again is harmless (the
  rows are unique), and it drops the unfired rows of seats whose deadline moved on.
- **Fired** by the sweep (beat every few seconds, or the embedded worker's round): each due
  row is claimed under a row lock (SKIP LOCKED) in the transaction that marks it fired and
  writes its notice, so a worker that dies before the commit leaves it unfired for the next
  sweep, and none fires twice. The notice is the on-site "deadline near" one, and its push
  goes the way of every notice (games/inbox/push.py); the e-mail, for those who want it, is sent
  inside that transaction (a crash between the mail server's answer and the commit would send
  it again; a mail server that refuses it costs that e-mail, logged, not the reminder).
- **Forgotten** by the sweep once the seat's deadline is no longer the one it was for (they
  moved, or the game ended): the unfired rows are deleted (``drop_moved_on``); one that falls
  due before the sweep gets to it is dropped when it is fired: marked fired, nothing sent.

The cadence is the person's (``PushPreferences.reminder_hours``, default 24, 4 and 1 hours
before) on a days clock; on an hours or minutes clock each is scaled by the allowance over
three days (the days clock's default), so a one-hour clock reminds 20 and about 3 minutes
before; a reminder less than ``MIN_BEFORE`` ahead of the deadline, or not after the moment
it was planned, is left out.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone

from games.inbox import emails
from games.table import clock, persistence
from games import registry
from games.models import Match, Notification, Reminder, Seat
from grailsite import metrics
from grailsite.accounts.models import PushPreferences

log = logging.getLogger(__name__)

REFERENCE = timedelta(days=3)   # the allowance the default cadence is written for
MIN_BEFORE = timedelta(seconds=30)
PLANNED = timedelta(0)          # the row that only marks a deadline as planned
MAX_HOURS = 7 * 24
MAX_REMINDERS = 5


# --- the cadence -------------------------------------------------------------------------

def offsets(match: Match, hours: list[float], *, left: timedelta) -> list[timedelta]:
    """How long before the deadline each reminder comes, for a move due in ``left``."""
    allowance = clock.allowance(match.clock, match.clock_amount)
    if allowance is None or match.clock == "seconds":
        return []
    scale = 1.0 if match.clock == "days" else allowance / REFERENCE
    found = set()
    for h in hours[:MAX_REMINDERS]:
        before = timedelta(hours=float(h)) * scale
        if MIN_BEFORE <= before < left:
            found.add(timedelta(seconds=round(before.total_seconds())))
    return sorted(found, reverse=True)


def clean_hours(text: str) -> list[float]:
    """"24, 4, 1" -> [24.0, 4.0, 1.0]; ValueError with a reason a person can read."""
    parts = [p.strip() for p in text.replace(";", ",").split(",") if p.strip()]
    if len(parts) > MAX_REMINDERS:
        raise ValueError(f"At most {MAX_REMINDERS} reminders.")
    hours = []
    for part in parts:
        try:
            value = float(part)
        except ValueError:
            raise ValueError(f"“{part}” is not a number of hours.") from None
        if not 0 < value <= MAX_HOURS:
            raise ValueError(f"A reminder comes between a few minutes and {MAX_HOURS} hours before.")
        hours.append(int(value) if value.is_integer() else value)
    return sorted(set(hours), reverse=True)


# --- planning ----------------------------------------------------------------------------

def email_reminders_on(*, user, email: str = "") -> str:
    """Reminders by e-mail (where push cannot reach: a browser that refuses notifications or
    cannot register): turned on, with the default cadence if the person had emptied theirs.
    ``email`` gives an account without an address its first; an address already there is
    never changed here (it is where a password reset goes). Returns the address they go to."""
    address = user.email or (email or "").strip()
    if not address:
        raise ValueError("Give the e-mail address the reminders should go to.")
    with transaction.atomic():
        if not user.email:
            user.email = address
            user.save(update_fields=["email"])
        preferences, _ = PushPreferences.objects.select_for_update().get_or_create(user=user)
        preferences.remind_by_email = True
        preferences.reminder_hours = preferences.reminder_hours or PushPreferences._meta.get_field(
            "reminder_hours").get_default()
        preferences.save(update_fields=["remind_by_email", "reminder_hours"])
    return address


def plan(match_id: int, *, now: datetime | None = None) -> int:
    """Plan the reminders of every person's deadline in this match; drop the unfired ones of
    deadlines that moved on. Idempotent. Returns how many rows it added."""
    now = now or timezone.now()
    # Unfired rows whose seat has another deadline now (or none) are owed nothing.
    (Reminder.objects.filter(seat__match_id=match_id, fired_at__isnull=True)
     .exclude(seat__deadline=F("deadline")).delete())
    seats = list(Seat.objects.filter(match_id=match_id, deadline__gt=now, user__isnull=False,
                                     match__status=Match.Status.ACTIVE).select_related("match"))
    return _plan_seats(seats, now)


def _plan_seats(seats: list[Seat], now: datetime) -> int:
    if not seats:
        return 0
    hours = dict(PushPreferences.objects.filter(user_id__in=[s.user_id for s in seats])
                 .values_list("user_id", "reminder_hours"))
    rows = []
    for seat in seats:
        cadence = hours.get(seat.user_id, PushPreferences._meta.get_field("reminder_hours").get_default())
        rows.append(Reminder(seat=seat, deadline=seat.deadline, before=PLANNED, due_at=seat.deadline))
        for before in offsets(seat.match, cadence or [], left=seat.deadline - now):
            rows.append(Reminder(seat=seat, deadline=seat.deadline, before=before, due_at=seat.deadline - before))
    planned = Reminder.objects.filter(seat__in=seats)
    before = planned.count()
    Reminder.objects.bulk_create(rows, ignore_conflicts=True)  # a row already planned stays as it is
    return planned.count() - before


def plan_missing(*, limit: int = 200, now: datetime | None = None) -> int:
    """Every person's deadline nobody planned for yet is planned now, the earliest first, in
    one batch of at most ``limit`` seats."""
    now = now or timezone.now()
    planned = Reminder.objects.filter(seat=OuterRef("pk"), deadline=OuterRef("deadline"))
    seats = list(Seat.objects.filter(deadline__gt=now, user__isnull=False, match__status=Match.Status.ACTIVE)
                 .exclude(Exists(planned)).select_related("match").order_by("deadline")[:limit])
    return _plan_seats(seats, now)


# --- firing ------------------------------------------------------------------------------

def fire(reminder_id: int, *, now: datetime | None = None) -> bool:
    """Fire one due reminder, once (see the module's docstring). True if it reminded."""
    now = now or timezone.now()
    with transaction.atomic():
        reminder = (Reminder.objects.select_for_update(skip_locked=True, of=("self",))
                    .select_related("seat__match", "seat__user")
                    .filter(pk=reminder_id, fired_at__isnull=True, due_at__lte=now).first())
        if reminder is None:
            return False  # fired already, not due, or another worker holds it
        Reminder.objects.filter(pk=reminder.pk).update(fired_at=now)
        seat, match = reminder.seat, reminder.seat.match
        if (reminder.before == PLANNED or seat.deadline != reminder.deadline or seat.user_id is None
                or match.status != Match.Status.ACTIVE or seat.deadline <= now):
            return False  # they moved (or the game ended): dropped
        _remind(reminder, seat, match, now)
    return True


def _remind(reminder: Reminder, seat: Seat, match: Match, now: datetime) -> None:
    text = f"{left_words(seat.deadline - now)} left for your move in {registry.get(match.kind).name} #{match.pk}."
    # The day-ahead warning (services.deadline_warnings_send) says the same of this deadline:
    # whichever comes first tells it, and a reminder a day ahead does not repeat it.
    warned_first = not Seat.objects.filter(pk=seat.pk, deadline=reminder.deadline,
                                           deadline_warned=False).update(deadline_warned=True)
    if not (warned_first and reminder.before >= timedelta(hours=12)):
        persistence.notify(seat.user_id, match.pk, Notification.Kind.DEADLINE_NEAR, text)
    metrics.REMINDERS.labels("reminder").inc()
    preferences = PushPreferences.objects.filter(user_id=seat.user_id).first()
    if preferences is not None and preferences.remind_by_email and seat.user.email:
        try:
            emails.reminder_send(seat.user, match, text)
        except Exception:  # noqa: BLE001 - a mail server down costs the e-mail, not the reminder
            log.exception("the reminder e-mail to user %s failed", seat.user_id)


def left_words(left: timedelta) -> str:
    """"1 day", "4 hours", "1 hour", "20 minutes": the time left, rounded to what a person says."""
    seconds = max(0, round(left.total_seconds()))
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size * 0.95:
            count = max(1, round(seconds / size))
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return "Less than a minute"


def fire_due(*, limit: int = 200, now: datetime | None = None) -> int:
    """Fire every due reminder (one index read when none is). Each on its own: one failing
    never stops the others. Returns how many reminded."""
    now = now or timezone.now()
    due = list(Reminder.objects.filter(fired_at__isnull=True, due_at__lte=now).order_by("due_at")
               .values_list("pk", flat=True)[:limit])
    fired = 0
    for reminder_id in due:
        try:
            fired += fire(reminder_id, now=now)
        except Exception:  # noqa: BLE001 - logged; the others still fire
            log.exception("reminder %s failed", reminder_id)
    return fired


def forget_old(*, now: datetime | None = None) -> int:
    """Fired rows of deadlines over a day gone: nothing reads them again."""
    now = now or timezone.now()
    deleted, _ = Reminder.objects.filter(fired_at__isnull=False, deadline__lt=now - timedelta(days=1)).delete()
    return deleted


def sweep(*, now: datetime | None = None) -> int:
    """One round: forget what moved on, plan what is new, fire what is due. Returns how many
    reminded."""
    now = now or timezone.now()
    drop_moved_on()
    plan_missing(now=now)
    return fire_due(now=now)


def drop_moved_on(*, limit: int = 500) -> int:
    """Unfired rows (the "planned" mark included) whose seat's deadline is no longer the one
    they were for (the person moved, the game ended) are owed nothing: deleted, in batches, as
    ``plan`` does for one match, so a new deadline at the same seat is planned afresh."""
    stale = (Reminder.objects.filter(fired_at__isnull=True).exclude(seat__deadline=F("deadline"))
             .values_list("pk", flat=True)[:limit])
    deleted, _ = Reminder.objects.filter(pk__in=list(stale)).delete()
    return deleted
