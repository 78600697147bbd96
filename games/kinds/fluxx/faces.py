"""What a card face shows, from the deck data: the public facts of every card, for the
board script to draw its SVG faces from (static/board.js).

Everything here is printed on the card itself, so it is the same for every viewer and
reveals nothing about where any card is. The engine's own notes (``effect`` in full,
``certainty``, ``sources``) stay out: a face needs the words and, for a Goal, the cards it
names; for the quote rule, the words a quote may use.
"""
from __future__ import annotations

from functools import lru_cache

from games.rules.fluxx.cards import NAME, RECORDS, TAGS


def _needs(effect: dict) -> list[dict]:
    """A Goal's requirements as lines a face can print: cards you must have, cards someone
    else must have, and "any N knights" (with the cards that count)."""
    lines = [{"card": c, "text": NAME[c]} for c in effect.get("have", ())]
    lines += [{"card": c, "text": f"someone else: {NAME[c]}", "others": True} for c in effect.get("others_have", ())]
    tagged = effect.get("tagged")
    if tagged:
        members = [r["id"] for r in RECORDS if tagged["tag"] in TAGS[r["id"]]]
        lines.append({"text": f"any {tagged['count']} {tagged['tag']}s", "count": tagged["count"],
                      "cards": members})
    return lines


def _face(record: dict) -> dict:
    effect = record["effect"]
    face = {"id": record["id"], "type": record["type"], "name": record["name"], "text": record["text"],
            "keywords": list(record["keywords"])}
    if record["type"] == "goal":
        face["needs"] = _needs(effect)
    if effect.get("power"):
        face["power"] = effect["power"]  # move_creeper, smite or sacrifice: how the page words its uses
    return face


@lru_cache(maxsize=1)
def deck_faces() -> dict:
    """``{"cards": {id: face}}``: built once, the deck being fixed data."""
    return {"cards": {r["id"]: _face(r) for r in RECORDS}}
