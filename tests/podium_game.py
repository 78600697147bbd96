"""A test-only game whose result the test chooses: the first seat still in (seat 1, unless it
resigned) declares the winners (or a draw) and the game ends. It lets rating tests play 2- to
6-player games to any result. Any seat still in may "say" something at any time: a move of
its own that changes nothing, so a test can give every person a move (the ratings count only
games where everyone moved). A resign puts a seat out of a game that goes on; when one seat
is left it wins. The timeout move is a resign."""
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
        return {"players": players, "winners": None, "draw": False, "out": []}

    @staticmethod
    def _declarer(state):
        return next(s for s in range(state["players"]) if s not in state.get("out", []))

    def legal_moves(self, state, seat):
        if state["winners"] is not None or seat is None or seat in state.get("out", []):
            return []
        said = [{"type": "say"}]
        if seat != self._declarer(state):
            return said
        return said + [{"type": "end", "winners": [w], "draw": False} for w in range(state["players"])]

    def _apply(self, state, seat, move):
        if seat in state.get("out", []):
            raise IllegalMove("That seat is out.")
        if move["type"] == "say":
            return [Event("say", f"Seat {seat + 1} says something.")]
        if seat != self._declarer(state) or move["type"] != "end":
            raise IllegalMove("Only the first seat still in ends the game.")
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
        return [] if state["winners"] is not None else [Pending(self._declarer(state))]

    def seats_out(self, state):
        if state["winners"] is not None:
            return {}
        return {s: "resigned" for s in state.get("out", [])}

    def timeout_move(self, state, seat):
        return {"type": "resign"}

    def _resign(self, state, seat):
        state.setdefault("out", []).append(seat)
        left = [s for s in range(state["players"]) if s not in state["out"]]
        if len(left) == 1:
            state["winners"] = left
        return [Event("resign", f"Seat {seat + 1} resigns.")]


def everyone_moves(match) -> None:
    """Every person at the table who has made no move of their own yet says something: the
    ratings count only games where everyone moved (games/players/ratings.py)."""
    from games.models import Seat
    from games.table import services

    for seat in Seat.objects.filter(match=match, user__isnull=False, accepted=True, own_moves=0).select_related("user"):
        services.move_submit(match_id=match.pk, user=seat.user, move={"type": "say"}, version=None)
