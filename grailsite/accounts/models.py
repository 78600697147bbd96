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


class Follow(models.Model):
    """``follower`` follows ``followed``: they are on the follower's Friends list, with their
    presence and open games, and come first in the follower's lobby."""

    follower = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following")
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_unique"),
            models.CheckConstraint(condition=~models.Q(follower=models.F("followed")), name="follow_not_self"),
        ]
        # "Who follows me?" (presence is told to them); the other way is the unique index.
        indexes = [models.Index(fields=["followed", "follower"], name="follow_followed")]


class Block(models.Model):
    """``blocker`` blocked ``blocked``: the blocked person may not invite them, join a game
    they sit at, or chat in one (games/access.py asks); games already under way go on."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocking")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_unique"),
            models.CheckConstraint(condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"),
        ]
        indexes = [models.Index(fields=["blocked", "blocker"], name="block_blocked")]
