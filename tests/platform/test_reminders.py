"""Reminders before a deadline: timer rows planned after the change that set the
deadline, fired once each by the sweep, dropped when the player moves. The Celery tests run
a real worker and the production beat; time is moved by moving the game's deadline and its
reminders together (a days clock's reminders are a day apart)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail
from django.db.models import F
from django.utils import timezone

from games.inbox import emails, reminders
from games.table import services
from games.models import Match, Notification, Reminder, Seat
from grailsite.accounts.models import Profile, PushPreferences
from tests.browser_fixtures import _database_url
from tests.celery_worker import wait_for

ROOT = Path(__file__).resolve().parents[2]
H = timedelta(hours=1)


def duel(make_user, **clock):
    alice, bob = make_user("alice"), make_user("bob")
    clock = clock or {"clock_kind": "days", "clock_amount": 3}
    match = services.match_create(creator=alice, kind="duel", num_seats=2, invite=["bob"], seed=5, **clock)
    services.match_join(match_id=match.pk, user=bob)
    match.refresh_from_db()
    return match, {alice.pk: alice, bob.pk: bob}


def to_move(match) -> Seat:
    return match.seats.select_related("user").get(waiting_for="turn")


def play(match, user):
    seat = match.seats.get(user=user).index
    services.move_submit(match_id=match.pk, user=user, move={"type": "play", "card": match.state["hands"][seat][0]},
                         version=match.version)
    match.refresh_from_db()


def shift(seat: Seat, by: timedelta) -> None:
    """Bring this seat's deadline and its reminders ``by`` nearer (as if that time passed)."""
    Seat.objects.filter(pk=seat.pk, deadline__isnull=False).update(deadline=F("deadline") - by)
    Reminder.objects.filter(seat=seat).update(deadline=F("deadline") - by, due_at=F("due_at") - by)


def due_in(seat: Seat, before: timedelta, seconds: float) -> None:
    """Shift so that the reminder ``before`` the deadline falls due in ``seconds``."""
    reminder = Reminder.objects.get(seat=seat, before=before)
    shift(seat, reminder.due_at - timezone.now() - timedelta(seconds=seconds))


def mails_to(user) -> list:
    return [m for m in mail.outbox if m.to == [user.email]]


# --- the cadence -------------------------------------------------------------------------

@pytest.mark.parametrize("clock_kind, amount, expected", [
    ("days", 3, [24 * H, 4 * H, H]),
    ("days", 1, [4 * H, H]),                       # a day ahead is the moment it became their turn
    ("hours", 12, [4 * H, timedelta(minutes=40), timedelta(minutes=10)]),
    ("hours", 1, [timedelta(minutes=20), timedelta(seconds=200), timedelta(seconds=50)]),
    ("minutes", 10, [timedelta(seconds=200), timedelta(seconds=33)]),  # 8 s before is no use
    ("seconds", 60, []),
    ("none", 0, []),
])
def test_the_cadence_is_hours_on_a_days_clock_and_proportionally_shorter_on_shorter_clocks(clock_kind, amount,
                                                                                           expected):
    match = Match(clock=clock_kind, clock_amount=amount)
    from games.table import clock
    left = clock.allowance(clock_kind, amount) or timedelta(0)
    assert reminders.offsets(match, [24, 4, 1], left=left) == expected


def test_a_person_writes_their_own_cadence_in_hours():
    assert reminders.clean_hours("1, 24,4") == [24, 4, 1]
    assert reminders.clean_hours("0.5") == [0.5]
    assert reminders.clean_hours("") == []
    for bad, says in (("x", "not a number"), ("0", "between"), ("200", "between"), ("1,2,3,4,5,6", "At most")):
        with pytest.raises(ValueError, match=says):
            reminders.clean_hours(bad)


# --- planning and firing, called directly ------------------------------------------------

