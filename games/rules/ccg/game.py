"""MPHGGame: the Monty Python and the Holy Grail CCG behind the common rules contract."""
from __future__ import annotations

import marshal

from ..base import Event, Game, IllegalMove, Outcome, Pending
from ..offered import Text
from . import ante, flow, moves_apply, moves_listing, setup as setup_mod, turns, view
from . import state as S
from .cards import MAX_QUOTE

# The words a player says with a move (a quote read out, the run-away shout) are theirs:
# compared with the card's by their words alone (moves_apply.same_words), so any text is
# taken, up to twice the longest quote a card may print.
MAX_SAID = 2 * MAX_QUOTE

# The site's own move when a computer player takes a seat whose person left (``takeover_move``).
HAND_OVER = {"type": "hand_over"}


def fast_copy(x):
    """A deep copy of plain JSON data. marshal (standard library, in memory, no I/O) copies
    dicts, lists, strings and numbers exactly and is about five times faster than
    copy.deepcopy on this state (see bench/ccg_engine.py)."""
    return marshal.loads(marshal.dumps(x, 2))  # version 2 (no back-references) loads faster


# Parts of the state fixed at set-up (card definitions, instance codes and owners): the
# engine never changes them, so successive states share them instead of copying.
_FIXED = ("cards", "inst", "own")


def copy_for_move(state):
    """The state a move will change: everything copied but the fixed parts (shared) and
    the areas, which the new state shares until the move reaches one (``S.COW``)."""
    light = state.copy()
    for k in _FIXED:
        del light[k]
    del light["avalon"]
    players = light["p"] = [p.copy() for p in state["p"]]
    for p in players:
        del p["england"]
    new = fast_copy(light)
    for p, old in zip(new["p"], state["p"]):
        p["england"] = list(old["england"])
    new["avalon"] = list(state["avalon"])
    for k in _FIXED:
        new[k] = state[k]
    new[S.COW] = set()
    return new


