"""The game state's shape and the small helpers every rules module shares.

The state is plain JSON data. Every physical card is an *instance* with an integer id
(``iid``): ``state["inst"][iid]`` is its card code, ``state["own"][iid]`` the seat whose
deck it came from, and ``state["cards"][code]`` the card definition copied in at set-up,
so a game in progress never depends on the card database again.

A card is always in exactly one place: a deck, a hand, a dead cart, a Round Table
(knights, personas, pages, items on pages, attached effect cards), an area (face down or
face up, or a castle's occupant), the ante, or the eliminated pile.

The keys are short (``p``, ``tn``, ``ow``, ...) and stay so, since stored games replay from
them: every key of the state, of a player, an area, a step, is explained in one schema,
``docs/rules/ccg-state.md``, and ``tests/rules/ccg/test_state_schema.py`` fails on a key it
does not list.
"""
from __future__ import annotations

import marshal

from . import layout

FOE_TYPES = ("adversary", "peril")
CHARACTER_TYPES = ("knight", "persona")
EFFECT_TYPES = ("event", "song", "taunt", "questions_three", "write_yer_own")
PLACE_TYPES = ("land", "adversary", "peril", "page", "castle", "knight", "persona", "item", "village")

# Rule ids that may be switched off by agreement (16.1); see docs/rules/ccg.md.
RULE_IDS = ("quotes", "run_away_shout", "unique", "knight_needs_page", "item_delay",
            "response_windows", "song_grail", "village_table")


def card(state: dict, iid: int) -> dict:
    return state["cards"][state["inst"][iid]]


def ctype(state: dict, iid: int) -> str:
    return state["cards"][state["inst"][iid]]["type"]


def title(state: dict, iid: int) -> str:
    return state["cards"][state["inst"][iid]]["title"]


def rule_on(state: dict, rule: str) -> bool:
    return rule not in state["opts"]["rules_off"]


def next_seq(state: dict) -> int:
    state["seq"] += 1
    return state["seq"]


def alive(state: dict) -> list[int]:
    return [s for s in range(state["n"]) if not state["p"][s]["out"]]


def stakes_nothing(state: dict, seat: int) -> bool:
    """Whether ``seat`` was handed to a computer player for the rest of the game (its person
    left it): such a seat puts no card into the ante and wins none (``game.MPHGGame``'s
    ``hand_over``). ``state["stakes_nothing"]`` is absent until a seat is handed over."""
    return seat in state.get("stakes_nothing", ())


def left_of(state: dict, seat: int) -> int | None:
    """The next seat still playing, clockwise from ``seat`` (None if ``seat`` is alone)."""
    n = state["n"]
    for k in range(1, n):
        s = (seat + k) % n
        if not state["p"][s]["out"]:
            return s
    return None


def opponent_of(state: dict, seat: int) -> int | None:
    """The opponent a card of ``seat`` acts on by default: the active player, else the
    seat on the left (who draws for adversaries, 16.3)."""
    if state["turn"] != seat and not state["p"][state["turn"]]["out"]:
        return state["turn"]
    return left_of(state, seat)


# Present only while MPHGGame.apply builds a new state: the refs of the areas this state
# already owns. Until then the new state shares each area with the state it came from
# (copying all 26-30 areas every move was most of a move's cost), and ``area`` copies an
# area the first time the move reaches it. So every change to an area goes through
# ``area``; the random playout checks that ``apply`` never changes the state it was given.
COW = "_cow"


def peek_area(state: dict, ref: str) -> dict:
    """The area ``ref`` to look at, never to change (a question about the state: who
    blocks, what may be done); it may be shared with an earlier state (see COW)."""
    seat, i = layout.parse(ref)
    return state["avalon"][i] if seat is None else state["p"][seat]["england"][i]


def area(state: dict, ref: str) -> dict:
    """The area ``ref`` of this state, its own to change."""
    seat, i = layout.parse(ref)
    areas = state["avalon"] if seat is None else state["p"][seat]["england"]
    owned = state.get(COW)
    if owned is not None and ref not in owned:
        owned.add(ref)
        areas[i] = marshal.loads(marshal.dumps(areas[i]))
    return areas[i]


def area_name(state: dict, ref: str | None) -> str:
    return layout.name(state["esize"], ref)


def all_area_refs(state: dict) -> list[str]:
    refs = [a["ref"] for p in state["p"] for a in p["england"]]
    return refs + [a["ref"] for a in state["avalon"]]


def new_area(ref: str) -> dict:
    # down: [[iid, seq], ...] in the order placed; up: the same for face-up cards.
    # hostile: knights/personas that refused to join; ow: [[iid, seat]] outwitted by seat;
    # occ: a castle's occupant; assaulted: the occupant when the castle was assaulted.
    return {"ref": ref, "down": [], "up": [], "hostile": [], "challenged": [], "ow": [],
            "occ": None, "assaulted": None, "searched": False, "att": []}


def up_iids(a: dict) -> list[int]:
    return [e[0] for e in a["up"]]


# ------------------------------------------------------------------ Round Table
def rt_members(p: dict) -> list[int]:
    return p["knights"] + p["personas"]


