"""Movement (6.x): moving, revealing face-down cards, filling an area, one card of each
kind per space. Entering, leaving and running away (7.6) are in ``travel``."""
from __future__ import annotations

from . import castles, layout, places, travel, turns, windows
from . import disputes as D
from . import effects as FX
from . import state as S
from .base_events import ev
from ..rng import Rng

# 6.3: at most one of each of these per space (items are not limited).
SLOT = {"land": "land", "village": "village", "castle": "castle", "peril": "foe", "adversary": "foe",
        "page": "foe", "knight": "knight", "persona": "persona"}


def slot_of(state, iid):
    return SLOT.get(S.ctype(state, iid))


# ------------------------------------------------------------------ moving
def destinations(state, seat):
    """Areas the Round Table may move into now (6.1, 14.1, FAQ 9, FAQ 10)."""
    p = state["p"][seat]
    size = state["esize"]
    pos = p["pos"]
    taken = {q["pos"] for s, q in enumerate(state["p"]) if s != seat and not q["out"]}
    if layout.is_avalon(pos):
        out = [a["ref"] for a in state["avalon"] if a["ref"] != pos]
    else:
        out = layout.neighbours(size, pos, seat)
        if layout.is_top(size, pos):
            out = out + [a["ref"] for a in state["avalon"]]
    return [r for r in out if r is None or r not in taken]


def can_move(state, seat):
    p = state["p"][seat]
    if not p["knights"] or p["fx"]["block"] > 0:
        return False
    if p["moved"] >= 1 + p["fx"]["extra_move"]:
        return False
    return not facing(state, seat)


def facing(state, seat):
    """True while an adversary (or a castle) bars the way: only running away leaves."""
    return bool(places.blocking_foes(state, seat)) or castles.blocking(state, seat)


def move(state, seat, to, events):
    p = state["p"][seat]
    p["moved"] += 1
    travel.enter(state, seat, to, events, "moves")


def after_entry(state, seat, events):
    p = state["p"][seat]
    if p["pos"] is None:
        return
    a = S.area(state, p["pos"])
    p["must"] = bool(places.blocking_foes(state, seat))  # FAQ 2: the dispute is on at once
    if places.village_in(state, a) is not None and S.rule_on(state, "village_table"):
        windows.open_window(state, {"do": "village", "seat": seat, "area": a["ref"]}, events)


# ------------------------------------------------------------------ revealing (6.2)
def has_place_card(state, a):
    return bool(a["up"]) or a["occ"] is not None


def continue_reveal(state, events):
    r = state["reveal"]
    a = S.area(state, r["area"])
    mover = r["seat"]
    if a["down"]:
        iid, seq, placer = a["down"].pop(0)  # first placed, first revealed
        reveal_card(state, a, iid, seq, placer, mover, events)
        return
    if not has_place_card(state, a):
        if not r.get("offered"):
            # 6.2: the card that fills the space may come from anywhere, another player's
            # hand included: everyone gets one window to lay a place card here before the deck does.
            r["offered"] = True
            windows.open_window(state, {"do": "fill", "seat": mover, "area": a["ref"]}, events)
            return
        p = state["p"][mover]
        if not p["deck"]:
            turns.defeat(state, mover, events, "ran out of cards")
            return
        iid = p["deck"].pop()
        events.append(ev("fill", f"The area is empty of places: seat {mover + 1} turns up the top card."))
        reveal_card(state, a, iid, S.next_seq(state), None, mover, events)
        return
    state["reveal"] = None
    state["todo"].insert(0, {"do": "entered", "seat": mover})


def chooser_for(state, placer, mover):
    """Who decides whether a revealed primary applies: the player who placed the card, or
    the mover's opponent on the left for the cards laid at set-up (None when alone)."""
    if placer is not None and placer != mover and not state["p"][placer]["out"]:
        return placer
    return S.left_of(state, mover)


def reveal_card(state, a, iid, seq, placer, mover, events):
    c = S.card(state, iid)
    t = c["type"]
    events.append(ev("reveal", f"{c['title']} is turned up in {S.area_name(state, a['ref'])}." + (f" “{c['quote']}”" if c.get("quote") else ""),
                     data={"card": iid, "code": c["code"], "area": a["ref"]}))
    if t in S.EFFECT_TYPES:
        if not c["primary"]:
            S.to_dead(state, iid)
            return
        chooser = chooser_for(state, placer, mover)
        state["limbo"].append(iid)
        if chooser is None:
            apply_revealed(state, iid, mover, None, events)
            return
        state["steps"].append({"k": "choice", "what": "reveal", "seat": chooser, "card": iid, "mover": mover,
                               "options": apply_options(state, c["primary"], chooser, mover)})
        return
    if t in ("land", "castle") and c["primary"]:
        # 6.2: a revealed place card's primary acts on the knights entering, if the
        # opponent so chooses; the card then stays in the area.
        chooser = chooser_for(state, placer, mover)
        if chooser is None:
            FX.run(state, c["primary"], mover, mover, {"area": a["ref"]}, events, iid)
        else:
            state["steps"].append({"k": "choice", "what": "reveal_place", "seat": chooser, "card": iid,
                                   "mover": mover, "options": apply_options(state, c["primary"], chooser, mover)})
    if t == "page":
        own_england = layout.parse(a["ref"])[0] == mover and not layout.is_avalon(a["ref"])
        if not own_england:
            S.to_dead(state, iid)
            events.append(ev("discard", f"{c['title']} has no use here and goes to the dead cart."))
            return
    place_face_up(state, a, iid, seq, events, mover)


