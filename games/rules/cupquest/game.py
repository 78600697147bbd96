"""Cup Quest: race to the Holy Grail across a hex map and carry it home.

The turn structure, in the order the engine runs it:

1. On your turn (``pending`` kind ``"turn"``) you play a card (``move``, ``teleport``,
   ``freeze``), ``discard`` one for a new one, ``snipe``, or ``pass``. A frozen player may
   only snipe or pass. A played or discarded card is replaced at once from the draw pile.
2. A move or a successful teleport lands you on a hex. Landing on the loose Grail picks it
   up; landing home with it wins. Landing next to Big Bob or Big Bill makes you fight
   (``pending`` kind ``"battle"``, move ``fight``), then, if you are still there and next to
   other players, you may ``attack`` one of them or ``decline`` (``pending`` ``"attack"``).
3. The turn passes to the next player in the order the opening dice gave.

All digital choices are written down in ``docs/rules/cupquest.md``.
"""
from __future__ import annotations

from .. import hexgrid
from ..base import Event, Game, IllegalMove, Outcome, Pending
from ..offered import Number
from ..rng import Rng, new_rng_state
from . import cards, snipe
from .board import BOARD_NAMES, load_board
from .view import build_view

HAND_SIZE = 3
SNIPES_PER_GAME = 4
FREEZE_TURNS = 2
TELEPORT_SUCCESS_MAX = 3  # a teleport die of 1-3 works, 4-6 fails


def seat_name(seat: int) -> str:
    return f"Seat {seat + 1}"


