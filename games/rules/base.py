"""The contract every game's rules implement, and the types they share.

State is plain data (dicts, lists, str, int, bool, None) that round-trips through JSON.
Moves are dicts with a ``"type"`` key. ``apply`` never mutates the state it is given.
Every random draw comes from ``state["rng"]`` (see ``rng.py``), so ``setup(seed)`` plus
the move log replays a game exactly.
"""
from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

State = dict
Move = dict

EVERYONE = None  # audience of an event every viewer may see


class IllegalMove(Exception):
    """A move the rules refuse; ``reason`` is written for the person who tried it."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Event:
    """Something that happened, in words, with who may see it.

    ``audience`` is EVERYONE (None) or a tuple of seats; ``hidden_from`` removes seats from
    it (e.g. "seat 1 draws a card" for everyone, spectators included, but seat 1, who gets
    the event naming the card). ``data`` holds structured details for renderers and must
    respect the same audience.
    """

    kind: str
    text: str
    audience: tuple[int, ...] | None = EVERYONE
    data: dict = field(default_factory=dict)
    hidden_from: tuple[int, ...] = ()

    def visible_to(self, seat: int | None) -> bool:
        if seat is not None and seat in self.hidden_from:
            return False
        return self.audience is EVERYONE or (seat is not None and seat in self.audience)

    def as_dict(self) -> dict:
        d = asdict(self)
        d["audience"] = None if self.audience is None else list(self.audience)
        d["hidden_from"] = list(self.hidden_from)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Event":
        aud = d.get("audience")
        return cls(d["kind"], d["text"], None if aud is None else tuple(aud), d.get("data") or {},
                   tuple(d.get("hidden_from") or ()))


@dataclass(frozen=True)
class Pending:
    """A seat that must act now: ``kind`` names what for (turn, response, offer, ...).

    The shell puts a deadline on each pending seat from the match's time control and,
    when it passes, applies ``Game.timeout_move(state, seat)``.

    ``key`` tells successive decisions of the same kind apart (a decision's id, a turn
    number): a seat whose ``(kind, key)`` is unchanged faces the same decision it looked at.
    Games with ``strict_versions = False`` rely on it (see ``Game.strict_versions``).
    """

    seat: int
    kind: str = "turn"
    key: str = ""


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

    def pending(self, state: State) -> list[Pending]:  # pragma: no cover
        raise NotImplementedError

    def timeout_move(self, state: State, seat: int) -> Move:  # pragma: no cover
        """The move applied for ``seat`` when its deadline passes."""
        raise NotImplementedError

    def _resign(self, state: State, seat: int) -> list[Event]:  # pragma: no cover
        raise NotImplementedError

    def clocks_paused(self, state: State) -> bool:
        """True while the table has stopped every clock (Camelot's pause for a question).

        The shell then keeps no deadline for any seat, and gives each pending seat a fresh
        allowance when this turns False again."""
        return False

    def describe_move(self, move: Move, state: State | None = None) -> str:
        """A short phrase for logs and notifications ("passes", "plays Tim the Enchanter");
        ``state`` is the state the move was made in, so the piece or card can be named."""
        return move.get("type", "move")

    # --- provided -----------------------------------------------------------------
    def copy_state(self, state: State) -> State:
        """The private copy ``apply`` changes. A game whose state has a known shape may
        override it with a cheaper copy (Fluxx's and Camelot's ``state_copy.py``)."""
        return copy.deepcopy(state)

    def apply(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        """Validate and apply ``move`` for ``seat``; the input state is left untouched."""
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise IllegalMove("A move must be an object with a 'type'.")
        if self.outcome(state) is not None:
            raise IllegalMove("The game is over.")
        new = self.copy_state(state)
        if move["type"] == "resign":
            return new, self._resign(new, seat)
        events = self._apply(new, seat, move)
        return new, events

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
