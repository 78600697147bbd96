"""The Monty Python Fluxx deck: loaded once from ``data/deck.json`` and checked against the
small effect vocabulary the engine understands.

A card record is ``{"id", "type", "name", "text", "effect", "keywords", "certainty",
"sources"}`` (keepers add ``"tags"``). ``effect`` is read by the engine; its words are:

- **rule**: ``slot`` (rules in the same slot replace each other) and one of
  ``value`` (``draw``/``play``/``hand_limit``/``keeper_limit``/``goal_limit`` slots; ``play``
  may be ``"all"``), ``map`` (the ``numbers`` slot: printed number -> number read),
  ``bonus`` (``no_hand``/``poor``/``rich`` with ``draw`` or ``play``), ``free``
  (``get_on_with_it``/``swap_plays``), ``claim`` (``song``/``accent``/``quote``).
- **goal**: ``have`` (cards on your own table), ``others_have`` (cards on someone else's
  table), ``tagged`` (``{"tag", "count"}``: that many of your Keepers carry the tag).
- **keeper**: optional ``power`` (``move_creeper``/``smite``/``sacrifice``), ``per_turn``,
  ``unless_in_play`` (the power works only while that card is on no table).
- **creeper**: ``blocks_win``.
- **action**: ``op`` (one of ``ACTION_OPS``) with its numbers (``draw``, ``play``) and
  options (``what``, ``which``).

Every number a card prints goes through ``current_rules.number`` before use, so a rule that
changes numbers ("One, Two, Five!") reaches every card without code of its own.
"""
from __future__ import annotations

import json
from pathlib import Path

DECK_FILE = Path(__file__).with_name("data") / "deck.json"

TYPES = ("basic", "rule", "goal", "keeper", "creeper", "action")
VALUE_SLOTS = ("draw", "play", "hand_limit", "keeper_limit", "goal_limit")
BONUSES = ("no_hand", "poor", "rich")
FREE_ACTIONS = ("get_on_with_it", "swap_plays")
CLAIMS = ("song", "accent", "quote")
POWERS = ("move_creeper", "smite", "sacrifice")
ACTION_OPS = ("draw_use", "draw", "trade_hands", "trash", "steal_keeper", "scramble_hands", "rotate_hands",
              "remove_rules", "trash_rule", "exchange_keepers", "empty_trash", "discard_draw", "another_turn",
              "do_again", "simplify", "everybody_gets_1", "share_wealth", "use_what_you_take", "zap", "taxation",
              "move_creeper", "sweep_creepers", "inquisition", "trash_goal", "revive_keeper")
BASIC = "basic-rules"


def _load() -> list[dict]:
    records = json.loads(DECK_FILE.read_text(encoding="utf-8"))["cards"]
    validate(records)
    return records


def validate(records: list[dict]) -> None:
    """Raise ValueError naming the first card whose data the engine could not run."""
    ids = [r["id"] for r in records]
    if len(set(ids)) != len(ids):
        raise ValueError("Card ids must be unique.")
    known = set(ids)
    for r in records:
        problem = _problem(r, known)
        if problem:
            raise ValueError(f"Card {r.get('id')!r}: {problem}")


def _problem(r: dict, known: set[str]) -> str | None:
    if r.get("type") not in TYPES:
        return f"unknown type {r.get('type')!r}"
    if not r.get("name") or not r.get("text"):
        return "needs a name and a text"
    e = r.get("effect", {})
    kind = r["type"]
    if kind == "rule":
        if not isinstance(e.get("slot"), str):
            return "a rule needs a slot"
        if e["slot"] in VALUE_SLOTS and not (isinstance(e.get("value"), int) or e.get("value") == "all"):
            return "a value rule needs a value"
        if "bonus" in e and e["bonus"] not in BONUSES:
            return f"unknown bonus {e['bonus']!r}"
        if "free" in e and e["free"] not in FREE_ACTIONS:
            return f"unknown free action {e['free']!r}"
        if "claim" in e and e["claim"] not in CLAIMS:
            return f"unknown claim {e['claim']!r}"
    elif kind == "goal":
        named = e.get("have", []) + e.get("others_have", [])
        if not named and "tagged" not in e:
            return "a goal must name cards or a tag"
        if any(c not in known for c in named):
            return "a goal names an unknown card"
    elif kind == "keeper":
        if "power" in e and e["power"] not in POWERS:
            return f"unknown power {e['power']!r}"
        if e.get("unless_in_play") and e["unless_in_play"] not in known:
            return "unless_in_play names an unknown card"
    elif kind == "action" and e.get("op") not in ACTION_OPS:
        return f"unknown action op {e.get('op')!r}"
    return None


RECORDS: tuple[dict, ...] = tuple(_load())
BY_ID: dict[str, dict] = {r["id"]: r for r in RECORDS}
TYPE: dict[str, str] = {r["id"]: r["type"] for r in RECORDS}
NAME: dict[str, str] = {r["id"]: r["name"] for r in RECORDS}
EFFECT: dict[str, dict] = {r["id"]: r["effect"] for r in RECORDS}
TAGS: dict[str, frozenset] = {r["id"]: frozenset(r.get("tags", ())) for r in RECORDS}
# The cards shuffled into the draw pile: everything but the Basic Rules, which stays out.
PLAYABLE: tuple[str, ...] = tuple(r["id"] for r in RECORDS if r["type"] != "basic")


def is_card(value) -> bool:
    return isinstance(value, str) and value in BY_ID and value != BASIC


def name(card_id: str) -> str:
    return NAME.get(card_id, "a card")


def kind(card_id: str) -> str:
    return TYPE[card_id]


def counts_by_type() -> dict[str, int]:
    out = {t: 0 for t in TYPES}
    for r in RECORDS:
        out[r["type"]] += 1
    return out


def keyword_in(card_id: str, phrase: str) -> bool:
    """True when ``phrase`` contains one of the card's keywords as a word (any case)."""
    words = set("".join(ch if ch.isalnum() else " " for ch in phrase.lower()).split())
    return any(k in words for k in BY_ID[card_id]["keywords"])
