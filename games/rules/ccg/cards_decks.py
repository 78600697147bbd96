"""Deck rules: ``validate_deck`` lists the reasons a deck (one dict per copy) is unplayable."""
from __future__ import annotations

from collections import Counter

from .cards import PLACE_KINDS, TAG_ARTHUR, TAG_PATSY, TAG_WRITE_YER_OWN, normalize_card
from .cards_power import check_power_budget
from .cards_validation import validate_card


DECK_MIN_SIZE = 40
DECK_MAX_SIZE = 80
MAX_COPIES_UNIQUE = 3
MIN_PLACE_CARDS = 16


def validate_deck(cards: list[dict]) -> list[str]:
    """Reasons a deck is not playable; empty when it is. ``cards`` holds one dict per copy.

    The rules chosen (why, in docs/rules/ccg-cards.md): 40 to 80 cards; at least one
    Arthur and one Patsy; at most 3 copies of any unique card, generic cards unlimited;
    at least 16 place cards (rule 6.2) besides the starting Arthur and Patsy; every card
    well formed and every written card within its power budget.
    """
    if not isinstance(cards, list):
        return ["A deck must be a list of cards."]
    errors = []
    for card in cards:
        reasons = validate_card(card)
        if not reasons and TAG_WRITE_YER_OWN in card.get("tags", []):
            reasons = check_power_budget(card)
        if reasons:
            name = card.get("code", "?") if isinstance(card, dict) else "?"
            errors.append(f"card '{name}': {reasons[0]}")
    if errors:
        return sorted(set(errors))
    cards = [normalize_card(c) for c in cards]
    if len(cards) < DECK_MIN_SIZE:
        errors.append(f"a deck needs at least {DECK_MIN_SIZE} cards; this one has {len(cards)}.")
    if len(cards) > DECK_MAX_SIZE:
        errors.append(f"a deck holds at most {DECK_MAX_SIZE} cards; this one has {len(cards)}.")
    arthurs = [c for c in cards if TAG_ARTHUR in c["tags"] and c["type"] == "knight"]
    patsies = [c for c in cards if TAG_PATSY in c["tags"] and c["type"] == "page"]
    if not arthurs:
        errors.append("a deck must hold an Arthur.")
    if not patsies:
        errors.append("a deck must hold a Patsy.")
    copies = Counter(c["code"] for c in cards if c["unique"])
    for code, count in sorted(copies.items()):
        if count > MAX_COPIES_UNIQUE:
            errors.append(f"at most {MAX_COPIES_UNIQUE} copies of the unique card '{code}'; this deck has {count}.")
    by_code = {}
    for c in cards:
        if by_code.setdefault(c["code"], c) != c:
            errors.append(f"two different cards share the code '{c['code']}'.")
    # One Arthur and one Patsy are set aside before the deck is laid out (rule 2.1).
    places = sum(1 for c in cards if c["type"] in PLACE_KINDS) - (1 if arthurs else 0) - (1 if patsies else 0)
    if places < MIN_PLACE_CARDS:
        errors.append(f"a deck needs at least {MIN_PLACE_CARDS} place cards (lands, castles, characters, items, villages, pages, perils) besides Arthur and Patsy; this one has {places}.")
    return list(dict.fromkeys(errors))  # drop repeats, keep order
