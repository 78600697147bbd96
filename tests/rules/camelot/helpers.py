"""Hand-set tables for the Camelot rules tests."""
from __future__ import annotations

from games.rules.base import IllegalMove
from games.rules.camelot import Camelot
from games.rules.camelot import editions, turns
from games.rules.camelot.board import load

GAME = Camelot()
BOARD = load("standard", editions.CURRENT)
EDGE = BOARD.edge


def table(players=3, options=None, seed=1, entries=None, tokens=(0, 1), keep_items=False):
    """A game in play with Entry hexes set by hand (default: evenly round the ring), the
    given token holders at the start of their turns, and (unless kept) no items."""
    state = GAME.setup(players, options or {}, seed)
    if entries is None:
        entries = [EDGE[(len(EDGE) * s) // players] for s in range(players)]
    state["entries"] = list(entries)
    state["entry_next"] = len(state["order"])
    state["phase"] = "play"
    state["tokens"] = list(tokens)
    state["turns"] = {}
    for s in tokens:
        turns.start(state, s)
    if not keep_items:
        state["items"] = {}
        state["item_values"] = {}
    return state


def put(state, seat, kind, hex_, carry=None, uid=None):
    """Stand a unit on the board by hand (from its owner's pool)."""
    if seat is None:
        uid = uid or f"guardian-{sum(1 for u in state['units'] if u.startswith('guardian')) + 1}"
    else:
        n = 1
        while uid is None and f"s{seat}-{kind}-{n}" in state["units"]:
            n += 1
        uid = uid or f"s{seat}-{kind}-{n}"
        state["pool"][seat][kind] -= 1
    state["units"][uid] = {"seat": seat, "type": kind, "hex": hex_, "carry": carry, "guardian": seat is None}
    return uid


def play(state, seat, move):
    new, _ = GAME.apply(state, seat, move)
    return new


def refused(state, seat, move):
    try:
        GAME.apply(state, seat, move)
    except IllegalMove as err:
        assert err.reason
        return err.reason
    raise AssertionError(f"{move} was accepted")


def moves_of(state, seat, kind):
    return [m for m in GAME.legal_moves(state, seat) if m["type"] == kind]


def ends(state, seat, uid):
    return {m["to"] for m in GAME.legal_moves(state, seat)
            if m["type"] == "move" and m["unit"] == uid and not m.get("teleport")}


def knight_choice(state, seat):
    """What the knight level (games/rules/camelot/players.py) plays here, from the seat's view."""
    from games.rules.camelot.players import knight
    from games.rules.rng import Rng, new_rng_state

    return knight(GAME.view_for(state, seat), GAME.legal_moves(state, seat), Rng(new_rng_state(7)))


def knight_turn(state, seat, limit=8):
    """The knight's moves until its turn ends (at most ``limit``), and the state after them."""
    made = []
    while len(made) < limit:
        move = knight_choice(state, seat)
        made.append(move)
        state = play(state, seat, move)
        if move["type"] == "end_turn":
            break
    return made, state

