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

def unit_name(uid: str) -> str:
    """``"s2-arthur-3"`` -> "Seat 3's Arthur"; ``"guardian-1"`` -> "Guardian 1". The id alone
    says whose and what a unit is, so a unit that has just died is named as well as a live one
    ("Seat N" becomes the player's name on the site)."""
    if uid.startswith("guardian-"):
        return f"Guardian {uid.split('-', 1)[1]}"
    parts = uid.split("-")
    if len(parts) == 3 and parts[0][1:].isdigit() and parts[1] in NAMES:
        return f"Seat {int(parts[0][1:]) + 1}'s {NAMES[parts[1]]}"
    return uid


def item_name(item: str, values: dict | None = None) -> str:
    """``"excalibur"`` -> "Excalibur", ``"crown"`` -> "the Crown", a coin -> "gold worth 5"."""
    if item == "excalibur":
        return "Excalibur"
    if item.startswith("gold-"):
        worth = (values or {}).get(item)
        return f"gold worth {worth}" if worth is not None else "gold"
    return f"the {item.capitalize()}"
