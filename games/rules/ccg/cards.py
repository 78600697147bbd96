"""The MPHG CCG card format: constants, validation, readable text, power and deck rules.

A card is a plain JSON object (see ``docs/rules/ccg-cards.md`` for every field). This
module is pure: it reads no files, so the engine's tests, the card database and the Write
Yer Own designer can all share it. The starter set itself lives in ``data/starter_set.json``.

Public API (names and signatures are relied on by the engine and by ``decks/``):
  normalize_card(card) -> dict            fills defaults, never mutates its argument
  validate_card(card) -> list[str]        reasons the card is malformed; empty = valid
  card_text(card, titles=None) -> str     readable rules text built from structured data
  power_score(card) -> int                a comparable strength figure for one card
  POWER_BUDGET: dict[type, int]           the highest printed score of each type
  check_power_budget(card) -> list[str]   reasons a Write Yer Own design is out of bounds
  validate_deck(cards) -> list[str]       reasons a deck (one dict per copy) is unplayable
"""
from __future__ import annotations

import copy
import re
from collections import Counter

from . import vocabulary

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
_STATS = {
    "knight": {"combat": "required", "wits": "optional"},
    "persona": {"combat": "optional", "wits": "optional"},
    "adversary": {"combat": "optional", "wits": "optional"},
    "peril": {"combat": "required", "wits": "optional"},
}
# Types whose card does nothing unless its primary effect says what.
_NEEDS_PRIMARY = ("item", "event", "song", "taunt", "questions_three")
_MAY_HAVE_CASTLE_ICON = ("knight", "persona", "adversary")
_MAY_HAVE_DRAW_BONUS = ("land", "castle")


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


# ---------------------------------------------------------------- validation helpers
def _a(kind: str) -> str:
    """``kind`` with its indefinite article: "a knight", "an item"."""
    return f"an {kind}" if kind[:1].lower() in "aeiou" else f"a {kind}"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_int(errors: list, name: str, value: object, lo: int, hi: int) -> None:
    if not _is_int(value) or not lo <= value <= hi:
        errors.append(f"'{name}' must be a whole number from {lo} to {hi}.")


def _check_str(errors: list, name: str, value: object, limit: int, required: bool = False) -> None:
    if not isinstance(value, str):
        errors.append(f"'{name}' must be text.")
    elif len(value) > limit:
        errors.append(f"'{name}' is {len(value)} characters long; at most {limit} are allowed.")
    elif required and not value.strip():
        errors.append(f"'{name}' must not be empty.")


def _check_effects(errors: list, name: str, effects: object) -> None:
    errors.extend(f"{name}: {reason}" for reason in vocabulary.validate_effects(effects))


def _totals(lo: int, hi: int) -> str:
    return f"total {lo} is" if lo == hi else f"totals {lo} to {hi} are"


def table_coverage_errors(rows: list[dict], lo: int, hi: int) -> list[str]:
    """Gaps and overlaps of ``rows`` (each with int ``min``/``max``) over ``lo..hi``."""
    errors = []
    expected = lo
    for row in sorted(rows, key=lambda r: (r["min"], r["max"])):
        if row["min"] > expected:
            errors.append(f"{_totals(expected, row['min'] - 1)} not covered.")
        elif row["min"] < expected:
            errors.append(f"{_totals(row['min'], min(row['max'], expected - 1))} covered twice.")
        expected = max(expected, row["max"] + 1)
    if expected <= hi:
        errors.append(f"{_totals(expected, hi)} not covered.")
    return errors


def _check_table(errors: list, name: str, rows: object, lo: int, hi: int, row_check) -> None:
    """A table is a non-empty list of {min, max, ...} rows covering lo..hi exactly once."""
    if not isinstance(rows, list) or not rows:
        errors.append(f"'{name}' must be a non-empty list of rows.")
        return
    good_rows = []
    for i, row in enumerate(rows):
        where = f"{name} row {i + 1}"
        if not isinstance(row, dict):
            errors.append(f"{where} must be an object.")
            continue
        row_errors = []
        for bound in ("min", "max"):
            if not _is_int(row.get(bound)) or not lo <= row[bound] <= hi:
                row_errors.append(f"{where}: '{bound}' must be a whole number from {lo} to {hi}.")
        if not row_errors and row["min"] > row["max"]:
            row_errors.append(f"{where}: 'min' is above 'max'.")
        row_errors.extend(row_check(where, row))
        errors.extend(row_errors)
        if not row_errors:
            good_rows.append(row)
    if len(good_rows) == len(rows):
        errors.extend(f"{name}: {reason}" for reason in table_coverage_errors(good_rows, lo, hi))