class MPHGGame(Game):
    kind = "ccg"
    name = "Monty Python and the Holy Grail CCG"
    min_players = 2
    max_players = 4
    option_schema: dict = {}  # the shell passes decks and table facts; see setup.validate_options
    strict_versions = False  # opponents answer a doubled ante at the same time (see pending)
    wait_words = {"turn": "move", "cut": "cut a deck for the ante", "response": "answer a response window",
                  "offer": "answer an offer to double the ante", "balance": "discard down to the hand limit",
                  "choice": "make a choice"}
    fixed_keys = _FIXED
    # The words said with a move are the player's own (see Game.free_fields and MAX_SAID);
    # a play lists its quote only where the card has one, so only there may a quote be sent.
    free_fields = {"play": {"quote": Text(MAX_SAID)}, "run_away": {"shout": Text(MAX_SAID)}}
    view_lasting = ("cards",)  # definitions by code (view.py): a page keeps them

    def setup(self, players, options, seed):
        return setup_mod.setup(players, dict(options or {}), seed)

    def apply(self, state, seat, move):
        """As Game.apply, but the parts fixed at set-up are shared, not copied."""
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise IllegalMove("A move must be an object with a 'type'.")
        if self.outcome(state) is not None:
            raise IllegalMove("The game is over.")
        if not isinstance(seat, int) or not 0 <= seat < state["n"]:
            raise IllegalMove("There is no such seat.")
        new = copy_for_move(state)
        try:
            if move["type"] == "resign":
                events = self._resign(new, seat)
            elif move["type"] == HAND_OVER["type"]:
                events = self._hand_over(new, seat, move)
            else:
                events = self._apply(new, seat, move)
        finally:
            del new[S.COW]
        # Every applied move is counted: the pending keys below are made from the count.
        new["changes"] = state.get("changes", 0) + 1
        return new, events

    def _apply(self, state, seat, move):
        events: list[Event] = []
        moves_apply.apply(state, seat, move, events)
        return events

    def legal_moves(self, state, seat):
        # Listed with their words (the quote of a face-up play, the run-away shout), so a
        # client may post any listed move back exactly as listed (docs/api.md).
        return [with_words(state, m) for m in moves_listing.legal(state, seat)]

    def offered_candidates(self, state, seat, move):
        # Only the moves of the move's type (a play's: of its card and area), as checking a
        # move lists them (moves_listing.candidates, a fraction of the whole listing's cost),
        # with their words as legal_moves lists them.
        if type(seat) is not int or not 0 <= seat < state["n"]:
            return []
        if move["type"] == "play" and type(move.get("card")) is not int:
            # Cards in hand are numbers. The narrowed listing is built from the card the
            # move names, so a play naming ``true`` or ``14.0`` (equal to 1 and 14 in
            # Python) would come back naming it too: no listed play names anything else.
            return []
        return [with_words(state, m) for m in moves_listing.candidates(state, seat, move)]

    def _resign(self, state, seat):
        events: list[Event] = []
        if state["phase"] == "cut":
            # Before the game begins nothing is at stake: the others win, antes go home.
            others = [s for s in range(state["n"]) if s != seat]
            turns.finish(state, events, winners=tuple(others), reason=f"Seat {seat + 1} resigned before the game began.",
                         ante="returned")
            state["p"][seat]["out"] = "resigned"
            return events
        turns.defeat(state, seat, events, "resigned")
        flow.advance(state, events)
        return events

    def takeover_move(self, state, seat):
        """The site hands a seat to a computer player for the rest of the game (its person
        left it): from then on it stakes nothing (``S.stakes_nothing``). Recorded as a move of
        the site's own, so the game replays with it; no player is ever offered it."""
        if state["result"] is not None or state["p"][seat]["out"] or S.stakes_nothing(state, seat):
            return None
        return dict(HAND_OVER)

    def _hand_over(self, state, seat, move):
        if move != HAND_OVER:
            raise IllegalMove("A hand-over carries nothing but its type.")
        if state["p"][seat]["out"]:
            raise IllegalMove("That seat is out of the game.")
        if S.stakes_nothing(state, seat):
            raise IllegalMove("That seat is played by a computer already.")
        state["stakes_nothing"] = sorted([*state.get("stakes_nothing", ()), seat])
        mine = sum(1 for i in state["ante"] if state["own"][i] == seat)
        kept = ("it has no card in the ante" if not mine else "its 1 card in the ante stays there" if mine == 1
                else f"its {mine} cards in the ante stay there")
        return [Event("hand_over", f"Seat {seat + 1} is played by a computer from now on: {kept}, and it stakes "
                                   "nothing more, so it neither doubles the ante nor accepts a double, and finding "
                                   "the Grail would win it the game but no cards.", data={"seat": seat})]

    def view_for(self, state, seat):
        return view.view_for(state, seat)

    def views_for(self, state, seats):
        return view.views_for(state, seats)

    def outcome(self, state):
        r = state["result"]
        if r is None:
            return None
        return Outcome(winners=tuple(r["winners"]), draw=r["draw"], reason=r["reason"])

    def pending(self, state):
        """Who must act, keyed for the shell's per-seat stale guard (strict_versions False):
        a turn, a response window or a choice is "the same decision" only while nothing
        changed (any move, a face-up play out of turn included, makes an older move stale,
        and restarts that seat's per-move clock); the answerers of a doubled ante (16.2)
        face one offer however the others answer, so opponents accepting at the same time
        all apply."""
        if state["result"] is not None:
            return []
        now = str(state.get("changes", 0))
        if not state["steps"]:
            return [Pending(state["turn"], "turn", now)]
        step = state["steps"][-1]
        k = step["k"]
        if k == "response":
            return [Pending(step["order"][step["i"]], "response", now)]
        if k == "offer":
            offer = f"{state['tn']}:{step['from']}"
            return [Pending(s, "offer", offer) for s in step["wait"]]
        return [Pending(step["seat"], k, now)]

    def timeout_move(self, state, seat):
        """What a passed deadline does (docs/rules/ccg.md, 'Timeouts')."""
        if not state["steps"]:
            # An adversary that must be faced: run away once; if that leads into another,
            # fight it with the first lead offered; otherwise end the turn.
            p = state["p"][seat]
            if moves_listing.must_dispute(state, seat):
                if not p["ran"]:
                    opts = moves_listing.run_away_moves(state, seat)
                    return dict(opts[0], shout=moves_apply.RUN_AWAY_SHOUT)
                return moves_listing.fight_moves(state, seat)[0]
            return {"type": "end_turn"}
        step = state["steps"][-1]
        k = step["k"]
        if k == "cut":
            return {"type": "cut", "at": len(state["p"][ante.cut_target(state, seat)]["deck"]) // 2}
        if k == "response":
            return {"type": "pass"}
        if k == "offer":
            return {"type": "concede"}  # 16.2 leaves no third way
        if k == "balance" or step.get("what") == "discard":
            return {"type": "discard", "card": state["p"][seat]["hand"][-1]}
        if step["what"] == "reveal":
            return {"type": "choose", "option": "ignore"}
        return {"type": "choose", "option": step["options"][0]}

    def seats_out(self, state):
        if state["result"] is not None:
            return {}
        return {s: turns.out_why(p) for s, p in enumerate(state["p"]) if p["out"]}

    def ending_notes(self, state, seat):
        return ante.ending_words(state, seat)

    def describe_move(self, move, state=None):
        t = move.get("type", "?")
        if t == "play":
            where = move.get("to")
            return f"plays a card{' face down' if move.get('face') == 'down' else ''}" + (f" to {where}" if where else "")
        return {"move": f"moves to {move.get('to') or 'the Round Table Area'}", "fight": f"disputes by {move.get('method')}",
                "end_turn": "ends the turn" + (" and doubles the ante" if move.get("double") else ""),
                "run_away": "runs away", "pass": "passes", "cut": f"cuts at {move.get('at')}",
                "accept": "accepts the doubled ante", "concede": "concedes rather than double the ante",
                "discard": "discards a card", "choose": "takes a choice" if move.get("option") != "ignore"
                else "lets the revealed card be", "search": "searches for the Grail",
                "give_up": "gives up the search", "call_draw": "calls the game a draw",
                "resign": "resigns", "hand_over": "is handed to a computer player"}.get(t, t.replace("_", " "))


def ante_result(state):
    return ante.ante_result(state)


def with_words(state, move):
    """A move with the words the rules want said: a face-up play's quote (4.2), the
    run-away shout. The engine's own listings carry no words (checking strips them, see
    ``moves_check.canonical``); ``legal_moves`` adds them here, so a listed move is playable
    exactly as listed, and the board shows the same words on its buttons."""
    if move.get("type") == "play" and move.get("face") != "down":
        q = S.card(state, move["card"]).get("quote") or ""
        return dict(move, quote=q) if q else move
    if move.get("type") == "run_away":
        return dict(move, shout=moves_apply.RUN_AWAY_SHOUT)
    return move
