"""Shared helpers for the Cup Quest rules tests: arrange a position, rig the dice, check invariants."""
from __future__ import annotations

import json

from games.rules import hexgrid
from games.rules.cupquest import CupQuest
from games.rules.cupquest.board import load_board
from games.rules.cupquest.cards import new_deck
from games.rules.rng import Rng

GAME = CupQuest()
BOARD = load_board("standard")


def new_game(players: int = 3, seed: int = 7, **options) -> dict:
    return GAME.setup(players, options, seed)


def on_turn(state: dict, seat: int) -> dict:
    """Make it ``seat``'s turn (no pending step)."""
    state["turn_index"] = state["order"].index(seat)
    state["pending"] = None
    return state


def give(state: dict, seat: int, hand: list[str]) -> dict:
    """Put exactly ``hand`` in ``seat``'s hand, swapping cards so all 52 stay accounted for."""
    for card in hand:
        for pile in [state["draw"], state["discard"], *state["hands"]]:
            if card in pile:
                pile.remove(card)
                break
    old = state["hands"][seat]
    state["hands"][seat] = list(hand)
    state["draw"].extend(old)
    return state


def place(state: dict, **positions: str) -> dict:
    """``place(state, s0="1,2", s2="3,4")`` moves pieces (keyword s<seat>)."""
    for name, at in positions.items():
        state["positions"][int(name[1:])] = at
    return state


def rig_dice(state: dict, rolls: list[int]) -> dict:
    """Advance the generator to a point where the next dice are ``rolls`` (in order).

    Each die uses one 64-bit draw unless it hits the (astronomically rare) rejection, so
    scanning counter values finds the sequence; the state stays a reachable rng state.
    """
    start = state["rng"]["n"]
    for n in range(start, start + 2_000_000):
        probe = {"seed": state["rng"]["seed"], "n": n}
        rng = Rng(probe)
        if all(rng.die() == want for want in rolls):
            state["rng"]["n"] = n
            return state
    raise AssertionError(f"no dice sequence {rolls} found")


def seat_of_turn(state: dict) -> int:
    return GAME.pending(state)[0].seat


def all_cards(state: dict) -> list[str]:
    return state["draw"] + state["discard"] + [c for h in state["hands"] for c in h]


def check_invariants(state: dict) -> None:
    """What must hold after every step of every game."""
    # Cards: every one of the 52 exactly once; hands full for everyone still playing.
    assert sorted(all_cards(state)) == sorted(new_deck())
    for seat in range(state["players"]):
        assert len(state["hands"][seat]) == (0 if state["resigned"][seat] else 3)
    # The Grail is in exactly one place: on a hex or carried.
    grail = state["grail"]
    assert (grail["at"] is None) != (grail["carrier"] is None)
    if grail["at"] is not None:
        assert grail["at"] in BOARD.cells and grail["at"] not in BOARD.monster_hexes
    else:
        assert not state["resigned"][grail["carrier"]]
    # Pieces: on walkable cells, never two on one hex, never in someone else's alcove.
    live = [p for p in state["positions"] if p is not None]
    assert len(live) == len(set(live))
    for seat, at in enumerate(state["positions"]):
        if state["resigned"][seat]:
            assert at is None
            continue
        assert at in BOARD.cells and at not in BOARD.monster_hexes
        others = {a for s, a in enumerate(state["alcoves"]) if s != seat and not state["resigned"][s]}
        assert at not in others
    assert all(0 <= n <= 4 for n in state["snipes"])
    assert all(0 <= n <= 2 for n in state["frozen"])
    json.loads(json.dumps(state))  # plain JSON data


def adjacent(a: str, b: str) -> bool:
    return hexgrid.distance(hexgrid.parse(a), hexgrid.parse(b)) == 1
