"""Avalon (14.x) and searching for the Grail (15.1)."""
from __future__ import annotations

from . import layout, places
from . import state as S
from . import timing, turns
from .base_events import ev

GRAIL_FOUND_AT = 6


def can_search(state, seat):
    p = state["p"][seat]
    ref = p["pos"]
    if not layout.is_avalon(ref) or not p["knights"]:
        return False
    a = S.peek_area(state, ref)
    return not a["searched"] and not a["down"] and not places.blocking_foes(state, seat)


def resolve_search(state, act, events):
    seat = act["seat"]
    p = state["p"][seat]
    a = S.area(state, act["area"])
    if a["searched"] or p["pos"] != act["area"]:
        events.append(ev("fizzle", "That search no longer stands."))
        return
    n = timing.draw_grail(state, seat, events, "search for the Grail")
    if n is None or state["turn"] != seat:
        return
    failed, boost = state["failed_searches"], p["fx"]["search_bonus"]
    bonus = failed + boost
    p["fx"]["search_bonus"] = 0
    total = n + bonus
    a["searched"] = True
    data = {"number": n, "bonus": bonus, "total": total, "area": act["area"]}
    # What the search adds to the number drawn, in words (15.1: one for each area searched in vain).
    added = ([f"+{failed} for the area{'s' if failed != 1 else ''} of Avalon searched in vain"] if failed else []) + \
        ([f"{boost:+d} from a card played for this search"] if boost else [])
    said = f"{total} ({n}, {', '.join(added)})" if added else str(total)
    if total >= GRAIL_FOUND_AT:
        events.append(ev("search", f"Seat {seat + 1} searches {S.area_name(state, act['area'])}: {said} — the Holy Grail is found!", data=data))
        others = [s for s in range(state["n"]) if s != seat]
        turns.finish(state, events, winners=(seat,), reason=f"Seat {seat + 1} finds the Holy Grail.",
                     ante="won", finder=seat)
        state["result"]["losers"] = others
        return
    state["failed_searches"] += 1
    events.append(ev("search", f"Seat {seat + 1} searches {S.area_name(state, act['area'])}: {said} — no Grail here.", data=data))
    if all(x["searched"] for x in state["avalon"]):
        if state["solo"] is not None:
            turns.finish(state, events, winners=(state["solo"],),
                         reason=f"Seat {state['solo'] + 1} searched on alone (15.3) and every area of Avalon was "
                                "searched in vain: the win is theirs, but only the Grail wins the ante, so it goes "
                                "back to its owners.", ante="returned")
        else:
            carry = "." if turns.ante_kept_home(state, "carried", None) else "; play again with the ante carried over."
            turns.finish(state, events, draw=True,
                         reason="Every area of Avalon was searched and the Grail not found: a draw" + carry,
                         ante="carried")
