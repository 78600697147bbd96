"""The piece table: what each type of unit moves, strikes and withstands."""
from __future__ import annotations

TYPES = ("arthur", "galahad", "lancelot", "merlin", "morgan")
COUNT = {"arthur": 5, "galahad": 4, "lancelot": 4, "merlin": 1, "morgan": 1}
MOVE = {"arthur": 2, "galahad": 1, "lancelot": 1, "merlin": 1, "morgan": 1}
SHIELDS = {"arthur": 1, "galahad": 1, "lancelot": 2, "merlin": 1, "morgan": 2}
# Strike modes per type: mode -> (value, range, needs sight, spell token or None).
MODES = {
    "arthur": {"melee": (1, 1, False, None)},
    "galahad": {"bow": (1, 3, True, None)},
    "lancelot": {"melee": (2, 1, False, None), "sweep": (1, 1, False, None)},
    "merlin": {"zot": (1, 3, True, None), "fireball": (2, 3, True, "fireball")},
    "morgan": {"curse": (1, 2, True, None), "death_touch": (3, 1, False, "death_touch")},
}
# How a strike is said in the log.
MODE_WORDS = {"melee": "sword", "sweep": "sweeping blow", "bow": "bow", "zot": "Zot", "fireball": "Fireball",
              "curse": "Curse", "death_touch": "Death Touch"}
BASIC_MODE = {"arthur": "melee", "galahad": "bow", "lancelot": "melee", "merlin": "zot", "morgan": "curse"}
SPELLS = ("teleport", "fireball", "death_touch")
# When the failed-attack rule must pick among own units equally near, the cheapest goes.
CHEAPEST_FIRST = {"arthur": 0, "galahad": 1, "lancelot": 2, "morgan": 3, "merlin": 4}
NAMES = {"arthur": "Arthur", "galahad": "Galahad", "lancelot": "Lancelot", "merlin": "Merlin", "morgan": "Morgan"}


def can_carry(kind: str, item: str) -> bool:
    """Merlin carries nothing; only an Arthur carries Excalibur."""
    if kind == "merlin":
        return False
    return kind == "arthur" if item == "excalibur" else True


# --- names in words (log lines and prompts name pieces, never their ids) -------------

def unit_name(uid: str, numbered: bool = True) -> str:
    """``"s2-arthur-3"`` -> "Seat 3's Arthur 3"; ``"s2-merlin-1"`` -> "Seat 3's Merlin" (a
    player has one); ``"guardian-1"`` -> "Guardian 1". The id alone says whose and what a unit
    is, so a unit that has just died is named as well as a live one ("Seat N" becomes the
    player's name on the site). Two of a player's Arthurs are never both "Arthur": the
    number is the one in the id, the same on the board, in the log and in every ask.
    ``numbered=False`` gives the first edition's names (kept in its stored asks)."""
    if uid.startswith("guardian-"):
        return f"Guardian {uid.split('-', 1)[1]}"
    parts = uid.split("-")
    if len(parts) == 3 and parts[0][1:].isdigit() and parts[1] in NAMES:
        name = f"Seat {int(parts[0][1:]) + 1}'s {NAMES[parts[1]]}"
        return f"{name} {parts[2]}" if numbered and COUNT[parts[1]] > 1 else name
    return uid


def unit_label(units: dict, uid: str, values: dict | None = None) -> str:
    """The unit's name and what it carries: "Seat 3's Arthur 3 carrying Excalibur"."""
    unit = units.get(uid)
    name = unit_name(uid)
    if unit is not None and unit.get("carry"):
        name += f" carrying {item_name(unit['carry'], values)}"
    return name


def item_name(item: str, values: dict | None = None) -> str:
    """``"excalibur"`` -> "Excalibur", ``"crown"`` -> "the Crown", a coin -> "gold worth 5"."""
    if item == "excalibur":
        return "Excalibur"
    if item.startswith("gold-"):
        worth = (values or {}).get(item)
        return f"gold worth {worth}" if worth is not None else "gold"
    return f"the {item.capitalize()}"
