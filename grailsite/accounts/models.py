from django.conf import settings
from django.db import models


class Profile(models.Model):
    """Per-person preferences the platform needs beyond Django's User."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    email_notifications = models.BooleanField(default=True, help_text="Send at most one summary email an hour.")
    # Vacation: while now < vacation_until, this person's clocks stop (see games/table/clock.py).
    vacation_until = models.DateTimeField(null=True, blank=True)
    vacation_days_used = models.PositiveIntegerField(default=0)
    vacation_year = models.PositiveIntegerField(default=0)
    last_email_at = models.DateTimeField(null=True, blank=True)
    # For bots and other API clients: "Authorization: Token <api_token>".
    api_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    # A program plays this account (games/bots/): shown as a bot everywhere, its games rated
    # in a pool of its own or not at all (settings.BOT_GAMES_RATED). Set by staff, who see
    # the owner's request (``bot_requested``) in the admin.
    is_bot = models.BooleanField(default=False)
    bot_requested = models.BooleanField(default=False)
    # What a bot accepts to be invited to: [{"kind", "seats": [least, most], "clocks": [...]}];
    # empty: nothing (games/bots/accepts.py reads and checks it).
    bot_accepts = models.JSONField(default=list, blank=True)

    def __str__(self):
        return f"profile of {self.user}"


class ApiToken(models.Model):
    """A personal API token: ``Authorization: Bearer <key>`` (or ``Token <key>``). Only the
    SHA-256 of the key is kept, so the key is shown once, when it is made; ``prefix`` (its
    first characters) tells the owner's tokens apart on the settings page. ``scopes``: "read"
    (GET and the streams), "play" (moves and every other write)."""

    SCOPES = ("read", "play")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60)
    digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=12)
    scopes = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"token {self.prefix}… of {self.user}"


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
    they sit at, or chat in one (games/table/access.py asks); games already under way go on."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocking")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_unique"),
            models.CheckConstraint(condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"),
        ]
        indexes = [models.Index(fields=["blocked", "blocker"], name="block_blocked")]


class PushEvent(models.TextChoices):
    """What a person may be told of by push (games/inbox/push.py maps notifications to these)."""
    YOUR_TURN = "your_turn", "Your turn"
    DEADLINE = "deadline", "A deadline near, or passed"
    GAME_OVER = "game_over", "Game over"
    INVITATION = "invitation", "An invitation"
    CHAT = "chat", "A chat line in your game"
    JOINED = "joined", "Someone joined your open game"
    TOURNAMENT = "tournament", "Tournament news: a new round's game, the final places"


def push_events_default() -> list[str]:
    # Everything but chat, which can be busy.
    return [e.value for e in PushEvent if e != PushEvent.CHAT]


def reminder_hours_default() -> list[float]:
    return [24, 4, 1]


class PushPreferences(models.Model):
    """How a person wants to be reached by push: which events, and when not (quiet hours in
    their own time zone). Kept apart from Profile, whose row the e-mail digest locks."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_preferences")
    events = models.JSONField(default=push_events_default, blank=True)
    time_zone = models.CharField(max_length=64, default="UTC")
    quiet_start = models.TimeField(null=True, blank=True)
    quiet_end = models.TimeField(null=True, blank=True)
    # Set while quiet hours hold back this person's pushes: the sweep leaves them until then.
    held_until = models.DateTimeField(null=True, blank=True)
    # Reminders before one's own deadlines (games/inbox/reminders.py): hours before the deadline on
    # a days clock, scaled down for shorter clocks; by push when "a deadline near" is among
    # ``events``, and by e-mail when this is on.
    reminder_hours = models.JSONField(default=reminder_hours_default, blank=True)
    remind_by_email = models.BooleanField(default=False)

    def __str__(self):
        return f"push preferences of {self.user_id}"


class PushSubscription(models.Model):
    """One browser's (one device's) Web Push subscription: where its push service takes
    messages for it, and the keys they are encrypted with (RFC 8291). Made when the person
    turns push on in that browser; deleted when they remove it on the settings page or the
    push service says it is gone (404/410).

    ``failures`` counts the pushes to it that failed in a row; while ``paused_until`` is
    ahead nothing is sent to it: a few seconds after a failure, growing, and hours once it
    has failed ``PUSH_PAUSE_AFTER_FAILURES`` times (games/inbox/push.py)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=32)
    label = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_success_at = models.DateTimeField(null=True, blank=True)
    failures = models.PositiveSmallIntegerField(default=0)
    paused_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self):
        return f"push subscription {self.pk} of {self.user_id}"


class PushDelivery(models.Model):
    """One push to one subscription, until the push service took it: the outbox a worker
    sends from (games/inbox/push.py). A worker claims it by moving ``next_try_at`` a lease ahead
    with a conditional update, so two never send it at once and one that dies is relieved
    when the lease lapses; a failure puts it back with a longer wait."""

    subscription = models.ForeignKey(PushSubscription, on_delete=models.CASCADE, related_name="deliveries")
    payload = models.TextField()
    attempts = models.PositiveSmallIntegerField(default=0)
    next_try_at = models.DateTimeField(db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"push delivery {self.pk}"
