"""Applying a move: check it, change the state, then run the rules forward (``flow.advance``).

A card play carries the quote the player read out (4.2): the web shows the quote to
everyone and sends it back when the player confirms or types it; a play without the
right words goes to the dead cart with no effect.
"""
from __future__ import annotations

import re

from ..base import IllegalMove
from . import (ante, castles, choices, flow, layout, movement, moves_check, moves_listing, places, round_table,
               setup, travel, turns, windows)
from . import effects as FX
from . import state as S
from .base_events import ev


RUN_AWAY_SHOUT = "Run away! Run away!"


_WORDS = re.compile(r"[a-z0-9]+")


def same_words(a: str, b: str) -> bool:
    return _WORDS.findall((a or "").lower()) == _WORDS.findall((b or "").lower())


def apply(state, seat, move, events):
    moves_check.check(state, seat, move)
    t = move["type"]
    steps = state["steps"]
    step = steps[-1] if steps else None
    if t == "cut":
        ante.cut(state, seat, move["at"], events)
        if seat + 1 < state["n"]:
            step["seat"] = seat + 1
        else:
            steps.pop()
            setup.lay_out(state, events)
    elif t == "pass":
        windows.window_pass(state, step, events)
    elif t == "play":
        play(state, seat, move, events)
        if step is not None and step["k"] == "response":
            windows.window_played(step)
    elif t == "accept" or t == "concede":
        ante.answer(state, seat, t == "accept", events)
    elif t == "discard":
        hand = state["p"][seat]["hand"]
        hand.remove(move["card"])
        S.to_dead(state, move["card"])
        events.append(ev("discard", f"Seat {seat + 1} discards {S.title(state, move['card'])}."))
        if step["k"] == "balance":
            if len(hand) <= turns.HAND_MAX:
                steps.pop()
        else:
            step["left"] -= 1
            if step["left"] <= 0 or not hand:
                steps.pop()
    elif t == "choose":
        steps.pop()
        choices.resolve_choice(state, step, move["option"], events)
    elif t == "use":
        use(state, seat, move, events)
        if step is not None and step["k"] == "response":
            windows.window_played(step)
    elif t == "run_away":
        if S.rule_on(state, "run_away_shout") and not same_words(move.get("shout", ""), RUN_AWAY_SHOUT):
            raise IllegalMove(f"To run away you must shout “{RUN_AWAY_SHOUT}”")
        if step is not None and step["k"] == "response":
            steps.pop()  # running away before the grail numbers are drawn calls the dispute off
        travel.start_run_away(state, seat, events, to=move.get("to"))
    else:
        main_action(state, seat, move, events)
    flow.advance(state, events)


def main_action(state, seat, move, events):
    t = move["type"]
    p = state["p"][seat]
    if t == "move":
        movement.move(state, seat, move["to"], events)
    elif t == "invite":
        windows.open_window(state, {"do": "join", "seat": seat, "card": move["card"], "rep": move["rep"]}, events)
    elif t == "fight":
        a = S.area(state, p["pos"])
        foe = move["foe"]
        if foe not in places.blocking_foes(state, seat):
            a["hostile"].append(foe)  # 5.1: a challenged knight will never join
            a["challenged"].append(foe)
        p["must"] = False
        windows.open_window(state, {"do": "dispute", "seat": seat, "foe": foe, "method": move["method"],
                                   "lead": move["lead"]}, events)
    elif t == "parley":
        windows.open_window(state, {"do": "castle", "seat": seat, "lead": move["lead"]}, events)
    elif t == "assault":
        windows.open_window(state, {"do": "assault", "seat": seat, "lead": move["lead"]}, events)
    elif t == "enter_castle":
        castles.enter(state, seat, events)
    elif t == "search":
        windows.open_window(state, {"do": "search", "seat": seat, "area": p["pos"]}, events)
    elif t == "take_item":
        S.take_from_area(state, move["card"])
        round_table.assign_item(state, seat, move["card"], move["page"], events)
    elif t == "trade_item":
        round_table.trade_item(state, seat, move["card"], move["page"], events)
    elif t == "end_turn":
        if move.get("double"):
            events.append(ev("offer", f"Seat {seat + 1} will double the ante."))
        state["todo"] = turns.end_turn_todo(state, bool(move.get("double")))
    elif t == "represent":
        p["rep"] = move["card"]
        p["rep_set"] = True
        events.append(ev("represent", f"{S.title(state, move['card'])} now stands for seat {seat + 1}'s Round Table."))
    elif t == "call_draw":
        turns.finish(state, events, draw=True, reason=f"Seat {seat + 1} searched on alone (15.3) and called it a "
                     "draw: the ante goes back to its owners.", ante="returned")
    elif t == "give_up":
        turns.finish(state, events, winners=(seat,), reason=f"Seat {seat + 1} searched on alone (15.3) and gave up "
                     "the search: the win is theirs, having outlasted the others, but only the Grail wins the ante, "
                     "so it goes back to its owners.", ante="returned")


