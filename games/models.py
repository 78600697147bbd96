"""Persistence of matches: the match row (current snapshot + version), seats with their
deadlines, an append-only move log, chat and notifications."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from games import state_storage
from games.fields import MatchStateField, StateField
from games.rules.computer import level_label  # the levels' labels live with the pure players


class Match(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        ACTIVE = "active", "In play"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned"
        # Ended before every person at the table had made a move of their own: one of them
        # resigned or ran out of time first (games/table/referee.py). No winner, not rated.
        ABORTED = "aborted", "Aborted"

    # A game that will never change again: played out, called off or aborted.
    ENDED = (Status.FINISHED, Status.ABANDONED, Status.ABORTED)

    class Clock(models.TextChoices):
        NONE = "none", "No clock"
        SECONDS = "seconds", "Seconds per move"
        MINUTES = "minutes", "Minutes per move"
        HOURS = "hours", "Hours per move"
        DAYS = "days", "Days per move"

    kind = models.CharField(max_length=32, db_index=True)
    title = models.CharField(max_length=80, blank=True)
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_matches")
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN, db_index=True)
    num_seats = models.PositiveSmallIntegerField()
    allow_spectators = models.BooleanField(default=True)
    # Spectators may chat among themselves, in a channel the players never see; the game's own
    # chat is the players' alone.
    spectator_chat = models.BooleanField(default=False)
    # The generator's seed. A committed game (``record_format`` 1) has none until it is set up:
    # it is then derived from ``secret`` and the seats' contributions (games/table/commitments.py).
    seed = models.BigIntegerField(null=True, blank=True)
    # Committed shuffles (docs/verify.md): the secret drawn when the game was created (64 hex
    # digits), shown to nobody until the game is over; the commitment to it, published at
    # once; the rules edition it commits to. ``record_format`` 0 marks a game set up without
    # a commitment (every game stored before them, and tests that give their own seed).
    secret = models.CharField(max_length=64, blank=True, editable=False)
    commitment = models.CharField(max_length=64, blank=True, editable=False)
    rules_edition = models.CharField(max_length=32, blank=True, editable=False)
    record_format = models.PositiveSmallIntegerField(default=0, editable=False)
    # A committed game whose seats were all filled when it was created (its creator and
    # computer players) is not dealt in that request: it waits for the creator's contribution,
    # which their page sends once it has shown them the commitment, until this time, when it
    # is dealt with zeros in its place (games/table/services.py, ``match_contribute``). Null
    # for every other game, and once the game is dealt.
    deal_due = models.DateTimeField(null=True, blank=True, editable=False)
    # The full options setup() was called with at start (creator's options plus what the
    # kind's hooks added, e.g. decks), so the game replays exactly from seed + moves.
    setup_options = models.JSONField(null=True, blank=True)
    # The current state (snapshot after ``move_count`` moves) and its version; every change
    # that clients must see bumps ``version``.
    # A json column, not jsonb, on PostgreSQL: written and read whole on every move (games/fields.py).
    # The parts of it the rules keep fixed after set-up (Game.fixed_keys) are stored apart in
    # ``state_fixed``, written once (games/state_storage.py); in memory ``state`` is whole.
    state = MatchStateField(null=True, blank=True)
    state_fixed = StateField(null=True, blank=True, editable=False)
    version = models.PositiveIntegerField(default=0)
    move_count = models.PositiveIntegerField(default=0)
    outcome = models.JSONField(null=True, blank=True)
    clock = models.CharField(max_length=8, choices=Clock.choices, default=Clock.DAYS)
    clock_amount = models.PositiveIntegerField(default=3, help_text="Seconds, minutes, hours or days per move.")
    weekend_pause = models.BooleanField(default=False)
    vacation_days = models.PositiveSmallIntegerField(default=0, help_text="Days a year each player's clock may stop.")
    rematch_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches")
    # Computer players (games/table/computers.py): seconds they wait before answering (so people can
    # follow the table), and whether one takes over the seat of a player who resigned or ran
    # out of time in a game of three or more, instead of that player leaving the table.
    computer_delay = models.PositiveSmallIntegerField(default=2)
    computer_takeover = models.BooleanField(default=False)
    # In a game of three or more, a seat whose time runs out on its own turn this many times
    # in a row is handed to a computer player for the rest of the game; before that the clock
    # ends the turn for it (games/table/referee.py).
    takeover_after = models.PositiveSmallIntegerField(default=2)
    # A game played for practice (a CCG game against a computer player): antes are played on
    # the table but nothing moves in anyone's collection.
    practice = models.BooleanField(default=False)
    # Counts for the players' ratings of this kind (games/players/ratings.py): asked by the creator
    # (on by default) and kept only when every seat is a person; a practice game never is.
    rated = models.BooleanField(default=False)
    # What the game is part of: '' for a game of its own, or a tournament's or a ladder's
    # game (the row that says which is games.tournaments' TournamentGame or LadderChallenge,
    # found by this match). Kept on the match so the end of an ordinary game, which the
    # table announces to everyone, costs the competitions no query to learn it is not theirs.
    competition = models.CharField(max_length=12, blank=True, default="")
    # The table asks for reliable players (games/table/reliability.py): only someone who
    # finished at least this share of their recent games (in per cent; 0 asks nothing) may
    # take a seat or accept an invitation.
    min_reliability = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "matches"
        ordering = ["-updated_at"]
        constraints = [models.CheckConstraint(condition=Q(num_seats__gte=1) & Q(num_seats__lte=8), name="match_seats_range"),
                       models.CheckConstraint(condition=Q(computer_delay__lte=60), name="match_computer_delay_range"),
                       models.CheckConstraint(condition=Q(takeover_after__gte=1) & Q(takeover_after__lte=5),
                                              name="match_takeover_after_range"),
                       models.CheckConstraint(condition=Q(min_reliability__lte=100), name="match_min_reliability_range")]
        indexes = [models.Index(fields=["deal_due"], condition=Q(deal_due__isnull=False), name="match_deal_due")]

    def __str__(self):
        return f"{self.kind} #{self.pk}"

    # --- the state's two columns (games/state_storage.py) ------------------------------
    @classmethod
    def from_db(cls, db, field_names, values):
        match = super().from_db(db, field_names, values)
        loaded = match.__dict__
        if "state" in loaded and "state_fixed" in loaded:
            match.state = state_storage.joined(match.state, match.state_fixed)
        return match

    def refresh_from_db(self, using=None, fields=None, from_queryset=None):
        # A deferred state is read with its fixed parts (alone it would lack them).
        if fields is not None and "state" in fields and "state_fixed" not in fields:
            fields = [*fields, "state_fixed"]
        super().refresh_from_db(using=using, fields=fields, from_queryset=from_queryset)

    def save(self, *args, **kwargs):
        update_fields = kwargs.get("update_fields")
        if update_fields is None or "state" in update_fields:
            # What the row holds, if loaded; not read from the database just for this (a
            # deferred column counts as nothing stored: the fixed parts are written again).
            stored = self.__dict__.get("state_fixed")
            fixed = state_storage.fixed_to_write(self.state, state_storage.fixed_keys(self.kind), stored)
            if fixed is not None:
                self.state_fixed = fixed
                if update_fields is not None:
                    kwargs["update_fields"] = [*update_fields, "state_fixed"]
        super().save(*args, **kwargs)

    @property
    def is_live(self) -> bool:
        return self.status == self.Status.ACTIVE

    # --- in words, for the lists of games ------------------------------------------------
    @property
    def game_name(self) -> str:
        """The game's own name ("Cup Quest"), which every list shows before the title."""
        from games import registry  # the rooms import the models

        try:
            return registry.get(self.kind).name
        except LookupError:
            return self.kind


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                             related_name="seats")
    accepted = models.BooleanField(default=False, help_text="False while an invitation is unanswered.")
    # A computer player's level ('' for a person): such a seat has no user and moves through
    # games/table/computers.py, with the same service path as people.
    computer = models.CharField(max_length=24, blank=True)
    # The person who held this seat until a computer player took it over (they resigned or
    # ran out of time): a seat once left stays left, so they may not sit at this table again,
    # though they may still look at it (games/table/access.py).
    left_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="+")
    # What this player chose on joining, for the game's setup (e.g. which deck).
    choice = models.JSONField(default=dict, blank=True)
    # A committed game's share of this seat in its seed (docs/verify.md): 32 hex digits, given
    # by the player's browser on joining (a computer seat's, or a person's who sent none: zeros);
    # '' while nobody has taken the seat, for a newcomer in a game under way, and in a game
    # not committed.
    contribution = models.CharField(max_length=32, blank=True, editable=False)
    # What the rules wait for from this seat ('' when nothing), which decision of that kind
    # (the rules' Pending.key), and until when.
    waiting_for = models.CharField(max_length=24, blank=True)
    waiting_key = models.CharField(max_length=40, blank=True)
    # The match version at which this seat's own situation last changed (its pending entry,
    # or its own move): a move made on a version at least this recent is not stale, however
    # the other seats moved since (games whose rules set strict_versions = False).
    situation_version = models.PositiveIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    deadline_warned = models.BooleanField(default=False)
    # A computer player's seat only: when its move is due, the table's delay after its own
    # decision became due (set then, and kept however the other seats move meanwhile); None
    # when it owes nothing. The Celery task runs at this time, the sweep reads this column.
    computer_due = models.DateTimeField(null=True, blank=True)
    paused_until = models.DateTimeField(null=True, blank=True)
    # The clock as referee (games/table/referee.py): how many moves the person in this seat
    # made of their own (not the clock's, a computer's or a preset's); how many times in a row
    # their time ran out on their own turn; whether it ever did in this game (their
    # reliability, and their place in the ratings); and whether they joined a game already
    # under way (such a seat never aborts the game).
    own_moves = models.PositiveIntegerField(default=0)
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    ran_out = models.BooleanField(default=False)
    joined_late = models.BooleanField(default=False)
    # This seat's person left a game of three or more that went on without them: they resigned
    # out of it, or the clock sent them out (services._mark_out); or the clock sent them out
    # and their leaving ended the game (services._walked_out). With ``ran_out`` and
    # ``left_by`` (a computer player took the seat) it is what their reliability counts
    # (games/table/reliability.py); the ratings rank such a player last (games/players/ratings.py).
    walked_out = models.BooleanField(default=False)
    vacation_days_used = models.PositiveSmallIntegerField(default=0)
    vacation_year = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["match_id", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="seat_unique_index"),
            models.UniqueConstraint(fields=["match", "user"], condition=Q(user__isnull=False), name="seat_unique_user"),
        ]
        # The sweep's question, "which computer moves are due?", reads only these rows.
        indexes = [models.Index(fields=["computer_due"], condition=Q(computer_due__isnull=False),
                                name="seat_computer_due")]

    def __str__(self):
        return f"seat {self.index} of {self.match_id}"

    @property
    def computer_name(self) -> str:
        """"Computer (Knight)" for a computer player's seat, '' for a person's."""
        return f"Computer ({level_label(self.computer)})" if self.computer else ""

    @property
    def is_open(self) -> bool:
        """Nobody holds it yet: no person and no computer player."""
        return self.user_id is None and not self.computer


