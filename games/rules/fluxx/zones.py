"""Where cards are, and the one way cards come off the draw pile.

Zones: ``draw`` (face down, top is the end of the list), ``discard`` (face up, top is the
end), ``hands[seat]``, ``tables[seat]`` (Keepers and Creepers in front of a player),
``rules`` (New Rules in play), ``goals``, ``limbo`` (an Action or a card being resolved)
and the ``pool`` of an effect frame (cards drawn by "Draw 2 and Use 'Em" and the like, not
yet played). Every card of the deck but the Basic Rules is in exactly one of them.
"""
from __future__ import annotations

from ..base import Event
from ..rng import Rng
from .cards import DECKS, NAME, TYPE, deck_of


_CREEPERS = frozenset(c for c, t in TYPE.items() if t == "creeper")

# Events are made as ``base.Event`` makes them -- a tuple of its five fields -- without
# going through its Python-level ``__new__`` (keyword arguments and a frame of its own
# cost most of an event): ``new_event(Event, (kind, text, audience, data, hidden_from))``,
# audience None for everyone. The same object, of the same class
# (tests/rules/fluxx/test_fx_fast_paths.py compares them); the check below fails at import
# if base.Event ever changes its fields.
new_event = tuple.__new__
assert Event._fields == ("kind", "text", "audience", "data", "hidden_from"), Event._fields


def own(state: dict, key: str):
    """``state[key]``, a list or dict, replaced by a copy of its own first and returned, to
    be changed in place. ``state_copy.copy_state`` shares with the state it copies the keys
    a move seldom changes (``SHARED`` there); every change to one goes through here, so the
    state ``apply`` was given is never changed (test_fx_contract.py)."""
    value = state[key] = state[key].copy()
    return value


def own_at(state: dict, key: str, seat: int) -> list:
    """``state[key][seat]`` -- a hand or a table -- replaced by a copy of its own first and
    returned, to be changed in place: ``state_copy.copy_state`` copies the lists of hands
    and of tables but shares the hands and tables themselves, most of which a move leaves
    alone. (The list of hands or tables is the state's own: changing which list sits at a
    seat needs no copy.)"""
    lists = state[key]
    value = lists[seat] = lists[seat].copy()
    return value


# Written ahead for the six seats (six at most: game.py); the hot paths index it directly.
SEAT_NAMES = _SEAT_NAMES = tuple(f"Seat {seat + 1}" for seat in range(6))


def seat_name(seat: int) -> str:
    # Written ahead for the six seats: every event's words name seats (three a move or so).
    if 0 <= seat < 6:
        return _SEAT_NAMES[seat]
    return f"Seat {seat + 1}"


def take_top(state: dict, events: list) -> str | None:
    """The top card of the draw pile, refilled from the shuffled discards when empty.
    None when both piles are empty: that draw simply does not happen (docs/rules/fluxx.md)."""
    if not state["draw"]:
        if not state["discard"]:
            return None
        # The discard pile becomes the draw pile (state_copy.py copies the discards, so
        # the list is this state's own) and is shuffled with a generator of its own.
        state["draw"], state["discard"] = state["discard"], []
        Rng(own(state, "rng")).shuffle(state["draw"])
        events.append(new_event(Event, ("reshuffle", "The discard pile is shuffled into a new draw pile.", None,
                                        {"count": len(state["draw"])}, ())))
    return own(state, "draw").pop()


def draw_for(state: dict, seat: int, events: list) -> str | None:
    """Draw one card that is not a Creeper for ``seat``: every Creeper met on the way goes
    straight onto ``seat``'s table and the draw goes on (this is not a play)."""
    while True:
        card = take_top(state, events)
        if card is None or TYPE[card] != "creeper":
            return card
        own_at(state, "tables", seat).append(card)
        events.append(new_event(Event, ("creeper", f"{seat_name(seat)} draws {NAME[card]} and must put it on the table.",
                                        None, {"seat": seat, "card": card}, ())))


def draw_cards(state: dict, seat: int, count: int, events: list) -> list[str]:
    """Draw ``count`` non-Creepers for ``seat`` (fewer if both piles run dry) and return them."""
    pile = state["draw"]
    if 0 < count <= len(pile):
        # The usual case, taken at once: the top ``count`` cards are no Creepers, so drawing
        # them one by one (``draw_for``) would give them top first and nothing else.
        got = pile[-count:]
        got.reverse()
        for card in got:
            if card in _CREEPERS:
                break
        else:
            del own(state, "draw")[-count:]
            return got
    return draw_one_at_a_time(state, seat, count, events)


def draw_one_at_a_time(state: dict, seat: int, count: int, events: list) -> list[str]:
    """``draw_cards`` by its definition: one ``draw_for`` after another (Creepers met on the
    way go to the table and are replaced; both piles dry ends the drawing)."""
    got = []
    for _ in range(count):
        card = draw_for(state, seat, events)
        if card is None:
            events.append(Event("empty", "Both the draw pile and the discard pile are empty: nothing to draw."))
            break
        got.append(card)
    return got


def draw_to_hand(state: dict, seat: int, count: int, events: list, why: str = "") -> int:
    """Draw into ``seat``'s hand; the drawer is told the cards, everyone else the count."""
    got = draw_cards(state, seat, count, events)
    if got:
        own_at(state, "hands", seat).extend(got)
        note = f" ({why})" if why else ""
        only = (seat,)
        count = len(got)
        events.append(new_event(Event, ("draw", f"You draw {_list(got)}{note}.", only, {"seat": seat, "cards": got}, ())))
        events.append(new_event(Event, ("draw", f"{_SEAT_NAMES[seat]} draws {count} card{'s' if count != 1 else ''}{note}.",
                                        None, {"seat": seat, "count": count}, only)))
    return len(got)


_name_of = NAME.__getitem__


def _list(cards: list[str]) -> str:
    names = list(map(_name_of, cards))  # [NAME[c] for c in cards], without a comprehension's function
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def card_list(cards: list[str]) -> str:
    return _list(cards) if cards else "nothing"


def owner_on_table(state: dict, card: str) -> int | None:
    for seat, table in enumerate(state["tables"]):
        if card in table:
            return seat
    return None


def in_play_anywhere(state: dict, card: str) -> bool:
    return owner_on_table(state, card) is not None


def pools(state: dict) -> list[str]:
    return [c for frame in state["effects"] for c in frame.get("pool", ())]


def every_card(state: dict) -> list[str]:
    """All cards in every zone (the conservation check compares this with the deck)."""
    out = state["draw"] + state["discard"] + state["rules"] + state["goals"] + state["limbo"] + pools(state)
    for hand in state["hands"]:
        out += hand
    for table in state["tables"]:
        out += table
    return out


def deck_cards(state: dict) -> list[str]:
    """Every card of the deck ``state`` was dealt from, but the Basic Rules."""
    return list(DECKS[deck_of(state)])
