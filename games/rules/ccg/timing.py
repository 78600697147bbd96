"""Grail numbers (4.4): drawing one, and who draws for the adversaries (16.3).

Response windows (13.x), which come before grail numbers are drawn, are in ``windows``.
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
    parts = [p for p in FX.grail_bonus_parts(state, seat) + turns.side_bonus_parts(state, seat, "grail", rt_bonus)
             if p[0]]
    bonus = sum(amount for amount, _ in parts)
    # Each modifier says where it comes from: "2, +1 from Sir Bedevere's Round Table bonus = 3".
    said = ", ".join(f"{amount:+d} from {source}" for amount, source in parts)
    events.append(ev("grail", f"Seat {seat + 1} draws {c['title']} for a grail number: {n}"
                     + (f", {said} = {n + bonus}" if parts else "") + (f" — {why}" if why else "") + ".",
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


    # "fill": nothing to draw here; the reveal in progress goes on (movement.continue_reveal).
