"""Monty Python Fluxx: the card game whose rules are cards.

Moves (``legal_moves`` lists every one that may be made now):

- ``{"type": "play", "card": id}`` plays a card from your hand; with the "What Is Your
  Quote?" rule in play add ``"quote": "..."`` for a bonus card, judged by the other
  players (a game stored before quotes were judged: the quote must name the card);
- ``{"type": "power", "card": keeper, "target": card, ["to": seat]}`` uses a Keeper's power;
- ``{"type": "get_on_with_it"}``, ``{"type": "swap_plays"}`` free actions of those rules;
- ``{"type": "sing", "song": ..., "words": ...}``, ``{"type": "accent", "accent": ...,
  "words": ...}`` claims judged by the other players;
- ``{"type": "end_turn"}`` once the plays are done, while optional actions remain;
- ``{"type": "decide", "id": ..., "choice": ...}`` answers a decision (games/rules/decisions.py);
- ``{"type": "resign"}`` leaves the game.

The engine's parts: ``cards`` (the deck and its vocabulary), ``current_rules`` (numbers
read from the rules in play), ``zones`` (drawing), ``effects`` (resolving a played card)
with ``frames`` (the effect stack's helpers) and ``actions`` (one function per Action),
``limits``, ``turn``, ``free_actions``, ``goals``, ``engine`` (the loop that carries the game
forward), ``view``, ``state_copy``. Every digital choice is in docs/rules/fluxx.md.
"""
from __future__ import annotations

from functools import lru_cache

from .. import decisions
from ..base import Event, Game, IllegalMove, Outcome, Pending
from ..offered import Text
from ..rng import Rng, new_rng_state
from . import engine, free_actions, turn
from .cards import CURRENT, DECKS, LEGACY, NAME, TYPE, is_card
from .current_rules import reading
from .frames import play_card, push
from .state_copy import copy_state
from .view import build_view
from .zones import SEAT_NAMES, draw_for, new_event, own, own_at, seat_name

HAND_SIZE = 3  # dealt at the start and to a player who joins later (the rulebook's number)
_PLAY_MOVE = {"type": "play", "card": None}  # copied by legal_moves, never handed out itself


