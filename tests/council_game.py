"""A test-only game where every seat owes a move at once: each round every councillor votes
(one decision each on the shared decision stack), and any of them may meanwhile take a token
from a small common pool. It exercises what Camelot's two turn holders and Fluxx's collective
discards need from the shell: seats acting at the same time, each on its own decision."""
from games.rules import decisions
from games.rules.base import Event, Game, IllegalMove, Outcome

ROUNDS = 3


class Council(Game):
    kind = "council"
    name = "Council (test)"
    min_players = 2
    max_players = 4
    strict_versions = False
    option_schema = {"tokens": {"type": "int", "default": 1, "min": 0, "max": 9, "label": "Tokens in the pool"}}

    def setup(self, players, options, seed):
        options = self.options_with_defaults(options)
        state = {"players": players, "round": 0, "paused": False, "pool": options["tokens"], "tokens": [0] * players,
                 "votes": [[] for _ in range(players)], "over": False}
        _open_round(state)
        return state

    def legal_moves(self, state, seat):
        if state["paused"]:
            return [{"type": "resume"}]
        moves = decisions.moves(state, seat)
        if moves and state["pool"] > 0:
            moves.append({"type": "take"})
        return moves + [{"type": "pause"}]

    def _apply(self, state, seat, move):
        if move["type"] in ("pause", "resume"):  # any councillor stops or restarts every clock
            state["paused"] = move["type"] == "pause"
            return [Event(move["type"], f"Seat {seat + 1} calls {move['type']}.")]
        if state["paused"]:
            raise IllegalMove("The council is paused.")
        if move["type"] == "take":
            if not decisions.open_for(state, seat):
                raise IllegalMove("You have already voted this round.")
            if state["pool"] <= 0:
                raise IllegalMove("The pool is empty.")
            state["pool"] -= 1
            state["tokens"][seat] += 1
            return [Event("take", f"Seat {seat + 1} takes a token.")]
        if move["type"] != decisions.DECIDE:
            raise IllegalMove("Vote or take a token.")
        frame = decisions.answer(state, seat, move)
        events = [Event("vote", f"Seat {seat + 1} votes.")]
        if frame is not None:
            for d in frame:
                state["votes"][d["seat"]].append(d["answer"])
            events.append(Event("round", f"Round {state['round']} is counted."))
            if state["round"] >= ROUNDS:
                state["over"] = True
            else:
                _open_round(state)
        return events

    def view_for(self, state, seat):
        return {"round": state["round"], "pool": state["pool"], "tokens": state["tokens"],
                "decisions": decisions.view(state, seat)}

    def clocks_paused(self, state):
        return state["paused"]

    def outcome(self, state):
        return Outcome(reason="The council has voted.") if state["over"] else None

    def pending(self, state):
        return decisions.pending(state)

    def timeout_move(self, state, seat):
        return decisions.default_move(state, seat)

    def _resign(self, state, seat):
        state["over"] = True
        return [Event("resign", f"Seat {seat + 1} leaves the council.")]


def _open_round(state):
    state["round"] += 1
    decisions.push(state, [dict(seat=s, kind="vote", prompt="Your vote?", public=f"Seat {s + 1} is voting.",
                                options=[{"value": v, "label": str(v)} for v in (1, 2, 3)], default=1)
                           for s in range(state["players"])])