@pytest.mark.django_db
def test_a_deadline_gets_its_reminders_and_each_fires_once_with_its_notice(make_user):
    match, users = duel(make_user)
    reminders.plan(match.pk)
    seat = to_move(match)
    planned = sorted(Reminder.objects.filter(seat=seat).values_list("before", flat=True), reverse=True)
    assert planned == [24 * H, 4 * H, H, timedelta(0)]
    assert reminders.plan(match.pk) == 0  # again: nothing more
    day_ahead = Reminder.objects.get(seat=seat, before=24 * H)
    assert not reminders.fire(day_ahead.pk)  # not due yet
    now = day_ahead.due_at + timedelta(seconds=1)
    assert reminders.fire(day_ahead.pk, now=now)
    assert not reminders.fire(day_ahead.pk, now=now + timedelta(seconds=5))  # once
    notice = Notification.objects.get(user=seat.user, kind="deadline_near")
    assert notice.text == f"1 day left for your move in Grail Duel #{match.pk}."
    seat.refresh_from_db()
    assert seat.deadline_warned  # so the old day-ahead warning does not say it again
    assert reminders.fire_due(now=seat.deadline - 4 * H + timedelta(seconds=1)) == 1
    notice.refresh_from_db()
    assert notice.text.startswith("4 hours left") and notice.pushed_at is None  # a push of its own


@pytest.mark.django_db
def test_no_reminder_after_the_player_moved(make_user):
    match, users = duel(make_user)
    reminders.plan(match.pk)
    seat = to_move(match)
    one_hour = Reminder.objects.get(seat=seat, before=H)
    play(match, seat.user)
    # The plan after the move drops the mover's unfired reminders...
    reminders.plan(match.pk)
    assert not Reminder.objects.filter(seat=seat, fired_at__isnull=True).exists()
    # ... and a row the plan had not dropped yet would be dropped when due, unsent.
    late = Reminder.objects.create(seat=seat, deadline=one_hour.deadline, before=H, due_at=one_hour.due_at)
    assert not reminders.fire(late.pk, now=one_hour.due_at + timedelta(seconds=1))
    late.refresh_from_db()
    assert late.fired_at is not None  # dropped: never looked at again
    assert not Notification.objects.filter(user=seat.user, kind="deadline_near").exists()


@pytest.mark.django_db
def test_a_deadline_whose_plan_was_lost_is_planned_by_the_sweep(make_user):
    match, users = duel(make_user)  # no plan task ran: on_commit does not fire in this test
    assert not Reminder.objects.exists()
    assert reminders.plan_missing() == 4
    assert reminders.plan_missing() == 0


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_worker_dying_mid_reminder_neither_loses_nor_repeats_it(make_user):
    """A worker mid-fire holds the row's lock; the sweep skips it, and when that worker's
    transaction dies with it the reminder is still unfired: the next sweep fires it, once."""
    import psycopg

    match, users = duel(make_user)
    reminders.plan(match.pk)
    seat = to_move(match)
    reminder = Reminder.objects.get(seat=seat, before=24 * H)
    now = reminder.due_at + timedelta(seconds=1)
    db = settings.DATABASES["default"]
    dying = psycopg.connect(host=db.get("HOST") or "127.0.0.1", port=db.get("PORT") or 5432,
                            user=db.get("USER") or "postgres", dbname=db["NAME"], autocommit=False)
    with dying.cursor() as cur:  # a worker that claimed it and is writing its notice
        cur.execute("SELECT 1 FROM games_reminder WHERE id = %s FOR UPDATE", [reminder.pk])
        cur.execute("UPDATE games_reminder SET fired_at = now() WHERE id = %s", [reminder.pk])
    assert reminders.fire_due(now=now) == 0  # another worker's sweep skips the held row
    dying.close()  # it dies: the server rolls its transaction back as it notices
    fired = []
    assert wait_for(lambda: fired.append(reminders.fire_due(now=now)) or sum(fired) == 1, timeout=10)
    assert reminders.fire_due(now=now + timedelta(seconds=5)) == 0
    assert Notification.objects.filter(user=seat.user, kind="deadline_near").count() == 1


# --- e-mail ------------------------------------------------------------------------------

