"""The contract every game's rules implement, and the types they share.

State is plain data (dicts, lists, str, int, bool, None) that round-trips through JSON.
Moves are dicts with a ``"type"`` key. ``apply`` never mutates the state it is given.
Every random draw comes from ``state["rng"]`` (see ``rng.py``), so ``setup(seed)`` plus
the move log replays a game exactly.
"""
from __future__ import annotations

import copy
import marshal
from dataclasses import FrozenInstanceError, _asdict_inner, dataclass
from operator import itemgetter
from typing import Any, ClassVar

from . import offered as offering
from . import takeback

State = dict
Move = dict

EVERYONE = None  # audience of an event every viewer may see


class IllegalMove(Exception):
    """A move the rules refuse; ``reason`` is written for the person who tried it."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


_NO_DATA = object()  # ``data`` not given: each event gets a dict of its own
_tuple_new = tuple.__new__


def _unordered(self, other):
    # Events and pendings have no order (the frozen dataclasses had none); raised here, as
    # a tuple on the other side would otherwise compare itself with this one's fields.
    raise TypeError(f"'<' and the like are not supported for {type(self).__name__}")


class _Record(tuple):
    """A small immutable record stored as a tuple: engines make hundreds of events a game,
    and building a tuple costs about half of a frozen dataclass's ``__init__`` (which sets
    each field through ``object.__setattr__``). It behaves as the frozen dataclass it
    replaces: fields by name, read-only, equal only to a record of the same class with
    equal fields, hashed by its fields, no order, the same ``repr`` and pickling
    (tests/rules/test_base.py)."""

    __slots__ = ()
    _fields: tuple = ()

    # A plain tuple asks its subclass first, so these say "not equal" to tuples themselves
    # (the dataclass was never equal to one); other objects still get their say.
    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return tuple.__eq__(self, other)
        return False if isinstance(other, tuple) else NotImplemented

    def __ne__(self, other):
        if other.__class__ is self.__class__:
            return tuple.__ne__(self, other)
        return True if isinstance(other, tuple) else NotImplemented

    __hash__ = tuple.__hash__
    __lt__ = __le__ = __gt__ = __ge__ = _unordered

    def __repr__(self):
        inner = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self))
        return f"{self.__class__.__qualname__}({inner})"

    def __getnewargs__(self):
        return tuple(self)

    def __reduce__(self):
        return (self.__class__, tuple(self))

    def __setattr__(self, name, value):
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name):
        raise FrozenInstanceError(f"cannot delete field {name!r}")


class Event(_Record):
    """Something that happened, in words, with who may see it.

    ``audience`` is EVERYONE (None) or a tuple of seats; ``hidden_from`` removes seats from
    it (e.g. "seat 1 draws a card" for everyone, spectators included, but seat 1, who gets
    the event naming the card). ``data`` holds structured details for renderers and must
    respect the same audience.

    Fields: ``Event(kind, text, audience=EVERYONE, data={}, hidden_from=())``.
    """

    __slots__ = ()
    _fields = ("kind", "text", "audience", "data", "hidden_from")
    __match_args__ = _fields

    def __new__(cls, kind: str, text: str, audience: tuple[int, ...] | None = EVERYONE,
                data: dict = _NO_DATA, hidden_from: tuple[int, ...] = ()) -> "Event":
        return _tuple_new(cls, (kind, text, audience, {} if data is _NO_DATA else data, hidden_from))

    kind = property(itemgetter(0), doc="what happened, in one word (str)")
    text = property(itemgetter(1), doc="what happened, in words (str)")
    audience = property(itemgetter(2), doc="EVERYONE (None) or a tuple of seats")
    data = property(itemgetter(3), doc="structured details for renderers (dict)")
    hidden_from = property(itemgetter(4), doc="seats removed from the audience (tuple)")

    def visible_to(self, seat: int | None) -> bool:
        kind, text, audience, data, hidden_from = self
        if seat is not None and seat in hidden_from:
            return False
        return audience is EVERYONE or (seat is not None and seat in audience)

    def as_dict(self) -> dict:
        # Key order and copying as ``dataclasses.asdict`` gave them: ``data`` deep-copied.
        kind, text, audience, data, hidden_from = self
        return {"kind": kind, "text": text, "audience": None if audience is None else list(audience),
                "data": _plain_copy(data), "hidden_from": list(hidden_from)}

    @classmethod
    def from_dict(cls, d: dict) -> "Event":
        aud = d.get("audience")
        return cls(d["kind"], d["text"], None if aud is None else tuple(aud), d.get("data") or {},
                   tuple(d.get("hidden_from") or ()))


def _plain_copy(value):
    """A deep copy as ``dataclasses.asdict`` makes of a field: dicts, lists and tuples
    rebuilt (recursively), strings and numbers shared, anything else as asdict treats it."""
    cls = type(value)
    if cls is dict:
        return {_plain_copy(k): _plain_copy(v) for k, v in value.items()}
    if cls is list:
        return [_plain_copy(v) for v in value]
    if cls is str or cls is int or value is None or cls is bool or cls is float:
        return value
    if cls is tuple:
        return tuple(_plain_copy(v) for v in value)
    return _asdict_inner(value, dict)


class Pending(_Record):
    """A seat that must act now: ``kind`` names what for (turn, response, offer, ...).

    The shell puts a deadline on each pending seat from the match's time control and,
    when it passes, applies ``Game.timeout_move(state, seat)``.

    ``key`` tells successive decisions of the same kind apart (a decision's id, a turn
    number): a seat whose ``(kind, key)`` is unchanged faces the same decision it looked at.
    Games with ``strict_versions = False`` rely on it (see ``Game.strict_versions``).

    Fields: ``Pending(seat, kind="turn", key="")``.
    """

    __slots__ = ()
    _fields = ("seat", "kind", "key")
    __match_args__ = _fields

    def __new__(cls, seat: int, kind: str = "turn", key: str = "") -> "Pending":
        return _tuple_new(cls, (seat, kind, key))

    seat = property(itemgetter(0), doc="the seat that must act (int)")
    kind = property(itemgetter(1), doc="what for: turn, response, offer, a decision's kind (str)")
    key = property(itemgetter(2), doc="tells successive decisions of one kind apart (str)")


@dataclass(frozen=True)
class Outcome:
    winners: tuple[int, ...] = ()
    draw: bool = False
    reason: str = ""

    def as_dict(self) -> dict:
        return {"winners": list(self.winners), "draw": self.draw, "reason": self.reason}


class Game:
    """Base class of a game's rules. Subclasses override the methods marked abstract."""

    kind: ClassVar[str] = ""
    name: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    allows_spectators: ClassVar[bool] = True
    # Options a creator may set: name -> {"type": "bool"|"int"|"choice", "default": ..., ...}
    option_schema: ClassVar[dict[str, dict]] = {}
    # The stale-state guard. True: a move must be made on the exact version its player saw
    # (any change since refuses it as stale). False, for games where several seats act at
    # once (Camelot's two turn holders, Fluxx's simultaneous discards): a move made on an
    # older version is still applied when the mover's own pending ``(kind, key)`` has not
    # changed since that version and the move is legal in the current state; the shell
    # tracks, per seat, the version at which its situation last changed.
    strict_versions: ClassVar[bool] = True
    # Each kind of wait (``Pending.kind``) in words: what that player is asked to do, as it
    # follows "to" ("discard Keepers down to the Keeper Limit"). The seats bar says "to ...",
    # a notification "You are asked to ...": never the kind's own identifier. Data, not code;
    # tests/platform/test_wait_words.py plays every game and checks each wait it meets has words.
    wait_words: ClassVar[dict[str, str]] = {"turn": "move"}
    # The waits (``Pending.kind``) in which a seat's time running out is running out of time on
    # its own turn: the shell's referee then rules (a loss in a game of two, the clock's move
    # and then a computer player in a larger one, an abort before the person's first move).
    # Any other wait has a default the clock makes in the seat's place (``timeout_move``: a
    # response window passed, a choice's default, a discard down to a limit).
    own_turn_waits: ClassVar[frozenset[str]] = frozenset({"turn"})
    # Top-level keys of the state that never change once ``setup`` made them (the CCG's card
    # definitions). The shell stores them once instead of with every move
    # (games/state_storage.py); successive states should share these parts, not copy them.
    fixed_keys: ClassVar[tuple[str, ...]] = ()
    # Keys of ``view_for``'s dict that map names to what never changes once shown (the CCG's
    # card definitions by code). A page keeps them, so a change it receives carries only the
    # names it was not shown before (games/live/frames.py).
    view_lasting: ClassVar[tuple[str, ...]] = ()

    # Whether a player may take back moves (games/rules/takeback.py): only where a move can
    # be made that shows nothing hidden and draws nothing at random. A game that sets this
    # says which moves in ``takeback_allowed`` (and, if only some of its stored games may,
    # which in ``allows_takebacks``).
    takebacks: ClassVar[bool] = False
    # Whether the page's log lines carry their events' ``data`` (for the board script to read:
    # Camelot marks the pieces that moved since the viewer's last turn). A line goes only to a
    # viewer its event is visible to, and an event's data keeps its audience (``Event``).
    log_data: ClassVar[bool] = False

    # Fields of a move that no listing can hold, by move type: ``{type: {field: check}}``,
    # each check one of games/rules/offered.py's (free text within bounds, a number within a
    # range, a subset of the listed values) or ``decisions.Answer``. ``offered`` takes a move
    # of such a type when a listed move of its type has exactly its fields and equals it in
    # every other one, and each free field passes its check. Declared, never guessed: a
    # field not named here must be as listed.
    free_fields: ClassVar[dict[str, dict[str, Any]]] = {}

    # A game that deals newcomers in while it is under way (``add_seat``, optional: Fluxx)
    # names here the yes-or-no table option that lets it, so lists of games (the lobby) can
    # offer such a game without reading its state; None: any game of the kind under way
    # takes newcomers, up to ``max_players``.
    newcomer_option: ClassVar[str | None] = None

    # --- to implement -------------------------------------------------------------
    def setup(self, players: int, options: dict, seed: int) -> State:  # pragma: no cover
        raise NotImplementedError

    def legal_moves(self, state: State, seat: int) -> list[Move]:  # pragma: no cover
        raise NotImplementedError

    def _apply(self, state: State, seat: int, move: Move) -> list[Event]:  # pragma: no cover
        """Change ``state`` (a private copy) in place and return the events."""
        raise NotImplementedError

    def view_for(self, state: State, seat: int | None) -> dict:  # pragma: no cover
        raise NotImplementedError

    def outcome(self, state: State) -> Outcome | None:  # pragma: no cover
        raise NotImplementedError

    def wait_text(self, kind: str) -> str:
        """A kind of wait in words (``wait_words``); "act" for one without (never the raw kind)."""
        return self.wait_words.get(kind, "act")

    def pending(self, state: State) -> list[Pending]:  # pragma: no cover
        raise NotImplementedError

    def timeout_move(self, state: State, seat: int) -> Move:  # pragma: no cover
        """The move applied for ``seat`` when its deadline passes."""
        raise NotImplementedError

    def _resign(self, state: State, seat: int) -> list[Event]:  # pragma: no cover
        raise NotImplementedError

    def takeover_move(self, state: State, seat: int) -> Move | None:
        """The move the site records when a computer player takes ``seat`` for the rest of the
        game, before the computer's first move, or None when the rules need not know (the
        default). A game whose rules treat such a seat differently (the CCG's: it stakes
        nothing more) records it so, in its state: the game then replays from its log with
        it. No player is offered it; the record's mover is the clock (games/rules/verify.py)."""
        return None

    def clocks_paused(self, state: State) -> bool:
        """True while the table has stopped every clock (Camelot's pause for a question).

        The shell then keeps no deadline for any seat, and gives each pending seat a fresh
        allowance when this turns False again."""
        return False

    def allows_takebacks(self, state: State) -> bool:
        """Whether this game keeps take-backs: ``takebacks``, unless games stored before the
        rules had them must replay without the chain (Camelot's editions)."""
        return self.takebacks

    def takeback_allowed(self, before: State, after: State, seat: int, move: Move) -> bool:
        """Whether ``seat`` may take back ``move`` (which turned ``before`` into ``after``)
        until it or anyone else moves again. Only asked when ``takebacks`` is set; ``apply``
        also requires that no random draw was made, the game did not end, the mover still has
        something to do and no other seat was asked anything new."""
        return False

    def describe_move(self, move: Move, state: State | None = None) -> str:
        """A short phrase for logs and notifications ("passes", "plays Tim the Enchanter");
        ``state`` is the state the move was made in, so the piece or card can be named."""
        return move.get("type", "move")

    def log_words(self, text: str) -> str:
        """A stored log line's words as the site says them now. A game whose older records
        said something in a way it no longer does rewrites it here, words only (Camelot's
        lines stored before hexes had names gave raw coordinates); the stored record is never
        changed, so the game still replays and verifies as it was played."""
        return text

    def moved_since_turn(self, state: State, seat: int, events_newest_first) -> dict[str, str | None] | None:
        """The pieces other players moved since ``seat``'s last turn ended, each with where it
        stood before (None: it was brought on), for the board to mark; None for a game that
        marks nothing. ``events_newest_first``: the events this seat may see, as stored
        dicts, newest first, read from the store only as far as this reads them, so a game
        stops at the seat's own end of turn (and one that marks nothing reads none)."""
        return None

    def seats_out(self, state: State) -> dict[int, str]:
        """Seats whose players are out of a game that may go on without them, each with why,
        as words that follow a name ("resigned", "conceded the doubled ante"). The shell
        tells such a player at once that the game is over for them (games/table/selectors.py,
        ``ending_for``), and ends a game in which no person is left playing. A game that ends
        when anyone leaves (Grail Duel) has none."""
        return {}

    def ending_notes(self, state: State, seat: int | None) -> list[str]:
        """What a viewer should read about the end beyond the outcome's reason, in sentences
        that may say "Seat N": what changed hands (the CCG's ante), or, while the game goes
        on after a player left, why it goes on and what is still at stake. Public words only:
        they are shown to this viewer (``seat``; None, a spectator)."""
        return []

    def opening_events(self, state: State) -> list[Event]:
        """The log's first lines, read from the state ``setup`` made (Fluxx: who goes first).
        The shell stores them with the game's first record, before that move's own lines:
        words only, so a game stored before a kind said them still replays (no state
        changes, no draw from the generator). None by default."""
        return []

    # --- provided -----------------------------------------------------------------
    def offered(self, state: State, seat: int, move: Move) -> str | None:
        """None when ``move`` is one the rules offer ``seat`` now; else why not, in words a
        person can read ("That move is not open to you now."). The shell applies a person's
        move only when it is offered (games/rules/offered.py has the rule): one of
        ``legal_moves(state, seat)`` exactly, types included; a move of a type in
        ``free_fields`` whose free fields pass their checks; or resigning, or taking back
        (``{"type": "takeback", "mark": <int>}``) where the game keeps take-backs."""
        return offering.refusal(self, state, seat, move)

    def offered_candidates(self, state: State, seat: int, move: Move) -> list[Move]:
        """The listed moves ``offered`` compares ``move`` with: ``legal_moves(state, seat)``.
        A game that can list the moves of one type for less may return only those of
        ``move``'s type (every one of them, each exactly as ``legal_moves`` lists it): the
        CCG lists only the plays of the card and area a play names."""
        return self.legal_moves(state, seat)

    def views_for(self, state: State, seats) -> dict:
        """``view_for`` of one state for each of ``seats`` (None: a spectator), by seat. The
        shell asks for every viewer's view of each change (games/live/frames.py); a game whose
        views share most of their parts may build those once. Each view must equal what
        ``view_for`` gives for its seat (the CCG's, its only override, is checked at every
        step of tests/rules/ccg/test_random_playout.py)."""
        return {seat: self.view_for(state, seat) for seat in seats}

    def copy_state(self, state: State) -> State:
        """The private copy ``apply`` changes. A game whose state has a known shape may
        override it with a cheaper copy (Fluxx's and Camelot's ``state_copy.py``).

        By default, marshal's round trip: for plain data it is the copy ``copy.deepcopy``
        makes (the same types, tuples and shared parts included) at a quarter of the cost
        (13 µs against 50 for a Cup Quest state); anything marshal cannot write (an object
        of a class of its own) falls back to deepcopy."""
        try:
            return marshal.loads(marshal.dumps(state))
        except ValueError:
            return copy.deepcopy(state)

    def apply(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        """Validate and apply ``move`` for ``seat``; the input state is left untouched."""
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise IllegalMove("A move must be an object with a 'type'.")
        if self.outcome(state) is not None:
            raise IllegalMove("The game is over.")
        chained = self.allows_takebacks(state)
        if chained and move["type"] == takeback.MOVE:
            return self._take_back(state, seat, move)
        # The chain of earlier states is not the game's to copy: it is shared, never changed.
        source = takeback.without_chain(state) if chained else state
        new = self.copy_state(source)
        events = self._resign(new, seat) if move["type"] == "resign" else self._apply(new, seat, move)
        if chained:
            allowed = self.takeback_allowed(source, new, seat, move) and self._nothing_else_changed(source, new, seat)
            takeback.extend(state, new, seat, move if allowed else None)
        return new, events

    def _take_back(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        why = takeback.refusal(state, seat, move)
        if why is not None:
            raise IllegalMove(why)
        restored, undone, before = takeback.restore(state)
        text = f"Seat {seat + 1} takes back a move ({self.describe_move(undone, before)})."
        return restored, [Event("takeback", text, data={"seat": seat, "move": undone})]

    def _nothing_else_changed(self, before: State, after: State, seat: int) -> bool:
        # The generic half of a take-back's conditions: no random draw, the game not over,
        # and no other seat asked anything new (only the mover's own waits may change).
        if before.get("rng") != after.get("rng") or self.outcome(after) is not None:
            return False
        waits_after = self.pending(after)
        others_after = {p for p in waits_after if p.seat != seat}
        others_before = {p for p in self.pending(before) if p.seat != seat}
        return others_before == others_after and any(p.seat == seat for p in waits_after)

    def takeback_mark(self, state: State, seat: int | None) -> int | None:
        """The mark a ``{"type": "takeback", "mark": ...}`` move must carry for ``seat`` to take
        back its last move now, or None when it may not (views show it to that seat only)."""
        return takeback.mark_for(state, seat) if self.allows_takebacks(state) else None

    def options_with_defaults(self, options: dict | None) -> dict:
        """Fill defaults and reject unknown or ill-typed options (ValueError)."""
        options = dict(options or {})
        unknown = set(options) - set(self.option_schema)
        if unknown:
            raise ValueError(f"Unknown option(s): {', '.join(sorted(unknown))}")
        out: dict[str, Any] = {}
        for name, spec in self.option_schema.items():
            value = options.get(name, spec["default"])
            kind = spec["type"]
            if kind == "bool" and not isinstance(value, bool):
                raise ValueError(f"Option {name} must be true or false.")
            if kind == "int":
                if not isinstance(value, int) or isinstance(value, bool):
                    raise ValueError(f"Option {name} must be a whole number.")
                if not spec.get("min", value) <= value <= spec.get("max", value):
                    raise ValueError(f"Option {name} must be between {spec['min']} and {spec['max']}.")
            if kind == "choice" and value not in spec["choices"]:
                raise ValueError(f"Option {name} must be one of {', '.join(map(str, spec['choices']))}.")
            out[name] = value
        return out
