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