class CupQuest(Game):
    kind = "cupquest"
    name = "Cup Quest"
    min_players = 2
    max_players = 4
    # A snipe is listed at one aim per target (snipe.DEFAULT_AIM); the player aims anywhere
    # in the ranges (see Game.free_fields).
    free_fields = {"snipe": {"angle": Number(*snipe.ANGLE_RANGE), "strength": Number(*snipe.STRENGTH_RANGE)}}
    wait_words = {"turn": "move", "battle": "fight a battle with monsters",
                  "attack": "choose whether to attack a player"}
    option_schema = {
        "board": {"type": "choice", "default": "standard", "choices": list(BOARD_NAMES), "label": "Map"},
        # A safety net, not a tactic: after this many full rounds the game is drawn.
        "round_limit": {"type": "int", "default": 100, "min": 10, "max": 1000, "label": "Round limit",
                        "help": "If nobody has brought the Grail home after this many rounds, the game is a draw."},
    }

    # --- setting up ---------------------------------------------------------------

    def setup(self, players, options, seed):
        options = self.options_with_defaults(options)
        if not self.min_players <= players <= self.max_players:
            raise ValueError("Cup Quest is for two to four players (three is the standard game).")
        board = load_board(options["board"])
        state = {
            "board": board.name, "players": players, "rng": new_rng_state(seed),
            "round_limit": options["round_limit"],
            "alcoves": board.alcoves_for(players), "positions": board.alcoves_for(players),
            "hands": [[] for _ in range(players)], "draw": cards.new_deck(), "discard": [],
            "grail": {"at": board.grail, "carrier": None},
            "snipes": [SNIPES_PER_GAME] * players, "frozen": [0] * players,
            "resigned": [False] * players,
            "turn_index": 0, "round": 1, "pending": None, "result": None,
            "last_snipe": None, "last_move": None,
        }
        rng = Rng(state["rng"])
        state["dealer"] = rng.below(players)
        rng.shuffle(state["draw"])
        # Dealt one at a time round the table, starting left of the dealer.
        for _ in range(HAND_SIZE):
            for i in range(players):
                state["hands"][(state["dealer"] + 1 + i) % players].append(state["draw"].pop())
        state["order"], state["opening_rolls"] = _roll_for_order(rng, players)
        state["goblet"] = snipe.place_goblet(rng)
        return state

    # --- who acts -----------------------------------------------------------------

    def current_seat(self, state) -> int:
        return state["order"][state["turn_index"]]

    def pending(self, state):
        if state["result"] is not None:
            return []
        p = state["pending"]
        if p is not None:
            return [Pending(p["seat"], p["kind"])]
        return [Pending(self.current_seat(state), "turn")]

    def outcome(self, state):
        r = state["result"]
        if r is None:
            return None
        return Outcome(winners=tuple(r["winners"]), draw=r["draw"], reason=r["reason"])

    # --- legal moves --------------------------------------------------------------

    def legal_moves(self, state, seat):
        return self._listing(state, seat, None)

    def offered_candidates(self, state, seat, move):
        # A card play is checked against that card's plays alone, and any other move
        # against a listing without card plays: working out where each card in hand could
        # take the player is most of the listing's cost.
        card = move.get("card") if move["type"] in _CARD_PLAYS else _NO_CARD
        return self._listing(state, seat, card)

    def _listing(self, state, seat, card):
        """The legal moves (``card`` None), or them with only ``card``'s plays, in the same
        order (``_NO_CARD``: with no card plays; a card not in hand has none)."""
        if state["result"] is not None or not _is_player(state, seat):
            return []
        p = state["pending"]
        if p is not None:
            if p["seat"] != seat:
                return []
            if p["kind"] == "battle":
                return [{"type": "fight", "monster": p["monsters"][0]}]
            return [{"type": "attack", "target": t} for t in p["targets"]] + [{"type": "decline"}]
        if seat != self.current_seat(state):
            return []
        moves: list[dict] = []
        hand = state["hands"][seat]
        if not state["frozen"][seat]:
            for held in hand:
                if card is None or _same_card(held, card):
                    moves.extend(self._card_moves(state, seat, held))
            moves.extend({"type": "discard", "card": c} for c in hand)
        if state["snipes"][seat] > 0:
            moves.extend({"type": "snipe", "target": t, **snipe.DEFAULT_AIM} for t in _targets(state, seat))
        moves.append({"type": "pass"})
        return moves

    def _card_moves(self, state, seat, card) -> list[dict]:
        if cards.is_ace(card):
            return [{"type": "freeze", "card": card, "target": t} for t in _active_others(state, seat)]
        out = [{"type": "move", "card": card, "to": to} for to in sorted(self._destinations(state, seat, card))]
        if cards.is_face(card) and self._teleport_refusal(state, seat, card) is None:
            out.append({"type": "teleport", "card": card})
        return out

    def _destinations(self, state, seat, card) -> frozenset[str]:
        board = load_board(state["board"])
        _, ends = board.destinations(state["positions"][seat], cards.steps(card), _blocked_for(state, seat))
        return ends

    def _teleport_refusal(self, state, seat, card) -> str | None:
        space = load_board(state["board"]).teleport_for(card)
        if state["positions"][seat] == space:
            return "You are already on that teleport space."
        if space in _occupied(state, exclude=seat):
            return "Someone is standing on that teleport space."
        return None

    # --- applying -----------------------------------------------------------------

    def _apply(self, state, seat, move):
        if not _is_player(state, seat):
            raise IllegalMove("You are not playing in this game.")
        kind = move["type"]
        p = state["pending"]
        if p is not None:
            if p["seat"] != seat:
                raise IllegalMove(f"Waiting for {seat_name(p['seat'])} to finish their turn.")
            handler = {"battle": {"fight": self._fight}, "attack": {"attack": self._attack, "decline": self._decline}}[p["kind"]].get(kind)
            if handler is None:
                raise IllegalMove("Finish the battle first." if p["kind"] == "battle" else "Choose whether to attack.")
            return handler(state, seat, move)
        if seat != self.current_seat(state):
            raise IllegalMove("It is not your turn.")
        handler = {"move": self._move, "teleport": self._teleport, "freeze": self._freeze,
                   "discard": self._discard, "snipe": self._snipe, "pass": self._pass}.get(kind)
        if handler is None:
            raise IllegalMove(f"Unknown move '{kind}'.")
        if kind in ("move", "teleport", "freeze", "discard") and state["frozen"][seat]:
            raise IllegalMove("You are frozen: you may only snipe or pass.")
        return handler(state, seat, move)

    def _move(self, state, seat, move):
        card = _card_in_hand(state, seat, move.get("card"))
        if cards.is_ace(card):
            raise IllegalMove("An Ace freezes a player; it does not move you.")
        to = move.get("to")
        board = load_board(state["board"])
        blocked = _blocked_for(state, seat)
        length, ends = board.destinations(state["positions"][seat], cards.steps(card), blocked)
        if to not in ends:
            raise IllegalMove(f"The {cards.card_name(card)} cannot take you there.")
        path = board.path(state["positions"][seat], to, length, blocked)
        events = self._play_card(state, seat, card, f"plays the {cards.card_name(card)} and moves {length}")
        state["positions"][seat] = to
        state["last_move"] = {"seat": seat, "card": card, "path": path}
        return events + self._land(state, seat)

    def _teleport(self, state, seat, move):
        card = _card_in_hand(state, seat, move.get("card"))
        if not cards.is_face(card):
            raise IllegalMove("Only a Jack, Queen or King can teleport.")
        refusal = self._teleport_refusal(state, seat, card)
        if refusal:
            raise IllegalMove(refusal)
        space = load_board(state["board"]).teleport_for(card)
        events = self._play_card(state, seat, card, "plays the {} to teleport".format(cards.card_name(card)))
        roll = Rng(state["rng"]).die()
        start = state["positions"][seat]
        if roll <= TELEPORT_SUCCESS_MAX:
            state["positions"][seat] = space
            state["last_move"] = {"seat": seat, "card": card, "path": [start, space], "teleport": True}
            events.append(Event("teleport", f"{seat_name(seat)} rolls {roll}: the teleport works.",
                                data={"seat": seat, "roll": roll, "to": space, "ok": True}))
            return events + self._land(state, seat)
        events.append(Event("teleport", f"{seat_name(seat)} rolls {roll}: the teleport fails and they are sent home.",
                            data={"seat": seat, "roll": roll, "ok": False}))
        events += self._send_home(state, seat)
        state["last_move"] = {"seat": seat, "card": card, "path": [start, state["positions"][seat]], "teleport": True}
        return events + self._end_turn(state)

    def _freeze(self, state, seat, move):
        card = _card_in_hand(state, seat, move.get("card"))
        if not cards.is_ace(card):
            raise IllegalMove("Only an Ace casts the freezing spell.")
        target = _target_of(move)
        if target not in _active_others(state, seat):
            raise IllegalMove("Choose another player still in the game to freeze.")
        events = self._play_card(state, seat, card, f"plays the {cards.card_name(card)}")
        state["frozen"][target] = FREEZE_TURNS
        events.append(Event("freeze", f"{seat_name(target)} is frozen for their next {FREEZE_TURNS} turns.",
                            data={"seat": seat, "target": target}))
        return events + self._end_turn(state)

    def _discard(self, state, seat, move):
        card = _card_in_hand(state, seat, move.get("card"))
        events = self._play_card(state, seat, card, f"discards the {cards.card_name(card)}", kind="discard")
        return events + self._end_turn(state)

    def _snipe(self, state, seat, move):
        if state["snipes"][seat] <= 0:
            raise IllegalMove("You have no snipes left.")
        target = _target_of(move)
        if target not in _targets(state, seat):
            raise IllegalMove("Choose another player who is out of their alcove.")
        angle, strength = move.get("angle"), move.get("strength")
        refusal = snipe.check_aim(angle, strength)
        if refusal:
            raise IllegalMove(refusal)
        rng = Rng(state["rng"])
        goblet = state["goblet"]
        shot = snipe.shoot(rng, float(angle), float(strength), goblet)
        state["snipes"][seat] -= 1
        state["last_snipe"] = {"seat": seat, "target": target, "angle": angle, "strength": strength,
                               "goblet": goblet, **shot}
        state["goblet"] = snipe.place_goblet(rng)
        tries = " and ".join("in" if a["in"] else f"misses by {a['miss_by']:g}" for a in shot["attempts"])
        verdict = "a hit" if shot["hit"] else "no luck"
        events = [Event("snipe", f"{seat_name(seat)} snipes at {seat_name(target)}: {tries} \u2014 {verdict}.",
                        data={"seat": seat, "target": target, **shot})]
        if shot["hit"]:
            events += self._send_home(state, target)
        return events + self._end_turn(state)

    def _pass(self, state, seat, move):
        return [Event("pass", f"{seat_name(seat)} passes.", data={"seat": seat})] + self._end_turn(state)

    def _fight(self, state, seat, move):
        monster_id = state["pending"]["monsters"][0]
        monster = load_board(state["board"]).monsters[monster_id]["name"]
        rng = Rng(state["rng"])
        mine, theirs, rolls = _battle_dice(rng)
        state["pending"]["monsters"].pop(0)
        text = f"{seat_name(seat)} fights {monster}: {_rolls_text(rolls)}"
        if mine > theirs:
            events = [Event("battle", f"{text}; {monster} is beaten back.",
                            data={"seat": seat, "monster": monster_id, "rolls": rolls, "won": True})]
            if state["pending"]["monsters"]:
                return events
            state["pending"] = None
            return events + self._offer_attack(state, seat)
        events = [Event("battle", f"{text}; {monster} wins.",
                        data={"seat": seat, "monster": monster_id, "rolls": rolls, "won": False})]
        events += self._send_home(state, seat)
        return events + self._end_turn(state)

    def _attack(self, state, seat, move):
        target = _target_of(move)
        if target not in state["pending"]["targets"]:
            raise IllegalMove("You can only attack a player next to you.")
        mine, theirs, rolls = _battle_dice(Rng(state["rng"]))
        loser = target if mine > theirs else seat
        events = [Event("battle", f"{seat_name(seat)} attacks {seat_name(target)}: {_rolls_text(rolls)}; "
                                  f"{seat_name(loser)} loses.",
                        data={"seat": seat, "target": target, "rolls": rolls, "loser": loser})]
        events += self._send_home(state, loser)
        return events + self._end_turn(state)

    def _decline(self, state, seat, move):
        return [Event("decline", f"{seat_name(seat)} does not attack.", data={"seat": seat})] + self._end_turn(state)

    def _resign(self, state, seat):
        if not _is_player(state, seat):
            raise IllegalMove("You are not playing in this game.")
        was_acting = self.pending(state)[0].seat == seat
        events = [Event("resign", f"{seat_name(seat)} leaves the game.", data={"seat": seat})]
        if state["grail"]["carrier"] == seat:
            state["grail"] = {"at": state["positions"][seat], "carrier": None}
            events.append(Event("grail", f"The Grail falls where {seat_name(seat)} stood.", data={"at": state["grail"]["at"]}))
        state["discard"].extend(state["hands"][seat])
        state["hands"][seat] = []
        state["positions"][seat] = None
        state["frozen"][seat] = 0
        state["resigned"][seat] = True
        left = [s for s in range(state["players"]) if not state["resigned"][s]]
        if len(left) == 1:
            gone = " and ".join(seat_name(s) for s in range(state["players"]) if state["resigned"][s])
            state["pending"] = None
            state["result"] = {"winners": left, "draw": False, "reason": f"{gone} left the game: {seat_name(left[0])} is the last one questing."}
            return events + [Event("end", state["result"]["reason"])]
        if was_acting:
            return events + self._end_turn(state, resigned=True)
        p = state["pending"]
        if p is not None and p["kind"] == "attack" and seat in p["targets"]:
            # The attacker's neighbour walked off the field: drop it from the choice.
            p["targets"].remove(seat)
            if not p["targets"]:
                events += self._end_turn(state)
        return events

    def timeout_move(self, state, seat):
        # A player who lets the clock run out fights a forced battle (it is not optional),
        # declines an attack, and otherwise passes the turn.
        p = state["pending"]
        if p is not None and p["seat"] == seat:
            return {"type": "fight", "monster": p["monsters"][0]} if p["kind"] == "battle" else {"type": "decline"}
        return {"type": "pass"}

    # --- steps shared by several moves -------------------------------------------

    def _play_card(self, state, seat, card, doing, kind="play"):
        state["hands"][seat].remove(card)
        state["discard"].append(card)
        events = [Event(kind, f"{seat_name(seat)} {doing}.", data={"seat": seat, "card": card})]
        return events + _draw(state, seat)

    def _land(self, state, seat):
        """What happens when a piece arrives on a hex: pick up, win, fight, attack."""
        here = state["positions"][seat]
        events = []
        grail = state["grail"]
        if grail["carrier"] is None and grail["at"] == here:
            state["grail"] = {"at": None, "carrier": seat}
            events.append(Event("grail", f"{seat_name(seat)} picks up the Holy Grail!", data={"seat": seat}))
        if state["grail"]["carrier"] == seat and here == state["alcoves"][seat]:
            state["result"] = {"winners": [seat], "draw": False,
                               "reason": f"{seat_name(seat)} brings the Holy Grail home."}
            state["pending"] = None
            return events + [Event("end", state["result"]["reason"], data={"winner": seat})]
        monsters = load_board(state["board"]).monsters_touching(here)
        if monsters:
            state["pending"] = {"kind": "battle", "seat": seat, "monsters": monsters}
            return events
        return events + self._offer_attack(state, seat)

    def _offer_attack(self, state, seat):
        targets = [t for t in _targets(state, seat) if _adjacent(state["positions"][seat], state["positions"][t])]
        if targets:
            state["pending"] = {"kind": "attack", "seat": seat, "targets": targets}
            return []
        return self._end_turn(state)

    def _send_home(self, state, seat):
        events = []
        if state["grail"]["carrier"] == seat:
            state["grail"] = {"at": state["positions"][seat], "carrier": None}
            events.append(Event("grail", f"{seat_name(seat)} drops the Holy Grail.",
                                data={"seat": seat, "at": state["grail"]["at"]}))
        state["positions"][seat] = state["alcoves"][seat]
        events.append(Event("home", f"{seat_name(seat)} is sent back to their alcove.", data={"seat": seat}))
        return events

    def _end_turn(self, state, resigned=False):
        """Close the current player's turn and hand it to the next one still playing."""
        state["pending"] = None
        seat = self.current_seat(state)
        if state["frozen"][seat] and not resigned:
            state["frozen"][seat] -= 1  # a frozen turn has been spent
        order = state["order"]
        for _ in range(len(order)):
            state["turn_index"] += 1
            if state["turn_index"] == len(order):
                state["turn_index"] = 0
                state["round"] += 1
            if not state["resigned"][self.current_seat(state)]:
                break
        if state["round"] > state["round_limit"]:
            state["result"] = {"winners": [], "draw": True,
                               "reason": f"Nobody brought the Grail home in {state['round_limit']} rounds: a draw."}
            return [Event("end", state["result"]["reason"])]
        return [Event("turn", f"{seat_name(self.current_seat(state))} to play.", data={"seat": self.current_seat(state)})]

    # --- views and words ------------------------------------------------------------

    def view_for(self, state, seat):
        return build_view(state, seat, load_board(state["board"]))

    def seats_out(self, state):
        return {s: "left the game" for s in range(state["players"]) if state["resigned"][s]}

    def describe_move(self, move, state=None):
        kind = move.get("type")
        card = move.get("card")
        name = cards.card_name(card) if cards.is_card(card) else "a card"
        if kind == "move":
            return f"moves with the {name} to {move.get('to')}"
        if kind == "teleport":
            return f"tries to teleport with the {name}"
        if kind == "freeze":
            return f"freezes seat {_seat_label(move.get('target'))} with the {name}"
        if kind == "discard":
            return f"discards the {name}"
        if kind == "snipe":
            return f"snipes at seat {_seat_label(move.get('target'))}"
        if kind == "attack":
            return f"attacks seat {_seat_label(move.get('target'))}"
        return {"fight": "fights the monster", "decline": "does not attack", "pass": "passes"}.get(kind, kind or "?")


