"""Hand and Keeper limits: who must discard, and the decisions that ask them.

Outside their own turn, players are held to the limits at every moment: when a limit
arrives (or cards arrive in their hands) everyone over it is asked at once, one decision
each in a single frame, answered in any order; the turn goes on when the last answers.
The player whose turn it is complies only when the turn ends (hand first, then Keepers).

Each decision's default, used when its time runs out, keeps the *first* cards (the oldest
in the hand, the first Keepers put down) and discards the rest. A discard with no choice
(down to zero) happens without asking.
"""
from __future__ import annotations

from .. import decisions
from ..base import Event
from .cards import NAME
from .current_rules import KEEPERS, Reading, hand_limit, keeper_limit, reading
from .zones import card_list, new_event, own_at, seat_name

LIMIT_HANDLER = "limit"
_is_keeper = KEEPERS.__contains__


def _excess(state: dict, seat: int, zone: str) -> tuple[list[str], int]:
    """The cards a limit applies to, and how many must go."""
    if zone == "hand":
        limit, cards = hand_limit(state), state["hands"][seat]
    else:
        limit, cards = keeper_limit(state), [c for c in state["tables"][seat] if c in KEEPERS]
    if limit is None or len(cards) <= limit:
        return cards, 0
    return cards, len(cards) - limit


def _spec(seat: int, zone: str, cards: list[str], excess: int) -> dict:
    what = "of your Keepers" if zone != "hand" else "card from your hand" if excess == 1 else "cards from your hand"
    return dict(seat=seat, kind="discard" if zone == "hand" else "discard_keepers",
                prompt=f"Over the limit: discard {excess} {what}.",
                public=f"{seat_name(seat)} chooses {excess} {'card' if zone == 'hand' else 'Keeper'}"
                       f"{'s' if excess != 1 else ''} to discard.",
                options=[{"value": c, "label": NAME[c]} for c in cards], pick=(excess, excess),
                default=_as_answer(cards[len(cards) - excess:]), data={"handler": LIMIT_HANDLER, "zone": zone})


def _as_answer(cards: list[str]):
    """A one-card discard is answered with the card, a longer one with a list (decisions.py)."""
    return cards[0] if len(cards) == 1 else list(cards)


def _ask_or_apply(state: dict, wanted: list[tuple[int, str]], events: list) -> bool:
    """Push one frame for every (seat, zone) over its limit; forced discards happen now.
    Returns True when anything was asked or discarded."""
    specs = []
    acted = False
    for seat, zone in wanted:
        cards, excess = _excess(state, seat, zone)
        if not excess:
            continue
        if excess == len(cards):
            discard(state, seat, zone, list(cards), events)
            acted = True
        else:
            specs.append(_spec(seat, zone, cards, excess))
    if specs:
        decisions.push(state, specs)
    return acted or bool(specs)


def ask_others(state: dict, events: list, r: Reading | None = None) -> bool:
    """Hold everyone but the player whose turn it is to the limits, now. ``r``: the rules'
    reading, when the caller has it (engine.settle asks this after every step)."""
    if r is None:
        r = reading(state)
    hands, keepers = r.hand_limit, r.keeper_limit
    if hands is None and keepers is None:
        return False
    turn_seat = state["turn"]["seat"]
    all_hands, tables = state["hands"], state["tables"]
    if not _may_be_over(all_hands, tables, turn_seat, hands, keepers):
        return False
    wanted = []
    for s, on in enumerate(state["active"]):
        if not on or s == turn_seat:
            continue
        if hands is not None and len(all_hands[s]) > hands:
            wanted.append((s, "hand"))
        # A table no longer than the limit cannot hold too many Keepers: skip the count.
        if keepers is not None and len(tables[s]) > keepers and len([c for c in tables[s] if c in KEEPERS]) > keepers:
            wanted.append((s, "keepers"))
    return bool(wanted) and _ask_or_apply(state, wanted, events)


def _may_be_over(all_hands: list, tables: list, turn_seat: int, hands: int | None, keepers: int | None) -> bool:
    """The quick look of ``ask_others``: may anyone but the turn player be over a limit?
    Nearly never (those who were have been asked already), and this runs after every step
    while a limit is in play. One loop a limit, testing the length first (nearly always
    within the limit, so the seat is seldom looked at); Keepers counted, without a list,
    only on a table longer than the limit. A seat no longer playing is left to the full
    look, which leaves it out (its hand and table are empty anyway)."""
    if hands is not None:
        s = 0
        for hand in all_hands:
            if len(hand) > hands and s != turn_seat:
                return True
            s += 1
    if keepers is not None:
        s = 0
        for table in tables:
            if len(table) > keepers and s != turn_seat and sum(map(_is_keeper, table)) > keepers:
                return True
            s += 1
    return False


def ask_turn_player(state: dict, zone: str, events: list) -> bool:
    """At the end of a turn the player whose turn it was complies with one limit.
    True when a discard was asked for or made."""
    return _ask_or_apply(state, [(state["turn"]["seat"], zone)], events)


def discard(state: dict, seat: int, zone: str, cards: list[str], events: list) -> None:
    source = state["hands"][seat] if zone == "hand" else state["tables"][seat]
    gone = [c for c in cards if c in source]  # a player who left has nothing left to discard
    if gone:
        source = own_at(state, "hands" if zone == "hand" else "tables", seat)
    for card in gone:
        source.remove(card)
    state["discard"].extend(gone)
    if gone:
        events.append(new_event(Event, ("discard", f"{seat_name(seat)} discards {card_list(gone)} to meet the limit.",
                                        None, {"seat": seat, "cards": gone, "zone": zone}, ())))


def on_answered(state: dict, frame: list[dict], events: list) -> None:
    for d in frame:
        chosen = d["answer"] if isinstance(d["answer"], list) else [d["answer"]]
        discard(state, d["seat"], d["data"]["zone"], chosen, events)
