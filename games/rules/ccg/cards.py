"""The MPHG CCG card format: its constants and ``normalize_card``.

A card is a plain JSON object (see ``docs/rules/ccg-cards.md`` for every field). The card
modules are pure: they read no files, so the engine's tests, the card database and the
Write Yer Own designer can all share them. The starter set itself lives in
``data/starter_set.json``. Each job has its own module above this one:

  cards.normalize_card(card) -> dict                  fills defaults, never mutates its argument
  cards_validation.validate_card(card) -> list[str]   reasons the card is malformed; empty = valid
  cards_text.card_text(card, titles=None) -> str      readable rules text built from structured data
  cards_power.power_score(card) -> int                a comparable strength figure for one card
  cards_power.POWER_BUDGET: dict[type, int]           the highest printed score of each type
  cards_power.check_power_budget(card) -> list[str]   reasons a Write Yer Own design is out of bounds
  cards_decks.validate_deck(cards) -> list[str]       reasons a deck (one dict per copy) is unplayable
"""
from __future__ import annotations

import copy
import re


CARD_TYPES = (
    "adversary", "castle", "event", "item", "knight", "land", "page", "persona",
    "peril", "questions_three", "song", "taunt", "village", "write_yer_own",
)
RARITIES = ("fixed", "common", "uncommon", "rare")

# Rule 6.2: a space being explored keeps filling until one of these kinds turns up.
# A page counts because its face-down other side is an adversary (rule 4.3).
PLACE_KINDS = ("land", "adversary", "peril", "page", "castle", "knight", "persona", "item", "village")
# The four "suits" that only act on the knights and never fill a space.
ACTION_KINDS = ("event", "questions_three", "song", "taunt")

CASTLE_RESULTS = ("pass", "no_pass", "lead_knight_slain", "draw_card")
OCCUPANT_TYPES = ("knight", "adversary", "persona")

GRAIL_MIN, GRAIL_MAX = 0, 7
STAT_MIN, STAT_MAX = 0, 12            # combat and wits on any printed or written card
DEFENSE_MAX = 8
DRAW_BONUS_MAX = 3
PAGE_CAPACITY_MAX = 3
TABLE_OPEN_MIN, TABLE_OPEN_MAX = -99, 99   # the open ends of a castle table
MAX_TITLE, MAX_QUOTE, MAX_TEXT, MAX_ROW_TEXT = 80, 280, 600, 200
MAX_AUTHOR = 150
MAX_TAGS, MAX_TAG = 8, 40

CODE_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_CODE = 80
TAG_RE = re.compile(r"^[a-z0-9_]+$")

# Tags with a rules meaning; other tags are allowed as plain labels.
TAG_ARTHUR = "arthur"
TAG_PATSY = "patsy"
TAG_ANTHRAX = "anthrax"                  # rule 6.3: may share a space with another Anthrax card
TAG_GAME_ENDER = "grail_quest_ender"     # rule 15.2: can end a player's game early
TAG_WRITE_YER_OWN = "write_yer_own"      # a written Write Yer Own card (rule 12.1)
# Tags a written card may not claim: they would make it count as a starting Arthur or
# Patsy, or mark it as one of the game-ending cards that written cards may not copy.
RESERVED_TAGS = (TAG_ARTHUR, TAG_PATSY, TAG_GAME_ENDER)

FIELDS = (
    "code", "title", "type", "grail", "combat", "wits", "castle_icon", "unique",
    "castle_defense", "castle_table", "castle_occupant", "village_table", "page",
    "draw_bonus", "round_table_bonus", "quote", "primary", "secondary",
    "secondary_adversary", "tags", "rarity", "set", "text", "author",
)
REQUIRED = ("code", "title", "type", "grail")

# Which numbers each type carries: "required" (an int), "optional" (int or null); absent
# types must leave the field null.
STATS = {
    "knight": {"combat": "required", "wits": "optional"},
    "persona": {"combat": "optional", "wits": "optional"},
    "adversary": {"combat": "optional", "wits": "optional"},
    "peril": {"combat": "required", "wits": "optional"},
}
# Types whose card does nothing unless its primary effect says what.
NEEDS_PRIMARY = ("item", "event", "song", "taunt", "questions_three")
MAY_HAVE_CASTLE_ICON = ("knight", "persona", "adversary")
MAY_HAVE_DRAW_BONUS = ("land", "castle")


def normalize_card(card: dict) -> dict:
    """A deep copy of ``card`` with every optional field present (defaults for missing ones).

    Deep, so a caller (the engine keeps cards in its state) may change the result freely.
    """
    defaults = {
        "combat": None, "wits": None, "castle_icon": False, "unique": True,
        "castle_defense": None, "castle_table": None, "castle_occupant": None,
        "village_table": None, "page": None, "draw_bonus": 0, "round_table_bonus": [],
        "quote": "", "primary": [], "secondary": [], "secondary_adversary": None,
        "tags": [], "rarity": "common", "set": "base", "text": "",
    }
    return copy.deepcopy({**defaults, **card})


def with_article(kind: str) -> str:
    """``kind`` with its indefinite article: "a knight", "an item"."""
    return f"an {kind}" if kind[:1].lower() in "aeiou" else f"a {kind}"
