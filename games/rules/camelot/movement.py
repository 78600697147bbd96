"""Where units may go: entering from the pool, walking, Merlin's teleport, engagement.

A walk is a path of 1..movement steps onto enterable hexes (grass, trees) that are empty
and not another player's Entry hex (guardians: not any Entry hex), never through a unit.
Engagement: every enemy unit the walker is adjacent to -- at the start or after any step
-- must stay adjacent after every later step, unless its owner gave this turn's holder
permission to disengage. Guardians engage nobody and nobody engages them.
A unit carrying something moves 1; Merlin's teleport goes to any empty enterable hex and
is magic, so engagement does not hold him.
"""
from __future__ import annotations

from .board import Board
from .pieces import MOVE
from .state import board_of, entry_hexes


def movement(unit: dict) -> int:
    return 1 if unit["carry"] is not None else MOVE[unit["type"]]


class Mover:
    """The per-move context: who occupies what, which hexes are closed, who engages."""

    def __init__(self, state: dict, seat: int) -> None:
        self.state = state
        self.board: Board = board_of(state)
        entries = entry_hexes(state)
        self.closed_for_seat = {h for h, s in entries.items() if s != seat}
        self.closed_for_guardian = set(entries)
        turn = state["turns"].get(str(seat))
        allowed = set(turn["permissions"]) if turn else ()
        # One pass over the units: every occupied hex, and the hexes of enemy units that
        # engage this seat's units (guardians and players who gave leave do not).
        occupied: set[str] = set()
        engagers: set[str] = set()
        for u in state["units"].values():
            occupied.add(u["hex"])
            s = u["seat"]
            if s is not None and s != seat and s not in allowed:
                engagers.add(u["hex"])
        self.occupied = occupied
        self.engagers = engagers
        self.seat = seat

    def walk_ends(self, start: str, steps: int, guardian: bool) -> dict[str, None]:
        """Hexes a walk of 1..steps from ``start`` may stop on, in a fixed order (a dict used
        as an ordered set: ``legal_moves`` lists moves in the same order in every process)."""
        board, occupied = self.board, self.occupied
        closed = self.closed_for_guardian if guardian else self.closed_for_seat
        engagers = () if guardian else self.engagers
        adjacent = board.adjacent
        ends: dict[str, None] = {}

        def engaged_at(h: str) -> frozenset:
            return frozenset(n for n in adjacent[h] if n in engagers) if engagers else frozenset()

        if steps == 1:  # most pieces: one step, no search needed
            held = engaged_at(start)
            return {n: None for n in board.steps[start] if n not in closed and n not in occupied
                    and (not held or all(e in adjacent[n] for e in held))}

        def walk(here: str, left: int, held: frozenset, seen: tuple) -> None:
            for nxt in board.steps[here]:
                if nxt in seen or nxt in closed or nxt in occupied:
                    continue
                if held and not all(e in adjacent[nxt] for e in held):
                    continue
                ends[nxt] = None
                if left > 1:
                    walk(nxt, left - 1, held | engaged_at(nxt), seen + (nxt,))

        walk(start, steps, engaged_at(start), (start,))
        ends.pop(start, None)
        return ends

    def teleport_ends(self, start: str | None) -> list[str]:
        closed, occupied = self.closed_for_seat, self.occupied
        return [h for h in self.board.enterable_order if h not in closed and h not in occupied and h != start]

    def unit_ends(self, uid: str) -> dict[str, None]:
        unit = self.state["units"][uid]
        return self.walk_ends(unit["hex"], movement(unit), unit["guardian"])

    def enter_ends(self, kind: str) -> dict[str, None]:
        """Where a piece entering now may stop: its Entry hex (if empty) and a walk on."""
        entry = self.state["entries"][self.seat]
        if entry is None or entry in self.occupied:
            return {}
        return {entry: None, **self.walk_ends(entry, MOVE[kind], False)}
