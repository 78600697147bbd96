"""A seeded random generator whose whole state is JSON inside the game state.

Counter-based SplitMix64: draw *n* is a pure function of (seed, n), so the state is two
integers, snapshots stay small, and replaying a move log reproduces every draw exactly.
"""
from __future__ import annotations

from typing import MutableMapping, MutableSequence, Sequence, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def new_rng_state(seed: int) -> dict:
    return {"seed": seed & _MASK, "n": 0}


def _splitmix64(x: int) -> int:
    x = (x + _GOLDEN) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


class Rng:
    """Draws from, and advances, the ``{"seed", "n"}`` dict it wraps (in place)."""

    __slots__ = ("_state",)

    def __init__(self, state: MutableMapping) -> None:
        self._state = state

    def next64(self) -> int:
        n = self._state["n"]
        self._state["n"] = n + 1
        return _splitmix64((self._state["seed"] + n * _GOLDEN) & _MASK)

    def below(self, bound: int) -> int:
        """Uniform integer in [0, bound), without modulo bias."""
        if bound <= 0:
            raise ValueError("bound must be positive")
        limit = _MASK - (_MASK + 1) % bound
        while True:
            x = self.next64()
            if x <= limit:
                return x % bound

    def randint(self, low: int, high: int) -> int:
        """Uniform integer in [low, high], both ends included."""
        return low + self.below(high - low + 1)

    def die(self, sides: int = 6) -> int:
        return self.randint(1, sides)

    def random(self) -> float:
        """Uniform float in [0, 1)."""
        return (self.next64() >> 11) / float(1 << 53)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
