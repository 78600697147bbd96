"""Idempotent upsert of card dicts into the card database.

Used by the ``load_cards`` command and by the data migration that puts the starter set
into every fresh database. It takes the model classes as arguments because a migration
must use its historical models, which know nothing of ``Card.save()``; for that reason
the derived ``search_text`` column is computed here too.
"""
from __future__ import annotations

from decks import cardformat

SCALAR_FIELDS = (
    "code", "title", "type", "grail", "combat", "wits", "castle_icon", "unique", "castle_defense",
    "draw_bonus", "quote", "rarity", "text",
)
JSON_FIELDS = (
    "castle_table", "castle_occupant", "village_table", "page", "round_table_bonus",
    "primary", "secondary", "secondary_adversary", "tags",
)
STRING_FIELDS = ("title", "quote", "text")


def search_text_for(data: dict) -> str:
    adversary = data.get("secondary_adversary")
    adversary_title = adversary.get("title", "") if isinstance(adversary, dict) else ""
    parts = [data.get("title") or "", data.get("text") or "", data.get("quote") or "", adversary_title]
    return " ".join(parts).lower()


def row_values(data: dict) -> dict:
    """Model field values for a normalised card dict."""
    values = {name: data.get(name) for name in SCALAR_FIELDS}
    for name in STRING_FIELDS:
        values[name] = values[name] or ""
    values.update({name: data.get(name) for name in JSON_FIELDS})
    for name in ("round_table_bonus", "primary", "secondary", "tags"):
        if values[name] is None:
            values[name] = []
    values["draw_bonus"] = values["draw_bonus"] or 0
    values["set_code"] = data.get("set") or "base"
    values["search_text"] = search_text_for(data)
    return values


def changed_fields(card, values: dict) -> list[str]:
    return sorted(name for name, value in values.items() if name != "search_text" and getattr(card, name) != value)


def upsert_cards(cards: list[dict], *, Card, CardRevision, source: str, actor=None, note: str = "") -> dict:
    """Create or update each card by code; return {"created": [...], "updated": [...], "unchanged": n}.

    Raises ValueError listing every invalid card before writing anything.
    """
    normalised, problems = [], []
    for index, raw in enumerate(cards):
        errors = cardformat.card_errors(raw)
        code = raw.get("code", f"#{index + 1}") if isinstance(raw, dict) else f"#{index + 1}"
        if errors:
            problems.append(f"{code}: {'; '.join(errors)}")
        else:
            normalised.append(cardformat.normalize(raw))
    if problems:
        raise ValueError("Invalid cards:\n" + "\n".join(problems))
    existing = {c.code: c for c in Card.objects.filter(code__in=[d["code"] for d in normalised])}
    report = {"created": [], "updated": [], "unchanged": 0}
    new_cards, revisions = [], []
    for data in normalised:
        values = row_values(data)
        card = existing.get(data["code"])
        if card is None:
            new_cards.append((Card(**values), data))
            continue
        fields = changed_fields(card, values)
        if not fields:
            report["unchanged"] += 1
            continue
        for name, value in values.items():
            setattr(card, name, value)
        card.save()
        report["updated"].append(card.code)
        number = CardRevision.objects.filter(card=card).count() + 1
        revisions.append(CardRevision(card=card, number=number, data=data, changed_fields=fields,
                                      changed_by=actor, source=source, note=note))
    # New cards in one statement each for cards and revisions: a fresh database loads fast.
    created = Card.objects.bulk_create([card for card, _ in new_cards])
    for card, (_, data) in zip(created, new_cards):
        report["created"].append(card.code)
        revisions.append(CardRevision(card=card, number=1, data=data, changed_fields=["*"],
                                      changed_by=actor, source=source, note=note))
    CardRevision.objects.bulk_create(revisions)
    return report
