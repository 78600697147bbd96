"""Readable rules text of a card, built from its structured data (``card_text``)."""
from __future__ import annotations

from . import vocabulary
from .cards import TABLE_OPEN_MAX, TABLE_OPEN_MIN, normalize_card, with_article


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
        who = (titles or {}).get(occ["code"], occ["code"]) or f"{with_article(occ['type'])} of the opponent's choosing from their deck"
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
