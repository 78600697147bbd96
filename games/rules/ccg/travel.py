"""Where a Round Table goes: entering and leaving areas (6.1) and running away (7.6).

Below the effects (a card can make a Round Table run away) and below movement, which adds
moving by choice, revealing and filling on top of these."""
from __future__ import annotations

from . import layout
from . import state as S
from .base_events import ev


def enter(state, seat, to, events, verb):
    p = state["p"][seat]
    leave(state, seat, p["pos"])
    p["from"], p["pos"] = p["pos"], to
    events.append(ev("move", f"Seat {seat + 1}'s Round Table {verb} to {S.area_name(state, to)}.",
                     data={"seat": seat, "to": to}))
    if to is None:
        p["must"] = False
        return
    a = S.area(state, to)
    if a["down"]:
        state["reveal"] = {"area": to, "seat": seat}
    else:
        state["todo"].insert(0, {"do": "entered", "seat": seat})


def leave(state, seat, ref):
    """Outwitting lets the knights pass "but the adversary remains" (7.4): the pass lasts
    while they stay. Whoever enters its area again meets it again (7.1: a dispute occurs
    on entering), and a multi-talented one is then combated (7.5)."""
    if ref is None:
        return
    if any(e[1] == seat for e in S.peek_area(state, ref)["ow"]):
        a = S.area(state, ref)
        a["ow"] = [e for e in a["ow"] if e[1] != seat]


def explored(state, ref):
    """7.6: an unexplored area is one whose set-up card has never been turned up; cards laid face
    down on it later do not make an explored area unexplored again."""
    if ref is None:
        return True
    return not any(e[2] is None for e in S.peek_area(state, ref)["down"])  # set-up cards have no placer


def held_by_others(state, seat):
    """Areas another Round Table still in the game holds (FAQ 9: never the same space)."""
    return {q["pos"] for s, q in enumerate(state["p"]) if s != seat and not q["out"] and q["pos"] is not None}


def run_options(state, seat):
    """(destinations, who chooses). The runner chooses in Avalon; otherwise the opponent
    chooses when down and back differ (7.6). Running back to the area it arrived from
    may mean an Avalon area (a top-two area entered from Avalon); no option is ever an area
    another Round Table holds (FAQ 9), whether the run is chosen, sung or timed out."""
    p = state["p"][seat]
    pos, size = p["pos"], state["esize"]
    taken = held_by_others(state, seat)
    back = p["from"] if p["from"] != pos and p["from"] not in taken else False
    if layout.is_avalon(pos):
        opts = [] if back is False or back is None else [back]
        opts += [r for r in layout.top_two(size, seat) if r not in opts]  # own England: never held (FAQ 10)
        return opts, seat
    cands = []
    for r in layout.down_from(size, pos) + ([] if back is False else [back]):
        if r not in cands and r not in taken:
            cands.append(r)
    known = [r for r in cands if explored(state, r)]
    opts = known or [r for r in cands if not explored(state, r)] or [None]
    if len(opts) == 1:
        return opts, seat
    return opts, S.left_of(state, seat) if S.left_of(state, seat) is not None else seat


def start_run_away(state, seat, events, forced=False, to=None):
    opts, chooser = run_options(state, seat)
    p = state["p"][seat]
    p["must"] = False
    p["ran"] = True
    events.append(ev("run_away", f"Seat {seat + 1}: “Run away! Run away!”"))
    if chooser == seat and to in opts:
        enter(state, seat, to, events, "runs away")
        return
    if len(opts) == 1 or forced:
        enter(state, seat, opts[0], events, "runs away")
        return
    state["steps"].append({"k": "choice", "what": "run_away", "seat": chooser, "runner": seat, "options": opts})


def finish_run_away(state, step, dest, events):
    enter(state, step["runner"], dest, events, "runs away")
