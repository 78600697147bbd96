"""Resolving disputes (7.x): combat, knight-assist against perils, battles of wits,
multi-talented adversaries, ties that carry over, and who counts as a foe."""
from __future__ import annotations

from . import casualties, places, timing, turns
from . import effects as FX
from . import state as S
from .base_events import ev

ANTHRAX = "anthrax"


def foe_stats(state, iid):
    """(combat, wits) printed on a foe; a page in its owner's England shows its adversary side."""
    c = S.card(state, iid)
    if c["type"] == "page":
        sa = c.get("secondary_adversary") or {}
        return sa.get("combat"), sa.get("wits")
    return c.get("combat"), c.get("wits")


def anthrax_group(state, a, foe):
    """Rule 6.3: Anthrax cards sharing a space are one dispute with their wits added."""
    if ANTHRAX not in S.card(state, foe).get("tags", []):
        return [foe]
    group = [i for i, *_ in a["up"] if ANTHRAX in S.card(state, i).get("tags", [])
             and S.ctype(state, i) in ("adversary", "persona")]
    return group if foe in group else [foe]


def methods_for(state, seat, foe):
    """The dispute methods open against ``foe`` (7.4, 7.5, force_dispute)."""
    a = S.peek_area(state, state["p"][seat]["pos"])
    combat, wits = foe_stats(state, foe)
    group = anthrax_group(state, a, foe)
    if len(group) > 1:
        return ["wits"]
    out = []
    if combat is not None:
        out.append("combat")
    if wits is not None and not (combat is not None and foe in state["outwitted"]):
        out.append("wits")
    if S.ctype(state, foe) in ("knight", "persona") and not out:
        out.append("combat")
    forced = state["force"]
    if forced in out:
        return [forced]
    return out


def can_lead(state, seat, iid, stat):
    p = state["p"][seat]
    if str(iid) in p["disabled"]:
        return False
    return S.card(state, iid).get(stat) is not None or stat == "wits"


def leads(state, seat, stat):
    return [i for i in S.rt_members(state["p"][seat]) if can_lead(state, seat, i, stat)]


def member_total(state, seat, iid, stat, include_rep=True):
    c = S.card(state, iid)
    base = c.get(stat) or 0
    return (base + FX.own_bonus(c, stat) + FX.stat_bonus(state, stat, iid, seat, None)
            + turns.side_bonus(state, seat, stat, include_rep))


def foe_total(state, foe, stat, area_ref):
    a = S.peek_area(state, area_ref)
    group = anthrax_group(state, a, foe) if stat == "wits" else [foe]
    total = 0
    for f in group:
        combat, wits = foe_stats(state, f)
        v = combat if stat == "combat" else wits
        total += (v or 0) + FX.own_bonus(S.card(state, f), stat) + FX.stat_bonus(state, stat, f, None, area_ref)
    return total


def draw_pair(state, seat, events, why):
    """Both sides draw a grail number: the player first, the foe's drawer second; when the
    player is alone the foe's number comes first (15.3). None if someone ran out."""
    drawer = timing.foe_drawer(state, seat)
    if drawer == seat and state["solo"] == seat:
        theirs = timing.draw_grail(state, seat, events, f"for the foe ({why})")
        mine = None if theirs is None else timing.draw_grail(state, seat, events, why)
    else:
        mine = timing.draw_grail(state, seat, events, why)
        if mine is None:
            return None
        theirs = None
        while theirs is None and state["result"] is None:
            drawer = timing.foe_drawer(state, seat)
            theirs = timing.draw_grail(state, drawer, events, f"for the foe ({why})")
            if theirs is None and state["p"][seat]["out"]:
                return None
    if mine is None or theirs is None:
        return None
    return mine, theirs