def _castle_row_errors(where: str, row: dict) -> list[str]:
    errors = []
    extra = set(row) - {"min", "max", "result"}
    if extra:
        errors.append(f"{where}: unexpected field(s) {', '.join(sorted(extra))}.")
    if row.get("result") not in CASTLE_RESULTS:
        errors.append(f"{where}: 'result' must be one of {', '.join(CASTLE_RESULTS)}.")
    return errors


def _village_row_errors(where: str, row: dict) -> list[str]:
    errors = []
    extra = set(row) - {"min", "max", "effects", "text"}
    if extra:
        errors.append(f"{where}: unexpected field(s) {', '.join(sorted(extra))}.")
    errors.extend(f"{where}: {reason}" for reason in vocabulary.validate_effects(row.get("effects")))
    _check_str(errors, f"{where} text", row.get("text"), MAX_ROW_TEXT)
    return errors


# ---------------------------------------------------------------- validation per part
def _validate_common(card: dict, errors: list) -> None:
    code = card["code"]
    if not isinstance(code, str) or not CODE_RE.match(code) or len(code) > MAX_CODE:
        errors.append(f"'code' must be a lowercase slug (letters, digits, single hyphens) of at most {MAX_CODE} characters.")
    _check_str(errors, "title", card["title"], MAX_TITLE, required=True)
    _check_str(errors, "quote", card["quote"], MAX_QUOTE)
    _check_str(errors, "text", card["text"], MAX_TEXT)
    _check_int(errors, "grail", card["grail"], GRAIL_MIN, GRAIL_MAX)
    for flag in ("castle_icon", "unique"):
        if not isinstance(card[flag], bool):
            errors.append(f"'{flag}' must be true or false.")
    if card["rarity"] not in RARITIES:
        errors.append(f"'rarity' must be one of {', '.join(RARITIES)}.")
    _check_str(errors, "set", card["set"], 20, required=True)
    tags = card["tags"]
    if not isinstance(tags, list) or len(tags) > MAX_TAGS or not all(
        isinstance(t, str) and TAG_RE.match(t) and len(t) <= MAX_TAG for t in tags
    ):
        errors.append(f"'tags' must be a list of at most {MAX_TAGS} lowercase words (letters, digits, underscores).")
    elif len(set(tags)) != len(tags):
        errors.append("'tags' must not repeat a tag.")
    _check_effects(errors, "primary", card["primary"])
    _check_effects(errors, "secondary", card["secondary"])


def _validate_numbers(card: dict, errors: list) -> None:
    kind = card["type"]
    stats = _STATS.get(kind, {})
    for stat in ("combat", "wits"):
        need = stats.get(stat)
        value = card[stat]
        if need is None:
            if value is not None:
                errors.append(f"{_a(kind)} card has no '{stat}'; it must be null.")
        elif value is None:
            if need == "required":
                errors.append(f"{_a(kind)} card needs a '{stat}' number.")
        else:
            _check_int(errors, stat, value, STAT_MIN, STAT_MAX)
    if kind == "adversary" and card["combat"] is None and card["wits"] is None:
        errors.append("an adversary needs a 'combat' or a 'wits' number (or both).")
    if card["castle_icon"] is True and kind not in _MAY_HAVE_CASTLE_ICON:
        errors.append(f"only {', '.join(_MAY_HAVE_CASTLE_ICON)} cards may carry a castle icon.")
    bonus = card["draw_bonus"]
    if kind in _MAY_HAVE_DRAW_BONUS:
        _check_int(errors, "draw_bonus", bonus, 0, DRAW_BONUS_MAX)
    elif bonus != 0:
        errors.append(f"only {' and '.join(_MAY_HAVE_DRAW_BONUS)} cards give a 'draw_bonus'; it must be 0.")
    if kind == "knight":
        _check_effects(errors, "round_table_bonus", card["round_table_bonus"])
    elif card["round_table_bonus"] != []:
        errors.append("only knights have a 'round_table_bonus'; it must be an empty list.")