@pytest.mark.django_db
def test_a_reminder_by_email_links_the_game_and_unsubscribes_in_one_click(settings, client, make_user):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    match, users = duel(make_user)
    seat = to_move(match)
    PushPreferences.objects.create(user=seat.user, remind_by_email=True)
    reminders.plan(match.pk)
    one_hour = Reminder.objects.get(seat=seat, before=H)
    assert reminders.fire(one_hour.pk, now=one_hour.due_at)
    [message] = mail.outbox
    assert message.subject == f"grailsite: 1 hour left for your move in Grail Duel #{match.pk}."
    assert f"{settings.SITE_URL}/games/{match.pk}/" in message.body
    link = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert link in message.body
    path = link.removeprefix(settings.SITE_URL)
    assert client.get(path).status_code == 200  # a GET (a mail scanner's) only asks
    assert Profile.objects.get(user=seat.user).email_notifications
    assert client.post(path, "List-Unsubscribe=One-Click",  # the mail client's one click, no session
                       content_type="application/x-www-form-urlencoded").status_code == 200
    assert not Profile.objects.get(user=seat.user).email_notifications
    assert not PushPreferences.objects.get(user=seat.user).remind_by_email
    assert client.post("/accounts/unsubscribe/forged-token/").status_code == 400


@pytest.mark.django_db
def test_a_mail_server_refusing_the_email_costs_the_email_not_the_reminder(settings, make_user):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 1, 2  # nobody listens
    match, users = duel(make_user)
    seat = to_move(match)
    PushPreferences.objects.create(user=seat.user, remind_by_email=True)
    reminders.plan(match.pk)
    one_hour = Reminder.objects.get(seat=seat, before=H)
    assert reminders.fire(one_hour.pk, now=one_hour.due_at)
    assert Notification.objects.get(user=seat.user, kind="deadline_near").text.startswith("1 hour left")
    assert not reminders.fire(one_hour.pk, now=one_hour.due_at)


@pytest.mark.django_db
def test_the_digest_links_each_game_and_carries_the_unsubscribe_header(settings, make_user):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    match, users = duel(make_user)
    seat = to_move(match)
    assert emails.notification_emails_send() >= 1
    [message] = mails_to(seat.user)
    assert f"{settings.SITE_URL}/games/{match.pk}/" in message.body
    token = message.extra_headers["List-Unsubscribe"].strip("<>").rstrip("/").rsplit("/", 1)[1]
    assert emails.unsubscribe_user_id(token) == seat.user_id


@pytest.mark.django_db
def test_the_settings_page_saves_the_cadence_and_the_email_choice(client, make_user):
    bob = make_user("bob")
    client.force_login(bob)
    assert 'value="24, 4, 1"' in client.get("/accounts/settings/").content.decode()
    response = client.post("/accounts/settings/", {"save_push": "1", "time_zone": "UTC", "events": ["deadline"],
                                                   "reminder_hours": "2, 12", "remind_by_email": "on"})
    assert response.status_code == 302
    prefs = PushPreferences.objects.get(user=bob)
    assert (prefs.reminder_hours, prefs.remind_by_email) == ([12, 2], True)
    response = client.post("/accounts/settings/", {"save_push": "1", "time_zone": "UTC", "reminder_hours": "soon"})
    assert "not a number" in response.content.decode()


# --- through Celery ----------------------------------------------------------------------

# Beat's sweeps every second, not every five: what is tested is that each reminder fires once,
# at its time, whoever sweeps; the waits below are counted in sweeps.
SWEEP_SECONDS = 1


def _celery_env(**extra) -> dict:
    env = dict(os.environ, REDIS_URL=settings.CELERY_BROKER_URL, GRAILSITE_CELERY_QUEUE=settings.CELERY_TASK_DEFAULT_QUEUE,
               PYTHONPATH=str(ROOT), TIMERS_SWEEP_SECONDS=str(SWEEP_SECONDS), **extra)
    env.pop("GRAILSITE_TEST_DB", None)
    return env


