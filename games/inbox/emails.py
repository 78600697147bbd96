"""Notification e-mail: at most one summary an hour per person, and the reminders before a
deadline for those who want them by e-mail (games/inbox/reminders.py). Every one carries a
one-click unsubscribe: a ``List-Unsubscribe`` header (with ``List-Unsubscribe-Post``, RFC 8058,
so a mail client's own button works) and the same link in its text."""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db import transaction
from django.utils import timezone

from games.models import Notification
from grailsite import metrics

BATCH_INTERVAL = timedelta(hours=1)


def notification_emails_send(*, now=None) -> int:
    """Send each person with unemailed, unread notifications one summary, unless they had
    one within the hour or switched email off. Returns the number of emails sent."""
    from grailsite.accounts.models import Profile

    now = now or timezone.now()
    user_ids = (Notification.objects.filter(emailed_at__isnull=True, read_at__isnull=True)
                .values_list("user_id", flat=True).distinct())
    sent = 0
    for user_id in list(user_ids):
        with transaction.atomic():
            profile = Profile.objects.select_for_update().select_related("user").filter(user_id=user_id).first()
            if profile is None:
                continue
            pending = Notification.objects.filter(user_id=user_id, emailed_at__isnull=True, read_at__isnull=True)
            if not profile.email_notifications or not profile.user.email:
                pending.update(emailed_at=now)  # nothing will be sent; do not look again
                continue
            if profile.last_email_at and now - profile.last_email_at < BATCH_INTERVAL:
                continue
            items = list(pending.order_by("created_at")[:50])
            lines = [f"- {n.text}\n  {settings.SITE_URL}{_link(n)}" if _link(n) else f"- {n.text}" for n in items]
            send(profile.user, f"grailsite: {len(items)} update(s)", "News from your games:\n\n" + "\n".join(lines))
            pending.filter(pk__in=[n.pk for n in items]).update(emailed_at=now)
            profile.last_email_at = now
            profile.save(update_fields=["last_email_at"])
            metrics.REMINDERS.labels("email").inc()
            sent += 1
    return sent


def _link(notice: Notification) -> str:
    """The page a notice is about: its game, or a tournament's page for one that names no game."""
    if notice.match_id:
        return f"/games/{notice.match_id}/"
    return f"/tournaments/{notice.tournament_id}/" if notice.tournament_id else ""


UNSUBSCRIBE_SALT = "grailsite.emails.unsubscribe"


def unsubscribe_token(user) -> str:
    """A token naming this person, signed with the site's key: the unsubscribe link needs no
    login (a mail client's one-click POST has none)."""
    return signing.dumps(user.pk, salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_user_id(token: str) -> int | None:
    try:
        value = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    return value if isinstance(value, int) else None


def unsubscribe_url(user) -> str:
    return f"{settings.SITE_URL}/accounts/unsubscribe/{unsubscribe_token(user)}/"


def send(user, subject: str, text: str) -> None:
    """One notification e-mail to ``user``, with the unsubscribe link and headers."""
    link = unsubscribe_url(user)
    body = (f"{text}\n\nChange which e-mails you get: {settings.SITE_URL}/accounts/settings/\n"
            f"Unsubscribe from all of them with one click: {link}\n")
    message = EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email], headers={
        "List-Unsubscribe": f"<{link}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"})
    message.send()


def reminder_send(user, match, text: str) -> None:
    """A reminder before a deadline, by e-mail (games/inbox/reminders.py), linking to the game."""
    send(user, f"grailsite: {text}", f"{text}\n\nYour move: {settings.SITE_URL}/games/{match.pk}/")


def unsubscribe(user_id: int) -> bool:
    """Every notification e-mail off for this person: the summary and the reminders."""
    from grailsite.accounts.models import Profile, PushPreferences

    found = Profile.objects.filter(user_id=user_id).update(email_notifications=False)
    PushPreferences.objects.filter(user_id=user_id).update(remind_by_email=False)
    return bool(found)
