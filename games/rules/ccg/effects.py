"""Executes every op of ``vocabulary.EFFECT_OPS``.

``run(state, effects, player, opp, ctx, events, src)`` applies a list of effect pieces as
if ``player`` had played card ``src`` against ``opp``. ``ctx`` carries what the play chose
or what is going on: ``pick`` (a chosen knight), ``lead``/``foe``/``area`` (the dispute in
progress, if any). Lasting effects become *modifiers* in ``state["mods"]``:

  {"stat": "combat"|"wits"|"grail", "amt": int, "seat": s|None, "card": iid|None,
   "area": ref|None, "until": duration, "turn_of": s, "active": bool, "src": iid, "seq": n}

A modifier with ``card`` applies to that card; with ``area`` to the foes in that area;
otherwise to the lead character (or the grail numbers) of ``seat``'s side.
``run`` returns where the played card should stay, if it stays in play at all:
``("rt", seat)`` (attached to a Round Table for a permanent effect), ``("area", ref)``
(attached to an area for extra draws) or None (to the dead cart).
"""
from __future__ import annotations

from ..rng import Rng
from . import casualties, places, travel, turns
from . import state as S
from .base_events import ev
from .vocabulary import EFFECT_OPS

MODIFIER_OPS = ("modify_combat", "modify_wits", "modify_grail_number")


def run(state, effects, player, opp, ctx, events, src):
    keep = None
    for eff in effects:
        op = eff["op"]
        handler = _HANDLERS[op]
        out = handler(state, eff, player, opp, ctx, events, src)
        if out is not None and keep is None:
            keep = out
        if state["result"] is not None:
            break
    return keep


def _who(eff, player, opp):
    return player if eff["who"] == "self" else opp


def _first_knight(state, seat, pick):
    if seat is None:
        return None
    p = state["p"][seat]
    if pick is not None and pick in p["knights"]:
        return pick
    return p["knights"][0] if p["knights"] else None


def resolve_target(state, target, player, opp, ctx):
    """(seat, card, area) a modifier or a slay aims at; all None when nothing fits."""
    pick = ctx.get("pick")
    if target == "self":
        return player, None, None
    if target == "opponent":
        return (opp, None, None) if opp is not None else (None, None, None)
    if target == "lead_knight":
        lead = ctx.get("lead")
        if lead is not None and S.owner_seat_of_member(state, lead) == player:
            return player, lead, None
        return player, None, None
    if target == "own_knight":
        k = _first_knight(state, player, pick)
        return (player, k, None) if k is not None else (None, None, None)
    if target == "opponent_knight":
        k = _first_knight(state, opp, pick)
        return (opp, k, None) if k is not None else (None, None, None)
    if target == "adversary":
        foe = ctx.get("foe")
        if foe is None:
            # Outside a dispute: the foe barring the player's own way, else the opponent's.
            foe = _foe_near(state, player)
            if foe is None and opp is not None:
                foe = _foe_near(state, opp)
        return (None, foe, None) if foe is not None else (None, None, None)
    if target == "area":
        ref = ctx.get("area") or state["p"][player]["pos"]
        return (None, None, ref) if ref is not None else (None, None, None)
    return None, None, None


def _foe_near(state, seat):
    pos = state["p"][seat]["pos"]
    if pos is None:
        return None
    foes = places.blocking_foes(state, seat)
    return foes[0] if foes else None


def add_mod(state, stat, amt, seat, card, area, until, src, turn_of):
    state["mods"].append({"stat": stat, "amt": amt, "seat": seat, "card": card, "area": area,
                          "until": until, "turn_of": turn_of, "active": until != "next_turn",
                          "src": src, "seq": S.next_seq(state)})


def _modify(stat):
    def handler(state, eff, player, opp, ctx, events, src):
        seat, card, area = resolve_target(state, eff["target"], player, opp, ctx)
        if seat is None and card is None and area is None:
            events.append(ev("fizzle", "The effect finds no target."))
            return None
        turn_of = seat if seat is not None else state["turn"]
        add_mod(state, stat, eff["amount"], None if card is not None else seat, card, area,
                eff["duration"], src, turn_of)
        events.append(ev("modify", f"{eff['amount']:+d} {stat} ({eff['target'].replace('_', ' ')}, {eff['duration']})."))
        return ("rt", player) if eff["duration"] == "permanent" else None
    return handler


def _grail(state, eff, player, opp, ctx, events, src):
    seat = _who(eff, player, opp)
    if seat is None:
        return None
    add_mod(state, "grail", eff["amount"], seat, None, None, eff["duration"], src, seat)
    events.append(ev("modify", f"{eff['amount']:+d} to seat {seat + 1}'s grail numbers ({eff['duration']})."))
    return ("rt", player) if eff["duration"] == "permanent" else None


