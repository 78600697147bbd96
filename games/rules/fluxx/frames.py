"""The effect stack's plain-data frames and the helpers every effect uses.

``state["effects"]`` is a stack of frames, the last on top (see ``effects.py``). A frame
that needs a choice asks it through ``games.rules.decisions`` with ``data.handler ==
EFFECT_HANDLER`` and stops; the engine puts the answer in the frame as ``frame["answer"]``
and steps it again.
"""
from __future__ import annotations

from .. import decisions
from ..base import Event
from .cards import NAME, TYPE
from .current_rules import active_seats, goal_limit
from .zones import new_event, seat_name

EFFECT_HANDLER = "effect"


def push(state: dict, frame: dict) -> None:
    state["effects"].append(frame)


def play_card(state: dict, seat: int, card: str) -> None:
    """Start resolving ``card`` (already in limbo) as ``seat``'s play."""
    push(state, {"op": "resolve", "seat": seat, "card": card})


def done(state: dict) -> None:
    state["effects"].pop()


def ask(state: dict, frame: dict, *, seat: int, kind: str, prompt: str, options: list, default,
        public: str, pick=(1, 1)) -> None:
    decisions.ask(state, seat=seat, kind=kind, prompt=prompt, options=options, default=default, pick=pick,
                  public=public, data={"handler": EFFECT_HANDLER, "op": frame["op"]})


def card_options(cards: list[str]) -> list[dict]:
    return [{"value": c, "label": NAME[c]} for c in cards]


def seat_options(seats: list[int]) -> list[dict]:
    return [{"value": s, "label": seat_name(s)} for s in seats]


def others_in_order(state: dict, seat: int) -> list[int]:
    """The other players still in the game, in turn order starting after ``seat``."""
    n = len(state["active"])
    return [(seat + i) % n for i in range(1, n) if state["active"][(seat + i) % n]]


def say(events: list, kind: str, text: str, **data) -> None:
    events.append(new_event(Event, (kind, text, None, data, ())))


def table_cards(state, types) -> list[str]:
    return [c for s in active_seats(state) for c in state["tables"][s] if TYPE[c] in types]


def choose_then(state, frame, events, *, candidates, kind, prompt, public, apply, options=None):
    """The common shape: nothing to choose from -> nothing happens; else ask, then apply.
    An answer that is no longer possible (its player or card left the game meanwhile)
    makes the card do nothing."""
    if "answer" in frame:
        done(state)
        chosen = frame.pop("answer")
        if chosen in candidates:
            apply(chosen)
        else:
            say(events, "fizzle", f"{NAME[frame['card']]}: that choice is gone; nothing happens.", card=frame["card"])
        return
    if not candidates:
        done(state)
        say(events, "fizzle", f"{NAME[frame['card']]} has nothing to act on.", card=frame["card"])
        return
    opts = options if options is not None else card_options(candidates)
    ask(state, frame, seat=frame["seat"], kind=kind, prompt=prompt, options=opts,
        default=opts[0]["value"], public=public)


def after_rules_removed(state: dict, seat: int) -> None:
    """When fewer Goals are allowed than are in play (Double Agenda gone), the player who
    caused it chooses which Goal stays."""
    if len(state["goals"]) > goal_limit(state):
        push(state, {"op": "trim_goals", "seat": seat})