def _validate_castle(card: dict, errors: list) -> None:
    if card["type"] != "castle":
        for name in ("castle_defense", "castle_table", "castle_occupant"):
            if card[name] is not None:
                errors.append(f"only castles have a '{name}'; it must be null.")
        return
    _check_int(errors, "castle_defense", card["castle_defense"], 0, DEFENSE_MAX)
    _check_table(errors, "castle_table", card["castle_table"], TABLE_OPEN_MIN, TABLE_OPEN_MAX, _castle_row_errors)
    occupant = card["castle_occupant"]
    if occupant is not None:
        if not isinstance(occupant, dict) or set(occupant) != {"type", "code"}:
            errors.append("'castle_occupant' must be an object with 'type' and 'code', or null.")
        else:
            if occupant["type"] not in OCCUPANT_TYPES:
                errors.append(f"'castle_occupant' type must be one of {', '.join(OCCUPANT_TYPES)}.")
            code = occupant["code"]
            if code is not None and (not isinstance(code, str) or not CODE_RE.match(code) or len(code) > MAX_CODE):
                errors.append("'castle_occupant' code must be a card code, or null for the opponent's choice.")


def _validate_village(card: dict, errors: list) -> None:
    if card["type"] != "village":
        if card["village_table"] is not None:
            errors.append("only villages have a 'village_table'; it must be null.")
        return
    _check_table(errors, "village_table", card["village_table"], GRAIL_MIN, GRAIL_MAX, _village_row_errors)


def _validate_page(card: dict, errors: list) -> None:
    if card["type"] != "page":
        for name in ("page", "secondary_adversary"):
            if card[name] is not None:
                errors.append(f"only pages have a '{name}'; it must be null.")
        return
    capacity = card["page"]
    if not isinstance(capacity, dict) or set(capacity) != {"items", "knights"}:
        errors.append("a page needs 'page': {\"items\": n, \"knights\": n} (its carrying capacity).")
    else:
        for name in ("items", "knights"):
            _check_int(errors, f"page {name}", capacity[name], 0, PAGE_CAPACITY_MAX)
    other = card["secondary_adversary"]
    if not isinstance(other, dict) or set(other) != {"title", "combat", "wits"}:
        errors.append("a page needs a 'secondary_adversary' {\"title\", \"combat\", \"wits\"} (rule 4.3).")
    else:
        _check_str(errors, "secondary_adversary title", other["title"], MAX_TITLE, required=True)
        for stat in ("combat", "wits"):
            if other[stat] is not None:
                _check_int(errors, f"secondary_adversary {stat}", other[stat], STAT_MIN, STAT_MAX)
        if other["combat"] is None and other["wits"] is None:
            errors.append("a page's secondary adversary needs a 'combat' or a 'wits' number.")
    if card["secondary"] != []:
        errors.append("a page's secondary side is its adversary; 'secondary' must be an empty list.")


def _validate_effects_presence(card: dict, errors: list) -> None:
    kind = card["type"]
    if kind in _NEEDS_PRIMARY and isinstance(card["primary"], list) and not card["primary"]:
        errors.append(f"{_a(kind)} card needs at least one primary effect.")
    if kind == "write_yer_own":
        # The blank: nothing written yet, but its printed secondary side is usable (rule 12.1).
        if card["primary"] != []:
            errors.append("a blank Write Yer Own card has no primary effect until it is written.")
        if isinstance(card["secondary"], list) and not card["secondary"]:
            errors.append("a blank Write Yer Own card needs a secondary effect usable unwritten.")
        if card["grail"] != 0:
            errors.append("a blank Write Yer Own card has grail number 0.")


def _validate_authorship(card: dict, errors: list) -> None:
    written = isinstance(card["tags"], list) and TAG_WRITE_YER_OWN in card["tags"]
    if written:
        if card["type"] == "write_yer_own":
            errors.append("a written Write Yer Own card must choose a real card type.")
        _check_str(errors, "author", card.get("author"), MAX_AUTHOR, required=True)
    elif "author" in card:
        errors.append("only written Write Yer Own cards have an 'author'.")


