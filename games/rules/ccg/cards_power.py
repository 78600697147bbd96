"""Power: a comparable strength figure per card (``power_score``), the budget per type set
by the printed cards (``POWER_BUDGET``, ``NUMBER_CAPS``) and the check that keeps a Write
Yer Own design within it (``check_power_budget``)."""
from __future__ import annotations

from .cards import (GRAIL_MAX, GRAIL_MIN, MAY_HAVE_DRAW_BONUS, RESERVED_TAGS, TAG_GAME_ENDER,
    normalize_card, with_article)
from .cards_text import type_name
from .cards_validation import validate_card


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
        if card["type"] in MAY_HAVE_DRAW_BONUS:
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
            errors.append(f"'{name}' {value} is above the highest printed on {with_article(type_name(kind))} card ({caps[name]}).")
    budget = POWER_BUDGET.get(kind)
    score = power_score(card)
    if budget is None:
        errors.append(f"there is no power budget for {type_name(kind)} cards.")
    elif score > budget:
        errors.append(f"power {score} is over the budget of {budget} for {with_article(type_name(kind))} card.")
    return errors
