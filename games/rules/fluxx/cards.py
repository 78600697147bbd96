"""The Monty Python Fluxx decks: loaded once from ``data/`` and checked against the small
effect vocabulary the engine understands.

Two decks, each a list of card ids (``DECKS``):

- ``printed-2008`` (``data/deck.json``, ``CURRENT``): the published deck as far as sources
  confirm it. Every new game is dealt from it.
- ``reconstructed-2026-11`` (``data/legacy/deck-reconstructed-2026-11.json``, ``LEGACY``):
  the deck dealt before the printed list was found, stand-ins included. No new game is
  dealt from it; it stays, unchanged, because games stored on it keep playing and replaying.

A game's deck is part of its state: ``state["deck"]`` (``deck_of``; a state without the key
was dealt from the legacy deck, which is what every state stored before the key existed
was). The engine's tables (``NAME``, ``EFFECT``, ...) hold the cards of both decks, so a
stored game keeps its cards. An id both decks hold is one card: its type, name, effect and
tags must be the same in both files (checked at load), so a card whose name or effect
changed in the printed deck has an id of its own (``-2008`` where the natural one was taken).

A card record is ``{"id", "type", "name", "text", "effect", "keywords", "certainty",
"sources"}`` (keepers add ``"tags"``: the categories Goals may name, e.g. ``knight``,
``swallow``). ``effect`` is read by the engine; its words are:

- **rule**: ``slot`` (rules in the same slot replace each other) and one of
  ``value`` (``draw``/``play``/``hand_limit``/``keeper_limit``/``goal_limit`` slots; ``play``
  may be ``"all"``), ``map`` (the ``numbers`` slot: printed number -> number read),
  ``bonus`` (``no_hand``/``poor``/``rich`` with ``draw`` or ``play``), ``free``
  (``get_on_with_it``/``swap_plays``), ``claim`` (``song``/``accent``/``quote``).
- **goal**: ``have`` (cards on your own table; a Keeper that ``counts_as`` one of them
  stands in for it while it is on no table), ``others_have`` (cards on someone else's
  table), ``tagged`` (``{"tag", "count"}``: at least that many of your Keepers carry the
  tag, the count read through the numbers rule), ``either`` (``{"cards": [...], "tags":
  [...]}``: one more card on your table that is one of ``cards`` or carries one of
  ``tags``), ``nothing`` (true: you are the only player with no Keeper, no Creeper and no
  card in hand).
- **keeper**: optional ``power`` (``POWERS``: ``move_creeper`` one of yours to another
  player; ``smite`` any Creeper; ``sacrifice`` this and any other card on a table;
  ``grenade`` this and any Creeper; ``catapult`` another of your Keepers to a player, then
  one of theirs discarded), ``per_turn``, ``unless_in_play`` (the power works only while
  that card is on no table), ``returns_to_hand`` (after its power the Keeper goes back to
  its owner's hand), ``counts_as`` (for Goals, this Keeper is that card while it is on no
  table).
- **creeper**: ``blocks_win``.
- **action**: ``op`` (one of ``ACTION_OPS``) with its numbers (``draw``, ``play``) and
  options (``what``, ``which``, ``keep``, ``most``, ``tag``).

Every number a card prints goes through ``current_rules.number`` before use, so a rule that
changes numbers ("One, Two, Five!") reaches every card without code of its own.
"""
from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).with_name("data")
DECK_FILE = DATA / "deck.json"
LEGACY_FILE = DATA / "legacy" / "deck-reconstructed-2026-11.json"
PRINTED, LEGACY = "printed-2008", "reconstructed-2026-11"
CURRENT = PRINTED  # the deck every new game is dealt from
DECK_FILES = {PRINTED: DECK_FILE, LEGACY: LEGACY_FILE}

TYPES = ("basic", "rule", "goal", "keeper", "creeper", "action")
VALUE_SLOTS = ("draw", "play", "hand_limit", "keeper_limit", "goal_limit")
BONUSES = ("no_hand", "poor", "rich")
FREE_ACTIONS = ("get_on_with_it", "swap_plays")
CLAIMS = ("song", "accent", "quote")
POWERS = ("move_creeper", "smite", "sacrifice", "grenade", "catapult")
ACTION_OPS = ("draw_use", "draw", "trade_hands", "trash", "steal_keeper", "scramble_hands", "rotate_hands",
              "remove_rules", "trash_rule", "exchange_keepers", "empty_trash", "discard_draw", "another_turn",
              "do_again", "simplify", "everybody_gets_1", "share_wealth", "use_what_you_take", "zap", "taxation",
              "move_creeper", "sweep_creepers", "inquisition", "trash_goal", "revive_keeper",
              "move_any_creeper", "something_different", "bring_out_your_dead", "run_away", "not_dead_yet")
