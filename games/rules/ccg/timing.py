"""Timing (13.x) and grail numbers (4.4).

Before any grail number is drawn the rules open a *response window*: a pending step
``{"k": "response", "order": [...], "i": n, "passes": n, "act": action}``. The seat
``order[i]`` may act now: play face-up effect cards (tag-backs welcome, 13.2) or pass.
Each play restarts the count of passes; the window closes when every seat in ``order``
has passed in a row, and then ``act`` (the dispute, invitation, castle table, village
table or search) draws its grail numbers. The active player is last in the order, so the
opponents get their chance first and the active player always gets a tag-back.
"""
from __future__ import annotations

from . import effects as FX
from . import state as S
from . import turns
from .base_events import ev


def draw_grail(state, seat, events, why="", rt_bonus=True):
    """Draw a grail number from the top of ``seat``'s own deck (4.4); None if they lost."""
    p = state["p"][seat]
    if not p["deck"]:
        turns.defeat(state, seat, events, "ran out of cards")
        return None
    iid = p["deck"].pop()
    c = S.card(state, iid)
    n = c["grail"]
    bonus = FX.grail_bonus(state, seat) + turns.side_bonus(state, seat, "grail", rt_bonus)
    events.append(ev("grail", f"Seat {seat + 1} draws {c['title']} for a grail number: {n}"
                     + (f" ({bonus:+d})" if bonus else "") + (f" — {why}" if why else "") + ".",
                     data={"seat": seat, "card": iid, "code": c["code"], "number": n, "bonus": bonus}))
    if c["type"] == "song" and S.rule_on(state, "song_grail") and c["primary"]:
        # 4.4 exception: a song drawn for a grail number is played on the drawer's opponent.
        opp = S.opponent_of(state, seat)
        events.append(ev("song", f"{c['title']} is sung at seat {opp + 1 if opp is not None else '-'}: {c.get('quote', '')}"))
        keep = FX.run(state, c["primary"], seat, opp, {}, events, iid)
        if keep and keep[0] == "rt":
            state["p"][seat]["attached"].append(iid)
        elif keep and keep[0] == "area":
            S.area(state, keep[1])["att"].append(iid)
        else:
            S.to_dead(state, iid)
    else:
        S.to_dead(state, iid)
    return n + bonus


def foe_drawer(state, active):
    """Who draws grail numbers for adversaries: the seat on the active player's left
    (16.3; in two-player games simply the opponent), or the active player when alone."""
    other = S.left_of(state, active)
    return active if other is None else other


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
    events.append(ev("window", f"Cards may be played before the grail numbers are drawn ({act['do']}).",
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


def auto_step(state, step, events) -> bool:
    """Settle a step whose seat cannot act (out of the game, or an empty hand in a window)."""
    k = step["k"]
    if k == "response":
        seat = step["order"][step["i"]]
        p = state["p"][seat]
        if p["out"] or (seat != state["turn"] and not p["hand"]):
            window_pass(state, step, events)
            return True
        return False
    if k == "offer":
        step["wait"] = [s for s in step["wait"] if not state["p"][s]["out"]]
        if not step["wait"]:
            from . import ante
            state["steps"].pop()
            ante.settle_offer(state, step, events)
            return True
        return False
    seat = step["seat"]
    if state["p"][seat]["out"]:
        from .game_moves import default_choice
        default_choice(state, step, events)
        return True
    if k == "choice" and step["what"] == "discard" and not state["p"][seat]["hand"]:
        state["steps"].pop()
        return True
    return False


def run_action(state, act, events):
    from . import disputes, round_table, avalon, castles, villages
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
    # "fill": nothing to draw here; the reveal in progress goes on (movement.continue_reveal).
