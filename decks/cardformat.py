"""The card database's door to the pure card module (``games/rules/ccg/cards.py``).

Every check of a card, a deck or a Write Yer Own design goes through here to the one
source of truth, so the admin, the services and the engine never disagree.
"""
from __future__ import annotations

import json
from pathlib import Path

from games.rules.ccg import cards as ccg_cards
from games.rules.ccg import cards_decks, cards_power, cards_text, cards_validation
from games.rules.ccg import vocabulary

DATA_DIR = Path(ccg_cards.__file__).resolve().parent / "data"


def normalize(card: dict) -> dict:
    return ccg_cards.normalize_card(dict(card))


def card_errors(card: dict) -> list[str]:
    """Reasons the card is not valid (empty when valid), after filling defaults."""
    try:
        normal = normalize(card)
    except Exception as exc:  # a malformed dict can trip the normaliser itself
        return [f"Malformed card: {exc}"]
    return list(cards_validation.validate_card(normal))


def budget_errors(card: dict) -> list[str]:
    return list(cards_power.check_power_budget(normalize(card)))


def power_score(card: dict) -> int:
    return cards_power.power_score(normalize(card))


def power_budget(card_type: str) -> int | None:
    return cards_power.POWER_BUDGET.get(card_type)


def rules_text(card: dict) -> str:
    return cards_text.card_text(normalize(card))


# The fields whose meaning the printed text states: when one changes, the text must follow.
EFFECT_FIELDS = ("primary", "secondary", "round_table_bonus", "castle_defense", "castle_table", "castle_occupant",
                 "village_table", "page", "draw_bonus")


def printed_text(card: dict) -> str:
    """The card's text in words, as printed under its picture: the rules text without its
    first line (type, grail number and statistics, which the face shows on their own)."""
    return " ".join(rules_text(card).splitlines()[1:])


def effect_changes(before: dict, after: dict) -> list[str]:
    """The effect fields that differ between two card dicts (both normalised here)."""
    before, after = normalize(before), normalize(after)
    return [name for name in EFFECT_FIELDS if before.get(name) != after.get(name)]


def effects_errors(effects) -> list[str]:
    return vocabulary.validate_effects(effects)


def effects_text(effects) -> str:
    return vocabulary.describe_effects(effects) if not vocabulary.validate_effects(effects) else ""


def deck_errors(cards: list[dict]) -> list[str]:
    """Reasons a deck (a list of card dicts, one per copy) is not playable."""
    return list(cards_decks.validate_deck(cards))


def load_json(name: str):
    with open(DATA_DIR / name, encoding="utf-8") as fh:
        return json.load(fh)


def starter_set() -> list[dict]:
    return load_json("starter_set.json")


def starter_decks() -> list[dict]:
    return load_json("starter_decks.json")


def starter_collection():
    return load_json("starter_collection.json")
