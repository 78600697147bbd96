"""Settling a pending choice (a revealed card's effect, where to run, a castle's occupant),
whether a seat chose it or the rules chose for a seat that cannot (``default_choice``).

Above movement and the effects it calls; below the flow engine and the moves."""
from __future__ import annotations

from . import effects as FX
from . import movement
from . import state as S
from . import travel
from .base_events import ev


def resolve_choice(state, step, option, events):
    what = step["what"]
    if what == "reveal":
        if option.startswith("apply"):
            movement.apply_revealed(state, step["card"], step["mover"], step["seat"], events,
                                    movement.picked(option))
        else:
            state["limbo"].remove(step["card"])
            S.to_dead(state, step["card"])
            events.append(ev("reveal", f"Seat {step['seat'] + 1} lets {S.title(state, step['card'])} pass."))
    elif what == "reveal_place":
        if option.startswith("apply"):
            c = S.card(state, step["card"])
            FX.run(state, c["primary"], step["seat"], step["mover"],
                   {"area": state["p"][step["mover"]]["pos"], "pick": movement.picked(option)}, events, step["card"])
    elif what == "run_away":
        travel.finish_run_away(state, step, option, events)
    elif what == "occupant":
        movement.set_occupant(state, step, option, events)


def default_choice(state, step, events):
    """What happens for a seat that cannot answer (out of the game): see timeout_move."""
    state["steps"].pop()
    if step["k"] == "balance" or step.get("what") == "discard":
        return
    option = "ignore" if step.get("what") in ("reveal", "reveal_place") else step["options"][0]
    resolve_choice(state, step, option, events)