class MoveRecord(models.Model):
    """One applied move. Append-only: setup(seed) + these moves in ``seq`` order replay the game."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    move = models.JSONField()
    events = models.JSONField(default=list)
    key = models.CharField(max_length=64)
    by_timeout = models.BooleanField(default=False)
    version_after = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="move_unique_seq"),
            models.UniqueConstraint(fields=["match", "key"], name="move_unique_key"),
        ]


class ChatMessage(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    text = models.CharField(max_length=500)
    # True: said in the spectators' own channel (players do not see it).
    spectators = models.BooleanField(default=False)
    # 1, 2, 3, ... in the match's channel (the players' or the spectators'), given under the
    # match's lock (services.chat_post): a page that receives seq n+2 after n knows it missed
    # a line and fetches it. Per channel, so a player never waits for a line it may not read.
    seq = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    # The sender's own name for the line (the page makes one per line typed): a line sent
    # again after its answer was lost is stored once (services.chat_post). Null: none given.
    key = models.CharField(max_length=64, null=True, blank=True)

    class Meta:
        ordering = ["match_id", "id"]
        constraints = [models.UniqueConstraint(fields=["match", "spectators", "seq"], name="chat_seq_unique"),
                       models.UniqueConstraint(fields=["match", "user", "key"], condition=models.Q(key__isnull=False),
                                               name="chat_key_unique")]


class Notification(models.Model):
    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", "Your turn"
        DEADLINE_NEAR = "deadline_near", "Deadline near"
        INVITED = "invited", "Invitation"
        GAME_OVER = "game_over", "Game over"
        TIMEOUT = "timeout", "Timed out"
        CHAT = "chat", "Chat"
        JOINED = "joined", "A player joined"
        # A tournament started, a new round has a game of yours, a tournament ended with your
        # place (games/tournaments/notices.py).
        TOURNAMENT = "tournament", "Tournament news"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.CASCADE)
    # A tournament's notice links to the tournament when it names no game of the reader's.
    tournament = models.ForeignKey("Tournament", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    text = models.CharField(max_length=300)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)
    # When this (version of the) notice went to the person's push outbox, or was passed over
    # (no subscription, an event they did not choose); NULL while it waits (games/inbox/push.py).
    # Refreshing an unread notice sets it back to NULL, like ``emailed_at``.
    pushed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "read_at"], name="notif_user_unread"),
                   models.Index(fields=["emailed_at", "user"], name="notif_email_queue"),
                   # The push sweep's queue: only notices waiting for a push are in it.
                   models.Index(fields=["created_at"], condition=Q(pushed_at__isnull=True, read_at__isnull=True),
                                name="notif_push_queue")]


class Rating(models.Model):
    """A person's rating in one game kind (games/players/ratings.py): the model's belief about their
    skill (``mu``, ``sigma``) after ``games`` rated games, and the number shown for it."""

    # Provisional until this many rated games of the kind (the pages mark it "?"); the
    # leaderboard's index below has the same number.
    PROVISIONAL_GAMES = 10

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    kind = models.CharField(max_length=32)
    mu = models.FloatField()
    sigma = models.FloatField()
    # The displayed number (docs/ratings.md), kept beside mu and sigma so a leaderboard sorts
    # on an index instead of computing it for every row.
    display = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="rating_unique_user_kind")]
        # The leaderboard: established players of a kind, best first (games/players/ratings.py
        # PROVISIONAL_GAMES is the 10 in the condition).
        indexes = [models.Index(fields=["kind", "-display", "user"], condition=Q(games__gte=10),
                                name="rating_board")]

    def __str__(self):
        return f"{self.user_id} in {self.kind}: {self.display:.0f}"


class RatingChange(models.Model):
    """What one rated game did to one player's rating: written once, in the transaction that
    recorded the game's end; (match, user) is unique, so a game rates each player at most
    once whatever path ends it. The games' ``finished_at`` (stamped under the players'
    rating locks) orders the updates: ratings_recompute replays them in that order."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    kind = models.CharField(max_length=32)
    seat = models.PositiveSmallIntegerField()
    # 1 for the winners (everyone who played it out, in a draw), then those who played the
    # game out, then those who left it before the end (games/players/ratings.py).
    rank = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    display_before = models.FloatField()
    display_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="rating_change_unique_match_user")]
        # A profile's chart: one person's changes in one kind, in order.
        indexes = [models.Index(fields=["user", "kind", "id"], name="rating_change_history")]