def _draw(state, eff, player, opp, ctx, events, src):
    seat = _who(eff, player, opp)
    if seat is not None:
        turns.draw_cards(state, seat, eff["count"], events)


def _discard(state, eff, player, opp, ctx, events, src):
    seat = _who(eff, player, opp)
    if seat is None:
        return None
    hand = state["p"][seat]["hand"]
    count = min(eff["count"], len(hand))
    if count == 0:
        return None
    if eff["chooser"] == "random":
        rng = Rng(state["rng"])
        for _ in range(count):
            iid = hand.pop(rng.below(len(hand)))
            S.to_dead(state, iid)
            events.append(ev("discard", f"Seat {seat + 1} discards {S.title(state, iid)} at random."))
    else:
        state["steps"].append({"k": "choice", "what": "discard", "seat": seat, "left": count})
    return None


def _peek(state, eff, player, opp, ctx, events, src):
    if opp is None:
        return None
    names = [S.title(state, i) for i in state["p"][opp]["hand"]]
    events.append(ev("peek", f"Seat {opp + 1}'s hand: {', '.join(names) or 'empty'}.", (player,),
                     {"seat": opp, "hand": [state["inst"][i] for i in state["p"][opp]["hand"]]}))
    events.append(ev("peek", f"Seat {player + 1} looks at seat {opp + 1}'s hand."))


def _end_turn(state, eff, player, opp, ctx, events, src):
    if opp is None:
        return None
    if state["turn"] == opp:
        state["end_now"] = True
    else:
        state["p"][opp]["fx"]["end_now"] = True
    events.append(ev("end_turn", f"Seat {opp + 1}'s turn is cut short."))


def _skip(state, eff, player, opp, ctx, events, src):
    seat = _who(eff, player, opp)
    if seat is not None:
        state["p"][seat]["fx"]["skip"] += eff["turns"]
        events.append(ev("skip", f"Seat {seat + 1} loses {eff['turns']} turn(s)."))


def _disable(state, eff, player, opp, ctx, events, src):
    seat, card, _ = resolve_target(state, eff["target"], player, opp, ctx)
    if card is None:
        return None
    state["p"][seat]["disabled"][str(card)] = eff["turns"]
    events.append(ev("disable", f"{S.title(state, card)} may not act for {eff['turns']} turn(s)."))


def _slay(elim):
    def handler(state, eff, player, opp, ctx, events, src):
        seat, card, _ = resolve_target(state, eff["target"], player, opp, ctx)
        if card is None:
            events.append(ev("fizzle", "Nobody to slay."))
            return None
        name = S.title(state, card)
        if eff["target"] == "adversary":
            places.remove_foe(state, card, elim)
        else:
            casualties.member_dies(state, seat, card, events, elim)
        events.append(ev("slay", f"{name} is {'eliminated from play' if elim else 'slain'}."))
    return handler


def _force(state, eff, player, opp, ctx, events, src):
    state["force"] = eff["method"]
    events.append(ev("force", f"The dispute must be settled by {eff['method']}."))


def _block(state, eff, player, opp, ctx, events, src):
    seat = _who(eff, player, opp)
    if seat is not None:
        state["p"][seat]["fx"]["block"] += eff["turns"]
        events.append(ev("block", f"Seat {seat + 1} may not move for {eff['turns']} turn(s)."))


def _extra_move(state, eff, player, opp, ctx, events, src):
    state["p"][player]["fx"]["extra_move"] += eff["spaces"]
    events.append(ev("extra_move", f"Seat {player + 1} may move {eff['spaces']} more area(s) this turn."))


def _run_away(state, eff, player, opp, ctx, events, src):
    seat = _who(eff, player, opp)
    if seat is None or state["p"][seat]["pos"] is None:
        return None
    travel.start_run_away(state, seat, events, forced=True)


def _auto_join(state, eff, player, opp, ctx, events, src):
    state["p"][player]["fx"]["auto_join"] = S.next_seq(state)
    events.append(ev("auto_join", f"Seat {player + 1}'s next invited knight joins without a draw."))


def _prevent_join(state, eff, player, opp, ctx, events, src):
    # Counted in turns of the whole table (each player's turn counts one).
    state["no_join"] = {"turns": eff["turns"] * state["n"], "seq": S.next_seq(state)}
    events.append(ev("prevent_join", f"No knight may join any Round Table for {eff['turns']} turn(s)."))


