"""Batched notification email: at most one summary an hour per person."""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core.mail import send_mail
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
            lines = [f"- {n.text} {settings.SITE_URL}/games/{n.match_id}/" if n.match_id else f"- {n.text}"
                     for n in items]
            send_mail(f"grailsite: {len(items)} update(s)", "News from your games:\n\n" + "\n".join(lines)
                      + f"\n\nSwitch these emails off at {settings.SITE_URL}/accounts/settings/\n",
                      settings.DEFAULT_FROM_EMAIL, [profile.user.email])
            pending.filter(pk__in=[n.pk for n in items]).update(emailed_at=now)
            profile.last_email_at = now
            profile.save(update_fields=["last_email_at"])
            metrics.REMINDERS.labels("email").inc()
            sent += 1
    return sent
