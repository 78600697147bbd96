"""Cards, collections (holdings + an append-only ledger), ante stakes and decks.

The card format itself (fields, validation, power budget) lives in the pure module
``games/rules/ccg/cards.py``; a ``Card`` row keeps one model field per field of that format
so the admin can search and filter, and ``Card.to_format()`` gives the plain dict back.
"""
from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

# Card types and rarities are the rules' own, defined once in the pure card format.
from games.rules.ccg.cards import CARD_TYPES, RARITIES

TITLE_MAX = 80
QUOTE_MAX = 280
TEXT_MAX = 1000

# Fields of the card format stored as JSON (structured, validated by the pure card module).
JSON_FIELDS = (
    "castle_table", "castle_occupant", "village_table", "page", "round_table_bonus",
    "primary", "secondary", "secondary_adversary", "tags",
)
SCALAR_FIELDS = (
    "code", "title", "type", "grail", "combat", "wits", "castle_icon", "unique", "castle_defense",
    "draw_bonus", "quote", "rarity", "text",
)


def _choices(values):
    return [(v, v.replace("_", " ").title()) for v in values]


class Card(models.Model):
    class Review(models.TextChoices):
        OFFICIAL = "official", "Official"
        PRIVATE = "private", "Written, not submitted"
        SUBMITTED = "submitted", "Submitted for review"
        REJECTED = "rejected", "Not accepted"

    code = models.SlugField(max_length=100, unique=True)
    title = models.CharField(max_length=TITLE_MAX, db_index=True)
    type = models.CharField(max_length=20, choices=_choices(CARD_TYPES), db_index=True)
    grail = models.PositiveSmallIntegerField(db_index=True)
    combat = models.SmallIntegerField(null=True, blank=True, db_index=True)
    wits = models.SmallIntegerField(null=True, blank=True, db_index=True)
    castle_icon = models.BooleanField(default=False)
    unique = models.BooleanField(default=True)
    castle_defense = models.SmallIntegerField(null=True, blank=True)
    castle_table = models.JSONField(null=True, blank=True)
    castle_occupant = models.JSONField(null=True, blank=True)
    village_table = models.JSONField(null=True, blank=True)
    page = models.JSONField(null=True, blank=True)
    draw_bonus = models.SmallIntegerField(default=0)
    round_table_bonus = models.JSONField(default=list, blank=True)
    quote = models.CharField(max_length=QUOTE_MAX, blank=True)
    primary = models.JSONField(default=list, blank=True)
    secondary = models.JSONField(default=list, blank=True)
    secondary_adversary = models.JSONField(null=True, blank=True)
    tags = models.JSONField(default=list, blank=True)
    rarity = models.CharField(max_length=10, choices=_choices(RARITIES), db_index=True)
    set_code = models.CharField("set", max_length=20, default="base", db_index=True)
    text = models.TextField(max_length=TEXT_MAX, blank=True)
    # Lower-cased title + text + quote, kept in step on save, so text search is one column.
    search_text = models.TextField(blank=True, editable=False)
    image = models.ImageField(upload_to="cards/", blank=True)
    # Write Yer Own cards: who wrote it and where it stands in the review queue.
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                               related_name="written_cards")
    review = models.CharField(max_length=10, choices=Review.choices, default=Review.OFFICIAL, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["type", "title"]
        constraints = [
            models.CheckConstraint(condition=Q(grail__gte=0, grail__lte=7), name="card_grail_0_7"),
            models.CheckConstraint(condition=Q(type__in=CARD_TYPES), name="card_type_known"),
            models.CheckConstraint(condition=Q(rarity__in=RARITIES), name="card_rarity_known"),
            # Only written (authored) cards may sit outside the official set's review state.
            models.CheckConstraint(condition=Q(author__isnull=False) | Q(review="official"),
                                   name="card_unauthored_is_official"),
        ]

    def __str__(self):
        return self.title

    # -- the plain card format ------------------------------------------------------------
    def to_format(self) -> dict:
        data = {name: getattr(self, name) for name in SCALAR_FIELDS}
        data.update({name: getattr(self, name) for name in JSON_FIELDS})
        data["set"] = self.set_code
        if self.author_id:
            data["author"] = self.author.username
        return data

    def apply_format(self, data: dict) -> None:
        """Copy a (normalised) card dict onto this row; ``author`` is handled by the caller."""
        for name in SCALAR_FIELDS:
            if name in data:
                value = data[name]
                if name in ("quote", "text", "title") and value is None:
                    value = ""
                setattr(self, name, value)
        for name in JSON_FIELDS:
            if name in data:
                setattr(self, name, data[name])
        if "set" in data:
            self.set_code = data["set"]

    @property
    def is_official(self) -> bool:
        return self.review == self.Review.OFFICIAL

    def clean(self):
        from decks import cardformat  # one source of truth: the pure card module
        errors = cardformat.card_errors(self.to_format())
        if errors:
            raise ValidationError(errors)

    def save(self, *args, **kwargs):
        adversary = (self.secondary_adversary or {}).get("title", "") if isinstance(self.secondary_adversary, dict) else ""
        self.search_text = " ".join([self.title, self.text, self.quote, adversary]).lower()
        super().save(*args, **kwargs)


class CardRevision(models.Model):
    """Every change of a card (errata): the full card as it became, and who changed what."""
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    data = models.JSONField()
    changed_fields = models.JSONField(default=list)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    source = models.CharField(max_length=40)  # "admin", "import", "load_cards", "write_yer_own", ...
    note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["card", "-number"]
        constraints = [models.UniqueConstraint(fields=["card", "number"], name="card_revision_number_unique")]

    def __str__(self):
        return f"{self.card.code} r{self.number}"


class Holding(models.Model):
    """How many copies of a card a user owns: ``quantity`` free, ``held`` staked as antes.

    Never written directly: only ``services`` change it, always together with a
    ``LedgerEntry`` in the same transaction, so each column equals its ledger sum.
    """
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="holdings")
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="holdings")
    quantity = models.IntegerField(default=0)
    held = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "card"], name="holding_user_card_unique"),
            models.CheckConstraint(condition=Q(quantity__gte=0), name="holding_quantity_not_negative"),
            models.CheckConstraint(condition=Q(held__gte=0), name="holding_held_not_negative"),
        ]

    @property
    def owned(self) -> int:
        return self.quantity + self.held


