"""Shared helpers for the Fluxx rules tests: arrange a table, act, answer, check invariants.

Arranging moves cards between zones (never creates or drops one), so every arranged state
still holds the whole deck exactly once.

Games are dealt from the deck a test module names in ``DECK`` (tests/rules/fluxx/conftest.py
sets it for each test), the current deck by default: the modules written before the printed
deck keep testing the legacy one, which games stored on it still play.
"""
from __future__ import annotations

import json

from games.rules import decisions
from games.rules.fluxx import MontyPythonFluxx
from games.rules.fluxx.cards import CURRENT, DECKS, LEGACY, deck_of
from games.rules.fluxx.current_rules import draw_count
from games.rules.fluxx.free_actions import ON_LANDING
from games.rules.fluxx.zones import every_card

GAME = MontyPythonFluxx()
_deck = [CURRENT]  # the deck new_game deals from (set per test module by conftest.py)


def use_deck(deck: str) -> None:
    _deck[0] = deck


def dealt_from() -> str:
    return _deck[0]


def new_game(players: int = 3, seed: int = 7, **options) -> dict:
    """A game as the room sets one up: on the printed deck, The Catapult's landing is looked
    at ("fling", games/kinds/fluxx/__init__.py); a legacy deck's game is a stored one."""
    deck = options.pop("deck", _deck[0])
    room = {"fling": ON_LANDING} if deck != LEGACY else {}
    return GAME.setup(players, {"deck": deck, **room, **options}, seed)


def _take(state: dict, card: str) -> None:
    for pile in [state["draw"], state["discard"], state["rules"], state["goals"], state["limbo"],
                 *state["hands"], *state["tables"]]:
        if card in pile:
            pile.remove(card)
            return
    raise AssertionError(f"{card} is nowhere")


def give(state: dict, seat: int, *cards: str) -> dict:
    for card in cards:
        _take(state, card)
        state["hands"][seat].append(card)
    return state


def put(state: dict, seat: int, *cards: str) -> dict:
    """Keepers or Creepers on ``seat``'s table."""
    for card in cards:
        _take(state, card)
        state["tables"][seat].append(card)
    return state


def rules(state: dict, *cards: str) -> dict:
    for card in cards:
        _take(state, card)
        state["rules"].append(card)
    return state


def goals(state: dict, *cards: str) -> dict:
    for card in cards:
        _take(state, card)
        state["goals"].append(card)
    return state


def discard(state: dict, *cards: str) -> dict:
    for card in cards:
        _take(state, card)
        state["discard"].append(card)
    return state


def stack(state: dict, *cards: str) -> dict:
    """The next draws, in order: ``cards[0]`` is drawn first."""
    for card in cards:
        _take(state, card)
    state["draw"].extend(reversed(cards))
    return state


def empty_hand(state: dict, seat: int) -> dict:
    state["draw"][:0] = state["hands"][seat]  # to the bottom of the draw pile
    state["hands"][seat] = []
    return state


def empty_table(state: dict, seat: int) -> dict:
    state["draw"][:0] = state["tables"][seat]
    state["tables"][seat] = []
    return state


def clear(state: dict) -> dict:
    """Every player's hand and table emptied (into the draw pile); no rules, no goals."""
    for seat in range(len(state["active"])):
        empty_hand(state, seat)
        empty_table(state, seat)
    state["draw"][:0] = state["rules"] + state["goals"]
    state["rules"], state["goals"] = [], []
    return state


def on_turn(state: dict, seat: int, drawn: bool = True) -> dict:
    """Make it the start of ``seat``'s turn, its draw already taken (``drawn``) or not."""
    state["turn"] = {"seat": seat, "number": state["turn"]["number"], "phase": "play",
                     "drawn": draw_count(state, seat) if drawn else 0, "played": 0, "used": [],
                     "quoted": False, "sang": False, "accent": False}
    return state


def table_for(players=3, seat=0, seed=7, **options) -> dict:
    """A cleared table, ``seat`` to play with its draw taken."""
    return on_turn(clear(new_game(players, seed, **options)), seat)


def act(state: dict, seat: int, move: dict):
    new, events = GAME.apply(state, seat, move)
    check_invariants(new)
    return new, events


def play(state: dict, seat: int, card: str, **extra):
    return act(state, seat, {"type": "play", "card": card, **extra})


def open_decision(state: dict, seat: int) -> dict:
    mine = decisions.open_for(state, seat)
    assert mine, f"seat {seat} has no open decision"
    return mine[0]


def decide(state: dict, seat: int, choice):
    d = open_decision(state, seat)
    return act(state, seat, {"type": "decide", "id": d["id"], "choice": choice})


def names(events) -> str:
    return " | ".join(e.text for e in events)


_SORTED = {deck: sorted(cards) for deck, cards in DECKS.items()}


def check_invariants(state: dict, deep: bool = True) -> None:
    """What must hold after every step of every game (``deep`` adds the JSON round trip)."""
    assert sorted(every_card(state)) == _SORTED[deck_of(state)], "a card was lost or doubled"
    if deep:
        assert json.loads(json.dumps(state)) == state, "the state must be plain JSON data"
    for seat, on in enumerate(state["active"]):
        if not on:
            assert state["hands"][seat] == [] and state["tables"][seat] == []
    if state["result"] is None:
        assert GAME.pending(state), "an unfinished game must wait for someone"
        for p in GAME.pending(state):
            assert GAME.legal_moves(state, p.seat), f"seat {p.seat} must act but has no legal move"
    else:
        assert GAME.pending(state) == [] and "decisions" not in state and not state["effects"]