def free_page(state: dict, p: dict, need: str) -> dict | None:
    """A page of ``p`` with room for one more knight (need="k") or item (need="i")."""
    for pg in p["pages"]:
        cap = card(state, pg["c"]).get("page") or {"items": 1, "knights": 1}
        limit = cap["knights"] if need == "k" else cap["items"]
        if len(pg[need]) < limit:
            return pg
    return None


def page_of_knight(p: dict, knight: int) -> dict | None:
    for pg in p["pages"]:
        if knight in pg["k"]:
            return pg
    return None


def realm_codes(state: dict, seat: int) -> set[str]:
    """Codes face up in a seat's England and Round Table Area (rule 4.6)."""
    p = state["p"][seat]
    inst = state["inst"]
    codes = {inst[i] for i in p["knights"] + p["personas"] + p["attached"]}
    for pg in p["pages"]:
        codes.add(inst[pg["c"]])
        codes.update(inst[i] for i in pg["i"])
    for a in p["england"]:
        codes.update(inst[e[0]] for e in a["up"])
        if a["occ"] is not None:
            codes.add(inst[a["occ"]])
    return codes


def avalon_codes(state: dict) -> set[str]:
    inst = state["inst"]
    codes = set()
    for a in state["avalon"]:
        codes.update(inst[e[0]] for e in a["up"])
        if a["occ"] is not None:
            codes.add(inst[a["occ"]])
    return codes


def duplicate_blocked(state: dict, iid: int, ref: str | None, seat_realm: int | None) -> bool:
    """True if a unique card may not be face up at ``ref`` (an area) or in a Round Table."""
    c = card(state, iid)
    if not c.get("unique", True) or not rule_on(state, "unique"):
        return False
    code = c["code"]
    if code in avalon_codes(state):
        return True
    if ref is not None and layout.is_avalon(ref):
        return False
    realm = seat_realm if ref is None else layout.parse(ref)[0]
    return code in realm_codes(state, realm)


# ------------------------------------------------------------------ card movement
def purge_mods(state: dict, iid: int) -> None:
    """Effects that last while a card is in play end when it leaves play."""
    state["mods"] = [m for m in state["mods"]
                     if not (m["src"] == iid and m["until"] == "permanent") and m.get("card") != iid]


def to_dead(state: dict, iid: int) -> None:
    """Place a card (already taken from its place) in its owner's dead cart (4.5)."""
    purge_mods(state, iid)
    state["p"][state["own"][iid]]["dead"].append(iid)


def eliminate(state: dict, iid: int) -> None:
    purge_mods(state, iid)
    state["elim"].append(iid)


def take_from_area(state: dict, iid: int) -> str | None:
    """Remove a face-up card (or castle occupant) from whatever area holds it."""
    found = next((a["ref"] for a in _areas(state)
                  if a["occ"] == iid or iid in a["att"] or any(e[0] == iid for e in a["up"])), None)
    if found is not None:
        a = area(state, found)  # the copy to change (see COW)
        for k, e in enumerate(a["up"]):
            if e[0] == iid:
                del a["up"][k]
                _forget(a, iid)
                return a["ref"]
        if a["occ"] == iid:
            a["occ"] = None
            _forget(a, iid)
            return a["ref"]
        if iid in a["att"]:
            a["att"].remove(iid)
            return a["ref"]
    return None


def _forget(a: dict, iid: int) -> None:
    if iid in a["hostile"]:
        a["hostile"].remove(iid)
    if iid in a["challenged"]:
        a["challenged"].remove(iid)
    a["ow"] = [e for e in a["ow"] if e[0] != iid]


def _areas(state: dict):
    for p in state["p"]:
        yield from p["england"]
    yield from state["avalon"]


def remove_member(state: dict, seat: int, iid: int) -> None:
    """Take a knight or persona out of a Round Table; his page stays on (FAQ 4)."""
    p = state["p"][seat]
    if iid in p["knights"]:
        p["knights"].remove(iid)
    if iid in p["personas"]:
        p["personas"].remove(iid)
    pg = page_of_knight(p, iid)
    if pg is not None:
        pg["k"].remove(iid)
    if p["rep"] == iid:
        p["rep"] = p["knights"][0] if p["knights"] else None


def slay_member(state: dict, seat: int, iid: int, elim: bool = False) -> None:
    remove_member(state, seat, iid)
    (eliminate if elim else to_dead)(state, iid)


def owner_seat_of_member(state: dict, iid: int) -> int | None:
    for s, p in enumerate(state["p"]):
        if iid in p["knights"] or iid in p["personas"]:
            return s
    return None


def duplicate_blocked_rt(state: dict, iid: int, seat: int) -> bool:
    """A unique card may not join a Round Table whose realm already shows one (4.6)."""
    c = card(state, iid)
    if not c.get("unique", True) or not rule_on(state, "unique"):
        return False
    p = state["p"][seat]
    inst = state["inst"]
    codes = {inst[i] for i in p["knights"] + p["personas"]}
    codes.update(inst[pg["c"]] for pg in p["pages"])
    for pg in p["pages"]:
        codes.update(inst[i] for i in pg["i"])
    return c["code"] in codes or c["code"] in avalon_codes(state)
