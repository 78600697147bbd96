"""Grail Duel: a small two-player game with secret hands.

It is the platform's own test game (hidden hands, a shuffled deck, turns, timeouts) and a
quick game for new players. A deck of sixteen grail numbers (0-7, two of each) is
shuffled; each player holds three. On your turn you lay one card face up and draw a
replacement. After each player has laid ``rounds`` cards, the higher total wins.
"""
from __future__ import annotations

from ..base import Event, Game, IllegalMove, Outcome, Pending
from ..rng import Rng, new_rng_state

HAND_SIZE = 3


class GrailDuel(Game):
    kind = "duel"
    name = "Grail Duel"
    min_players = 2
    max_players = 2
    option_schema = {"rounds": {"type": "int", "default": 4, "min": 1, "max": 6}}

    def setup(self, players, options, seed):
        options = self.options_with_defaults(options)
        if players != 2:
            raise ValueError("Grail Duel is for two players.")
        state = {"rng": new_rng_state(seed), "rounds": options["rounds"], "turn": 0,
                 "deck": [n for n in range(8) for _ in range(2)],
                 "hands": [[], []], "played": [[], []], "resigned": None}
        Rng(state["rng"]).shuffle(state["deck"])
        for seat in (0, 1):
            for _ in range(HAND_SIZE):
                state["hands"][seat].append(state["deck"].pop())
        return state

    def legal_moves(self, state, seat):
        if self.outcome(state) is not None or seat != state["turn"]:
            return []
        return [{"type": "play", "card": c} for c in sorted(set(state["hands"][seat]))]

    def _apply(self, state, seat, move):
        if seat != state["turn"]:
            raise IllegalMove("It is not your turn.")
        if move["type"] != "play":
            raise IllegalMove(f"Unknown move '{move['type']}'.")
        card = move.get("card")
        if card not in state["hands"][seat]:
            raise IllegalMove("You do not hold that card.")
        state["hands"][seat].remove(card)
        state["played"][seat].append(card)
        events = [Event("play", f"Seat {seat + 1} lays a {card}.", data={"seat": seat, "card": card})]
        if state["deck"]:
            drawn = state["deck"].pop()
            state["hands"][seat].append(drawn)
            events.append(Event("draw", f"You draw a {drawn}.", audience=(seat,), data={"card": drawn}))
            events.append(Event("draw", f"Seat {seat + 1} draws a card.", hidden_from=(seat,)))
        state["turn"] = 1 - seat
        result = self.outcome(state)
        if result is not None:
            events.append(Event("end", result.reason))
        return events

    def _resign(self, state, seat):
        state["resigned"] = seat
        return [Event("resign", f"Seat {seat + 1} resigns.")]

    def view_for(self, state, seat):
        return {
            "rounds": state["rounds"],
            "turn": state["turn"],
            "played": state["played"],
            "totals": [sum(p) for p in state["played"]],
            "hand_counts": [len(h) for h in state["hands"]],
            "deck_count": len(state["deck"]),
            "my_hand": sorted(state["hands"][seat]) if seat is not None else None,
        }

    def outcome(self, state):
        if state["resigned"] is not None:
            return Outcome(winners=(1 - state["resigned"],), reason=f"Seat {state['resigned'] + 1} resigned.")
        if any(len(p) < state["rounds"] for p in state["played"]):
            return None
        a, b = (sum(p) for p in state["played"])
        if a == b:
            return Outcome(draw=True, reason=f"Both totals are {a}: a draw.")
        winner = 0 if a > b else 1
        return Outcome(winners=(winner,), reason=f"Seat {winner + 1} wins, {max(a, b)} to {min(a, b)}.")

    def pending(self, state):
        return [] if self.outcome(state) is not None else [Pending(state["turn"])]

    def timeout_move(self, state, seat):
        # A player who lets the clock run out lays their lowest card.
        return {"type": "play", "card": min(state["hands"][seat])}

    def describe_move(self, move, state=None):
        return f"lays a {move.get('card')}" if move.get("type") == "play" else move.get("type", "?")
