"""A test-only game whose result the test chooses: seat 1 (index 0) declares the winners (or
a draw) and the game ends. It lets rating tests play 2- to 6-player games to any result; a
resign ends it with every other seat winning, and the timeout move is a resign."""
from games.rules.base import Event, Game, IllegalMove, Outcome, Pending
from games.rules.offered import SubsetOfListed


class Flag:
    """A free field that is true or false (a declared draw)."""

    def refusal(self, name, value, state, seat, move, listed):
        return None if type(value) is bool else f"'{name}' is true or false."


class Podium(Game):
    kind = "podium"
    name = "Podium (test)"
    min_players = 2
    max_players = 6
    # The result is the test's to choose: any set of winners (none for a draw), in any order.
    free_fields = {"end": {"winners": SubsetOfListed(least=0), "draw": Flag()}}

    def setup(self, players, options, seed):
        return {"players": players, "winners": None, "draw": False}

    def legal_moves(self, state, seat):
        if seat != 0 or state["winners"] is not None:
            return []
        return [{"type": "end", "winners": [w], "draw": False} for w in range(state["players"])]

    def _apply(self, state, seat, move):
        if seat != 0 or move["type"] != "end":
            raise IllegalMove("Only seat 1 ends the game.")
        winners = move.get("winners") or []
        if not isinstance(winners, list) or not all(isinstance(w, int) and 0 <= w < state["players"] for w in winners):
            raise IllegalMove("Winners are seat indexes.")
        state["winners"], state["draw"] = sorted(set(winners)), bool(move.get("draw"))
        return [Event("end", "The podium is decided.")]

    def view_for(self, state, seat):
        return dict(state)

    def outcome(self, state):
        if state["winners"] is None:
            return None
        return Outcome(winners=tuple(state["winners"]), draw=state["draw"], reason="declared")

    def pending(self, state):
        return [] if state["winners"] is not None else [Pending(0)]

    def timeout_move(self, state, seat):
        return {"type": "resign"}

    def _resign(self, state, seat):
        state["winners"] = [s for s in range(state["players"]) if s != seat]
        return [Event("resign", f"Seat {seat + 1} resigns.")]
