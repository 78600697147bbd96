"""Game set-up (2.x): validate the options, build card instances, set Arthur and Patsy
aside, shuffle, then wait for the cuts (the ante) before England and Avalon are laid."""
from __future__ import annotations

import marshal

from . import cards as C
from . import cards_power, cards_validation
from . import layout
from . import state as S
from . import turns
from .base_events import ev
from ..rng import Rng, new_rng_state

HAND_SIZE = 7
MIN_DECK = 30
DEFAULT_TURN_CAP = 400


_CHECKED: dict[bytes, tuple] = {}


def _checked(card):
    """(validate_card reasons, normalized definition), remembered by the card's exact
    content: both are pure functions of it, and the same starter cards are set up game
    after game. Games share the definition: the engine never changes a card definition
    (they are the fixed part of a state that successive states share, game.py)."""
    try:
        key = marshal.dumps(card)  # the same content in the same order: the same bytes
    except ValueError:
        return cards_validation.validate_card(card) or ["A card must be plain JSON data."], None
    found = _CHECKED.get(key)
    if found is None:
        if len(_CHECKED) > 4096:
            _CHECKED.clear()
        reasons = cards_validation.validate_card(card)
        found = _CHECKED[key] = (reasons, None if reasons else C.normalize_card(card))
    return found


def _check_deck(seat, deck, known, defs):
    """Validate a deck; ``known`` maps codes already checked to the card objects, since a
    game keeps one definition per code, and ``defs`` to the normalized definitions."""
    if not isinstance(deck, list) or not all(isinstance(c, dict) for c in deck):
        raise ValueError(f"Seat {seat + 1}'s deck must be a list of card objects.")
    if len(deck) < MIN_DECK:
        raise ValueError(f"Seat {seat + 1}'s deck has {len(deck)} cards; at least {MIN_DECK} are needed.")
    for c in deck:
        seen = known.get(c.get("code"))
        if seen is not None:
            if seen is not c and seen != c:
                raise ValueError(f"Card code {c.get('code')!r} has two different definitions.")
            continue
        reasons, definition = _checked(c)
        known[c.get("code")] = c
        defs[c["code"]] = definition
        if reasons:
            raise ValueError(f"Seat {seat + 1}: card {c.get('code')!r} is invalid: {reasons[0]}")
        if "write_yer_own" in (c.get("tags") or []) and c.get("type") != "write_yer_own":
            over = cards_power.check_power_budget(C.normalize_card(c))
            if over:
                raise ValueError(f"Seat {seat + 1}: Write Yer Own card {c['code']!r}: {over[0]}")
    tags = [t for c in deck for t in (c.get("tags") or [])]
    if "arthur" not in tags or "patsy" not in tags:
        raise ValueError(f"Seat {seat + 1}'s deck needs an Arthur and a Patsy (2.1).")


def validate_options(players, options):
    known = {"decks", "collection_sizes", "rules_off", "double_the_ante", "carried_ante", "turn_cap", "stakeable"}
    extra = set(options) - known
    if extra:
        raise ValueError(f"Unknown option(s): {', '.join(sorted(extra))}")
    if not 2 <= players <= 4:
        raise ValueError("The CCG is for two to four players.")
    decks = options.get("decks")
    if not isinstance(decks, list) or len(decks) != players:
        raise ValueError("Give one deck per seat in 'decks'.")
    known: dict = {}
    defs: dict = {}
    for seat, deck in enumerate(decks):
        _check_deck(seat, deck, known, defs)
    sizes = options.get("collection_sizes") or [0] * players
    if len(sizes) != players or not all(isinstance(x, int) and x >= 0 for x in sizes):
        raise ValueError("'collection_sizes' must be one whole number per seat.")
    off = options.get("rules_off") or []
    bad = [r for r in off if r not in S.RULE_IDS]
    if bad:
        raise ValueError(f"Unknown rule id(s) in 'rules_off': {', '.join(bad)}")
    carried = options.get("carried_ante") or []
    for entry in carried:
        reasons, definition = _checked(entry.get("card") or {}) if isinstance(entry, dict) else (["not an entry"], None)
        if reasons or entry.get("owner") not in range(players):
            raise ValueError("Each 'carried_ante' entry needs an owner seat and a valid card.")
        defs.setdefault(definition["code"], definition)  # a deck's definition of the code comes first
    cap = options.get("turn_cap", DEFAULT_TURN_CAP)
    if not isinstance(cap, int) or cap < 10:
        raise ValueError("'turn_cap' must be a whole number of at least 10.")
    # Copies of each card each seat can stake into the ante (ante.py; None: no limit).
    stakeable = options.get("stakeable")
    if stakeable is not None and (not isinstance(stakeable, list) or len(stakeable) != players or not all(
            s is None or (isinstance(s, dict) and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0
                                                      for n in s.values())) for s in stakeable)):
        raise ValueError("'stakeable' must be one {card code: copies} (or null) per seat.")
    return {"decks": decks, "defs": defs, "sizes": sizes, "rules_off": list(off), "carried": carried,
            "double": bool(options.get("double_the_ante", False)), "turn_cap": cap, "stakeable": stakeable}