class MontyPythonFluxx(Game):
    kind = "fluxx"
    name = "Monty Python Fluxx"
    min_players = 2
    max_players = 6
    strict_versions = False  # several players discard at once (see base.Game.strict_versions)
    # The player's own words (see Game.free_fields): a quote with a play (listed with the
    # card's name while the quote rule is open), a song or an accent claimed (listed with
    # empty words); and any answer within a decision's bounds (a big one lists only its
    # default).
    free_fields = {"play": {"quote": Text(free_actions.MAX_WORDS)},
                   "sing": {"song": Text(free_actions.MAX_WORDS), "words": Text(free_actions.MAX_WORDS)},
                   "accent": {"accent": Text(free_actions.MAX_WORDS), "words": Text(free_actions.MAX_WORDS)},
                   "decide": {"choice": decisions.Answer()}}
    wait_words = {
        "turn": "move", "discard": "discard down to the Hand Limit",
        "discard_keepers": "discard Keepers down to the Keeper Limit", "discard_any": "choose cards to throw away",
        "judge": "judge whether a quote counts", "choose_card": "choose a card", "choose_player": "choose a player",
        "choose_rule": "choose a New Rule", "choose_rules": "choose New Rules to discard",
        "choose_direction": "choose a direction", "give_card": "choose a card to give away",
        "use_card": "choose which card to play next", "replace_goal": "choose the Goal to replace",
        "keep_goal": "choose the Goal to keep"}
    option_schema = {
        # A safety net, not a tactic: a game nobody has won after this many turns is a draw.
        "turn_cap": {"type": "int", "default": 300, "min": 20, "max": 5000, "label": "Turn limit",
                     "help": "If nobody has won after this many turns, the game is a draw."},
        "late_joiners": {"type": "bool", "default": True, "label": "Players may join a running game",
                         "help": "A newcomer is dealt three cards and sits last in the turn order."},
    }
    newcomer_option = "late_joiners"  # what add_seat asks first

    # --- setting up ---------------------------------------------------------------

    def setup(self, players, options, seed):
        # "deck" is not a table option (nobody chooses the legacy deck for a new game): the
        # room writes the current deck into a new game's setup options, and a game stored
        # before the printed deck has the legacy one there (migration 0013), so each replays
        # from the deck it was dealt.
        options = dict(options or {})
        deck = options.pop("deck", CURRENT)
        if deck not in DECKS:
            raise ValueError(f"Unknown deck {deck!r}: one of {', '.join(sorted(DECKS))}.")
        # Likewise "quotes": judged by the other players in a new game; a game stored before
        # that has "checked" in its setup options (migration 0017; a legacy deck's game is
        # always one of those) and replays as it was played.
        quotes = options.pop("quotes", free_actions.CHECKED if deck == LEGACY else free_actions.JUDGED)
        if quotes not in (free_actions.JUDGED, free_actions.CHECKED):
            raise ValueError(f"Unknown quotes {quotes!r}: judged or checked.")
        # And "fling": a game looks at the Goals as The Catapult's Keeper lands when its setup
        # options say "on_landing", which the room writes into a new game's. Without it, only
        # after the throwing away, as every game stored before did: their setup options do
        # not say, and their states (no "fling" key) replay exactly as stored, no migration.
        fling = options.pop("fling", free_actions.AFTER_DISCARD)
        if fling not in (free_actions.ON_LANDING, free_actions.AFTER_DISCARD):
            raise ValueError(f"Unknown fling {fling!r}: on_landing or after_discard.")
        options = self.options_with_defaults(options)
        if not self.min_players <= players <= self.max_players:
            raise ValueError("Monty Python Fluxx is for two to six players.")
        state = {
            "options": options, "rng": new_rng_state(seed),
            "active": [True] * players, "hands": [[] for _ in range(players)],
            "tables": [[] for _ in range(players)], "turns_taken": [0] * players, "accents": [None] * players,
            "draw": list(DECKS[deck]), "discard": [], "rules": [], "goals": [], "limbo": [], "effects": [],
            "extra_turns": 0, "songs": [], "tie": [], "result": None,
        }
        if deck != LEGACY:
            # A legacy game's state has no "deck" (cards.deck_of): exactly the state it
            # had when it was stored, so stored snapshots still equal their replays.
            state["deck"] = deck
        if quotes == free_actions.JUDGED:
            state["quotes"] = quotes  # absent: checked, as every state stored before had it
        if fling == free_actions.ON_LANDING:
            state["fling"] = fling  # absent: after the discard, as every state stored before
        rng = Rng(state["rng"])
        rng.shuffle(state["draw"])
        events: list = []
        for _ in range(HAND_SIZE):  # one at a time round the table
            for seat in range(players):
                state["hands"][seat].append(state["draw"].pop())
        for seat in range(players):
            _replace_creepers(state, seat, events)
        # The rulebook leaves the first player to the table: the generator picks, for all to see.
        state["first"] = rng.below(players)
        turn.start(state, state["first"], 1, events)
        engine.settle(state, events)
        return state

    def opening_events(self, state):
        """The log's first lines (the shell stores them with the game's first record): each
        Creeper dealt, which went on its player's table and was replaced during the deal ("You
        were dealt ..." to its player, "Seat 2 was dealt ..." to everyone else: a Creeper on the
        table is public; the card drawn in its place stays in the hand), then who goes first:
        "You go first." to that player, "Seat 3 goes first." to everyone else.

        Read from the state ``setup`` made: at the start the only cards on the tables are the
        Creepers the deal put there (its own events are not kept: ``setup`` returns a state)."""
        events = []
        for seat, table in enumerate(state["tables"][:len(state["hands"])]):
            for card in table:
                if TYPE.get(card) != "creeper":
                    continue
                data = {"seat": seat, "card": card}
                events.append(Event("creeper", f"You were dealt {NAME[card]}, a Creeper: it goes on your table, and "
                                               "you draw a card in its place.", audience=(seat,), data=data))
                events.append(Event("creeper", f"{seat_name(seat)} was dealt {NAME[card]}, a Creeper: it goes on "
                                               "their table, and they draw a card in its place.",
                                    data=data, hidden_from=(seat,)))
        first = state["first"]
        return events + [Event("first", "You go first.", audience=(first,), data={"seat": first}),
                         Event("first", f"{seat_name(first)} goes first.", data={"seat": first}, hidden_from=(first,))]

    def add_seat(self, state):
        """A newcomer joins a running game: dealt three cards (Creepers replaced), seated
        last in the turn order. Pure: returns ``(new_state, events)``."""
        if state["result"] is not None:
            raise IllegalMove("The game is over.")
        if not state["options"]["late_joiners"]:
            raise IllegalMove("This table does not take players once the game has begun.")
        if sum(state["active"]) >= self.max_players or len(state["active"]) >= self.max_players:
            raise IllegalMove("The table is full.")
        new = copy_state(state)
        seat = len(new["active"])
        for key, empty in (("active", True), ("turns_taken", 0), ("accents", None)):
            own(new, key).append(empty)
        new["hands"].append([])
        new["tables"].append([])
        events = [Event("join", f"{seat_name(seat)} joins the game and is dealt {HAND_SIZE} cards.",
                        data={"seat": seat})]
        for _ in range(HAND_SIZE):
            card = draw_for(new, seat, events)
            if card is not None:
                new["hands"][seat].append(card)  # the newcomer's hand, made above: the new state's own
        engine.settle(new, events)
        return new, events

    # --- who acts -----------------------------------------------------------------

    def pending(self, state):
        if state["result"] is not None:
            return []
        if state.get("decisions"):  # decisions.waiting
            return decisions.pending(state)
        t = state["turn"]
        return [_turn_pending(t["seat"], t["number"])]

    def outcome(self, state):
        r = state["result"]
        return None if r is None else Outcome(winners=tuple(r["winners"]), draw=r["draw"], reason=r["reason"])

    # --- legal moves --------------------------------------------------------------

    def legal_moves(self, state, seat):
        if type(seat) is int:  # _is_player for a plain int, written out (asked before every move)
            active = state["active"]
            if not (0 <= seat < len(active) and active[seat]) or state["result"] is not None:
                return []
        elif state["result"] is not None or not _is_player(state, seat):
            return []
        if state.get("decisions"):  # decisions.waiting
            return decisions.moves(state, seat)
        t = state["turn"]
        if seat != t["seat"]:
            return []
        # The lists of free_actions (power_moves, rule_moves, claim_moves) with their "is
        # anything there?" tests written out: this runs before every move, and those lists
        # are nearly always empty (test_fx_fast_paths.py compares with the plain lists).
        # "Is this rule in play?" asked of the reading's set of rules rather than the list.
        r = reading(state)
        rules = r.cards
        hand = state["hands"][seat]
        done = turn.plays_done(state, r)
        if done:
            moves = []
        elif free_actions.QUOTE in rules and not t["quoted"]:
            moves = []
            for card in hand:
                moves.append({"type": "play", "card": card})
                moves.append({"type": "play", "card": card, "quote": NAME[card]})
        else:
            # Each move a copy of one made ahead, its card put in: copying a small dict costs
            # less than building one from a literal, and this runs before every move.
            moves = []
            for card in hand:
                move = _PLAY_MOVE.copy()
                move["card"] = card
                moves.append(move)
        if not free_actions.POWERED.isdisjoint(state["tables"][seat]):
            moves += free_actions.power_moves(state, seat)
        if not done:
            if free_actions.GET_ON in rules and hand:
                moves.append({"type": "get_on_with_it"})
            if free_actions.SWAP in rules:
                moves.append({"type": "swap_plays"})
        if free_actions.SING in rules or free_actions.ACCENT in rules:
            moves += free_actions.claim_moves(state, seat)
        if done:
            moves.append({"type": "end_turn"})
        return moves

    # --- applying -----------------------------------------------------------------

    # A faster private copy for apply (see state_copy.py), called without a method's frame.
    copy_state = staticmethod(copy_state)

    def _apply(self, state, seat, move):
        if type(seat) is int:  # _is_player for a plain int, written out
            active = state["active"]
            playing = 0 <= seat < len(active) and active[seat]
        else:
            playing = _is_player(state, seat)
        if not playing:
            raise IllegalMove("You are not playing in this game.")
        kind = move["type"]
        events: list = []
        if state.get("decisions"):  # decisions.waiting
            if kind != decisions.DECIDE:
                raise IllegalMove(_waiting_reason(state, seat))
            engine.answer(state, seat, move, events)
        elif kind == decisions.DECIDE:
            raise IllegalMove("There is no choice waiting for you.")
        elif seat != state["turn"]["seat"]:
            raise IllegalMove(f"It is {seat_name(state['turn']['seat'])}'s turn.")
        else:
            handler = self._TURN_MOVES.get(kind)
            if handler is None:
                raise IllegalMove(f"Unknown move '{kind}'.")
            handler(self, state, seat, move, events)
        engine.settle(state, events)
        return events

    def _play(self, state, seat, move, events):
        card = move.get("card")
        if not is_card(card) or card not in state["hands"][seat]:
            raise IllegalMove("You do not hold that card.")
        if turn.plays_done(state):
            raise IllegalMove("You have made all your plays this turn.")
        quote = move.get("quote")
        bonus = False
        if quote not in (None, ""):
            if not isinstance(quote, str) or len(quote) > free_actions.MAX_WORDS:
                raise IllegalMove(f"A quote is text of at most {free_actions.MAX_WORDS} characters.")
            if not free_actions.quote_ok(state, card, quote):
                rule = f"A quote earns a card only with {NAME[free_actions.QUOTE]} in play, once a turn"
                if free_actions.quotes_judged(state):
                    raise IllegalMove(rule + ".")
                raise IllegalMove(f"{rule}, and it must mention {NAME[card]}.")
            bonus = True
        own_at(state, "hands", seat).remove(card)
        state["turn"]["played"] += 1
        state["limbo"].append(card)
        said = f", quoting “{quote}”" if bonus else ""
        text = f"{SEAT_NAMES[seat]} plays {NAME[card]}{said}."
        events.append(new_event(Event, ("play", text, None,
                                        {"seat": seat, "card": card, "quote": quote if bonus else None}, ())))
        judged = bonus and free_actions.quotes_judged(state)
        if bonus:
            state["turn"]["quoted"] = True
            bonus_frame = {"op": "bonus_draw", "seat": seat, "count": 1, "why": NAME[free_actions.QUOTE]}
            if judged:
                bonus_frame["quote"] = True  # found and dropped by free_actions if the table says no
            push(state, bonus_frame)
        play_card(state, seat, card)
        if judged:
            free_actions.ask_quote_judges(state, seat, card, text)

    def _power(self, state, seat, move, events):
        free_actions.use_power(state, seat, move, events)

    def _get_on_with_it(self, state, seat, move, events):
        free_actions.get_on_with_it(state, seat, events)

    def _swap_plays(self, state, seat, move, events):
        free_actions.swap_plays(state, seat, events)

    def _claim(self, state, seat, move, events):
        free_actions.claim(state, seat, move, events)

    def _end_turn(self, state, seat, move, events):
        if not turn.plays_done(state):
            raise IllegalMove(f"You still have {turn.plays_left(state)} card(s) to play.")
        state["turn"]["phase"] = turn.HAND_LIMIT
        events.append(new_event(Event, ("end_turn", f"{seat_name(seat)} ends their turn.", None, {"seat": seat}, ())))

    _TURN_MOVES = {"play": _play, "power": _power, "get_on_with_it": _get_on_with_it, "swap_plays": _swap_plays,
                   "sing": _claim, "accent": _claim, "end_turn": _end_turn}

    def _resign(self, state, seat):
        """The leaver's hand and table go to the discard pile; their open choices are
        answered with the defaults; if it was their turn, the next player's begins."""
        if not _is_player(state, seat):
            raise IllegalMove("You are not playing in this game.")
        events = [Event("resign", f"{seat_name(seat)} leaves the game.", data={"seat": seat})]
        own(state, "active")[seat] = False
        state["discard"] += state["hands"][seat] + state["tables"][seat]
        state["hands"][seat], state["tables"][seat] = [], []
        left = [s for s, on in enumerate(state["active"]) if on]
        if len(left) == 1:
            gone = [seat_name(s) for s, on in enumerate(state["active"]) if not on]
            reason = f"{' and '.join(gone)} left the game: {seat_name(left[0])} is the last one playing."
            state["result"] = {"winners": left, "draw": False, "reason": reason}
            events.append(Event("end", reason))
            engine.settle(state, events)
            return events
        if state["turn"]["seat"] == seat:
            # Whatever the leaver was resolving is dropped; limits are asked afresh.
            state["discard"] += state["limbo"] + [c for f in state["effects"] for c in f.get("pool", ())]
            state["limbo"], state["effects"] = [], []
            state.pop("decisions", None)
            state["turn"]["phase"] = turn.OVER
        engine.settle(state, events)
        return events

    def timeout_move(self, state, seat):
        # An open decision takes its default. A turn that times out plays the first card
        # in hand (playing is compulsory), or ends the turn when the plays are done.
        default = decisions.default_move(state, seat)
        if default is not None:
            return default
        if state["result"] is None and not decisions.waiting(state) and seat == state["turn"]["seat"]:
            if not turn.plays_done(state):
                return {"type": "play", "card": state["hands"][seat][0]}
        return {"type": "end_turn"}

    # --- views and words ------------------------------------------------------------

    def view_for(self, state, seat):
        return build_view(state, seat)

    def seats_out(self, state):
        return {s: "left the game" for s, on in enumerate(state["active"]) if not on}

    def describe_move(self, move, state=None):
        kind = move.get("type")
        card = move.get("card")
        named = NAME[card] if is_card(card) else "a card"
        if kind == "play":
            return f"plays {named}"
        if kind == "power":
            return f"uses {named}"
        if kind == "decide":
            return _describe_decision(move, state)
        return {"get_on_with_it": "gets on with it", "swap_plays": "swaps plays for draws", "sing": "sings",
                "accent": "puts on an accent", "end_turn": "ends the turn", "resign": "resigns",
                "join": "joins the game"}.get(kind, kind or "?")