def validate_card(card: dict) -> list[str]:
    """Every reason ``card`` is not a well-formed card; an empty list when it is."""
    if not isinstance(card, dict):
        return ["A card must be an object."]
    missing = [name for name in REQUIRED if name not in card]
    if missing:
        return [f"missing required field(s): {', '.join(missing)}."]
    unknown = set(card) - set(FIELDS)
    if unknown:
        return [f"unknown field(s): {', '.join(sorted(unknown))}."]
    if card["type"] not in CARD_TYPES:
        return [f"'type' must be one of {', '.join(CARD_TYPES)}."]
    card = normalize_card(card)
    errors: list[str] = []
    _validate_common(card, errors)
    _validate_numbers(card, errors)
    _validate_castle(card, errors)
    _validate_village(card, errors)
    _validate_page(card, errors)
    _validate_effects_presence(card, errors)
    _validate_authorship(card, errors)
    return errors


# ---------------------------------------------------------------- readable text
_TYPE_NAMES = {
    "questions_three": "Questions Three", "write_yer_own": "Write Yer Own",
}
_RESULT_NAMES = {
    "pass": "pass", "no_pass": "no passage", "lead_knight_slain": "lead knight slain",
    "draw_card": "pass and draw a card",
}


def type_name(kind: str) -> str:
    return _TYPE_NAMES.get(kind, kind.capitalize())


def _range_text(lo: int, hi: int) -> str:
    if lo <= TABLE_OPEN_MIN:
        return f"{hi} or less"
    if hi >= TABLE_OPEN_MAX:
        return f"{lo} or more"
    return str(lo) if lo == hi else f"{lo}–{hi}"


def _stat_text(combat, wits) -> str:
    parts = [f"Combat {combat}" if combat is not None else "", f"Wits {wits}" if wits is not None else ""]
    return ", ".join(p for p in parts if p)


def card_text(card: dict, titles: dict[str, str] | None = None) -> str:
    """Readable rules text built only from the card's structured fields, one line each.

    ``titles`` (code -> title) lets a castle name its occupant; without it the code shows.
    """
    card = normalize_card(card)
    lines = []
    header = [type_name(card["type"]), f"grail {card['grail']}"]
    stats = _stat_text(card["combat"], card["wits"])
    if stats:
        header.append(stats)
    if card["castle_icon"]:
        header.append("castle icon")
    header.append("unique" if card["unique"] else "generic")
    lines.append(" · ".join(header) + ".")
    if card["castle_defense"] is not None:
        lines.append(f"Castle defence {card['castle_defense']}.")
    if card["castle_occupant"]:
        occ = card["castle_occupant"]
        who = (titles or {}).get(occ["code"], occ["code"]) or f"{_a(occ['type'])} of the opponent's choosing from their deck"
        lines.append(f"Held by {who}.")
    if card["castle_table"]:
        rows = sorted(card["castle_table"], key=lambda r: r["min"])
        cells = [f"{_range_text(r['min'], r['max'])}: {_RESULT_NAMES[r['result']]}" for r in rows]
        lines.append("Castle table — " + "; ".join(cells) + ".")
    if card["village_table"]:
        rows = sorted(card["village_table"], key=lambda r: r["min"])
        for r in rows:
            effect = vocabulary.describe_effects(r["effects"]) or "Nothing happens."
            lines.append(f"Village {_range_text(r['min'], r['max'])}: {effect}")
    if card["page"]:
        cap = card["page"]
        lines.append(f"Carries {cap['items']} item(s) and serves {cap['knights']} knight(s).")
    if card["draw_bonus"]:
        lines.append(f"Draw {card['draw_bonus']} extra card(s) each draw phase while your Round Table is here.")
    if card["primary"]:
        lines.append(vocabulary.describe_effects(card["primary"]))
    if card["round_table_bonus"]:
        lines.append("As Round Table representative: " + vocabulary.describe_effects(card["round_table_bonus"]))
    if card["secondary"]:
        lines.append("Instead: " + vocabulary.describe_effects(card["secondary"]))
    if card["secondary_adversary"]:
        other = card["secondary_adversary"]
        stats = _stat_text(other["combat"], other["wits"])
        lines.append(f"Other side (turned up in your own England): adversary {other['title']} — {stats}.")
    return "\n".join(lines)


