"""What one seat (or a spectator) may see.

Public: every face-up card (areas, Round Tables, dead carts, the ante, eliminated cards),
counts of hands, decks and face-down stacks, positions, modifiers, who must act.
Private to a seat: its own hand, and the options of a choice it must make. Never shown:
another hand, any face-down card (not even to the player who laid it: the web keeps no
secret notes, so we keep none either), deck order, instance ids of hidden cards, or the
generator. Card definitions are sent only for cards the viewer can see.
"""
from __future__ import annotations

import marshal

from . import state as S


def view_for(state, seat):
    return seat_view(state, seat, *public_view(state))


def views_for(state, seats):
    """``view_for`` for each of ``seats``, the part every viewer sees built once. The views
    share that part's objects: whoever changes one view must copy what it changes (the
    shell only serializes them)."""
    public, seen = public_view(state)
    return {seat: seat_view(state, seat, public, seen) for seat in seats}


def _shower(state, seen: set):
    """``show(iid)``: a face-up card as a view names it (None for no card), its code noted
    in ``seen`` so the view sends that card's definition."""
    inst = state["inst"]

    def show(iid):
        if iid is None:
            return None
        code = inst[iid]
        seen.add(code)
        return {"id": iid, "code": code}
    return show


def public_view(state):
    """(the view's parts that are the same for every viewer, the codes of the cards they
    show): everything but ``pending``, ``my_seat``, ``my_hand`` and ``cards``."""
    seen: set[str] = set()
    show = _shower(state, seen)

    def area_view(a):
        return {"ref": a["ref"], "face_down": len(a["down"]), "cards": [show(e[0]) for e in a["up"]],
                "hostile": list(a["hostile"]), "outwitted": [list(e) for e in a["ow"]],
                "occupant": show(a["occ"]), "attached": [show(i) for i in a["att"]], "searched": a["searched"]}

    players = []
    for s, p in enumerate(state["p"]):
        players.append({
            "seat": s, "out": p["out"], "hand_count": len(p["hand"]), "deck_count": len(p["deck"]),
            "dead_cart": [show(i) for i in p["dead"]],
            "knights": [show(i) for i in p["knights"]], "personas": [show(i) for i in p["personas"]],
            "pages": [{"page": show(pg["c"]), "knights": list(pg["k"]), "items": [show(i) for i in pg["i"]]}
                      for pg in p["pages"]],
            "attached": [show(i) for i in p["attached"]],
            "representative": p["rep"], "position": p["pos"], "came_from": p["from"],
            "castle": dict(p["castle"]), "disabled": dict(p["disabled"]),
            "moved": p["moved"], "must_dispute": p["must"], "effects": dict(p["fx"]),
            "stakes_nothing": S.stakes_nothing(state, s),
            "england": [area_view(a) for a in p["england"]],
        })
    out = {
        "players": players, "avalon": [area_view(a) for a in state["avalon"]],
        "ante": [dict(show(i), owner=state["own"][i]) for i in state["ante"]],
        "eliminated": [show(i) for i in state["elim"]], "in_play": [show(i) for i in state["limbo"]],
        "turn": state["turn"], "turn_number": state["tn"], "phase": state["phase"], "first": state["first"],
        "failed_searches": state["failed_searches"], "solo": state["solo"],
        "modifiers": [dict(m) for m in state["mods"]], "prevent_join": dict(state["no_join"]),
        "forced_method": state["force"], "doubling": {"since": list(state["doubling"]["since"]),
                                                       "count": state["doubling"]["count"]},
        "options": {"rules_off": list(state["opts"]["rules_off"]),
                    "double_the_ante": state["opts"]["double_the_ante"], "turn_cap": state["opts"]["turn_cap"]},
        "result": None if state["result"] is None else dict(state["result"]),
        "pending": None,  # each viewer's own (seat_view): kept here for the keys' order
        "england_size": state["esize"],
        # The last settled dispute (disputes.record): face-up cards and numbers drawn in
        # the open, the same for every seat. Absent from older stored states: None.
        "last_dispute": marshal.loads(marshal.dumps(state["last_dispute"])) if state.get("last_dispute") else None,
    }
    return out, frozenset(seen)


def seat_view(state, seat, public, public_seen):
    """The whole view for ``seat`` (None: a spectator): ``public_view``'s parts, and what
    only this viewer sees (its pending decision's options, its hand) with the definitions
    of every card shown."""
    seen = set(public_seen)
    show = _shower(state, seen)
    out = dict(public)
    out["pending"] = pend = pending_view(state, seat)
    if pend and pend.get("what") == "occupant" and "options" in pend:
        # The chooser picks from his own deck, so he may know what each option is: the
        # options stay the ids the moves carry, ``option_cards`` names them.
        pend["option_cards"] = [show(iid) for iid in pend["options"] if iid is not None]
    if seat is not None:
        out["my_seat"] = seat
        out["my_hand"] = [show(i) for i in state["p"][seat]["hand"]]
    out["cards"] = {code: state["cards"][code] for code in sorted(seen)}
    return out


def pending_view(state, seat):
    if not state["steps"]:
        return None if state["result"] else {"kind": "turn", "seat": state["turn"]}
    step = state["steps"][-1]
    k = step["k"]
    if k == "response":
        act = step["act"]
        return {"kind": "response", "seat": step["order"][step["i"]], "order": list(step["order"]),
                "before": act["do"], "for": act["seat"]}
    if k == "offer":
        return {"kind": "offer", "from": step["from"], "waiting": list(step["wait"])}
    if k in ("cut", "balance"):
        return {"kind": k, "seat": step["seat"]}
    v = {"kind": "choice", "what": step["what"], "seat": step["seat"]}
    if step["what"] in ("reveal", "reveal_place"):
        v["card"] = step["card"]  # face up in play already (public)
    if step["what"] == "run_away":
        v["options"] = list(step["options"])
    if step["what"] == "occupant" and seat == step["seat"]:
        v["options"] = list(step["options"])  # cards of the chooser's own deck, sorted by id
    if step["what"] == "discard":
        v["left"] = step["left"]
    return v
