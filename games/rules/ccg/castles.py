"""Castles (8.x): the castle table, assaults, breaching, fighting inside, staying out.

Per player and area ``p["castle"][ref]`` records: "consulted" (the table was read at
least once), "passed" (the table let the Round Table by), "inside" (entered or breached).
"""
from __future__ import annotations

from . import casualties, places, timing, turns
from . import disputes as D
from . import effects as FX
from . import state as S
from .base_events import ev


def occupant_needs_table(state, occ):
    """8.1/8.2: an occupant with a combat value keeps the knights out until the table is
    read; one with no combat must be met inside."""
    return S.card(state, occ).get("combat") is not None


def blocking(state, seat):
    """True while a castle keeps the Round Table from moving on."""
    p = state["p"][seat]
    if p["pos"] is None:
        return False
    a = S.peek_area(state, p["pos"])
    occ = a["occ"]
    if occ is None or places.castle_in(state, a) is None:
        return False
    status = p["castle"].get(a["ref"])
    if status == "passed" or any(e[0] == occ and e[1] == seat for e in a["ow"]):
        return False
    return status != "inside"  # inside, the occupant is an ordinary foe (places.blocking_foes)


def can_parley(state, seat):
    p = state["p"][seat]
    if p["pos"] is None:
        return False
    a = S.peek_area(state, p["pos"])
    occ = a["occ"]
    return (occ is not None and places.castle_in(state, a) is not None and occupant_needs_table(state, occ)
            and p["castle"].get(a["ref"]) in (None, "consulted") and a["ref"] not in p["consulted"]
            and a["assaulted"] != occ and bool(S.rt_members(p)))


def can_assault(state, seat):
    p = state["p"][seat]
    if p["pos"] is None or not p["knights"]:
        return False
    a = S.peek_area(state, p["pos"])
    occ = a["occ"]
    return (occ is not None and p["castle"].get(a["ref"]) == "consulted"
            and occupant_needs_table(state, occ) and occ not in p["disputed"])


def can_enter(state, seat):
    p = state["p"][seat]
    if p["pos"] is None:
        return False
    a = S.peek_area(state, p["pos"])
    if places.castle_in(state, a) is None or p["castle"].get(a["ref"]) == "inside":
        return False
    occ = a["occ"]
    return occ is None or not occupant_needs_table(state, occ) or p["castle"].get(a["ref"]) == "passed"


def enter(state, seat, events):
    p = state["p"][seat]
    a = S.area(state, p["pos"])
    p["castle"][a["ref"]] = "inside"
    castle = places.castle_in(state, a)
    events.append(ev("castle", f"Seat {seat + 1}'s Round Table enters {S.title(state, castle)}."))
    effs = S.card(state, castle)["primary"]
    if effs:
        FX.run(state, effs, seat, S.opponent_of(state, seat), {"area": a["ref"]}, events, castle)
    p["must"] = bool(places.blocking_foes(state, seat))


def lookup(table, total):
    for row in table:
        if row["min"] <= total <= row["max"]:
            return row["result"]
    return "no_pass"


def resolve_table(state, act, events):
    """8.1: two grail numbers plus (our wits - the occupant's wits), read on the table."""
    seat, lead = act["seat"], act["lead"]
    p = state["p"][seat]
    a = S.area(state, p["pos"])
    occ = a["occ"]
    if occ is None or lead not in S.rt_members(p):
        events.append(ev("fizzle", "The castle has nobody to parley with."))
        return
    g1 = timing.draw_grail(state, seat, events, "castle table")
    g2 = None if g1 is None else timing.draw_grail(state, seat, events, "castle table")
    if g2 is None or state["turn"] != seat:
        return
    if left_mid_draw(state, p, a, lead, events, "parley"):
        return
    total = g1 + g2 + D.member_total(state, seat, lead, "wits") - D.foe_total(state, occ, "wits", a["ref"])
    castle = places.castle_in(state, a)
    result = lookup(S.card(state, castle)["castle_table"] or [], total)
    p["consulted"].append(a["ref"])
    p["castle"][a["ref"]] = "passed" if result == "pass" else "consulted"
    events.append(ev("castle", f"Castle table total {total}: {result.replace('_', ' ')}.",
                     data={"total": total, "result": result}))
    if result == "lead_knight_slain":
        casualties.member_dies(state, seat, lead, events)
    elif result == "draw_card":
        turns.draw_cards(state, seat, 1, events)
    p["must"] = False


def left_mid_draw(state, p, a, lead, events, what):
    """True (and said) when a song drawn for a grail number (4.4) made the Round Table run
    away, or took the lead or the occupant: the parley or assault ends there, as a dispute
    does (disputes.resolve), and nobody is slain by it."""
    if p["pos"] == a["ref"] and lead in S.rt_members(p) and S.peek_area(state, a["ref"])["occ"] is not None:
        return False
    events.append(ev("fizzle", f"The {what} ends: " + ("the Round Table has run away." if p["pos"] != a["ref"]
                                                        else "the lead or the occupant is gone.")))
    return True


def resolve_assault(state, act, events):
    """8.3: lead knight +1 per other knight against occupant combat + castle defence."""
    seat, lead = act["seat"], act["lead"]
    p = state["p"][seat]
    a = S.area(state, p["pos"])
    occ = a["occ"]
    if occ is None or lead not in p["knights"]:
        events.append(ev("fizzle", "The assault no longer stands."))
        return
    pair = D.draw_pair(state, seat, events, "assault")
    if pair is None or state["turn"] != seat:
        return
    if left_mid_draw(state, p, a, lead, events, "assault"):
        state["todo"].insert(0, {"do": "dispute_done"})
        return
    mine, theirs = pair
    castle = places.castle_in(state, a)
    ours = D.member_total(state, seat, lead, "combat") + len(p["knights"]) - 1 + mine
    defence = S.card(state, castle).get("castle_defense") or 0
    theirs_total = D.foe_total(state, occ, "combat", a["ref"]) + defence + theirs
    p["disputed"].append(occ)
    a["assaulted"] = occ
    p["must"] = False
    data = {"ours": ours, "theirs": theirs_total}
    if ours > theirs_total:
        p["castle"][a["ref"]] = "inside"
        events.append(ev("castle", f"The castle is breached ({ours} to {theirs_total}).", data=data))
    elif ours < theirs_total:
        events.append(ev("castle", f"The assault fails ({ours} to {theirs_total}).", data=data))
        casualties.member_dies(state, seat, lead, events)
    else:
        events.append(ev("castle", f"The assault is a tie at {ours}: it goes on next turn.", data=data))
    state["todo"].insert(0, {"do": "dispute_done"})
