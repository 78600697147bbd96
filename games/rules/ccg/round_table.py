"""Joining the Round Table (5.x), pages (10.x) and items (11.x)."""
from __future__ import annotations

from . import state as S
from . import timing
from .base_events import ev


def needs_page(state, iid):
    return S.ctype(state, iid) == "knight" and S.rule_on(state, "knight_needs_page")


def can_join(state, seat, iid):
    """A knight joins only with a page free to carry his coconuts (5.1)."""
    if not needs_page(state, iid):
        return True
    return S.free_page(state, state["p"][seat], "k") is not None


def add_member(state, seat, iid, events):
    p = state["p"][seat]
    if S.ctype(state, iid) == "knight":
        p["knights"].append(iid)
        pg = S.free_page(state, p, "k")
        if pg is not None:
            pg["k"].append(iid)
        if p["rep"] is None:
            p["rep"] = iid
    else:
        p["personas"].append(iid)
    events.append(ev("join", f"{S.title(state, iid)} joins seat {seat + 1}'s Round Table.",
                     data={"seat": seat, "card": iid}))


def add_page(state, seat, iid, events):
    p = state["p"][seat]
    p["pages"].append({"c": iid, "k": [], "i": []})
    events.append(ev("page", f"{S.title(state, iid)} enters seat {seat + 1}'s service."))
    # A knight left without a page (rule off earlier, or a dead page) is served at once.
    for k in p["knights"]:
        if S.page_of_knight(p, k) is None and needs_page(state, k):
            pg = S.free_page(state, p, "k")
            if pg is None:
                break
            pg["k"].append(k)


def assign_item(state, seat, iid, page_iid, events):
    p = state["p"][seat]
    for pg in p["pages"]:
        if pg["c"] == page_iid:
            pg["i"].append(iid)
    p["item_turn"][str(iid)] = state["tn"]
    events.append(ev("item", f"{S.title(state, page_iid)} carries {S.title(state, iid)}; usable from the next turn."))


def page_with_room(state, p, page_iid, need):
    for pg in p["pages"]:
        if pg["c"] == page_iid:
            cap = S.card(state, pg["c"]).get("page") or {"items": 1, "knights": 1}
            limit = cap["knights"] if need == "k" else cap["items"]
            return pg if len(pg[need]) < limit else None
    return None


def trade_item(state, seat, item, page_iid, events):
    """FAQ 5: items may pass between pages within their carrying limits."""
    p = state["p"][seat]
    p["traded"].append(item)
    for pg in p["pages"]:
        if item in pg["i"]:
            pg["i"].remove(item)
    page_with_room(state, p, page_iid, "i")["i"].append(item)
    events.append(ev("item", f"{S.title(state, item)} is handed to {S.title(state, page_iid)}."))


# ------------------------------------------------------------------ invitations (5.1, 5.2)
def join_blocked(state, seat):
    """Rule 13.4 for joining: of an auto-join and a no-join card, the later one wins.
    Returns "auto", "blocked" or None."""
    auto = state["p"][seat]["fx"]["auto_join"]
    nj = state["no_join"]
    blocked = nj["turns"] > 0
    if auto and blocked:
        return "auto" if auto > nj["seq"] else "blocked"
    if blocked:
        return "blocked"
    return "auto" if auto else None


def can_invite(state, seat, iid, rep):
    p = state["p"][seat]
    if p["pos"] is None or rep not in p["knights"] or str(rep) in p["disabled"]:
        return False
    a = S.peek_area(state, p["pos"])
    if iid not in S.up_iids(a) or S.ctype(state, iid) not in ("knight", "persona"):
        return False
    if iid in a["hostile"] or iid in a["challenged"] or iid in p["asked"] or iid in p["disputed"]:
        return False
    return can_join(state, seat, iid) and not S.duplicate_blocked_rt(state, iid, seat)


def resolve_join(state, act, events):
    seat, iid, rep = act["seat"], act["card"], act["rep"]
    p = state["p"][seat]
    a = S.area(state, p["pos"]) if p["pos"] else None
    if a is None or iid not in S.up_iids(a) or rep not in p["knights"]:
        events.append(ev("fizzle", "The invitation no longer stands."))
        return
    p["asked"].append(iid)
    p["must"] = False
    mode = join_blocked(state, seat)
    name = S.title(state, iid)
    if mode == "blocked":
        events.append(ev("join", f"{name} may not join any Round Table now."))
        return
    if mode == "auto":
        p["fx"]["auto_join"] = 0
        _joins(state, seat, iid, a, events)
        return
    persona = S.ctype(state, iid) == "persona"
    # 5.2: a persona's invitation gets no Round Table bonus.
    ours = timing.draw_grail(state, seat, events, "Round Table", rt_bonus=not persona)
    if ours is None or state["turn"] != seat:
        return
    theirs = None
    while theirs is None and state["result"] is None and not p["out"]:
        theirs = timing.draw_grail(state, timing.foe_drawer(state, seat), events, f"for {name}")
    if theirs is None:
        return
    data = {"rep": ours, "knight": theirs}
    if theirs < ours:
        if not can_join(state, seat, iid):
            events.append(ev("join", f"{name} would join but no page is free.", data=data))
            return
        _joins(state, seat, iid, a, events)
    elif theirs > ours:
        a["hostile"].append(iid)
        p["must"] = True
        events.append(ev("join", f"{name} refuses ({theirs} to {ours}) and becomes an adversary.", data=data))
    else:
        events.append(ev("join", f"{name} will not join yet ({theirs} each); ask again another turn.", data=data))


def _joins(state, seat, iid, a, events):
    S.take_from_area(state, iid)
    add_member(state, seat, iid, events)
