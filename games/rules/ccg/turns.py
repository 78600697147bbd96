"""Order of play (3.x): turns, the draw phase, balancing the hand, defeat and the end.

Low in the layers (only state, layout and places below it): the effects, grail numbers and
every rules section draw cards, end turns and defeat players through it. The flow engine
that runs the turn forward is ``flow.advance``, above every section.
"""
from __future__ import annotations

from . import layout, places
from . import state as S
from .base_events import ev

HAND_MIN, HAND_MAX = 3, 7


def draw_cards(state, seat, count, events) -> bool:
    """Draw ``count`` cards into a hand; a player who must draw from an empty deck loses."""
    p = state["p"][seat]
    for _ in range(count):
        if not p["deck"]:
            defeat(state, seat, events, "ran out of cards")
            return False
        iid = p["deck"].pop()
        p["hand"].append(iid)
        events.append(ev("draw", f"You draw {S.title(state, iid)}.", (seat,), {"card": iid, "code": state["inst"][iid]}))
    # Everyone else learns how many; the drawer has just read each card's name above.
    events.append(ev("draw", f"Seat {seat + 1} draws {count} card{'' if count == 1 else 's'}.", hidden_from=(seat,)))
    return True


def draw_bonus(state, seat) -> int:
    """Extra cards in the draw phase from the area the Round Table holds (3.1, 8.3)."""
    p = state["p"][seat]
    ref = p["pos"]
    if ref is None:
        return 0
    a = S.peek_area(state, ref)
    bonus = 0
    for iid in S.up_iids(a):
        c = S.card(state, iid)
        if c["type"] == "land":
            bonus += c.get("draw_bonus") or 0
        elif c["type"] == "castle" and p["castle"].get(ref) == "inside":
            bonus += c.get("draw_bonus") or 0
    for iid in a["att"]:
        bonus += sum(e["count"] for e in S.card(state, iid)["secondary"] + S.card(state, iid)["primary"]
                     if e["op"] == "extra_draws_in_area")
    return bonus


# ------------------------------------------------------------------ ending
def finish(state, events, winners=(), draw=False, reason="", ante="returned", finder=None):
    if state["result"] is not None:
        return
    home = ante_kept_home(state, ante, finder)
    if home is not None:
        ante = "returned"
        reason = f"{reason} {HOME_WORDS[home].format(seat=finder + 1 if finder is not None else 0)}"
    # The final line names every player who fell before the end, and why (a resignation, a
    # conceded doubled ante), so no one reads "Seat 1 gives up the search" without the cause.
    fallen = [f"Seat {s + 1} {out_why(p)}" for s, p in enumerate(state["p"]) if p["out"] and s not in winners]
    if fallen:
        reason = "; ".join(fallen) + ". " + reason
    state["result"] = {"winners": list(winners), "draw": draw, "reason": reason,
                       "ante": ante, "finder": finder}
    if home is not None:
        state["result"]["home"] = home
    state["steps"] = []
    state["todo"] = []
    state["reveal"] = None
    events.append(ev("end", reason))


# Why the ante goes home although the game's end would have it won or carried over
# (``result["home"]``), in the words the end adds to its reason.
HOME_WORDS = {
    "computer_found": "Seat {seat} is played by a computer since its player left, and a seat played by a "
                      "computer wins no cards: the game is theirs, but the ante goes back to its owners.",
    "computer_seat": "A seat is played by a computer since its player left, so no rematch starts and nothing is "
                     "carried over: the ante goes back to its owners.",
}


def ante_kept_home(state, ante, finder):
    """"computer_found" when the Grail's finder is a seat handed to a computer player
    (``S.stakes_nothing``): its person is gone, so nobody could take the cards, and the
    computer staked nothing of its own; "computer_seat" when a draw would carry the ante over
    to a rematch between the same players, which a departed player cannot join. Else None."""
    handed = state.get("stakes_nothing")
    if not handed:
        return None
    if ante == "won" and finder in handed:
        return "computer_found"
    if ante == "carried":
        return "computer_seat"
    return None


def out_why(p) -> str:
    """Why a player is out, in words after their name ("resigned"); a state stored before the
    reason was kept holds only True."""
    return p["out"] if isinstance(p["out"], str) else "is out of the game"


def defeat(state, seat, events, reason):
    """A player is out of the game (15.2, 14.1, a conceded double, a resignation): ``reason``
    says why in words that follow their name ("resigned", "ran out of cards")."""
    p = state["p"][seat]
    if p["out"] or state["result"] is not None:
        return
    # Why, in words that follow the player's name ("resigned"): the shell tells the player
    # the game is over for them (Game.seats_out), and the final line names it (``finish``).
    p["out"] = reason
    events.append(ev("defeat", f"Seat {seat + 1} {reason} and is out of the game.", data={"seat": seat, "why": reason}))
    left = S.alive(state)
    if not left:
        survivor = state["solo"]
        if survivor is not None:
            finish(state, events, winners=(survivor,), reason=f"Seat {survivor + 1} searched on alone (15.3) and "
                   f"{reason}: the win is theirs, having outlasted the others, but only the Grail wins the ante, "
                   "so it goes back to its owners.", ante="returned")
        else:
            finish(state, events, draw=True, reason="Every player is out.", ante="returned")
        return
    if len(left) == 1 and state["n"] > 1 and state["solo"] is None:
        state["solo"] = left[0]
        events.append(ev("solo", f"Seat {left[0] + 1} may go on searching for the Grail alone (15.3): finding it "
                                 "wins the ante; giving up the search or calling a draw ends the game and sends "
                                 "every ante card home.", data={"seat": left[0]}))
    if state["turn"] == seat:
        state["steps"] = []
        state["reveal"] = None
        state["todo"] = [{"do": "next_turn"}]


