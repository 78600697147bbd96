"""Listing the legal moves: every move a seat may make now (``legal``), and the moves of
one kind (``candidates``, what checking a move compares it with, cheaper than them all).
The card plays, targets and areas each kind of card may go to are worked out here.
"""
from __future__ import annotations

from . import ante, avalon, castles, layout, movement, places, round_table, travel, turns
from . import disputes as D
from . import effects as FX
from . import state as S


def legal(state, seat):
    if state["result"] is not None or state["p"][seat]["out"]:
        return []
    steps = state["steps"]
    if steps:
        return step_moves(state, seat, steps[-1])
    if state["phase"] != "play":
        return []
    if seat != state["turn"]:
        return interjections(state, seat)
    return main_moves(state, seat)


def face_up_plays(state, seat, cards=None, cache=None):
    """Every face-up play of the cards in ``seat``'s hand (or of ``cards``): 4.1 lets any
    player play face up "at any time"; only face-down plays wait for his own turn."""
    cache = {} if cache is None else cache
    hand = state["p"][seat]["hand"] if cards is None else cards
    return [m for iid in hand for m in card_plays(state, seat, iid, cache) if m.get("face") != "down"]


def _hand_cards(state, seat, card):
    """The hand cards a listing covers: all, or just ``card`` when checking a play of it."""
    if card is None:
        return None
    return [card] if card in state["p"][seat]["hand"] else []


def interjections(state, seat, kind=None, card=None, cache=None):
    """What a player may do while another takes his turn (4.1 "at any time"): face-up
    plays and using an item's or a member's ability, between the active player's moves.
    The rules' own steps (reveals, choices, balancing, offers) are not interrupted; the
    response windows before grail numbers give the same chance there (13.1).
    ``kind``/``card`` narrow the listing to one move type (and card) for checking."""
    out = []
    if kind in (None, "play"):
        out += face_up_plays(state, seat, _hand_cards(state, seat, card), cache)
    if kind in (None, "use"):
        out += use_moves(state, seat)
    return out


def window_moves(state, seat, step, kind=None, card=None, cache=None):
    """A response window's moves for the seat it waits on (13.1, 13.2); ``kind``/``card``
    narrow the listing as in ``interjections``."""
    if step["order"][step["i"]] != seat:
        return []
    out = [{"type": "pass"}] if kind in (None, "pass") else []
    out += interjections(state, seat, kind, card, cache)
    if step["act"]["do"] == "fill" and kind in (None, "play"):
        known = {(m["card"], m.get("to")) for m in out if m["type"] == "play"}
        fills = fill_plays(state, seat, step["act"]["area"], _hand_cards(state, seat, card))
        out += [m for m in fills if (m["card"], m["to"]) not in known]
    if kind in (None, "run_away") and seat == state["turn"] \
            and step["act"]["do"] in ("dispute", "assault", "castle") and movement.facing(state, seat):
        out += run_away_moves(state, seat)
    return out


def step_moves(state, seat, step, kind=None, card=None, cache=None):
    k = step["k"]
    if k == "cut":
        if seat != step["seat"]:
            return []
        size = len(state["p"][ante.cut_target(state, seat)]["deck"])
        return [{"type": "cut", "at": at} for at in range(1, size)]
    if k == "response":
        return window_moves(state, seat, step, kind, card, cache)
    if k == "offer":
        if seat not in step["wait"]:
            return []
        # A seat that cannot pay from the cards it can stake may only concede (ante.can_match).
        return ([{"type": "accept"}] if ante.can_match(state, seat) else []) + [{"type": "concede"}]
    if seat != step["seat"]:
        return []
    if k == "balance" or step.get("what") == "discard":
        return [{"type": "discard", "card": iid} for iid in state["p"][seat]["hand"]]
    return [{"type": "choose", "option": o} for o in step["options"]]