def play(state, seat, move, events):
    p = state["p"][seat]
    iid = move["card"]
    c = S.card(state, iid)
    p["hand"].remove(iid)
    face_down = move.get("face") == "down"
    if face_down:
        a = S.area(state, move["to"])
        a["down"].append([iid, S.next_seq(state), seat])
        events.append(ev("play", f"Seat {seat + 1} lays a card face down in {S.area_name(state, move['to'])}.",
                         data={"seat": seat, "to": move["to"]}, hidden_from=(seat,)))  # the owner's line follows
        events.append(ev("play", f"You lay {c['title']} face down in {S.area_name(state, move['to'])}.", (seat,), {"card": iid}))
        return
    quote = c.get("quote") or ""
    said = move.get("quote", "")
    shown = quote if same_words(said, quote) else said  # everyone "hears" the quote (4.2)
    where = f" in {S.area_name(state, move['to'])}" if move.get("to") not in (None, "rt") else ""
    events.append(ev("play", f"Seat {seat + 1} plays {c['title']}{where}" + (f": “{shown}”" if shown else "") + ".",
                     data={"seat": seat, "card": iid, "code": c["code"], "move": moves_check.canonical(move)}))
    if quote and S.rule_on(state, "quotes") and not same_words(said, quote):
        S.to_dead(state, iid)
        events.append(ev("quote", f"{c['title']} was not read out properly and goes to the dead cart (4.2)."))
        return
    seq = S.next_seq(state)
    state["played"].append([iid, seq])
    to = move.get("to")
    if move["use"] == "secondary" or (to is None and c["type"] not in movement.SLOT and c["type"] != "item"):
        effs = c["secondary"] if move["use"] == "secondary" else c["primary"]
        opp = move.get("target")
        if opp is None:
            opp = S.opponent_of(state, seat)
        ctx = moves_listing.dispute_ctx(state)
        _chosen_targets(ctx, move)
        keep = FX.run(state, effs, seat, opp, ctx, events, iid)
        movement.settle_played(state, iid, keep, seat)
        return
    if to == "rt":
        if c["type"] == "page":
            round_table.add_page(state, seat, iid, events)
        elif c["type"] == "item":
            round_table.assign_item(state, seat, iid, move["page"], events)
        else:
            round_table.add_member(state, seat, iid, events)
        return
    owner = layout.parse(to)[0]
    movement.place_face_up(state, S.area(state, to), iid, seq, events, seat if owner is None else owner)


def use(state, seat, move, events):
    iid = move["card"]
    state["p"][seat]["used"].append(iid)
    effs = moves_listing.ability(state, iid)
    events.append(ev("item", f"Seat {seat + 1} uses {S.title(state, iid)}.", data={"card": iid}))
    seq = S.next_seq(state)
    state["played"].append([iid, seq])
    ctx = moves_listing.dispute_ctx(state)
    _chosen_targets(ctx, move)
    opp = move.get("target")
    FX.run(state, effs, seat, S.opponent_of(state, seat) if opp is None else opp, ctx, events, iid)


def _chosen_targets(ctx, move):
    """What the play named: a knight, a foe, an area (see ``_with_targets``)."""
    ctx["pick"] = move.get("pick")
    for key in ("foe", "area"):
        if move.get(key) is not None:
            ctx[key] = move[key]


