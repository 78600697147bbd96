"""The flow engine: ``advance`` runs the rules forward until a player must act or the game
is over.

The flow is data: ``state["steps"]`` is a stack of pending steps that wait for a player
(response windows, choices, offers, balancing), ``state["reveal"]`` a reveal in progress
and ``state["todo"]`` a queue of things the rules do next once nobody needs to act.
This is the one module that calls every rules section by what the state asks for next,
so it sits on top of them, just below the moves.
"""
from __future__ import annotations

from . import ante, choices, disputes, movement, turns, windows


def out_of_cards(state, events):
    """15.2: a player whose deck is used up, whatever the cause, has lost at once: an
    empty deck ends the player's game as soon as what emptied it (a grail
    number, a draw, a fill card, an ante card, an effect) is settled, not at his next
    draw. A grail number that takes the last card still counts for what it was drawn for,
    so a search it wins is won. When every player left runs out at once, nobody wins."""
    if state["phase"] != "play":
        return
    left = [s for s in range(state["n"]) if not state["p"][s]["out"]]
    empty = [s for s in left if not state["p"][s]["deck"]]
    if not empty:
        return
    if len(empty) == len(left) and len(left) > 1:
        turns.finish(state, events, draw=True, reason="Every player still in ran out of cards at once (15.2).",
                     ante="returned")
        return
    for s in empty:
        turns.defeat(state, s, events, "ran out of cards")


def advance(state, events):
    while state["result"] is None:
        out_of_cards(state, events)
        if state["result"] is not None:
            return
        steps = state["steps"]
        if steps:
            top = steps[-1]
            if not auto_step(state, top, events):
                return
            continue
        if state["end_now"]:
            state["end_now"] = False
            state["reveal"] = None
            state["todo"] = turns.end_turn_todo(state, False)
            continue
        if state["reveal"] is not None:
            movement.continue_reveal(state, events)
            continue
        if not state["todo"]:
            return
        t = state["todo"].pop(0)
        do = t["do"]
        if do == "next_turn":
            turns.start_next_turn(state, events)
        elif do == "balance":
            if len(state["p"][t["seat"]]["hand"]) > turns.HAND_MAX:
                steps.append({"k": "balance", "seat": t["seat"]})
        elif do == "refill":
            hand = state["p"][t["seat"]]["hand"]
            if len(hand) < turns.HAND_MIN:
                turns.draw_cards(state, t["seat"], turns.HAND_MIN - len(hand), events)
        elif do == "offer":
            ante.open_offer(state, t["seat"], events)
        elif do == "entered":
            movement.after_entry(state, t["seat"], events)
        elif do == "window":
            windows.open_window(state, t["act"], events)
        elif do == "dispute_done":
            disputes.after_dispute(state, events)


def auto_step(state, step, events) -> bool:
    """Settle a step whose seat cannot act (out of the game, or an empty hand in a window)."""
    k = step["k"]
    if k == "response":
        seat = step["order"][step["i"]]
        p = state["p"][seat]
        if p["out"] or (seat != state["turn"] and not p["hand"]):
            windows.window_pass(state, step, events)
            return True
        return False
    if k == "offer":
        step["wait"] = [s for s in step["wait"] if not state["p"][s]["out"]]
        if not step["wait"]:
            state["steps"].pop()
            ante.settle_offer(state, step, events)
            return True
        return False
    seat = step["seat"]
    if state["p"][seat]["out"]:
        choices.default_choice(state, step, events)
        return True
    if k == "choice" and step["what"] == "discard" and not state["p"][seat]["hand"]:
        state["steps"].pop()
        return True
    return False
