"""What stands in an area: the foes that bar a Round Table's way, its castle, its village.

Queries (and taking a beaten foe away) that the rules sections all need: they sit below
disputes, castles, villages, movement and the effects so that none of those has to import
another to ask them."""
from __future__ import annotations

from . import state as S


def castle_in(state, a):
    for iid, *_ in a["up"]:
        if S.ctype(state, iid) == "castle":
            return iid
    return None


def village_in(state, a):
    for iid, *_ in a["up"]:
        if S.ctype(state, iid) == "village":
            return iid
    return None


def area_foes(state, a):
    """Face-up cards in an area that the Round Table must deal with."""
    out = []
    for iid, *_ in a["up"]:
        t = S.ctype(state, iid)
        if t in ("adversary", "peril", "page") or iid in a["hostile"]:
            out.append(iid)
    return out


def blocking_foes(state, seat):
    """Foes in the seat's area not yet outwitted by that seat, and a breached castle's
    occupant (8.3: still to be dealt with)."""
    p = state["p"][seat]
    if p["pos"] is None:
        return []
    a = S.peek_area(state, p["pos"])
    passed = {e[0] for e in a["ow"] if e[1] == seat}
    foes = [f for f in area_foes(state, a) if f not in passed]
    if a["occ"] is not None and a["occ"] not in passed and p["castle"].get(a["ref"]) == "inside":
        foes.append(a["occ"])
    return foes


def remove_foe(state, iid, elim):
    ref = S.take_from_area(state, iid)
    if ref is None:
        return
    (S.eliminate if elim else S.to_dead)(state, iid)
