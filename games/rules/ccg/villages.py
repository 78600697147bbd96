"""Villages (9.1): entering a village area draws a grail number on its village table."""
from __future__ import annotations

from . import effects as FX
from . import places
from . import state as S
from . import timing
from .base_events import ev


def resolve(state, act, events):
    seat = act["seat"]
    a = S.area(state, act["area"])
    village = places.village_in(state, a)
    if village is None or state["p"][seat]["pos"] != act["area"]:
        events.append(ev("fizzle", "The village is gone."))
        return
    n = timing.draw_grail(state, seat, events, "village table")
    if n is None or state["turn"] != seat:
        return
    for row in S.card(state, village).get("village_table") or []:
        if row["min"] <= n <= row["max"]:
            events.append(ev("village", f"{S.title(state, village)} ({n}): {row.get('text', '')}",
                             data={"number": n, "village": village}))
            FX.run(state, row["effects"], seat, S.opponent_of(state, seat), {"area": act["area"]}, events, village)
            return
    events.append(ev("village", f"{S.title(state, village)} ({n}): nothing happens."))