def new_seat():
    return {"deck": [], "hand": [], "dead": [], "knights": [], "personas": [], "pages": [],
            "attached": [], "item_turn": {}, "england": [], "pos": None, "from": None, "out": False,
            "rep": None, "moved": 0, "asked": [], "disputed": [], "consulted": [], "castle": {},
            "must": False, "disabled": {}, "used": [], "rep_set": False, "ran": False, "traded": [],
            "fx": {"auto_join": 0, "extra_move": 0, "search_bonus": 0, "end_now": False, "block": 0, "skip": 0}}


def setup(players, options, seed):
    o = validate_options(players, options)
    state = {
        "v": 1, "rng": new_rng_state(seed), "n": players, "cards": {}, "inst": [], "own": [],
        "opts": {"rules_off": o["rules_off"], "double_the_ante": o["double"], "turn_cap": o["turn_cap"],
                 "collection_sizes": o["sizes"]},
        "p": [new_seat() for _ in range(players)], "avalon": [], "ante": [], "elim": [], "limbo": [],
        "turn": 0, "tn": 0, "phase": "cut", "cuts_done": 0, "first": 0, "esize": layout.england_size(players),
        "steps": [], "todo": [], "reveal": None, "end_now": False, "mods": [], "seq": 0, "played": [],
        "force": None, "no_join": {"turns": 0, "seq": 0}, "outwitted": [], "failed_searches": 0,
        "solo": None, "result": None, "doubling": {"since": [], "count": 0},
    }

    state["cards"] = dict(o["defs"])

    def instance(cdef, owner):
        state["inst"].append(cdef["code"])
        state["own"].append(owner)
        return len(state["inst"]) - 1

    rng = Rng(state["rng"])
    # Instance ids follow the deck lists, before shuffling, so an id says nothing of order.
    for seat, deck in enumerate(o["decks"]):
        p = state["p"][seat]
        ids = [instance(c, seat) for c in deck]
        arthur = next(i for i in ids if "arthur" in state["cards"][state["inst"][i]]["tags"])
        patsy = next(i for i in ids if "patsy" in state["cards"][state["inst"][i]]["tags"] and i != arthur)
        ids.remove(arthur)
        ids.remove(patsy)
        p["knights"] = [arthur]
        p["rep"] = arthur
        p["pages"] = [{"c": patsy, "k": [arthur], "i": []}]
        p["deck"] = ids
        rng.shuffle(p["deck"])
    for entry in o["carried"]:
        state["ante"].append(instance(entry["card"], entry["owner"]))
    # 2.6: most cards owned goes first; ties broken by the seeded generator.
    best = max(o["sizes"])
    tied = [s for s in range(players) if o["sizes"][s] == best]
    state["first"] = tied[rng.below(len(tied))] if len(tied) > 1 else tied[0]
    state["turn"] = state["first"]
    state["steps"].append({"k": "cut", "seat": 0})
    if o["stakeable"] is not None:
        state["stakeable"] = [None if s is None else dict(s) for s in o["stakeable"]]
    return state


def lay_out(state, events):
    """2.4/16.3: England from each player's top cards, then Avalon."""
    n = state["n"]
    size = state["esize"]
    per_avalon = 2 if n == 2 else 1
    for seat in range(n):
        p = state["p"][seat]
        for i in range(size):
            a = S.new_area(layout.ref_e(seat, i))
            a["down"].append([p["deck"].pop(), 0, None])
            p["england"].append(a)
    for seat in range(n):
        extra = 1 if n > 2 and seat == state["first"] else 0
        for _ in range(per_avalon + extra):
            a = S.new_area(layout.ref_a(len(state["avalon"])))
            a["down"].append([state["p"][seat]["deck"].pop(), 0, None])
            state["avalon"].append(a)
    events.append(ev("layout", f"England and Avalon are laid out face down ({size} areas each, "
                     f"{len(state['avalon'])} in Avalon)."))
    for seat in range(n):
        turns.draw_cards(state, seat, HAND_SIZE, events)
    state["phase"] = "play"
    state["todo"] = [{"do": "next_turn"}]
