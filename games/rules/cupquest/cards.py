"""The standard 52-card deck as Cup Quest uses it.

A card is a short string: rank then suit, e.g. ``"7H"``, ``"10S"``, ``"QC"``, ``"AD"``.
Ranks 2-10 are movement cards; Jack, Queen and King move four or teleport; Aces freeze.
"""
from __future__ import annotations

SUITS = ("C", "D", "H", "S")
SUIT_NAMES = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}
NUMBER_RANKS = tuple(str(n) for n in range(2, 11))
FACE_RANKS = ("J", "Q", "K")
RANKS = NUMBER_RANKS + FACE_RANKS + ("A",)
RANK_NAMES = {"J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
FACE_STEPS = 4  # a court card played as a plain move walks this far


def new_deck() -> list[str]:
    """All 52 cards in a fixed order (shuffle with the game's Rng)."""
    return [rank + suit for suit in SUITS for rank in RANKS]


def is_card(card: object) -> bool:
    return isinstance(card, str) and len(card) >= 2 and card[:-1] in RANKS and card[-1] in SUITS


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def is_face(card: str) -> bool:
    return rank(card) in FACE_RANKS


def is_ace(card: str) -> bool:
    return rank(card) == "A"


def steps(card: str) -> int | None:
    """How many spaces the card moves as a plain move; None for an Ace."""
    r = rank(card)
    if r in NUMBER_RANKS:
        return int(r)
    if r in FACE_RANKS:
        return FACE_STEPS
    return None


def card_name(card: str) -> str:
    """``"QH"`` -> ``"Queen of Hearts"``."""
    r = rank(card)
    return f"{RANK_NAMES.get(r, r)} of {SUIT_NAMES[suit(card)]}"
