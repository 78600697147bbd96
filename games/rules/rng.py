"""A seeded random generator whose whole state is JSON inside the game state.

Counter-based SplitMix64: draw *n* is a pure function of (seed, n), so the state is two
integers, snapshots stay small, and replaying a move log reproduces every draw exactly.
"""
from __future__ import annotations

from typing import MutableMapping, MutableSequence, Sequence, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_SPAN = _MASK + 1  # 2**64, the number of 64-bit draws
# The largest draw kept for each small bound (``_MASK - _SPAN % bound``, see ``_below_plain``),
# worked out once: engines draw below a hand's, a table's or a deck's size, and ``_SPAN %
# bound`` is a long division of a 65-bit number each time otherwise.
_SMALL = 512
_LIMITS = (0,) + tuple(_MASK - _SPAN % bound for bound in range(1, _SMALL))


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
        """Uniform integer in [0, bound), without modulo bias.

        ``next64`` and ``_splitmix64`` written out in one function (every engine draws
        through here, most often with a small bound): the same draws, in the same order,
        as ``_below_plain`` (tests/rules/test_rng.py compares them)."""
        state = self._state
        if bound == 1:
            # Every 64-bit draw is within the limit and leaves 0: only the count moves.
            state["n"] += 1
            return 0
        if bound <= 0:
            raise ValueError("bound must be positive")
        limit = _LIMITS[bound] if bound < _SMALL else _MASK - _SPAN % bound
        n = state["n"]
        x = (state["seed"] + (n + 1) * _GOLDEN) & _MASK  # SplitMix64's input for draw n
        while True:
            n += 1
            y = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            y = ((y ^ (y >> 27)) * 0x94D049BB133111EB) & _MASK
            y ^= y >> 31
            if y <= limit:
                state["n"] = n
                return y % bound
            x = (x + _GOLDEN) & _MASK  # a rejected draw (rare): the next one's input

    def _below_plain(self, bound: int) -> int:
        """``below`` as first written, draw by draw: the definition ``below`` must match."""
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
        """Fisher-Yates, in place: for i from the end down to 1, swap item i with item
        ``below(i + 1)``. Written out in one loop (a deck of a hundred cards is a hundred
        draws); the same draws and swaps as ``_shuffle_plain`` (tests/rules/test_rng.py)."""
        if len(items) < 2:
            return  # no draw, and the generator's state is not read
        state = self._state
        n = state["n"]
        x = (state["seed"] + (n + 1) * _GOLDEN) & _MASK  # SplitMix64's input for draw n
        for i in range(len(items) - 1, 0, -1):
            bound = i + 1
            limit = _LIMITS[bound] if bound < _SMALL else _MASK - _SPAN % bound
            while True:
                y = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                y = ((y ^ (y >> 27)) * 0x94D049BB133111EB) & _MASK
                y ^= y >> 31
                x = (x + _GOLDEN) & _MASK
                n += 1
                if y <= limit:
                    break
            j = y % bound
            items[i], items[j] = items[j], items[i]
        state["n"] = n

    def _shuffle_plain(self, items: MutableSequence) -> None:
        """``shuffle`` as first written: the definition ``shuffle`` must match."""
        for i in range(len(items) - 1, 0, -1):
            j = self._below_plain(i + 1)
            items[i], items[j] = items[j], items[i]