def main_moves(state, seat):
    p = state["p"][seat]
    out = []
    cache: dict = {}
    for iid in p["hand"]:
        out += card_plays(state, seat, iid, cache)
    if movement.can_move(state, seat):
        out += [{"type": "move", "to": r} for r in movement.destinations(state, seat)]
    out += invite_moves(state, seat)
    out += fight_moves(state, seat)
    out += castle_moves(state, seat)
    out += own_run_away_moves(state, seat)
    out += search_moves(state, seat)
    out += item_moves(state, seat)
    out += use_moves(state, seat)
    out += represent_moves(state, seat)
    out += end_moves(state, seat)
    out += alone_moves(state, seat)
    return out


def own_run_away_moves(state, seat):
    return run_away_moves(state, seat) if movement.facing(state, seat) else []


def search_moves(state, seat):
    return [{"type": "search"}] if avalon.can_search(state, seat) else []


def end_moves(state, seat):
    if must_dispute(state, seat):
        return []
    if ante.may_double(state, seat):
        return [{"type": "end_turn"}, {"type": "end_turn", "double": True}]
    return [{"type": "end_turn"}]


def alone_moves(state, seat):
    """15.3: a player left alone may give up or call the game a draw."""
    return [{"type": "give_up"}, {"type": "call_draw"}] if state["solo"] == seat else []


def must_dispute(state, seat):
    """The turn may not end while a foe the Round Table walked into can still be disputed
    this turn (FAQ 2). A foe already disputed this turn (a tie, a lost battle of wits)
    or no member able to lead lifts the obligation until the next turn."""
    p = state["p"][seat]
    if not p["must"]:
        return False
    return bool(fight_moves(state, seat))


def _opponents(state, seat):
    return [s for s in S.alive(state) if s != seat]


def _with_targets(state, seat, base, effects):
    """Add the chosen opponent (3-4 players) and knight (when an effect aims at one)."""
    opps = _opponents(state, seat)
    variants = [dict(base)]
    if len(opps) > 1 and any(e.get("who") == "opponent" or e.get("target") in ("opponent", "opponent_knight")
                             for e in effects):
        variants = [dict(base, target=o) for o in opps]
    if any(e.get("target") == "adversary" for e in effects) and dispute_ctx(state)["foe"] is None:
        # Outside a dispute the player names the foe (any foe barring a Round Table's way).
        foes = sorted({f for s in S.alive(state) for f in places.blocking_foes(state, s)})
        if len(foes) > 1:
            variants = [dict(v, foe=f) for v in variants for f in foes]
    if any(e.get("target") == "area" for e in effects):
        variants = [dict(v, area=r) for v in variants for r in target_areas(state)] or variants
    kind = FX.needs_pick(effects)
    if kind is None:
        return variants
    out = []
    for v in variants:
        owner = seat if kind == "own_knight" else v.get("target", opps[0] if opps else None)
        knights = state["p"][owner]["knights"] if owner is not None else []
        out += [dict(v, pick=k) for k in knights] or [v]
    return out


def target_areas(state):
    """Areas an effect aimed at "everyone in this area" may be played on: the dispute's
    area first, then every area where a Round Table stands or a foe lies face up (where
    such a modifier can matter). The player names one (``"area": ref``)."""
    refs = []
    dispute = dispute_ctx(state)["area"]
    if dispute is not None:
        refs.append(dispute)
    stands = {q["pos"] for q in state["p"] if not q["out"]}
    for ref in S.all_area_refs(state):
        a = S.peek_area(state, ref)
        if ref not in refs and (ref in stands or places.area_foes(state, a)):
            refs.append(ref)
    return refs


def effect_plays(state, seat, iid):
    c = S.card(state, iid)
    t = c["type"]
    out = []
    if t in ("event", "song", "taunt", "questions_three") and c["primary"]:
        out += _with_targets(state, seat, {"type": "play", "card": iid, "use": "primary"}, c["primary"])
    if t != "page" and c["secondary"]:
        out += _with_targets(state, seat, {"type": "play", "card": iid, "use": "secondary"}, c["secondary"])
    return out


_NOTHING_UP = ({}, False, False)  # read only


def _profile(state, a):
    """What an area already holds, for the 6.3 checks: slot -> all Anthrax?, knight, peril."""
    slots: dict = {}
    knight = peril = False
    for iid, *_ in a["up"]:
        c = S.card(state, iid)
        slot = movement.SLOT.get(c["type"])
        if slot:
            slots[slot] = slots.get(slot, True) and D.ANTHRAX in c.get("tags", [])
        knight = knight or c["type"] == "knight"
        peril = peril or c["type"] == "peril"
    return slots, knight, peril


