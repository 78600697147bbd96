"""Tom Jolly's Camelot: two players take their turns at the same time.

Moves (``legal_moves`` lists every one that may be made now; their shapes and every reading
of the rules text, Tom Jolly's "Camelot: Basic Game" and "Camelot: Variation Rules" (Wingnut
Games, 2005), are in docs/rules/camelot.md):

- ``entry`` (choose an Entry hex), then per token holder: ``declare``, ``enter``, ``move``,
  ``drop``, ``strike``, ``ask_ally``, ``ask_disengage``, ``end_turn``;
- ``decide`` answers an ask (any seat asked, any time); ``pause``/``resume``; ``resign``.

Both holders' moves are applied in the order they arrive; a move is refused only when it
is illegal in the state it meets. The parts: ``board`` (terrain), ``pieces``, ``sight``,
``state`` (queries), ``setup``, ``turns`` (tokens), ``movement``, ``combat``, ``items``
(carrying, banking, goals), ``requests`` (asks), ``view``, ``state_copy``.
"""
from __future__ import annotations

from ..base import Event, Game, IllegalMove, Outcome, Pending
from ..decisions import Answer
from ..offered import SubsetOfListed, Text
from . import combat, editions, items, requests, turns
from .board import load as load_board
from .movement import Mover
from .pieces import COUNT, MODE_WORDS, NAMES, TYPES, item_name, unit_label, unit_name
from .setup import entry_chooser, entry_choices, new_state
from .squares import named_coordinates
from .state import board_of, controls, frozen, turn_of
from .state_copy import copy_state
from .view import build_view, moved_since_turn

MAX_QUESTION = 300
TURN_MOVES = ("declare", "enter", "move", "drop", "strike", "ask_ally", "ask_disengage", "end_turn")
TAKEBACK_MOVES = frozenset(("declare", "enter", "move", "drop"))