# --- helpers on the state --------------------------------------------------------

def _seat_label(seat) -> str:
    return str(seat + 1) if isinstance(seat, int) else "?"


def _roll_for_order(rng: Rng, players: int) -> tuple[list[int], list[dict]]:
    """Everyone rolls; highest goes first. Tied players roll again among themselves.

    Returns the order and every round of rolls (seat -> roll, keys as strings) for the log.
    """
    rounds: list[dict] = []

    def rank(group: list[int]) -> list[int]:
        rolls = {s: rng.die() for s in group}
        rounds.append({str(s): r for s, r in rolls.items()})
        out = []
        for value in sorted(set(rolls.values()), reverse=True):
            tied = [s for s in group if rolls[s] == value]
            out.extend(tied if len(tied) == 1 else rank(tied))
        return out

    return rank(list(range(players))), rounds


def _battle_dice(rng: Rng) -> tuple[int, int, list[list[int]]]:
    """One die for each side; a tie is rolled again. Returns the deciding pair and all rolls."""
    rolls = []
    while True:
        mine, theirs = rng.die(), rng.die()
        rolls.append([mine, theirs])
        if mine != theirs:
            return mine, theirs, rolls


def _rolls_text(rolls: list[list[int]]) -> str:
    return ", then ".join(f"{a} against {b}" for a, b in rolls)