def _area_facts(state, cache):
    """Once per listing, for every area of a player still in and of Avalon: (England owner
    or None, ref, a Round Table stands there, what it holds as ``_profile`` tells). A
    listing made to check one play (``cache["only"]``) looks at that play's area alone."""
    facts = cache.get("facts")
    if facts is None:
        occupied = {q["pos"] for q in state["p"] if not q["out"] and q["pos"] is not None}

        def fact(owner, a):
            return owner, a["ref"], a["ref"] in occupied, _profile(state, a) if a["up"] else _NOTHING_UP

        if "only" in cache:
            named = _area_in_play(state, cache["only"])
            facts = [fact(*named)] if named else []
        else:
            facts = [fact(s, a) for s, q in enumerate(state["p"]) if not q["out"] for a in q["england"]]
            facts += [fact(None, a) for a in state["avalon"]]
        cache["facts"] = facts
    return facts


def _area_in_play(state, ref):
    """(England owner or None, area) when ``ref`` names an area of Avalon or of the England
    of a player still in; None for anything else (a move's "to" may be any JSON)."""
    try:
        seat, i = layout.parse(ref)
    except (AttributeError, ValueError):
        return None
    if seat is None:
        areas = state["avalon"]
    elif 0 <= seat < state["n"] and not state["p"][seat]["out"]:
        areas = state["p"][seat]["england"]
    else:
        return None
    if not 0 <= i < len(areas) or areas[i]["ref"] != ref:
        return None
    return seat, areas[i]


def _avalon(state, cache):
    found = cache.get("avalon")
    if found is None:
        found = cache["avalon"] = S.avalon_codes(state)
    return found


def _realm(state, seat, cache):
    realms = cache.setdefault("realm", {})
    found = realms.get(seat)
    if found is None:
        found = realms[seat] = S.realm_codes(state, seat)
    return found


def _dup_in_rt(state, seat, c, cache):
    """4.6 for a card going into the seat's Round Table (``S.duplicate_blocked``, with the
    listing's cache)."""
    if not c.get("unique", True) or not S.rule_on(state, "unique"):
        return False
    return c["code"] in _avalon(state, cache) or c["code"] in _realm(state, seat, cache)


# Card types that never go face up into their own player's England (4.1: "any opponent").
_NOT_AT_HOME = ("adversary", "peril", "knight", "persona", "item")
# FAQ 6: no adversary (nor a character who might become one) where a Round Table stands;
# lands, villages, castles and items may be laid there face up.
_NOT_UNDER_A_TABLE = ("adversary", "peril", "knight", "persona")


def _placement_areas(state, seat, iid, face, cache):
    """Areas a card may be laid in (4.1, 4.3, 6.3, 4.6, FAQ 6). ``cache`` lives for one
    listing: cards of one kind share the areas open to that kind, and a unique card then
    only leaves out the Englands where its code is already face up."""
    c = S.card(state, iid)
    up = face == "up"
    t = c["type"] if up else ""
    anthrax = up and D.ANTHRAX in c.get("tags", [])
    unique = up and c.get("unique", True) and S.rule_on(state, "unique")
    key = (face, t, c["code"] if unique else "", anthrax)
    found = cache.get(key)
    if found is None:
        kind_key = (face, t, "", anthrax)
        open_areas = cache.get(kind_key)
        if open_areas is None:
            open_areas = cache[kind_key] = _open_to_kind(state, seat, up, t, anthrax, cache)
        if unique:
            if c["code"] in _avalon(state, cache):
                open_areas = []
            else:
                taken = {owner for owner, _ in open_areas if owner is not None
                         and c["code"] in _realm(state, owner, cache)}
                open_areas = [e for e in open_areas if e[0] not in taken] if taken else open_areas
        found = cache[key] = open_areas
    return [ref for _, ref in found]