@pytest.fixture
def beat(tmp_path):
    """``celery beat`` as production runs it (its reminders sweep every TIMERS_SWEEP_SECONDS,
    here SWEEP_SECONDS)."""
    proc = subprocess.Popen([sys.executable, "-m", "celery", "-A", "grailsite", "beat", "--loglevel", "warning",
                             "--schedule", str(tmp_path / "beat-schedule")], cwd=ROOT, env=_celery_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    yield proc
    proc.terminate()
    proc.wait(timeout=20)


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_on_a_days_clock_each_reminder_fires_once_at_its_time_and_none_after_a_move(worker, beat, settings,
                                                                                      make_user):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    alice = make_user("alice")
    PushPreferences.objects.create(user=alice, remind_by_email=True)
    bob = make_user("bob")
    match = services.match_create(creator=alice, kind="duel", num_seats=2, invite=["bob"], seed=5,
                                  clock_kind="days", clock_amount=3)
    services.match_join(match_id=match.pk, user=bob)
    match.refresh_from_db()
    seat = to_move(match)
    if seat.user != alice:  # alice is the one to remind: let bob move first
        play(match, bob)
        seat = to_move(match)
    # The side lane's sweep planned them from the seat the change wrote (beat's first sweep
    # comes once it has started, which takes a while on a busy machine).
    assert wait_for(lambda: Reminder.objects.filter(seat=seat, deadline=seat.deadline).count() == 4, timeout=90)

    due_in(seat, 24 * H, 2)
    assert wait_for(lambda: len(mails_to(alice)) == 1, timeout=60)  # a sweep, then the side lane: slow on a busy machine
    assert "1 day left" in mails_to(alice)[0].subject
    time.sleep(2 * SWEEP_SECONDS)  # two more sweeps: nothing again
    assert len(mails_to(alice)) == 1

    due_in(seat, 4 * H, 2)
    assert wait_for(lambda: len(mails_to(alice)) == 2, timeout=60)
    assert "4 hours left" in mails_to(alice)[1].subject

    play(match, alice)
    # Her one-hour reminder would be due now, had she not moved.
    Reminder.objects.filter(seat=seat, before=H).update(due_at=timezone.now() - timedelta(seconds=1))
    time.sleep(2 * SWEEP_SECONDS + 1)
    assert len(mails_to(alice)) == 2
    assert not Reminder.objects.filter(seat=seat, fired_at__isnull=True).exists()
    # Her last reminder was the four-hour one (e-mailed above); once she moved, its notice no
    # longer applies and went away with her move (no stale calls to act).
    assert "4 hours left" in mails_to(alice)[-1].subject
    assert not Notification.objects.filter(user=alice, kind="deadline_near", read_at__isnull=True).exists()


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_reminder_due_while_the_worker_is_dead_fires_once_when_one_is_back(beat, tmp_path, make_user):
    outbox = tmp_path / "mail"
    outbox.mkdir()
    # The workers' settings: the site's, with e-mail written to files the test counts.
    (tmp_path / "worker_settings.py").write_text(
        "from grailsite.settings import *  # noqa\n"
        "EMAIL_BACKEND = 'django.core.mail.backends.filebased.EmailBackend'\n"
        f"EMAIL_FILE_PATH = {str(outbox)!r}\n")
    env = _celery_env(DATABASE_URL=_database_url(), DJANGO_SETTINGS_MODULE="worker_settings")
    env["PYTHONPATH"] = f"{tmp_path}{os.pathsep}{ROOT}"

    logs = []

    def start_worker():
        logs.append(open(tmp_path / f"worker-{len(logs)}.log", "w"))
        return subprocess.Popen([sys.executable, "-m", "celery", "-A", "grailsite", "worker", "--pool", "solo",
                                 "--loglevel", "info", "--without-heartbeat", "--without-mingle",
                                 "--without-gossip"], cwd=ROOT, env=env, stdout=logs[-1], stderr=subprocess.STDOUT)

    def mails() -> int:
        return sum(f.read_text().count("\nSubject: ") + f.read_text().startswith("Subject: ")
                   for f in outbox.iterdir())

    from grailsite.celery import app
    app.control.purge()
    first = start_worker()
    try:
        match, users = duel(make_user)
        seat = to_move(match)
        PushPreferences.objects.create(user=seat.user, remind_by_email=True)
        assert wait_for(lambda: Reminder.objects.filter(seat=seat).count() == 4, timeout=90)
        first.send_signal(signal.SIGKILL)  # killed, not stopped
        first.wait(timeout=10)
        due_in(seat, 24 * H, 1)
        time.sleep(2 * SWEEP_SECONDS)  # it falls due with no worker alive
        assert Reminder.objects.get(seat=seat, before=24 * H).fired_at is None
        second = start_worker()
        try:
            assert wait_for(lambda: Reminder.objects.get(seat=seat, before=24 * H).fired_at is not None, timeout=40)
            time.sleep(2 * SWEEP_SECONDS)
            assert mails() == 1
        finally:
            second.terminate()
            second.wait(timeout=20)
    finally:
        if first.poll() is None:
            first.kill()