def _draw(state, seat) -> list[Event]:
    events = []
    if not state["draw"]:
        state["draw"] = state["discard"]
        state["discard"] = []
        Rng(state["rng"]).shuffle(state["draw"])
        events.append(Event("reshuffle", "The discard pile is shuffled into a new draw pile.",
                            data={"count": len(state["draw"])}))
    card = state["draw"].pop()
    state["hands"][seat].append(card)
    events.append(Event("draw", f"You draw the {cards.card_name(card)}.", audience=(seat,), data={"card": card}))
    # Everyone else, spectators included, learns that a card was drawn, not which.
    events.append(Event("draw", f"{seat_name(seat)} draws a card.", hidden_from=(seat,), data={"seat": seat}))
    return events


_CARD_PLAYS = frozenset(("move", "teleport", "freeze"))  # the moves that play a card from hand
_NO_CARD = object()  # a listing with no card plays: matches no card


def _same_card(held: str, named) -> bool:
    """Whether a move naming ``named`` names the card ``held`` (a card is a string)."""
    return type(named) is str and held == named


def _target_of(move) -> int | None:
    """The seat a move names as its target; None unless it is a whole number (not a bool)."""
    target = move.get("target")
    return target if isinstance(target, int) and not isinstance(target, bool) else None


def _is_player(state, seat) -> bool:
    """A seat of this game that has not left it."""
    return (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state["players"]
            and not state["resigned"][seat])


def _card_in_hand(state, seat, card) -> str:
    if not cards.is_card(card) or card not in state["hands"][seat]:
        raise IllegalMove("You do not hold that card.")
    return card


def _active_others(state, seat) -> list[int]:
    return [s for s in range(state["players"]) if s != seat and not state["resigned"][s]]


def _targets(state, seat) -> list[int]:
    """Players who can be attacked or sniped: in the game and out of their alcove."""
    return [s for s in _active_others(state, seat) if state["positions"][s] != state["alcoves"][s]]


def _occupied(state, exclude=None) -> set[str]:
    return {p for s, p in enumerate(state["positions"]) if p is not None and s != exclude}


def _blocked_for(state, seat) -> frozenset[str]:
    """Hexes ``seat`` may not enter: other pieces and other players' alcoves."""
    blocked = _occupied(state, exclude=seat)
    blocked.update(a for s, a in enumerate(state["alcoves"]) if s != seat and not state["resigned"][s])
    return frozenset(blocked)


def _adjacent(a: str, b: str) -> bool:
    return hexgrid.distance(hexgrid.parse(a), hexgrid.parse(b)) == 1