class LedgerReason(models.TextChoices):
    STARTER_GRANT = "starter_grant", "Starter grant"
    ADMIN_GRANT = "admin_grant", "Admin grant"
    ANTE_HELD = "ante_held", "Staked as ante"
    ANTE_RELEASED = "ante_released", "Ante returned"
    ANTE_RETURNED = "ante_returned", "Own ante returned (game won)"
    ANTE_WON = "ante_won", "Ante won"
    ANTE_LOST = "ante_lost", "Ante lost"
    WYO_WRITTEN = "wyo_written", "Write Yer Own written"


class LedgerEntry(models.Model):
    """One append-only change of one user's holding of one card."""
    Reason = LedgerReason

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ledger")
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="ledger")
    quantity_delta = models.IntegerField(default=0)
    held_delta = models.IntegerField(default=0)
    reason = models.CharField(max_length=20, choices=Reason.choices)
    match_id = models.CharField(max_length=64, blank=True, db_index=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")
    note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        verbose_name_plural = "ledger entries"
        indexes = [models.Index(fields=["user", "card"])]
        constraints = [
            models.CheckConstraint(condition=~Q(quantity_delta=0, held_delta=0), name="ledger_entry_changes_something"),
            models.CheckConstraint(condition=Q(reason__in=LedgerReason.values), name="ledger_reason_known"),
        ]

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError("Ledger entries are append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("Ledger entries are append-only.")


class AnteStake(models.Model):
    """One copy of a card staked by a user in a match, until the match settles or is abandoned."""
    class Status(models.TextChoices):
        HELD = "held", "Held"
        SETTLED = "settled", "Settled"
        RELEASED = "released", "Released"

    match_id = models.CharField(max_length=64, db_index=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ante_stakes")
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.HELD)
    winner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]


class Deck(models.Model):
    NAME_MAX = 80
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decks")
    name = models.CharField(max_length=NAME_MAX)
    # {card code: quantity} of the latest version, denormalised for the list page.
    cards = models.JSONField(default=dict)
    version = models.PositiveIntegerField(default=0)
    # Shared by its owner: listed on their profile, its list readable by anyone (opponents
    # included) at decks/<id>/list/. Off by default.
    public = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "id"]

    def __str__(self):
        return self.name

    @property
    def size(self) -> int:
        return sum(self.cards.values())


class DeckVersion(models.Model):
    """Every save of a deck; restoring an old one saves it again as the newest."""
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=Deck.NAME_MAX)
    cards = models.JSONField(default=dict)
    note = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["deck", "-number"]
        constraints = [models.UniqueConstraint(fields=["deck", "number"], name="deck_version_number_unique")]

    @property
    def size(self) -> int:
        return sum(self.cards.values())


class ImportJob(models.Model):
    """A bulk card import: parsed and previewed first (dry run), applied in steps afterwards."""
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    filename = models.CharField(max_length=200)
    cards = models.JSONField(default=list)      # normalised card dicts, in file order
    preview = models.JSONField(default=dict)    # {"create": [...], "update": [...], "unchanged": n, "errors": [...]}
    applied = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    @property
    def done(self) -> bool:
        return self.applied >= len(self.cards)