class Camelot(Game):
    kind = "camelot"
    name = "Camelot"
    min_players = 3
    max_players = 6
    strict_versions = False  # two token holders act at once (see base.Game.strict_versions)
    # A turn's pieces brought on, movements and drops may be taken back until the player
    # declares, strikes, asks, ends the turn, or anyone else moves (docs/rules/camelot.md,
    # "Taking back a move"), in games of edition 3 on (``allows_takebacks``); edition 3 let
    # a declaration be taken back too.
    takebacks = True
    # The page marks the pieces moved since a player's last turn (``moved_since_turn``, then
    # the move events of the log lines that arrive after it).
    log_data = True
    wait_words = {"turn": "move", "entry": "choose an Entry hex", "ally": "answer a call to join an attack",
                  "disengage": "answer a request to disengage", "revive": "decide whether Morgan brings a unit back"}
    # What no listing holds (see Game.free_fields): a declaration names any of the units
    # listed one by one (the listing has each alone and all together), an ally lends any of
    # the units it is asked for, and a pause carries the player's own question.
    free_fields = {"declare": {"targets": SubsetOfListed(least=1)},
                   "decide": {"choice": Answer(requests.open_asks)},
                   "pause": {"question": Text(MAX_QUESTION)}}
    option_schema = {
        "accoutrements": {"type": "bool", "default": False, "label": "Accoutrements of Kingship",
                          "help": "Crown, Scepter, Robe and Throne on the red diamonds; two brought home win."},
        "gold": {"type": "bool", "default": False, "label": "Buying the Kingship",
                 "help": "Gold worth ten per player lies about; fifteen brought home wins."},
        "guardians": {"type": "bool", "default": False, "label": "Guardians of the Sword",
                      "help": "Two neutral Lancelots near the sword that any token holder may use."},
        "turn_based": {"type": "bool", "default": False, "label": "Turn-based",
                       "help": "One turn token instead of two."},
        "failed_attack_penalty": {"type": "bool", "default": True, "label": "Failed attacks cost a unit",
                                  "help": "A declared target that survives costs the attacker the nearest own unit."},
        "turn_cap": {"type": "int", "default": 400, "min": 20, "max": 5000, "label": "Turn limit",
                     "help": "After this many turns in all the game is a draw."},
        "pauses": {"type": "int", "default": 2, "min": 0, "max": 5, "label": "Pauses per player",
                   "help": "How often each player may stop every clock to settle a question."},
    }

    # --- setting up ---------------------------------------------------------------

    def setup(self, players, options, seed):
        # ``edition`` is a setup option the site stamps (editions.py), not a table option.
        options = dict(options or {})
        edition = options.pop("edition", editions.CURRENT)
        if edition not in editions.EDITIONS:
            raise ValueError(f"No such edition of the rules: {edition!r}.")
        options = self.options_with_defaults(options)
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise ValueError("Camelot is for three to six players.")
        return new_state(players, options, seed, edition)

    # --- the contract ---------------------------------------------------------------

    def copy_state(self, state):
        return copy_state(state)  # spelled out for this state's shape (state_copy.py)

    def outcome(self, state):
        r = state["result"]
        return None if r is None else Outcome(tuple(r["winners"]), r["draw"], r["reason"])

    def clocks_paused(self, state):
        return state["paused"] is not None and state["result"] is None

    def pending(self, state):
        if state["result"] is not None:
            return []
        if state["phase"] == "entry":
            chooser = entry_chooser(state)
            return [Pending(chooser, "entry", str(state["entry_next"]))] if chooser is not None else []
        out = [Pending(s, "turn", str(state["turns"][str(s)]["number"])) for s in state["tokens"]]
        out += [Pending(d["seat"], d["kind"], str(d["id"])) for d in requests.open_asks(state)]
        return out

    def timeout_move(self, state, seat):
        if state["paused"] is not None:
            return {"type": "resume"}
        mine = [d for d in requests.open_asks(state) if d["seat"] == seat]
        if mine:
            return {"type": "decide", "id": mine[0]["id"], "choice": mine[0]["default"]}
        if state["phase"] == "entry":
            return {"type": "entry", "hex": entry_choices(state)[0]}
        return {"type": "end_turn", "timed_out": True}

    def view_for(self, state, seat):
        view = build_view(state, seat)
        view["takeback"] = self.takeback_mark(state, seat)
        return view

    def log_words(self, text):
        # Lines stored before hexes had names give the rules' coordinates ("moves to -5,-1").
        # Every such game was played on the standard board (the only board then; a later
        # board's lines are named when they are written).
        return named_coordinates(text, load_board("standard").names)

    def moved_since_turn(self, state, seat, events_newest_first):
        return moved_since_turn(state, seat, events_newest_first)

    def allows_takebacks(self, state):
        # Games started before take-backs replay exactly as stored: no chain in their states.
        return editions.takebacks(editions.of(state))

    def takeback_allowed(self, before, after, seat, move):
        # Strikes, asks and the end of a turn touch other players' units or questions, or
        # settle the turn (a failed attack's cost): those stand once made. So, from edition
        # 4, does a declaration of attacks: the rules text has an attack performed once it
        # is declared, and its targets stay frozen. (Declaring nobody freezes nothing.)
        if move["type"] == "declare" and move.get("targets") and editions.declarations_stand(editions.of(before)):
            return False
        return move["type"] in TAKEBACK_MOVES

    def seats_out(self, state):
        # Resigning is the only way out of Camelot: a player whose pieces are all lost plays on.
        return {s: "resigned" for s in range(state["players"]) if not state["active"][s]}

    def opening_events(self, state):
        """The roll for the order of play, for the log's first line: everyone's die, who
        takes the turn tokens, and the order Entry hexes are chosen in."""
        rolls, order, tokens = state["rolls"], state["order"], state["tokens"]
        if not rolls:
            return []
        first, *rest = order
        dice = ", ".join([f"Seat {first + 1} rolled {rolls[first]}", *(f"Seat {s + 1} {rolls[s]}" for s in rest)])
        if len(tokens) == 1:
            holders = f"Seat {tokens[0] + 1} takes the turn token"
        else:
            holders = " and ".join(f"Seat {s + 1}" for s in tokens) + " take the two turn tokens"
        return [Event("rolls", f"Opening rolls, highest first: {dice}. {holders}; Entry hexes are chosen in that order.",
                      data={"rolls": list(rolls), "order": list(order), "tokens": list(tokens)})]

    def describe_move(self, move, state=None):
        kind = move.get("type", "move")
        units = (state or {}).get("units", {})
        where = load_board((state or {}).get("board", "standard")).hex_name

        def name(uid):
            if not isinstance(uid, str):
                return str(uid)
            # "seat N" is put in words by the site (usernames), as in every log line.
            text = unit_label(units, uid, (state or {}).get("item_values"))
            return text[0].lower() + text[1:] if text.startswith("Seat ") else text

        if kind == "entry":
            return f"chooses the Entry hex {where(move.get('hex'))}"
        if kind == "declare":
            return f"declares attacks on {', '.join(name(t) for t in move.get('targets', [])) or 'nobody'}"
        if kind == "enter":
            how = "teleports" if move.get("teleport") else "brings"
            return f"{how} {NAMES.get(move.get('piece'), 'a piece')} on to {where(move.get('to'))}"
        if kind == "move":
            how = "teleports" if move.get("teleport") else "moves"
            return f"{how} {name(move.get('unit'))} to {where(move.get('to'))}"
        if kind == "drop":
            return f"has {name(move.get('unit'))} drop what it carries"
        if kind == "strike":
            return f"strikes with {name(move.get('unit'))} ({MODE_WORDS.get(move.get('mode'), move.get('mode'))})"
        if kind == "ask_ally":
            return f"asks seat {int(move.get('seat', 0)) + 1} for help"
        if kind == "ask_disengage":
            return f"asks seat {int(move.get('seat', 0)) + 1} for leave to disengage"
        if kind == "end_turn":
            return "ends the turn"  # a timed-out turn is said so by the shell's own log line
        if kind == "decide":
            return "answers"
        if kind == "pause":
            return "pauses the table"
        return {"resume": "resumes play", "resign": "resigns", "takeback": "takes back a move"}.get(kind, kind)

    # --- legal moves ------------------------------------------------------------------

    def legal_moves(self, state, seat):
        return self._listing(state, seat, None)

    def offered_candidates(self, state, seat, move):
        # Only the moves of the move's type, and for a movement or an entry only those of
        # its unit or piece: the whole listing walks every unit (hundreds of microseconds).
        return self._listing(state, seat, move)

    def _listing(self, state, seat, like):
        """The legal moves, or (``like`` a move) those of its type, of its unit for a
        ``move``/``drop``/``strike`` and of its piece for an ``enter``: each exactly as the
        whole listing has it. ``like`` None lists them all, in their fixed order."""
        if state["result"] is not None or not self._seated(state, seat) or not state["active"][seat]:
            return []
        if state["paused"] is not None:
            return [{"type": "resume"}]
        kind = None if like is None else like["type"]
        out = [{"type": "decide", "id": d["id"], "choice": c}
               for d in requests.open_asks(state) if d["seat"] == seat for c in _choices(d)
               ] if kind in (None, "decide") else []
        if state["phase"] == "entry":
            if entry_chooser(state) == seat and kind in (None, "entry"):
                out += [{"type": "entry", "hex": h} for h in entry_choices(state)]
        elif seat in state["tokens"] and (kind is None or kind in TURN_MOVES):
            out += self._turn_moves(state, seat, like)
        if state["pauses_left"][seat] > 0 and kind in (None, "pause"):
            out.append({"type": "pause", "question": "A question for the table."})
        return out

    def _turn_moves(self, state, seat, like=None):
        turn = turn_of(state, seat)
        kind = None if like is None else like["type"]
        out = []
        if turn["stage"] == "declare" and kind in (None, "declare"):
            targets = combat.declarable(state, seat)
            out += [{"type": "declare", "targets": [t]} for t in targets]
            if len(targets) > 1:
                out.append({"type": "declare", "targets": targets})
        if turn["stage"] != "attack" and kind in (None, "enter", "move", "drop"):
            out += self._movement_moves(state, seat, turn, like)
        if kind in (None, "strike"):
            strikes = combat.strikes_available(state, seat)
            out += strikes if kind is None else [m for m in strikes if m["unit"] == like.get("unit")]
        if kind in (None, "ask_ally", "ask_disengage"):
            out += self._ask_moves(state, seat, turn)
        if kind in (None, "end_turn"):
            out.append({"type": "end_turn"})
        return out

    def _movement_moves(self, state, seat, turn, like=None):
        """Entries, movements and drops; ``like`` (a move) narrows them to its type and to
        its piece (an entry) or unit (a movement or a drop)."""
        kind = None if like is None else like["type"]
        out = []
        ice = frozen(state)
        spells = state["spells"][seat]
        if turn["moves_left"] > 0 and kind in (None, "enter", "move"):
            mover = Mover(state, seat)
            for kind_of in TYPES if kind in (None, "enter") else ():
                if state["pool"][seat][kind_of] <= 0 or (kind is not None and kind_of != like.get("piece")):
                    continue
                ends = mover.enter_ends(kind_of)
                out += [{"type": "enter", "piece": kind_of, "to": h} for h in ends]
                if kind_of == "merlin" and spells["teleport"] and ends:
                    out += [{"type": "enter", "piece": kind_of, "to": h, "teleport": True}
                            for h in mover.teleport_ends(None)]
            for uid, unit in _units_like(state, like) if kind in (None, "move") else ():
                if not controls(state, unit, seat) or uid in ice or uid in turn["moved"]:
                    continue
                out += [{"type": "move", "unit": uid, "to": h} for h in mover.unit_ends(uid)]
                if unit["type"] == "merlin" and not unit["guardian"] and spells["teleport"]:
                    out += [{"type": "move", "unit": uid, "to": h, "teleport": True}
                            for h in mover.teleport_ends(unit["hex"])]
        if kind in (None, "drop"):
            for uid, unit in _units_like(state, like):
                if unit["seat"] == seat and unit["carry"] and uid not in turn["moved"] and uid not in ice:
                    out.append({"type": "drop", "unit": uid})
        return out

    def _ask_moves(self, state, seat, turn):
        out = []
        units = state["units"]
        ice = frozen(state) if turn["declared"] else None
        for target in turn["declared"]:
            if target not in units:
                continue
            owner = units[target]["seat"]
            for ally in range(state["players"]):
                if ally in (seat, owner) or not state["active"][ally]:
                    continue
                if requests.asked(state, ally, "ally", asker=seat, turn=turn["number"], target=target):
                    continue
                if combat.ally_candidates(state, ally, target, ice):
                    out.append({"type": "ask_ally", "target": target, "seat": ally})
        if turn["stage"] != "attack":
            for other in sorted(_engaging_seats(state, seat)):
                if other not in turn["permissions"] and not requests.asked(
                        state, other, "disengage", asker=seat, turn=turn["number"]):
                    out.append({"type": "ask_disengage", "seat": other})
        return out

    # --- applying ---------------------------------------------------------------------

    @staticmethod
    def _seated(state, seat):
        return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state["players"]

    def _apply(self, state, seat, move):
        if not self._seated(state, seat):
            raise IllegalMove("You have no seat at this table.")
        if not state["active"][seat]:
            raise IllegalMove("You have left this game.")
        _check_fields(move)
        kind = move["type"]
        events: list[Event] = []
        if state["paused"] is not None:
            if kind != "resume":
                raise IllegalMove("The table is paused: resume first.")
            state["paused"] = None
            return [Event("resume", f"Seat {seat + 1} resumes play.", data={"seat": seat})]
        if kind == "resume":
            raise IllegalMove("The table is not paused.")
        if kind == "pause":
            question = move.get("question", "")
            if not isinstance(question, str) or len(question) > MAX_QUESTION:
                raise IllegalMove(f"A question is text of at most {MAX_QUESTION} characters.")
            if state["pauses_left"][seat] <= 0:
                raise IllegalMove("You have no pauses left.")
            state["pauses_left"][seat] -= 1
            state["paused"] = {"by": seat, "question": question}
            return [Event("pause", f"Seat {seat + 1} pauses the table: {question}", data={"seat": seat})]
        if kind == "decide":
            requests.answer(state, seat, move, events)
            return events
        if kind == "entry":
            self._entry(state, seat, move, events)
            return events
        if kind not in TURN_MOVES:
            raise IllegalMove(f"Unknown move: {kind}.")
        if state["phase"] != "play":
            raise IllegalMove("Entry hexes are still being chosen.")
        turn = turn_of(state, seat)
        if turn is None:
            raise IllegalMove("It is not your turn: you hold no turn token.")
        getattr(self, f"_do_{kind}")(state, seat, turn, move, events)
        return events

    def _entry(self, state, seat, move, events):
        if state["phase"] != "entry" or entry_chooser(state) != seat:
            raise IllegalMove("It is not your turn to choose an Entry hex.")
        hex_ = move.get("hex")
        if hex_ not in entry_choices(state):
            raise IllegalMove("That edge space is not open for an Entry hex.")
        state["entries"][seat] = hex_
        state["entry_next"] += 1
        named = board_of(state).hex_name(hex_)
        events.append(Event("entry", f"Seat {seat + 1} takes the Entry hex {named}.", data={"seat": seat, "hex": hex_}))
        _maybe_start_play(state)

    def _do_declare(self, state, seat, turn, move, events):
        if turn["stage"] != "declare":
            raise IllegalMove("Attacks are declared before anything else in a turn.")
        targets = move.get("targets")
        if not isinstance(targets, list) or len(set(targets)) != len(targets):
            raise IllegalMove("Declare a list of different units.")
        allowed = set(combat.declarable(state, seat))
        if any(t not in allowed for t in targets):
            raise IllegalMove("You may only declare enemy units on the board that one of your units "
                              "could still attack this turn.")
        turn["declared"] = list(targets)
        turn["stage"] = "move"
        named = [unit_label(state["units"], t, state["item_values"]) for t in targets]
        events.append(Event("declare", f"Seat {seat + 1} declares attacks on {', '.join(named) or 'nobody'}.",
                            data={"seat": seat, "targets": targets}))

    def _need_movement(self, turn, counts=True):
        if turn["stage"] == "attack":
            raise IllegalMove("After the first strike there is no more movement this turn.")
        if counts and turn["moves_left"] <= 0:
            raise IllegalMove("You have moved two pieces this turn.")

    def _do_enter(self, state, seat, turn, move, events):
        self._need_movement(turn)
        kind, to = move.get("piece"), move.get("to")
        if kind not in COUNT or state["pool"][seat][kind] <= 0:
            raise IllegalMove("You have no such piece waiting to enter.")
        mover = Mover(state, seat)
        if move.get("teleport"):
            if kind != "merlin" or not state["spells"][seat]["teleport"]:
                raise IllegalMove("Only Merlin may teleport, once a game.")
            if not mover.enter_ends(kind):
                raise IllegalMove("Your Entry hex is taken: nothing can enter.")
            if to not in mover.teleport_ends(None):
                raise IllegalMove("Merlin cannot teleport there.")
            state["spells"][seat]["teleport"] = False
        elif to not in mover.enter_ends(kind):
            raise IllegalMove("That piece cannot enter to there.")
        n = 1
        while f"s{seat}-{kind}-{n}" in state["units"]:
            n += 1
        uid = f"s{seat}-{kind}-{n}"
        state["pool"][seat][kind] -= 1
        state["units"][uid] = {"seat": seat, "type": kind, "hex": to, "carry": None, "guardian": False}
        how = "teleports" if move.get("teleport") else "brings"
        self._moved(state, seat, turn, uid, events, f"Seat {seat + 1} {how} {NAMES[kind]} on to {board_of(state).hex_name(to)}.")

    def _do_move(self, state, seat, turn, move, events):
        self._need_movement(turn)
        uid, to = move.get("unit"), move.get("to")
        unit = state["units"].get(uid) if isinstance(uid, str) else None
        if unit is None or not controls(state, unit, seat):
            raise IllegalMove("That is not a unit you can move.")
        if uid in frozen(state):
            raise IllegalMove("That unit is a declared target: it is frozen this turn.")
        if uid in turn["moved"]:
            raise IllegalMove("That unit has already moved this turn.")
        mover = Mover(state, seat)
        if move.get("teleport"):
            if unit["type"] != "merlin" or unit["guardian"] or not state["spells"][seat]["teleport"]:
                raise IllegalMove("Only Merlin may teleport, once a game.")
            if to not in mover.teleport_ends(unit["hex"]):
                raise IllegalMove("Merlin cannot teleport there.")
            state["spells"][seat]["teleport"] = False
        elif to not in mover.unit_ends(uid):
            raise IllegalMove("That unit cannot move there (terrain, units, Entry hexes or engagement).")
        was, unit["hex"] = unit["hex"], to
        named = board_of(state).hex_name(to)
        # Merlin's spell is named (only a player's own Merlin teleports, never a guardian).
        text = f"Seat {seat + 1} teleports Merlin to {named}." if move.get("teleport") else f"{unit_name(uid)} moves to {named}."
        self._moved(state, seat, turn, uid, events, text, was)

    def _moved(self, state, seat, turn, uid, events, text, was=None):
        turn["moved"].append(uid)
        turn["moves_left"] -= 1
        turn["stage"] = "move"
        unit = state["units"][uid]
        # Who moved it (a guardian is anyone's), and ``from``: where it stood (none for a piece
        # brought on), so the page can mark what others moved since a player's last turn.
        data = {"unit": uid, "seat": seat, "to": unit["hex"]}
        if was is not None:
            data["from"] = was
        events.append(Event("move", text, data=data))
        items.pick_up(state, uid, events)
        items.bank(state, uid, events)

    def _do_drop(self, state, seat, turn, move, events):
        self._need_movement(turn, counts=False)
        uid = move.get("unit")
        unit = state["units"].get(uid) if isinstance(uid, str) else None
        if unit is None or unit["seat"] != seat or unit["carry"] is None:
            raise IllegalMove("That unit of yours carries nothing.")
        if uid in turn["moved"]:
            raise IllegalMove("Drop before the unit moves, not after.")
        if uid in frozen(state):
            raise IllegalMove("That unit is frozen this turn.")
        item = items.drop(state, uid)
        turn["stage"] = "move"
        events.append(Event("drop", f"{unit_name(uid)} drops {item_name(item, state['item_values'])}.", data={"unit": uid, "item": item}))

    def _do_strike(self, state, seat, turn, move, events):
        uid, mode, target = move.get("unit"), move.get("mode"), move.get("target")
        if not isinstance(uid, str) or not combat.can_strike_with(state, seat, uid, frozen(state)):
            raise IllegalMove("That unit cannot strike now (not yours, frozen, already struck, or no move left).")
        unit = state["units"][uid]
        if mode == "sweep":
            if unit["type"] != "lancelot" or not combat.sweep_targets(state, seat, uid):
                raise IllegalMove("A sweep needs a Lancelot next to a declared target.")
            target = None
        else:
            if not isinstance(target, str) or target not in turn["declared"]:
                raise IllegalMove("Strike only at a target you declared this turn.")
            if combat.strike_value(state, seat, uid, target, mode) is None:
                raise IllegalMove("That strike is not possible (mode, range, sight or spell).")
        combat.strike(state, seat, uid, target, mode, events)

    def _do_ask_ally(self, state, seat, turn, move, events):
        target, ally = move.get("target"), move.get("seat")
        if target not in turn["declared"] or target not in state["units"]:
            raise IllegalMove("Ask for help only against a target you declared.")
        if not self._seated(state, ally) or ally == seat or ally == state["units"][target]["seat"] or not state["active"][ally]:
            raise IllegalMove("Ask a third player, not yourself or the target's owner.")
        if requests.asked(state, ally, "ally", asker=seat, turn=turn["number"], target=target):
            raise IllegalMove("You have already asked them about that target.")
        if not combat.ally_candidates(state, ally, target):
            raise IllegalMove("They have no unit that can reach that target.")
        requests.ask_ally(state, seat, target, ally, events)

    def _do_ask_disengage(self, state, seat, turn, move, events):
        self._need_movement(turn, counts=False)
        other = move.get("seat")
        if not self._seated(state, other) or other not in _engaging_seats(state, seat):
            raise IllegalMove("None of your units is engaged with that player's.")
        if other in turn["permissions"] or requests.asked(state, other, "disengage", asker=seat, turn=turn["number"]):
            raise IllegalMove("You have already asked them this turn.")
        requests.ask_disengage(state, seat, other, events)

    def _do_end_turn(self, state, seat, turn, move, events):
        # ``timed_out`` (the clock's end of the turn) matters only in editions 1-3 (combat.resolve).
        deaths = combat.resolve(state, seat, move.get("timed_out") is True, events)
        requests.offer_revivals(state, deaths, events)
        requests.lapse_turn_asks(state, seat, turn["number"])
        state["turn_count"] += 1
        events.append(Event("end_turn", f"Seat {seat + 1} ends the turn.", data={"seat": seat}))
        turns.pass_token(state, seat)
        items.check_goals(state, events)
        if state["result"] is None and state["turn_count"] >= state["options"]["turn_cap"]:
            items.finish(state, [], True, f"The turn limit ({state['options']['turn_cap']}) is reached: a draw.", events)

    # --- leaving --------------------------------------------------------------------

    def _resign(self, state, seat):
        if not self._seated(state, seat) or not state["active"][seat]:
            raise IllegalMove("You are not playing in this game.")
        events = [Event("resign", f"Seat {seat + 1} resigns.", data={"seat": seat})]
        requests.drop_asks_of(state, seat)
        for uid in [uid for uid, u in state["units"].items() if u["seat"] == seat]:
            items.drop(state, uid)
            del state["units"][uid]
        state["active"][seat] = False
        if state["paused"] is not None and state["paused"]["by"] == seat:
            state["paused"] = None
        if seat in state["tokens"]:
            if state["phase"] == "play":
                turns.pass_token(state, seat)
            else:
                state["tokens"].remove(seat)
                receiver = turns.next_holder(state, seat)
                if receiver is not None:
                    state["tokens"].append(receiver)
        left = [s for s in range(state["players"]) if state["active"][s]]
        if len(left) == 1:
            gone = " and ".join(f"Seat {s + 1}" for s in range(state["players"]) if not state["active"][s])
            items.finish(state, left, False, f"{gone} resigned: Seat {left[0] + 1} is the last player standing.", events)
        elif state["phase"] == "entry":
            _maybe_start_play(state)
        return events


