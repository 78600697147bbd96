"""The sniping skill shot: the table game's bounce-into-the-goblet, as a model.

Seen from above, the sniper stands at the origin at the table edge and the Agate Goblet
stands ``distance`` units ahead and ``offset`` units to the side (right is positive). The
sniper chooses an ``angle`` in degrees (negative = left, positive = right) and a
``strength`` from 0 to 100; an unhurried throw of strength *s* at angle *a* comes down at
``(s*sin a, s*cos a)``, so perfect aim is ``atan2(offset, distance)`` at strength
``hypot(offset, distance)``.

No hand is steady: each attempt adds Gaussian noise to the aim, ``ANGLE_SD`` degrees to the
angle and ``STRENGTH_SD`` (a fraction of the strength) to the strength, both drawn from the
game's Rng on the server. The ball goes in when it comes down within ``CUP_RADIUS`` of the
goblet. A shot is two attempts with the same aim (the rules allow two bounces per shot)
and hits when either goes in. After every shot the goblet is set somewhere new.

Measured odds are in ``docs/rules/cupquest.md`` and checked by the sniping tests.
"""
from __future__ import annotations

import math

from ..rng import Rng

ANGLE_RANGE = (-45.0, 45.0)
STRENGTH_RANGE = (0.0, 100.0)
DISTANCE_RANGE = (40, 90)
OFFSET_RANGE = (-25, 25)
CUP_RADIUS = 5.0
ANGLE_SD = 4.0       # degrees
STRENGTH_SD = 0.10   # fraction of the chosen strength
ATTEMPTS = 2
DEFAULT_AIM = {"angle": 0.0, "strength": 50.0}


def place_goblet(rng: Rng) -> dict:
    """A fresh spot on the table for the goblet (whole units, shown to everyone)."""
    return {"distance": rng.randint(*DISTANCE_RANGE), "offset": rng.randint(*OFFSET_RANGE)}


def ideal_aim(goblet: dict) -> dict:
    """The aim that would land dead centre with a perfectly steady hand."""
    d, x = goblet["distance"], goblet["offset"]
    return {"angle": math.degrees(math.atan2(x, d)), "strength": math.hypot(x, d)}


def check_aim(angle: object, strength: object) -> str | None:
    """The reason an aim is refused, or None when it is a usable aim."""
    for label, value, (low, high) in (("Angle", angle, ANGLE_RANGE), ("Strength", strength, STRENGTH_RANGE)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            return f"{label} must be a number."
        if not low <= value <= high:
            return f"{label} must be between {low:g} and {high:g}."
    return None


def _gauss(rng: Rng) -> float:
    """A standard normal draw (Box-Muller) from the game's generator."""
    u1 = 1.0 - rng.random()  # in (0, 1], so the log is finite
    u2 = rng.random()
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)


def landing(angle: float, strength: float) -> tuple[float, float]:
    rad = math.radians(angle)
    return strength * math.sin(rad), strength * math.cos(rad)


def shoot(rng: Rng, angle: float, strength: float, goblet: dict) -> dict:
    """Throw up to ``ATTEMPTS`` times at ``goblet``; stops at the first ball that goes in.

    Returns ``{"hit": bool, "attempts": [{"x", "y", "miss_by", "in"}...]}`` with landing
    spots rounded to a tenth of a unit for display.
    """
    attempts = []
    for _ in range(ATTEMPTS):
        a = angle + ANGLE_SD * _gauss(rng)
        s = max(0.0, strength * (1.0 + STRENGTH_SD * _gauss(rng)))
        x, y = landing(a, s)
        miss_by = math.hypot(x - goblet["offset"], y - goblet["distance"])
        went_in = miss_by <= CUP_RADIUS
        attempts.append({"x": round(x, 1), "y": round(y, 1), "miss_by": round(miss_by, 1), "in": went_in})
        if went_in:
            break
    return {"hit": attempts[-1]["in"], "attempts": attempts}