# --- helpers ---------------------------------------------------------------------------

# Decisions whose answer may be named to everyone: the cards or seats involved are public.
_PUBLIC_ANSWERS = {"discard", "discard_keepers", "replace_goal", "keep_goal", "choose_card", "choose_rule",
                   "choose_rules", "choose_player", "choose_direction", "judge", "use_card"}


def _describe_decision(move: dict, state: dict | None) -> str:
    found = None
    if state is not None:
        found = next((d for frame in state.get("decisions", []) for d in frame if d["id"] == move.get("id")), None)
    if found is None or found["kind"] not in _PUBLIC_ANSWERS:
        return "makes a choice"
    labels = {repr(o["value"]): o["label"] for o in found["options"]}
    choice = move.get("choice")
    chosen = choice if isinstance(choice, list) else [choice]
    words = ", ".join(labels.get(repr(c), "?") for c in chosen) or "nothing"
    return f"chooses {words}"


def _replace_creepers(state: dict, seat: int, events: list) -> None:
    """Creepers in a starting hand go on the table and are replaced, until the hand holds
    three cards that are not Creepers."""
    hand = state["hands"][seat]
    for card in [c for c in hand if TYPE[c] == "creeper"]:
        hand.remove(card)
        state["tables"][seat].append(card)
        events.append(Event("creeper", f"{seat_name(seat)} was dealt {NAME[card]} and puts it on the table.",
                            data={"seat": seat, "card": card}))
        new = draw_for(state, seat, events)
        if new is not None:
            hand.append(new)


@lru_cache(maxsize=4096)
def _turn_pending(seat: int, number: int) -> Pending:
    # Pending is frozen (immutable), so one instance per (seat, turn) serves every call;
    # building a frozen dataclass costs more than the rest of ``pending``.
    return Pending(seat, "turn", str(number))


def _is_player(state: dict, seat) -> bool:
    # A plain int (the usual case) is tested by its type alone; any other int but a bool is
    # still a seat number. Asked twice a move (legal_moves and _apply).
    if type(seat) is not int and (not isinstance(seat, int) or isinstance(seat, bool)):
        return False
    active = state["active"]
    return 0 <= seat < len(active) and active[seat]


def _waiting_reason(state: dict, seat: int) -> str:
    if decisions.open_for(state, seat):
        return "First answer the choice waiting for you."
    waiting = sorted({d["seat"] for d in decisions.top(state) if d["answer"] is None})
    return "Waiting for " + ", ".join(seat_name(s) for s in waiting) + " to choose."