class Reminder(models.Model):
    """One reminder before one deadline of one seat (games/inbox/reminders.py): a timer row like the
    deadline itself. Planned after the change that set the deadline; fired once by the sweep,
    which claims it under a row lock in the transaction that writes its notice; dropped
    unfired when the seat's deadline is no longer the one it was planned for (they moved)."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="reminders")
    # The deadline it warns of: a seat whose deadline changed since owes it nothing.
    deadline = models.DateTimeField()
    # How long before the deadline; 0 marks a planned deadline with no reminder before it.
    before = models.DurationField()
    due_at = models.DateTimeField()
    fired_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["seat", "deadline", "before"], name="reminder_unique")]
        # The sweep's queue: only reminders not yet fired are in it.
        indexes = [models.Index(fields=["due_at"], condition=Q(fired_at__isnull=True), name="reminder_due")]

    def __str__(self):
        return f"reminder {self.before} before {self.deadline} for seat {self.seat_id}"


class MatchVisit(models.Model):
    """Where a player last looked at a game (games/inbox/recap.py): the moves and the chat line
    their page had shown them, so the next time they open it they read what happened since."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField(default=0)      # moves seen (MoveRecord.seq up to this)
    chat_id = models.BigIntegerField(default=0)       # the last chat line seen
    at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "match"], name="match_visit_unique")]

    def __str__(self):
        return f"{self.user_id} saw match {self.match_id} at move {self.seq}"