BASIC = "basic-rules"
# What the engine reads of a card: an id both decks hold must agree on these.
_ENGINE_FIELDS = ("type", "name", "effect", "tags")


def _read(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cards"]


def _load() -> tuple[dict[str, list[dict]], list[dict]]:
    """Each deck's records, and the records of both (printed first; a shared id once)."""
    decks = {deck: _read(path) for deck, path in DECK_FILES.items()}
    for records in decks.values():
        validate(records)
    union = merge(decks[PRINTED], decks[LEGACY])
    return decks, union


def merge(first: list[dict], second: list[dict]) -> list[dict]:
    """Both decks' records, one per id; ValueError when an id both hold differs in what
    the engine reads (a stored game would see its card change)."""
    by_id = {r["id"]: r for r in first}
    out = list(first)
    for r in second:
        mine = by_id.get(r["id"])
        if mine is None:
            out.append(r)
        elif any(mine.get(f) != r.get(f) for f in _ENGINE_FIELDS):
            raise ValueError(f"Card {r['id']!r}: both decks hold it but differ in type, name, effect or tags; "
                             f"give the new card an id of its own.")
    return out


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
        either = e.get("either", {})
        if set(either) - {"cards", "tags"}:
            return "either takes cards and tags"
        named = e.get("have", []) + e.get("others_have", []) + either.get("cards", [])
        if not named and "tagged" not in e and not either and not e.get("nothing"):
            return "a goal must name cards, a tag or nothing"
        if any(c not in known for c in named):
            return "a goal names an unknown card"
    elif kind == "keeper":
        if "power" in e and e["power"] not in POWERS:
            return f"unknown power {e['power']!r}"
        for key in ("unless_in_play", "counts_as"):
            if e.get(key) and e[key] not in known:
                return f"{key} names an unknown card"
    elif kind == "action" and e.get("op") not in ACTION_OPS:
        return f"unknown action op {e.get('op')!r}"
    return None


DECK_RECORDS, ALL_RECORDS = _load()
# The current deck's records: what the documentation counts and the tests go through.
RECORDS: tuple[dict, ...] = tuple(DECK_RECORDS[CURRENT])
BY_ID: dict[str, dict] = {r["id"]: r for r in ALL_RECORDS}
TYPE: dict[str, str] = {r["id"]: r["type"] for r in ALL_RECORDS}
NAME: dict[str, str] = {r["id"]: r["name"] for r in ALL_RECORDS}
EFFECT: dict[str, dict] = {r["id"]: r["effect"] for r in ALL_RECORDS}
TAGS: dict[str, frozenset] = {r["id"]: frozenset(r.get("tags", ())) for r in ALL_RECORDS}
# Each deck's cards shuffled into the draw pile: everything but the Basic Rules, which stays out.
DECKS: dict[str, tuple[str, ...]] = {deck: tuple(r["id"] for r in records if r["type"] != "basic")
                                     for deck, records in DECK_RECORDS.items()}
PLAYABLE: tuple[str, ...] = DECKS[CURRENT]


def deck_of(state: dict) -> str:
    """The deck ``state`` was dealt from (a state stored before decks were named: the legacy one)."""
    return state.get("deck", LEGACY)


def is_card(value) -> bool:
    return isinstance(value, str) and value in BY_ID and value != BASIC


def name(card_id: str) -> str:
    return NAME.get(card_id, "a card")


def kind(card_id: str) -> str:
    return TYPE[card_id]


def counts_by_type(deck: str = CURRENT) -> dict[str, int]:
    out = {t: 0 for t in TYPES}
    for r in DECK_RECORDS[deck]:
        out[r["type"]] += 1
    return out


def keyword_in(card_id: str, phrase: str) -> bool:
    """True when ``phrase`` contains one of the card's keywords as a word (any case)."""
    words = set("".join(ch if ch.isalnum() else " " for ch in phrase.lower()).split())
    return any(k in words for k in BY_ID[card_id]["keywords"])
