"""Card files for bulk import and export: JSON (a list of card objects) and CSV.

CSV has one column per field of the card format; structured fields (effects, tables,
tags ...) hold JSON text, empty cells mean null, booleans are true/false.
"""
from __future__ import annotations

import csv
import io
import json

from games.rules.ccg.cards import FIELDS

INT_FIELDS = ("grail", "combat", "wits", "castle_defense", "draw_bonus")
BOOL_FIELDS = ("castle_icon", "unique")
JSON_FIELDS = ("castle_table", "castle_occupant", "village_table", "page", "round_table_bonus", "primary",
               "secondary", "secondary_adversary", "tags")
MAX_FILE_BYTES = 10 * 1024 * 1024


class CardFileError(ValueError):
    pass


def cards_to_json(cards: list[dict]) -> str:
    return json.dumps(cards, indent=1, ensure_ascii=False)


def cards_to_csv(cards: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=FIELDS, extrasaction="ignore")
    writer.writeheader()
    for card in cards:
        row = {}
        for name in FIELDS:
            value = card.get(name)
            if name in JSON_FIELDS:
                row[name] = "" if value is None else json.dumps(value, ensure_ascii=False)
            elif name in BOOL_FIELDS:
                row[name] = "true" if value else "false"
            else:
                row[name] = "" if value is None else value
        writer.writerow(row)
    return out.getvalue()


def _cell(name: str, raw: str, line: int):
    raw = raw if raw is not None else ""
    if name in JSON_FIELDS:
        if raw.strip() == "":
            return None
        try:
            return json.loads(raw)
        except json.JSONDecodeError as exc:
            raise CardFileError(f"line {line}: '{name}' is not valid JSON ({exc.msg}).") from exc
    if name in INT_FIELDS:
        if raw.strip() == "":
            return None
        try:
            return int(raw)
        except ValueError:
            raise CardFileError(f"line {line}: '{name}' must be a whole number.") from None
    if name in BOOL_FIELDS:
        if raw.strip().lower() not in ("true", "false", "1", "0", "yes", "no"):
            raise CardFileError(f"line {line}: '{name}' must be true or false.")
        return raw.strip().lower() in ("true", "1", "yes")
    return raw


def cards_from_csv(text: str) -> list[dict]:
    reader = csv.DictReader(io.StringIO(text))
    unknown = set(reader.fieldnames or []) - set(FIELDS)
    if unknown:
        raise CardFileError(f"Unknown column(s): {', '.join(sorted(unknown))}.")
    cards = []
    for row in reader:
        line = reader.line_num
        card = {}
        for name, raw in row.items():
            value = _cell(name, raw, line)
            # Empty cells leave optional fields to their defaults (and 'author' out entirely).
            if value is not None and not (value == "" and name in ("author",)):
                card[name] = value
        cards.append(card)
    return cards


def cards_from_file(name: str, data: bytes) -> list[dict]:
    if len(data) > MAX_FILE_BYTES:
        raise CardFileError("The file is larger than 10 MB.")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CardFileError("The file must be UTF-8 text.") from None
    if name.lower().endswith(".csv"):
        return cards_from_csv(text)
    try:
        cards = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CardFileError(f"Not valid JSON: {exc.msg} at line {exc.lineno}.") from exc
    if not isinstance(cards, list):
        raise CardFileError("A JSON card file holds a list of card objects.")
    return cards