# --- tournaments and ladders (games/tournaments/) ----------------------------------------

class Tournament(models.Model):
    """A tournament of one game (the formats' rules: docs/tournaments.md). Its games are
    ordinary matches, played by correspondence on the tournament's clock; a round lasts at
    most ``round_days``, and the next is paired as soon as the last game of a round ends."""

    class Format(models.TextChoices):
        SWISS = "swiss", "Swiss"
        TABLES = "tables", "Tables by score"
        ROUND_ROBIN = "round_robin", "Round robin"

    class Status(models.TextChoices):
        OPEN = "open", "Taking entries"
        RUNNING = "running", "Running"
        PAUSED = "paused", "Paused"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=32, db_index=True)
    format = models.CharField(max_length=12, choices=Format.choices)
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="organised_tournaments")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    # Swiss and tables: the rounds the organiser chose. Round robin: set at the start from the
    # schedule (every pair once, or every seat once at a group's table).
    rounds = models.PositiveSmallIntegerField(default=3)
    # Swiss: 2. Tables: the players at a table. Round robin: the players in a group (a group of
    # a game two may play meets in pairs; of a game for three or more, at one table).
    table_size = models.PositiveSmallIntegerField(default=2)
    max_players = models.PositiveSmallIntegerField(default=64)
    clock = models.CharField(max_length=8, choices=Match.Clock.choices, default=Match.Clock.DAYS)
    clock_amount = models.PositiveIntegerField(default=3)
    # A round's games still running this long after the round began are settled by the
    # time-out rules (games/tournaments/rounds.py).
    round_days = models.PositiveSmallIntegerField(default=14)
    rated = models.BooleanField(default=True)
    invitation_only = models.BooleanField(default=False)
    # Entrants' rating (games/players/ratings.py's display) in this game must be at least this.
    min_rating = models.IntegerField(null=True, blank=True)
    # Entrants must have finished at least this share of their recent games, in per cent (0:
    # anyone), as a table may ask (Match.min_reliability; games/table/reliability.py).
    min_reliability = models.PositiveSmallIntegerField(default=0)
    # When the sweep starts it, if the organiser has not (None: the organiser starts it).
    starts_at = models.DateTimeField(null=True, blank=True)
    current_round = models.PositiveSmallIntegerField(default=0)
    paused_at = models.DateTimeField(null=True, blank=True)
    # Why it ended early, or anything else the organiser's page should say.
    note = models.CharField(max_length=200, blank=True)
    # Bumped by every change its page shows (an entry, a result, a round): its live group
    # carries the number, and a page behind it reloads what it shows.
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(max_players__gte=2) & Q(max_players__lte=256),
                                   name="tournament_max_players_range"),
            models.CheckConstraint(condition=Q(table_size__gte=2) & Q(table_size__lte=16),
                                   name="tournament_table_size_range"),
            models.CheckConstraint(condition=Q(rounds__gte=1) & Q(rounds__lte=64), name="tournament_rounds_range"),
            models.CheckConstraint(condition=Q(min_reliability__lte=100), name="tournament_min_reliability_range"),
        ]
        # The sweep's question: which open tournaments are due to start?
        indexes = [models.Index(fields=["starts_at"], condition=Q(status="open", starts_at__isnull=False),
                                name="tournament_due_start")]

    def __str__(self):
        return self.name