# ---------------------------------------------------------------- power
_DURATION_WEIGHT = {"dispute": 1, "turn": 1, "next_turn": 1, "permanent": 3}
# Effects on the whole Round Table (or the whole opposing one) count half again.
_GROUP_TARGETS = ("self", "opponent")
_FLAT_WEIGHT = {
    "peek_hand": 2, "end_turn": 4, "force_dispute": 3, "run_away": 5, "auto_join": 5,
    "cancel_last_card": 7,
}
_PER_UNIT = {
    # op: (parameter, points per unit)
    "draw_cards": ("count", 3), "discard_cards": ("count", 3), "skip_turns": ("turns", 6),
    "disable_member": ("turns", 3), "block_movement": ("turns", 4), "extra_movement": ("spaces", 3),
    "prevent_join": ("turns", 4), "return_from_dead_cart": ("count", 3),
    "extra_draws_in_area": ("count", 4), "search_bonus": ("amount", 5),
}
_SLAY_WEIGHT = {"adversary": 8, "opponent_knight": 10, "own_knight": 2}
_ELIMINATE_WEIGHT = {"adversary": 10, "opponent_knight": 12}
_END_GAME_WEIGHT = {"opponent_loses": 30, "draw": 15}


def effect_power(effect: dict) -> int:
    """The strength of one effect piece, regardless of whom it helps.

    Size counts, not direction: a big swing against yourself is as far outside the printed
    range as a big swing for you, so the budget treats both alike.
    """
    op = effect["op"]
    if op in ("modify_combat", "modify_wits"):
        points = 2 * abs(effect["amount"]) * _DURATION_WEIGHT[effect["duration"]]
        return points * 3 // 2 if effect["target"] in _GROUP_TARGETS else points
    if op == "modify_grail_number":
        return 3 * abs(effect["amount"]) * _DURATION_WEIGHT[effect["duration"]]
    if op in _FLAT_WEIGHT:
        return _FLAT_WEIGHT[op]
    if op in _PER_UNIT:
        param, points = _PER_UNIT[op]
        return points * abs(effect[param])
    if op == "slay":
        return _SLAY_WEIGHT[effect["target"]]
    if op == "eliminate":
        return _ELIMINATE_WEIGHT[effect["target"]]
    if op == "end_game":
        return _END_GAME_WEIGHT[effect["result"]]
    raise ValueError(f"No power weight for effect op '{op}'.")


def effects_power(effects: list[dict]) -> int:
    return sum(effect_power(e) for e in effects)


def _castle_table_power(rows: list[dict]) -> int:
    """How hard a castle is to pass: points for totals 0..14 (two grail numbers) that stop you."""
    weights = {"pass": 0, "draw_card": 0, "no_pass": 1, "lead_knight_slain": 2}
    points = 0
    for total in range(0, 2 * GRAIL_MAX + 1):
        for row in rows:
            if row["min"] <= total <= row["max"]:
                points += weights[row["result"]]
                break
    return points // 3


