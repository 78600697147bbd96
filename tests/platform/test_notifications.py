"""On-site notifications and the hourly email summary."""
from datetime import timedelta

from django.core import mail
from django.utils import timezone

from games.inbox import emails
from games.table import services
from games.models import Notification
from grailsite.accounts.models import Profile


def _move(match, user, seat):
    services.move_submit(match_id=match.pk, user=user, move={"type": "play", "card": match.state["hands"][seat][0]},
                         version=match.version)
    match.refresh_from_db()


def test_your_turn_and_invitation_notifications(make_user, make_match):
    alice, bob = make_user(), make_user()
    match = services.match_create(creator=alice, kind="duel", num_seats=2, invite=[bob.username])
    assert Notification.objects.get(user=bob).kind == "invited"
    services.match_join(match_id=match.pk, user=bob)
    assert Notification.objects.filter(user=alice, kind="your_turn").count() == 1
    match.refresh_from_db()
    _move(match, alice, 0)
    assert Notification.objects.filter(user=bob, kind="your_turn").count() == 1


def test_emails_are_batched_to_one_an_hour(settings, make_match):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    match, (alice, bob) = make_match()
    _move(match, alice, 0)
    _move(match, bob, 1)
    now = timezone.now()
    assert emails.notification_emails_send(now=now) == 2
    to_alice = [m for m in mail.outbox if m.to == [alice.email]]
    assert len(to_alice) == 1 and f"/games/{match.pk}/" in to_alice[0].body
    _move(match, alice, 0)  # bob gets a new notification within the hour
    assert emails.notification_emails_send(now=now + timedelta(minutes=10)) == 0
    assert emails.notification_emails_send(now=now + timedelta(minutes=61)) == 1
    assert len(mail.outbox) == 3


def test_people_who_switched_email_off_get_none(settings, make_match):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    match, (alice, bob) = make_match()
    Profile.objects.filter(user__in=[alice, bob]).update(email_notifications=False)
    _move(match, alice, 0)
    assert emails.notification_emails_send() == 0 and mail.outbox == []
    assert Notification.objects.filter(user=bob, read_at__isnull=True).exists()  # still on the site


def test_notification_page_and_api_mark_read(client, make_match):
    match, (alice, _) = make_match()
    client.force_login(alice)
    page = client.get("/notifications/").content.decode()
    assert f"/games/{match.pk}/" in page
    data = client.get("/api/notifications/").json()
    assert data["unread"] == 1 and data["notifications"][0]["kind"] == "your_turn"
    r = client.post("/api/notifications/read/", data="{}", content_type="application/json")
    assert r.json() == {"marked": 1}
    assert client.get("/api/notifications/").json()["unread"] == 0