def _open_to_kind(state, seat, up, t, anthrax, cache):
    """(England owner or None, ref) of the areas a card of type ``t`` may be laid in, face
    up or down, uniqueness aside."""
    slot = movement.SLOT.get(t) if up else None
    barred = not up or t in _NOT_UNDER_A_TABLE
    not_home = not up or t in _NOT_AT_HOME  # face down only on an opponent's England (3.2)
    out = []
    for owner, ref, occupied, (slots, knight, peril) in _area_facts(state, cache):
        if (barred and occupied) or (not_home and owner == seat):
            continue
        if slot:
            held = slots.get(slot)
            if held is not None and not (anthrax and held):
                continue
            if (t == "peril" and knight) or (t == "knight" and peril):
                continue
        out.append((owner, ref))
    return out


def card_plays(state, seat, iid, cache=None):
    c = S.card(state, iid)
    t = c["type"]
    p = state["p"][seat]
    cache = {} if cache is None else cache
    out = effect_plays(state, seat, iid)
    base = {"type": "play", "card": iid, "use": "primary"}
    if t in ("knight", "persona") and round_table.can_join(state, seat, iid) \
            and not _dup_in_rt(state, seat, c, cache):
        out.append(dict(base, to="rt"))
    if t == "page" and not _dup_in_rt(state, seat, c, cache):
        out.append(dict(base, to="rt"))
    if t == "item" and not _dup_in_rt(state, seat, c, cache):
        out += [dict(base, to="rt", page=pg["c"]) for pg in p["pages"]
                if round_table.page_with_room(state, p, pg["c"], "i")]
    if t in movement.SLOT or t == "item":
        if t != "page":
            out += [dict(base, to=r, face="up") for r in _placement_areas(state, seat, iid, "up", cache)]
    if t != "page":
        out += [dict(base, to=r, face="down") for r in _placement_areas(state, seat, iid, "down", cache)]
    return out


def fill_plays(state, seat, ref, cards=None):
    """Place cards any player may lay face up in a space being filled (6.2), from the
    seat's hand (or of ``cards``)."""
    a = S.peek_area(state, ref)
    if a["up"] or a["occ"] is not None:
        return []
    own = layout.parse(ref)[0]
    out = []
    for iid in state["p"][seat]["hand"] if cards is None else cards:
        t = S.ctype(state, iid)
        if t not in movement.SLOT or t == "page":
            continue
        if own == seat and t in ("adversary", "peril"):
            continue  # nobody blocks his own way
        if S.duplicate_blocked(state, iid, ref, None):
            continue
        out.append({"type": "play", "card": iid, "use": "primary", "to": ref, "face": "up"})
    return out


def invite_moves(state, seat):
    """3.2: one invitation a turn (and so, 5.1, never the same card twice in a turn)."""
    p = state["p"][seat]
    if p["pos"] is None or p["asked"]:
        return []
    a = S.peek_area(state, p["pos"])
    return [{"type": "invite", "card": i, "rep": r} for i, *_ in a["up"]
            if S.ctype(state, i) in ("knight", "persona")
            for r in p["knights"] if round_table.can_invite(state, seat, i, r)]


def fight_moves(state, seat):
    p = state["p"][seat]
    out = []
    for foe in D.challengeable(state, seat):
        if foe in p["disputed"]:
            continue
        for method in D.methods_for(state, seat, foe):
            for lead in D.leads(state, seat, method):
                out.append({"type": "fight", "foe": foe, "method": method, "lead": lead})
    return out


def castle_moves(state, seat):
    p = state["p"][seat]
    out = []
    if castles.can_parley(state, seat):
        out += [{"type": "parley", "lead": m} for m in S.rt_members(p) if str(m) not in p["disabled"]]
    if castles.can_assault(state, seat):
        out += [{"type": "assault", "lead": k} for k in p["knights"] if str(k) not in p["disabled"]]
    if castles.can_enter(state, seat):
        out.append({"type": "enter_castle"})
    return out


def run_away_moves(state, seat):
    opts, chooser = travel.run_options(state, seat)
    if chooser == seat and len(opts) > 1:
        return [{"type": "run_away", "to": o} for o in opts]
    return [{"type": "run_away"}]