def resolve(state, act, events):
    """A combat or battle of wits whose response window has closed."""
    seat, foe, lead, method = act["seat"], act["foe"], act["lead"], act["method"]
    p = state["p"][seat]
    if lead not in S.rt_members(p) or foe not in places.blocking_foes(state, seat) + _neutrals(state, seat):
        events.append(ev("fizzle", "The dispute no longer stands."))
        return
    ref = p["pos"]
    a = S.area(state, ref)
    pair = draw_pair(state, seat, events, method)
    if pair is None or state["turn"] != seat:
        return
    if p["pos"] != ref or lead not in S.rt_members(p) or foe not in challengeable(state, seat):
        # A song drawn for a grail number (4.4) made the Round Table run away, or took the
        # lead or the foe: the dispute ends there, nobody is slain or outwitted by it.
        events.append(ev("fizzle", "The dispute ends: " + ("the Round Table has run away." if p["pos"] != ref
                                                            else "the lead or the adversary is gone.")))
        state["todo"].insert(0, {"do": "dispute_done"})
        return
    mine, theirs = pair
    lead_total = member_total(state, seat, lead, method) + mine
    if method == "combat" and S.ctype(state, foe) == "peril":
        # 7.3: every other knight of the Round Table lends +1 against a peril.
        lead_total += len([k for k in p["knights"] if k != lead])
    if method == "combat" and p["castle"].get(ref) == "inside" and foe != a["occ"]:
        # 8.3: inside a castle the knights have its defence against foes outside it.
        castle = places.castle_in(state, a)
        if castle is not None:
            lead_total += S.card(state, castle).get("castle_defense") or 0
    foe_total_ = foe_total(state, foe, method, ref) + theirs
    p["disputed"].append(foe)
    p["must"] = False
    name_l, name_f = S.title(state, lead), S.title(state, foe)
    data = {"lead": lead, "foe": foe, "method": method, "lead_total": lead_total, "foe_total": foe_total_}
    members = set(S.rt_members(p))
    if lead_total == foe_total_:
        events.append(ev("dispute", f"{name_l} and {name_f} tie at {lead_total}: it goes on next turn.", data=data))
    elif method == "combat":
        if lead_total > foe_total_:
            events.append(ev("dispute", f"{name_l} ({lead_total}) slays {name_f} ({foe_total_}).", data=data))
            places.remove_foe(state, foe, False)
        else:
            events.append(ev("dispute", f"{name_f} ({foe_total_}) slays {name_l} ({lead_total}).", data=data))
            casualties.member_dies(state, seat, lead, events)
            foe_wins(state, seat, foe, None, ref, events)
    else:
        if lead_total > foe_total_:
            events.append(ev("dispute", f"{name_l} ({lead_total}) outwits {name_f} ({foe_total_}).", data=data))
            for f in anthrax_group(state, a, foe):
                a["ow"].append([f, seat])
                if f not in state["outwitted"]:
                    state["outwitted"].append(f)
        else:
            events.append(ev("dispute", f"{name_f} ({foe_total_}) outwits {name_l} ({lead_total}).", data=data))
            foe_wins(state, seat, foe, lead, ref, events)
    record(state, seat, ref, method, lead, foe, lead_total, foe_total_, members, a)
    state["todo"].insert(0, {"do": "dispute_done"})


def record(state, seat, ref, method, lead, foe, lead_total, foe_total, members, a):
    """``state["last_dispute"]``: what the last settled dispute did, for the board (both
    sides' totals, who won, who died, who was outwitted). Only public facts: both cards
    were face up and every number was drawn in the open. The key is absent until a game's
    first dispute settles (older stored games have none)."""
    p = state["p"][seat]
    result = "tie" if lead_total == foe_total else ("lead" if lead_total > foe_total else "foe")
    gone = [i for i in sorted(members) if i not in S.rt_members(p)]  # the lead, or more by a foe's effect
    if method == "combat" and result == "lead":
        gone = [foe] + gone
    outwitted = anthrax_group(state, a, foe) if method == "wits" and result == "lead" else []
    state["last_dispute"] = {
        "seq": state["seq"], "turn": state["tn"], "seat": seat, "area": ref, "method": method,
        "lead": {"card": lead, "name": S.title(state, lead), "total": lead_total},
        "foe": {"card": foe, "name": S.title(state, foe), "total": foe_total},
        "result": result, "slain": [S.title(state, i) for i in gone], "slain_cards": gone,
        "outwitted": [S.title(state, i) for i in outwitted]}


def foe_wins(state, seat, foe, lead, ref, events):
    """A winning adversary's special effects fall on the losing Round Table (7.4; the card
    data writes an adversary's or peril's primary as what happens when it wins)."""
    if S.ctype(state, foe) not in ("adversary", "peril"):
        return
    special = [e for e in S.card(state, foe)["primary"]
               if not (e["op"] in FX.MODIFIER_OPS and e.get("duration") == "permanent")]
    if special:
        events.append(ev("special", f"{S.title(state, foe)} has its way with the losers."))
        FX.run(state, special, timing.foe_drawer(state, seat), seat, {"foe": foe, "lead": lead, "area": ref},
               events, foe)


def _neutrals(state, seat):
    """Knights and personas in the area that have not refused: they may be challenged."""
    p = state["p"][seat]
    if p["pos"] is None:
        return []
    a = S.peek_area(state, p["pos"])
    return [i for i, *_ in a["up"] if S.ctype(state, i) in ("knight", "persona") and i not in a["hostile"]]


def challengeable(state, seat):
    return places.blocking_foes(state, seat) + _neutrals(state, seat)


def after_dispute(state, events):
    """Effects lasting 'for the dispute' end; a forced method is used up."""
    state["mods"] = [m for m in state["mods"] if m["until"] != "dispute"]
    state["force"] = None