_TEXT_FIELDS = ("unit", "to", "piece", "target", "mode", "hex", "question")
_INT_FIELDS = ("seat", "id")


def _check_fields(move):
    """Refuse ill-typed fields up front, so no rule ever meets a list where it wants a key."""
    for name in _TEXT_FIELDS:
        if name in move and move[name] is not None and not isinstance(move[name], str):
            raise IllegalMove(f"'{name}' must be text.")
    for name in _INT_FIELDS:
        if name in move and (not isinstance(move[name], int) or isinstance(move[name], bool)):
            raise IllegalMove(f"'{name}' must be a whole number.")
    targets = move.get("targets")
    if targets is not None and (not isinstance(targets, list) or not all(isinstance(t, str) for t in targets)):
        raise IllegalMove("'targets' must be a list of unit ids.")


def _choices(decision):
    least, most = decision["pick"]
    values = [o["value"] for o in decision["options"]]
    if least == most == 1:
        return values
    # One unit at a time, all of them, or none: bounded, and any other subset is accepted.
    out = [[]] if least == 0 else []
    out += [[v] for v in values] if most >= 1 else []
    if len(values) > 1:
        out.append(values)
    return out


def _units_like(state, like):
    """The units a listing looks at: every one, in the state's order, or the one ``like``
    names (none when it names no unit there)."""
    units = state["units"]
    if like is None:
        return units.items()
    uid = like.get("unit")
    return [(uid, units[uid])] if type(uid) is str and uid in units else []


def _engaging_seats(state, seat):
    """Players with a unit next to one of ``seat``'s units."""
    units = state["units"]
    adjacent = board_of(state).adjacent
    near = {n for u in units.values() if u["seat"] == seat for n in adjacent[u["hex"]]}
    return {u["seat"] for u in units.values() if u["seat"] is not None and u["seat"] != seat and u["hex"] in near}


def _maybe_start_play(state):
    if state["phase"] == "entry" and entry_chooser(state) is None:
        state["phase"] = "play"
        for s in state["tokens"]:
            turns.start(state, s)