class TournamentEntry(models.Model):
    """A player of a tournament: a person, or (in a practice tournament only) a computer player."""

    class Status(models.TextChoices):
        INVITED = "invited", "Invited"
        ENTERED = "entered", "Entered"
        WITHDRAWN = "withdrawn", "Withdrawn"
        REMOVED = "removed", "Removed"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                             related_name="tournament_entries")
    computer = models.CharField(max_length=24, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ENTERED)
    # The rating (display) in the tournament's game when it started: the order within a score
    # and the seeding of groups.
    seed_rating = models.FloatField(default=0)
    group = models.PositiveSmallIntegerField(null=True, blank=True)  # round robin: from 1
    # What the player chose for the tournament's games (the CCG's deck), as a seat's choice.
    choice = models.JSONField(default=dict, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament_id", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], condition=Q(user__isnull=False),
                                               name="tournament_entry_unique_user")]

    def __str__(self):
        return f"{self.name} in {self.tournament_id}"

    @property
    def name(self) -> str:
        if self.computer:
            return f"Computer {self.pk} ({level_label(self.computer)})"
        return self.user.username if self.user_id else "?"

    @property
    def playing(self) -> bool:
        """Still paired in the rounds to come."""
        return self.status == self.Status.ENTERED


class TournamentRound(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField()
    # Games still running then are settled by the time-out rules and the round closes.
    deadline = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="tournament_round_unique")]
        # The sweep's question: which open rounds are past their deadline?
        indexes = [models.Index(fields=["deadline"], condition=Q(closed_at__isnull=True), name="tournament_round_due")]

    def __str__(self):
        return f"round {self.number} of {self.tournament_id}"


