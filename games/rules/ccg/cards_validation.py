"""Validating one card of the MPHG CCG card format: ``validate_card`` lists the reasons a
card is malformed (empty when valid); ``table_coverage_errors`` checks a castle or village
table covers every total once."""
from __future__ import annotations

from . import vocabulary
from .cards import (CARD_TYPES, CASTLE_RESULTS, CODE_RE, DEFENSE_MAX, DRAW_BONUS_MAX, FIELDS, GRAIL_MAX,
    GRAIL_MIN, MAX_AUTHOR, MAX_CODE, MAX_QUOTE, MAX_ROW_TEXT, MAX_TAG, MAX_TAGS, MAX_TEXT, MAX_TITLE,
    MAY_HAVE_CASTLE_ICON, MAY_HAVE_DRAW_BONUS, NEEDS_PRIMARY, OCCUPANT_TYPES, PAGE_CAPACITY_MAX, RARITIES,
    REQUIRED, STATS, STAT_MAX, STAT_MIN, TABLE_OPEN_MAX, TABLE_OPEN_MIN, TAG_RE, TAG_WRITE_YER_OWN,
    normalize_card, with_article)


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
    stats = STATS.get(kind, {})
    for stat in ("combat", "wits"):
        need = stats.get(stat)
        value = card[stat]
        if need is None:
            if value is not None:
                errors.append(f"{with_article(kind)} card has no '{stat}'; it must be null.")
        elif value is None:
            if need == "required":
                errors.append(f"{with_article(kind)} card needs a '{stat}' number.")
        else:
            _check_int(errors, stat, value, STAT_MIN, STAT_MAX)
    if kind == "adversary" and card["combat"] is None and card["wits"] is None:
        errors.append("an adversary needs a 'combat' or a 'wits' number (or both).")
    if card["castle_icon"] is True and kind not in MAY_HAVE_CASTLE_ICON:
        errors.append(f"only {', '.join(MAY_HAVE_CASTLE_ICON)} cards may carry a castle icon.")
    bonus = card["draw_bonus"]
    if kind in MAY_HAVE_DRAW_BONUS:
        _check_int(errors, "draw_bonus", bonus, 0, DRAW_BONUS_MAX)
    elif bonus != 0:
        errors.append(f"only {' and '.join(MAY_HAVE_DRAW_BONUS)} cards give a 'draw_bonus'; it must be 0.")
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
    if kind in NEEDS_PRIMARY and isinstance(card["primary"], list) and not card["primary"]:
        errors.append(f"{with_article(kind)} card needs at least one primary effect.")
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
