"""A test-only game with secret hands whose cards are unmistakable strings, so a test can
search HTML, JSON and websocket frames for them."""
from games.rules.base import Event, Game, IllegalMove, Outcome, Pending
from games.rules.rng import Rng, new_rng_state


class SecretHand(Game):
    kind = "secret"
    name = "Secret Hand (test)"
    min_players = 2
    max_players = 3

    def setup(self, players, options, seed):
        state = {"rng": new_rng_state(seed), "turn": 0, "table": [], "done": False,
                 "deck": [f"SECRETCARD-{n:03d}" for n in range(40)], "hands": [[] for _ in range(players)]}
        Rng(state["rng"]).shuffle(state["deck"])
        for hand in state["hands"]:
            for _ in range(3):
                hand.append(state["deck"].pop())
        return state

    def legal_moves(self, state, seat):
        if seat != state["turn"] or state["done"]:
            return []
        return [{"type": "play", "card": c} for c in state["hands"][seat]] + [{"type": "finish"}]

    def _apply(self, state, seat, move):
        if seat != state["turn"]:
            raise IllegalMove("It is not your turn.")
        if move["type"] == "finish":
            state["done"] = True
            return [Event("end", "The game ends.")]
        if move["type"] != "play" or move.get("card") not in state["hands"][seat]:
            raise IllegalMove("You do not hold that card.")
        state["hands"][seat].remove(move["card"])
        state["table"].append(move["card"])
        drawn = state["deck"].pop()
        state["hands"][seat].append(drawn)
        state["turn"] = (seat + 1) % len(state["hands"])
        return [Event("play", f"Seat {seat + 1} plays {move['card']}."),
                Event("draw", f"You draw {drawn}.", audience=(seat,))]

    def view_for(self, state, seat):
        return {"turn": state["turn"], "table": state["table"], "deck_count": len(state["deck"]),
                "hand_counts": [len(h) for h in state["hands"]],
                "my_hand": state["hands"][seat] if seat is not None else None}

    def outcome(self, state):
        return Outcome(reason="finished") if state["done"] else None

    def pending(self, state):
        return [] if state["done"] else [Pending(state["turn"])]

    def timeout_move(self, state, seat):
        return {"type": "play", "card": state["hands"][seat][0]}

    def _resign(self, state, seat):
        state["done"] = True
        return [Event("resign", f"Seat {seat + 1} resigns.")]


def secrets_of(state, seat) -> list[str]:
    """Every card the given seat must not see: other hands and the deck."""
    hidden = list(state["deck"])
    for other, hand in enumerate(state["hands"]):
        if other != seat:
            hidden.extend(hand)
    return hidden