def item_moves(state, seat):
    p = state["p"][seat]
    out = []
    if p["pos"] is not None and not movement.facing(state, seat):
        a = S.peek_area(state, p["pos"])
        for i, *_ in a["up"]:
            if S.ctype(state, i) == "item" and not S.duplicate_blocked_rt(state, i, seat):
                out += [{"type": "take_item", "card": i, "page": pg["c"]} for pg in p["pages"]
                        if round_table.page_with_room(state, p, pg["c"], "i")]
    for pg in p["pages"]:
        for it in pg["i"]:
            if it in p["traded"]:
                continue  # an item changes hands once a turn
            out += [{"type": "trade_item", "card": it, "page": other["c"]} for other in p["pages"]
                    if other is not pg and round_table.page_with_room(state, p, other["c"], "i")]
    return out


def represent_moves(state, seat):
    """6.4: any knight may stand for the Round Table in England (once a turn); his Round
    Table bonus is the one that counts (5.1)."""
    p = state["p"][seat]
    if p["rep_set"] or p["must"]:
        return []
    return [{"type": "represent", "card": k} for k in p["knights"]
            if k != p["rep"] and str(k) not in p["disabled"]]


def ability(state, iid):
    """The part of a carried item's or a member's primary that is *used* (not permanent)."""
    return [e for e in S.card(state, iid)["primary"] if e.get("duration") != "permanent"]


def use_moves(state, seat):
    """Abilities used once a turn: a carried item's from the turn after it was assigned
    (11.1), a Round Table knight's or persona's at once; permanent modifiers need no using.
    An ability that runs the Round Table away is offered only while it faces a foe."""
    p = state["p"][seat]
    if not p["knights"] + p["personas"]:
        return []
    facing = None
    out = []
    members = [m for m in p["knights"] + p["personas"] if str(m) not in p["disabled"]]
    for iid in turns.usable_items(state, seat) + members:
        effs = ability(state, iid)
        if not effs or iid in p["used"]:
            continue
        if any(e["op"] == "run_away" and e.get("who") == "self" for e in effs):
            facing = movement.facing(state, seat) if facing is None else facing
            if not facing or p["pos"] is None:
                continue
        out += _with_targets(state, seat, {"type": "use", "card": iid}, effs)
    return out


def candidates(state, seat, move):
    """The legal moves of the same kind as ``move`` (cheaper than listing them all)."""
    if state["result"] is not None or state["p"][seat]["out"]:
        return []
    t = move["type"]
    card = move.get("card") if t == "play" else None
    # A play names its area: only that area need be looked at (see _area_facts).
    cache = {"only": move.get("to")} if t == "play" else None
    if state["steps"]:
        return step_moves(state, seat, state["steps"][-1], t, card, cache)
    if state["phase"] != "play":
        return []
    if seat != state["turn"]:
        return interjections(state, seat, t, card, cache)
    if t == "play":
        return card_plays(state, seat, card, cache) if card in state["p"][seat]["hand"] else []
    if t == "move":
        return [{"type": "move", "to": r} for r in movement.destinations(state, seat)] \
            if movement.can_move(state, seat) else []
    listing = _LISTING_BY_KIND.get(t)
    return listing(state, seat) if listing is not None else main_moves(state, seat)


# The part of ``main_moves`` that lists each kind of move (checking a move needs no more).
_LISTING_BY_KIND = {
    "use": use_moves, "represent": represent_moves, "invite": invite_moves, "fight": fight_moves,
    "parley": castle_moves, "assault": castle_moves, "enter_castle": castle_moves,
    "take_item": item_moves, "trade_item": item_moves, "run_away": own_run_away_moves,
    "search": search_moves, "end_turn": end_moves, "give_up": alone_moves, "call_draw": alone_moves,
}


def dispute_ctx(state):
    """The dispute a response aims at: the open window's foe and lead, if any."""
    for step in reversed(state["steps"]):
        if step["k"] == "response":
            act = step["act"]
            return {"lead": act.get("lead"), "foe": act.get("foe"),
                    "area": state["p"][act["seat"]]["pos"]}
    return {"lead": None, "foe": None, "area": None}
