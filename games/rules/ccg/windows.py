"""Response windows (13.x) and the actions they lead to.

Before any grail number is drawn the rules open a *response window*: a pending step
``{"k": "response", "order": [...], "i": n, "passes": n, "act": action}``. The seat
``order[i]`` may act now: play face-up effect cards (tag-backs welcome, 13.2) or pass.
Each play restarts the count of passes; the window closes when every seat in ``order``
has passed in a row, and then ``act`` (the dispute, invitation, castle table, village
table or search) draws its grail numbers. The active player is last in the order, so the
opponents get their chance first and the active player always gets a tag-back.

``run_action`` hands the closed window's action to its rules section, so this module sits
above round_table, disputes, castles, villages and avalon, and below movement and the moves.
"""
from __future__ import annotations

from . import avalon, castles, disputes, round_table, villages
from . import state as S
from .base_events import ev


def open_window(state, act, events):
    act.setdefault("area", state["p"][act["seat"]]["pos"])
    active = state["turn"]
    order = []
    s = active
    for _ in range(state["n"] - 1):
        s = (s + 1) % state["n"]
        if not state["p"][s]["out"]:
            order.append(s)
    if not order or not S.rule_on(state, "response_windows"):
        run_action(state, act, events)
        return
    order.append(active)
    state["steps"].append({"k": "response", "order": order, "i": 0, "passes": 0, "act": act})
    events.append(ev("window", f"A chance to play cards, then the grail numbers are drawn ({act['do']}).",
                     data={"order": order, "act": act["do"]}))


def window_pass(state, step, events):
    step["passes"] += 1
    step["i"] = (step["i"] + 1) % len(step["order"])
    if step["passes"] >= len(step["order"]):
        state["steps"].pop()
        run_action(state, step["act"], events)


def window_played(step):
    """After a play the same seat may play again or pass; everybody must pass again."""
    step["passes"] = 0


def run_action(state, act, events):
    do = act["do"]
    p = state["p"][act["seat"]]
    if p["out"] or state["turn"] != act["seat"] or state["end_now"]:
        return  # the turn is over (a card ended it during the window)
    if p["pos"] != act["area"] or p["pos"] is None:
        # The Round Table left (a card made it run away) before the grail numbers came.
        events.append(ev("fizzle", f"The {do} is called off: the Round Table has left."))
        return
    if do == "join":
        round_table.resolve_join(state, act, events)
    elif do == "dispute":
        disputes.resolve(state, act, events)
    elif do == "castle":
        castles.resolve_table(state, act, events)
    elif do == "assault":
        castles.resolve_assault(state, act, events)
    elif do == "village":
        villages.resolve(state, act, events)
    elif do == "search":
        avalon.resolve_search(state, act, events)