class TournamentGame(models.Model):
    """One pairing or table of a round (a match), or a player's bye or round sat out (none)."""

    class Kind(models.TextChoices):
        GAME = "game", "Game"
        BYE = "bye", "Bye"          # a Swiss round's odd player out: a win
        SIT_OUT = "sit_out", "Sits out"  # tables: a table's average; round robin: nothing
        # Round robin: the scheduled opponent withdrew, so the game is won without play.
        FORFEIT = "forfeit", "Won by forfeit"

    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="games")
    # Said again here so that a tournament's every game is one indexed read.
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.GAME)
    board = models.PositiveSmallIntegerField(default=1)  # 1 the top board or table
    match = models.OneToOneField(Match, null=True, blank=True, on_delete=models.PROTECT,
                                 related_name="tournament_game")
    # TournamentEntry ids in seat order (seat 1 first).
    players = models.JSONField(default=list)
    # Once decided: each player's place at this game, 1 first, equal numbers a tie, in the
    # order of ``players`` (games/tournaments/results.py says how an ending gives them).
    places = models.JSONField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament_id", "round_id", "board"]

    def __str__(self):
        return f"board {self.board} of {self.round}"


class Ladder(models.Model):
    """A game's ladder: open all the time, players on rungs, challenges up (games/tournaments/ladder.py)."""

    kind = models.CharField(max_length=32, unique=True)
    # How many rungs above them a player may challenge.
    reach = models.PositiveSmallIntegerField(default=3)
    clock = models.CharField(max_length=8, choices=Match.Clock.choices, default=Match.Clock.DAYS)
    clock_amount = models.PositiveIntegerField(default=3)
    rated = models.BooleanField(default=True)
    version = models.PositiveIntegerField(default=0)

    def __str__(self):
        return f"ladder of {self.kind}"


class LadderRung(models.Model):
    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="rungs")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ladder_rungs")
    position = models.PositiveIntegerField()  # 1 the top rung
    # What the player chose for their ladder games (the CCG's deck), as a seat's choice.
    choice = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["ladder_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["ladder", "user"], name="ladder_rung_unique_user"),
            # Checked at commit: a result rewrites several rungs' positions in one go.
            models.UniqueConstraint(fields=["ladder", "position"], name="ladder_rung_unique_position",
                                    deferrable=models.Deferrable.DEFERRED),
        ]


class LadderChallenge(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Being played"
        DONE = "done", "Played"

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="challenges")
    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    defender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    match = models.OneToOneField(Match, on_delete=models.PROTECT, related_name="ladder_challenge")
    status = models.CharField(max_length=6, choices=Status.choices, default=Status.OPEN)
    # Once played: who won (None: a draw or no result) and who ran out of time, if anyone.
    winner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    timed_out = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["ladder"], condition=Q(status="open"), name="ladder_challenge_open")]