def apply_options(state, effects, chooser, mover):
    """The chooser's answers: "ignore", and "apply" — or "apply:<knight id>" for each
    knight the effect could aim at, when it aims at one."""
    kind = FX.needs_pick(effects)
    if kind is None:
        return ["apply", "ignore"]
    owner = chooser if kind == "own_knight" else mover
    knights = state["p"][owner]["knights"]
    return [f"apply:{k}" for k in knights] + ["ignore"] if knights else ["apply", "ignore"]


def picked(option):
    """The knight named by an "apply:<id>" answer, or None."""
    return int(option.split(":", 1)[1]) if option.startswith("apply:") else None


def apply_revealed(state, iid, mover, chooser, events, pick=None):
    state["limbo"].remove(iid)
    c = S.card(state, iid)
    ctx = {"area": S.area(state, state["reveal"]["area"])["ref"] if state["reveal"] else None, "pick": pick}
    keep = FX.run(state, c["primary"], chooser if chooser is not None else mover, mover, ctx, events, iid)
    settle_played(state, iid, keep, chooser if chooser is not None else mover)


def settle_played(state, iid, keep, player):
    if keep and keep[0] == "rt":
        state["p"][player]["attached"].append(iid)
    elif keep and keep[0] == "area":
        S.area(state, keep[1])["att"].append(iid)
    else:
        S.to_dead(state, iid)


def clashes(state, iid, a):
    """Face-up cards of an area that may not share it with ``iid`` (6.3): the same kind,
    or a peril and a knight; Anthrax cards may share."""
    c = S.card(state, iid)
    slot = slot_of(state, iid)
    if slot is None:
        return []
    anthrax = D.ANTHRAX in c.get("tags", [])
    rivals = [e for e in a["up"] if slot_of(state, e[0]) == slot
              and not (anthrax and D.ANTHRAX in S.card(state, e[0]).get("tags", []))]
    if c["type"] == "peril":
        rivals += [e for e in a["up"] if S.ctype(state, e[0]) == "knight"]
    if c["type"] == "knight":
        rivals += [e for e in a["up"] if S.ctype(state, e[0]) == "peril"]
    return rivals


def place_face_up(state, a, iid, seq, events, mover=None):
    """Put a card face up in an area, applying 6.3 (first played stays), 4.6 (duplicates
    go) and the castle occupant rule (8.1)."""
    c = S.card(state, iid)
    if S.duplicate_blocked(state, iid, a["ref"], None):
        S.to_dead(state, iid)
        events.append(ev("discard", f"{c['title']} is a duplicate and goes to the dead cart (4.6)."))
        return False
    rivals = clashes(state, iid, a)
    if rivals:
        earlier = [e for e in rivals if e[1] < seq]
        if earlier:
            S.to_dead(state, iid)
            events.append(ev("discard", f"{c['title']} finds its place taken and goes to the dead cart (6.3)."))
            return False
        for e in rivals:  # later cards give way to an earlier one turned up now
            a["up"].remove(e)
            S.to_dead(state, e[0])
            events.append(ev("discard", f"{S.title(state, e[0])} gives way to {c['title']} (6.3)."))
    a["up"].append([iid, seq])
    a["up"].sort(key=lambda e: e[1])
    if c["type"] == "castle" and c.get("castle_occupant") and a["occ"] is None:
        fill_castle(state, a, iid, mover, events)
    return True


def fill_castle(state, a, castle, mover, events):
    """8.1: the opponent searches their deck for the occupant the castle names."""
    spec = S.card(state, castle)["castle_occupant"]
    searcher = S.left_of(state, mover) if mover is not None else None
    if searcher is None:
        return
    deck = state["p"][searcher]["deck"]
    if spec.get("code"):
        for iid in deck:
            if state["inst"][iid] == spec["code"]:
                deck.remove(iid)
                a["occ"] = iid
                Rng(state["rng"]).shuffle(deck)
                events.append(ev("castle", f"{S.title(state, iid)} holds {S.title(state, castle)}."))
                return
        events.append(ev("castle", f"{S.title(state, castle)} stands empty: no {spec['code']} in the deck."))
        return
    # 8.1: only a character with the castle icon may occupy a castle.
    options = sorted({state["inst"][i]: i for i in deck if S.ctype(state, i) == spec["type"]
                      and S.card(state, i).get("castle_icon")}.values())
    if not options:
        events.append(ev("castle", f"{S.title(state, castle)} stands empty."))
        return
    state["steps"].append({"k": "choice", "what": "occupant", "seat": searcher, "area": a["ref"],
                           "options": options + [None]})


def set_occupant(state, step, pick, events):
    a = S.area(state, step["area"])
    deck = state["p"][step["seat"]]["deck"]
    if pick is not None:
        deck.remove(pick)
        a["occ"] = pick
        events.append(ev("castle", f"{S.title(state, pick)} holds the castle in {S.area_name(state, a['ref'])}."))
    else:
        events.append(ev("castle", "The castle stands empty."))
    Rng(state["rng"]).shuffle(deck)  # a searched deck is shuffled again