def end_turn_todo(state, double):
    seat = state["turn"]
    todo = [{"do": "balance", "seat": seat}, {"do": "refill", "seat": seat}]
    if double:
        todo.append({"do": "offer", "seat": seat})
    todo.append({"do": "next_turn"})
    return todo


def expire_turn_effects(state, seat):
    """Effects of the ending turn run out; counters of the ending player tick down."""
    keep = []
    for m in state["mods"]:
        u = m["until"]
        if u in ("turn", "dispute"):
            continue
        if u == "next_turn" and m["active"] and m["turn_of"] == seat:
            continue
        keep.append(m)
    state["mods"] = keep
    p = state["p"][seat]
    fx = p["fx"]
    if fx["block"] > 0:
        fx["block"] -= 1
    fx["extra_move"] = 0
    for k in list(p["disabled"]):
        p["disabled"][k] -= 1
        if p["disabled"][k] <= 0:
            del p["disabled"][k]
    nj = state["no_join"]
    if nj["turns"] > 0:
        nj["turns"] -= 1
    state["force"] = None
    state["played"] = []


def start_next_turn(state, events):
    """Pass the turn clockwise to the next player still in, then run the draw phase."""
    cur = state["turn"]
    if state["tn"] > 0:
        expire_turn_effects(state, cur)
    nxt = cur if state["tn"] == 0 else S.left_of(state, cur)
    if nxt is None:
        nxt = cur  # finishing alone (15.3)
    while True:
        state["tn"] += 1
        if state["tn"] > state["opts"]["turn_cap"]:
            finish(state, events, draw=True, reason=f"The turn cap ({state['opts']['turn_cap']}) is reached.",
                   ante="returned")
            return
        fx = state["p"][nxt]["fx"]
        if fx["skip"] > 0:
            fx["skip"] -= 1
            events.append(ev("skip", f"Seat {nxt + 1} loses a turn."))
            after = S.left_of(state, nxt)
            nxt = nxt if after is None else after
            continue
        break
    state["turn"] = nxt
    p = state["p"][nxt]
    p["moved"] = 0
    p["asked"] = []
    p["disputed"] = []
    p["consulted"] = []
    p["used"] = []
    p["rep_set"] = False
    p["ran"] = False
    p["traded"] = []
    for m in state["mods"]:
        if m["until"] == "next_turn" and m["turn_of"] == nxt:
            m["active"] = True
    events.append(ev("turn", f"Seat {nxt + 1}'s turn {state['tn']}.", data={"seat": nxt, "turn": state["tn"]}))
    # 14.1: in Avalon with no knights at the draw phase loses at once.
    if layout.is_avalon(p["pos"]) and not p["knights"]:
        defeat(state, nxt, events, "had no knights left in Avalon")
        return
    if not draw_cards(state, nxt, 1 + draw_bonus(state, nxt), events):
        return
    p["must"] = bool(p["pos"] is not None and places.blocking_foes(state, nxt))
    if p["fx"]["end_now"]:
        p["fx"]["end_now"] = False
        events.append(ev("end_turn", f"Seat {nxt + 1}'s turn ends at once."))
        state["todo"] = end_turn_todo(state, False)


def rep_bonus_effects(state, seat):
    p = state["p"][seat]
    if p["rep"] is None:
        return []
    return S.card(state, p["rep"]).get("round_table_bonus") or []


def side_bonus(state, seat, stat, include_rep=True):
    """Bonuses of a whole side: the representative's Round Table bonus and usable items."""
    return sum(amount for amount, _ in side_bonus_parts(state, seat, stat, include_rep))


def side_bonus_parts(state, seat, stat, include_rep=True):
    """``side_bonus`` part by part, each ``(amount, where from in words)``, so a line can say
    what a "+1" is: "Sir Bedevere's Round Table bonus", an item's title."""
    parts = []
    op = {"combat": "modify_combat", "wits": "modify_wits", "grail": "modify_grail_number"}[stat]
    for e in (rep_bonus_effects(state, seat) if include_rep else []):
        if e["op"] == op and e.get("target", "self") in ("self", "lead_knight") and e.get("who", "self") == "self":
            parts.append((e["amount"], f"{S.title(state, state['p'][seat]['rep'])}'s Round Table bonus"))
    for iid in usable_items(state, seat):
        # Only an item's permanent modifiers work by themselves; the rest is 'used' (11.1).
        for e in S.card(state, iid)["primary"]:
            if e["op"] == op and e.get("duration") == "permanent" and e.get("who", "self") == "self" \
                    and e.get("target", "self") in ("self", "lead_knight", "own_knight"):
                parts.append((e["amount"], S.title(state, iid)))
    return parts


def usable_items(state, seat):
    """Items carried for at least one full turn (11.1)."""
    p = state["p"][seat]
    out = []
    for pg in p["pages"]:
        for iid in pg["i"]:
            since = p["item_turn"].get(str(iid), 0)
            if not S.rule_on(state, "item_delay") or since < state["tn"]:
                out.append(iid)
    return out
