"""Resolving cards: the effect stack that makes nested Actions one play.

``state["effects"]`` is a stack of plain-data frames, the last on top (helpers in
``frames.py``). Playing a card pushes ``{"op": "resolve", ...}``: a New Rule, Goal, Keeper
or Creeper is placed at once; an Action pushes the frame of its ``op`` (``actions.py``),
which pushes the frames of the cards it makes you play ("Draw 2 and Use 'Em" inside "Draw
3, Play 2 of Them" inside ...). Any depth of nesting is just a deeper stack, and the turn's
play count only moves for the card played from the hand. ``step`` runs the top frame one
step; ``receive_answer`` hands it the answer to the question it asked.
"""
from __future__ import annotations

from ..base import Event
from .actions import ACTION_OPS
from .cards import EFFECT, NAME, TYPE
from .current_rules import goal_limit, reading, rule_in
from .frames import after_rules_removed, ask, card_options, done, say
from .zones import SEAT_NAMES, card_list, draw_to_hand, new_event, own, own_at, seat_name


def step(state: dict, events: list) -> None:
    frame = state["effects"][-1]
    OPS[frame["op"]](state, frame, events)


def receive_answer(state: dict, frame_decisions: list[dict]) -> None:
    """Hand a finished decision frame to the effect waiting under it."""
    frame = state["effects"][-1]
    if frame_decisions[0]["data"].get("per_seat"):
        frame["answer"] = {str(d["seat"]): d["answer"] for d in frame_decisions}
    else:
        (decision,) = frame_decisions
        frame["answer"] = decision["answer"]


# --- resolving a played card ---------------------------------------------------------

def _resolve(state, frame, events):
    card, seat = frame["card"], frame["seat"]
    kind = TYPE[card]
    if kind == "rule":
        done(state)
        _place_rule(state, seat, card, events)
    elif kind == "goal":
        _place_goal(state, frame, events)
    elif kind in ("keeper", "creeper"):
        # done, say: written out (a Keeper or Creeper is the card most often resolved)
        state["effects"].pop()
        state["limbo"].remove(card)
        own_at(state, "tables", seat).append(card)
        events.append(new_event(Event, ("table", f"{SEAT_NAMES[seat]} puts {NAME[card]} on the table.", None,
                                        {"seat": seat, "card": card}, ())))
    else:
        stack = state["effects"]
        stack.pop()
        stack.append({"op": "discard_limbo", "card": card})
        stack.append({"op": EFFECT[card]["op"], "seat": seat, "card": card, **_PARAMS[card]})
        events.append(new_event(Event, ("action", f"{SEAT_NAMES[seat]} carries out {NAME[card]}.", None,
                                        {"seat": seat, "card": card}, ())))


def _params(card: str) -> dict:
    return {k: v for k, v in EFFECT[card].items() if k != "op"}


_PARAMS = {card: _params(card) for card, kind in TYPE.items() if kind == "action"}  # an Action's frame, but op

def _place_rule(state, seat, card, events):
    state["limbo"].remove(card)
    old = rule_in(state, EFFECT[card]["slot"])
    rules = own(state, "rules")
    if old is not None:
        rules.remove(old)
        state["discard"].append(old)
        say(events, "rule", f"{NAME[card]} replaces {NAME[old]}.", card=card, replaced=old)
    else:
        say(events, "rule", f"{NAME[card]} is now a rule.", card=card)
    rules.append(card)
    after_rules_removed(state, seat)


def _place_goal(state, frame, events):
    card, seat = frame["card"], frame["seat"]
    goals = state["goals"]
    limit = reading(state).goal_limit  # current_rules.goal_limit, without its call
    if "answer" in frame:
        replaced = [frame.pop("answer")]
    elif len(goals) < limit:
        replaced = []
    elif limit == 1 or len(goals) == 1:
        replaced = list(goals)
    else:
        ask(state, frame, seat=seat, kind="replace_goal", prompt=f"{NAME[card]} replaces which Goal?",
            options=card_options(goals), default=goals[0],
            public=f"{seat_name(seat)} chooses which Goal {NAME[card]} replaces.")
        return
    done(state)
    goals = own(state, "goals")
    for old in replaced:
        goals.remove(old)
        state["discard"].append(old)
    state["limbo"].remove(card)
    goals.append(card)
    tail = f", replacing {card_list(replaced)}" if replaced else ""
    say(events, "goal", f"{NAME[card]} is now a Goal{tail}.", card=card, replaced=replaced)


def _discard_limbo(state, frame, events):
    done(state)
    if frame["card"] in state["limbo"]:
        state["limbo"].remove(frame["card"])
        state["discard"].append(frame["card"])


def _trim_goals(state, frame, events):
    goals = state["goals"]
    if "answer" not in frame:
        if len(goals) <= goal_limit(state):
            done(state)
            return
        ask(state, frame, seat=frame["seat"], kind="keep_goal", prompt="Only one Goal may stay. Which one?",
            options=card_options(goals), default=goals[0],
            public=f"{seat_name(frame['seat'])} chooses which Goal stays.")
        return
    done(state)
    keep = frame["answer"]
    gone = [g for g in goals if g != keep]
    state["goals"] = [keep]
    state["discard"].extend(gone)
    say(events, "goal", f"{NAME[keep]} stays; {card_list(gone)} is discarded.", kept=keep, discarded=gone)


def _bonus_draw(state, frame, events):
    done(state)
    draw_to_hand(state, frame["seat"], frame["count"], events, frame["why"])


OPS = {"resolve": _resolve, "discard_limbo": _discard_limbo, "trim_goals": _trim_goals, "bonus_draw": _bonus_draw,
       **ACTION_OPS}