def _cancel(state, eff, player, opp, ctx, events, src):
    """Rule 13.4 made explicit: the latest earlier play this turn loses its effects."""
    for entry in reversed(state["played"]):
        iid, seq = entry
        if iid == src:
            continue
        state["played"].remove(entry)
        state["mods"] = [m for m in state["mods"] if m["src"] != iid]
        for p in state["p"]:
            if p["fx"]["auto_join"] == seq:
                p["fx"]["auto_join"] = 0
            if iid in p["attached"]:
                p["attached"].remove(iid)
                S.to_dead(state, iid)
        if state["no_join"]["seq"] == seq:
            state["no_join"] = {"turns": 0, "seq": 0}
        events.append(ev("cancel", f"{S.title(state, iid)} is cancelled."))
        return None
    events.append(ev("fizzle", "There is no card to cancel."))


def _return(state, eff, player, opp, ctx, events, src):
    p = state["p"][player]
    for _ in range(eff["count"]):
        if not p["dead"]:
            break
        iid = p["dead"].pop()
        p["hand"].append(iid)
        events.append(ev("return", f"Seat {player + 1} takes {S.title(state, iid)} back from the dead cart."))


def _extra_draws(state, eff, player, opp, ctx, events, src):
    ref = state["p"][player]["pos"]
    if ref is None:
        events.append(ev("fizzle", "The Round Table is not in an area."))
        return None
    return ("area", ref)


def _search_bonus(state, eff, player, opp, ctx, events, src):
    state["p"][player]["fx"]["search_bonus"] += eff["amount"]
    events.append(ev("search_bonus", f"{eff['amount']:+d} to seat {player + 1}'s next Grail search."))


def _end_game(state, eff, player, opp, ctx, events, src):
    if eff["result"] == "draw":
        turns.finish(state, events, draw=True, reason="A card ends the game in a draw.", ante="carried")
    elif opp is not None:
        turns.defeat(state, opp, events, "had their game ended by a card")


_HANDLERS = {
    "modify_combat": _modify("combat"),
    "modify_wits": _modify("wits"),
    "modify_grail_number": _grail,
    "draw_cards": _draw,
    "discard_cards": _discard,
    "peek_hand": _peek,
    "end_turn": _end_turn,
    "skip_turns": _skip,
    "disable_member": _disable,
    "slay": _slay(False),
    "eliminate": _slay(True),
    "force_dispute": _force,
    "block_movement": _block,
    "extra_movement": _extra_move,
    "run_away": _run_away,
    "auto_join": _auto_join,
    "prevent_join": _prevent_join,
    "cancel_last_card": _cancel,
    "return_from_dead_cart": _return,
    "extra_draws_in_area": _extra_draws,
    "search_bonus": _search_bonus,
    "end_game": _end_game,
}

assert set(_HANDLERS) == set(EFFECT_OPS), "every vocabulary op needs a handler"


def needs_pick(effects) -> str | None:
    """Which kind of knight a play must choose, if its effects aim at one."""
    for eff in effects:
        t = eff.get("target")
        if t in ("own_knight", "opponent_knight"):
            return t
    return None


# ------------------------------------------------------------------ reading modifiers
def stat_bonus(state, stat, card, seat, area_ref):
    """Sum of active modifiers of ``stat`` for a character ``card`` on ``seat``'s side
    (seat None for a foe) disputing in ``area_ref``."""
    total = 0
    for m in state["mods"]:
        if m["stat"] != stat or not m["active"]:
            continue
        if m["card"] is not None:
            if m["card"] == card:
                total += m["amt"]
        elif m["area"] is not None:
            if seat is None and m["area"] == area_ref:
                total += m["amt"]
        elif seat is not None and m["seat"] == seat:
            total += m["amt"]
    return total


def own_bonus(c, stat):
    """A character's own printed permanent modifiers to itself (its primary, 'self')."""
    if c["type"] not in ("knight", "persona", "adversary", "peril"):
        return 0
    op = "modify_combat" if stat == "combat" else "modify_wits"
    return sum(e["amount"] for e in c.get("primary") or []
               if e["op"] == op and e.get("target") in ("self", "lead_knight", "own_knight")
               and e.get("duration") == "permanent")


def grail_bonus(state, seat):
    return sum(amount for amount, _ in grail_bonus_parts(state, seat))


def grail_bonus_parts(state, seat):
    """The modifiers in force on ``seat``'s grail numbers, each ``(amount, the title of the
    card that made it)`` ("an effect" when no card did)."""
    return [(m["amt"], _source_title(state, m["src"])) for m in state["mods"]
            if m["stat"] == "grail" and m["active"] and m["seat"] == seat]


def _source_title(state, src):
    if isinstance(src, int) and not isinstance(src, bool) and 0 <= src < len(state["inst"]):
        return S.title(state, src)
    return "an effect"
