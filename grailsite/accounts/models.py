from django.conf import settings
from django.db import models


class Profile(models.Model):
    """Per-person preferences the platform needs beyond Django's User."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    email_notifications = models.BooleanField(default=True, help_text="Send at most one summary email an hour.")
    # Vacation: while now < vacation_until, this person's clocks stop (see games/clock.py).
    vacation_until = models.DateTimeField(null=True, blank=True)
    vacation_days_used = models.PositiveIntegerField(default=0)
    vacation_year = models.PositiveIntegerField(default=0)
    last_email_at = models.DateTimeField(null=True, blank=True)
    # For bots and other API clients: "Authorization: Token <api_token>".
    api_token = models.CharField(max_length=64, unique=True, null=True, blank=True)

    def __str__(self):
        return f"profile of {self.user}"