def _village_table_power(rows: list[dict]) -> int:
    """The village table's effects weighted by how many grail numbers reach each row."""
    spread = GRAIL_MAX - GRAIL_MIN + 1
    total = sum(effects_power(r["effects"]) * (r["max"] - r["min"] + 1) for r in rows)
    return -(-total // spread)  # round up: a table is never weaker than its parts


def power_score(card: dict) -> int:
    """One comparable strength figure for a card (see docs/rules/ccg-cards.md, "Power").

    Assumes a valid card. Numbers count two points each; a chosen-instead secondary side
    adds half of the weaker side, since the owner picks whichever fits the moment.
    """
    card = normalize_card(card)
    score = 2 * ((card["combat"] or 0) + (card["wits"] or 0))
    score += 2 * (card["castle_defense"] or 0)
    score += 4 * card["draw_bonus"]
    score += 1 if card["castle_icon"] else 0
    if card["castle_table"]:
        score += _castle_table_power(card["castle_table"])
    if card["castle_occupant"]:
        score += 2
    if card["village_table"]:
        score += _village_table_power(card["village_table"])
    if card["page"]:
        score += 3 * card["page"]["items"] + 4 * card["page"]["knights"]
    if card["secondary_adversary"]:
        other = card["secondary_adversary"]
        score += (other["combat"] or 0) + (other["wits"] or 0)
    score += effects_power(card["round_table_bonus"])
    primary, secondary = effects_power(card["primary"]), effects_power(card["secondary"])
    score += max(primary, secondary) + min(primary, secondary) // 2
    return score


def _sets_the_bar(card: dict) -> bool:
    """Whether a printed card counts when deriving what a written card may do.

    Left out: the fixed cards (Arthur, Patsy and the blank), which every deck holds and no
    design competes with, and game-ending cards such as the Slaying of the Historian,
    since written cards may not end the game at all.
    """
    return card.get("rarity") != "fixed" and TAG_GAME_ENDER not in card.get("tags", [])


def derive_power_budget(cards: list[dict]) -> dict[str, int]:
    """The highest power score per type among the printed ``cards`` that set the bar."""
    budget: dict[str, int] = {}
    for card in filter(_sets_the_bar, cards):
        budget[card["type"]] = max(budget.get(card["type"], 0), power_score(card))
    return budget


def derive_number_caps(cards: list[dict]) -> dict[str, dict[str, int]]:
    """The highest printed value of each number field per type, among the same cards."""
    caps: dict[str, dict[str, int]] = {}
    for card in map(normalize_card, filter(_sets_the_bar, cards)):
        names = ["combat", "wits", "castle_defense"]
        if card["type"] in _MAY_HAVE_DRAW_BONUS:
            names.append("draw_bonus")
        for name in names:
            if card[name] is not None:
                per_type = caps.setdefault(card["type"], {})
                per_type[name] = max(per_type.get(name, 0), card[name])
    return caps


# Derived from data/starter_set.json with derive_power_budget / derive_number_caps and
# pinned here because rules code reads no files; a test fails if they drift apart.
POWER_BUDGET: dict[str, int] = {
    "adversary": 30,
    "castle": 23,
    "event": 14,
    "item": 13,
    "knight": 26,
    "land": 14,
    "page": 15,
    "peril": 23,
    "persona": 28,
    "questions_three": 9,
    "song": 7,
    "taunt": 6,
    "village": 9,
}
NUMBER_CAPS: dict[str, dict[str, int]] = {
    "adversary": {"combat": 7, "wits": 7},
    "castle": {"castle_defense": 6, "draw_bonus": 2},
    "knight": {"combat": 8, "wits": 6},
    "land": {"draw_bonus": 2},
    "peril": {"combat": 8},
    "persona": {"combat": 3, "wits": 6},
}


def check_power_budget(card: dict) -> list[str]:
    """Reasons a Write Yer Own design is out of bounds for its type; empty when fair.

    Checks the card's format first, then: no game-ending effects, no number above the
    highest printed one of that type, and a power score within that type's budget.
    """
    errors = validate_card(card)
    if errors:
        return errors
    card = normalize_card(card)
    kind = card["type"]
    reserved = sorted(set(card["tags"]) & set(RESERVED_TAGS))
    if reserved:
        errors.append(f"a written card may not carry the tag(s) {', '.join(reserved)}.")
    if any(e["op"] == "end_game" for e in card["primary"] + card["secondary"] + card["round_table_bonus"]) or any(
        e["op"] == "end_game" for row in card["village_table"] or [] for e in row["effects"]
    ):
        errors.append("a written card may not end the game.")
    caps = NUMBER_CAPS.get(kind, {})
    for name in ("combat", "wits", "castle_defense", "draw_bonus"):
        value = card[name]
        if not value:
            continue
        if name not in caps:
            errors.append(f"no printed {type_name(kind)} card has a '{name}' number.")
        elif value > caps[name]:
            errors.append(f"'{name}' {value} is above the highest printed on {_a(type_name(kind))} card ({caps[name]}).")
    budget = POWER_BUDGET.get(kind)
    score = power_score(card)
    if budget is None:
        errors.append(f"there is no power budget for {type_name(kind)} cards.")
    elif score > budget:
        errors.append(f"power {score} is over the budget of {budget} for {_a(type_name(kind))} card.")
    return errors


# ---------------------------------------------------------------- decks
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
