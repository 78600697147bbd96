"""Computer players: finding a game's levels and asking one of them for a move.

Each game keeps its players beside its rules, in ``games.rules.<kind>.players``, as
``LEVELS = {name: choose}`` where ``choose(view, legal, rng)`` sees only what
``view_for(its seat)`` shows and the legal moves, and returns one of those moves. This
module is the one door the shell and the benchmarks use: it builds the view and the legal
list from the state (so no level ever holds the state), seeds the generator from a stable
checksum, and never lets a level stall a game: a crash, an unknown level or a move not in
the list gives a random legal move instead, with a note saying why.

Pure Python (no Django): see docs/rules/<game>.md, "Computer players", for each level's ideas.
"""
from __future__ import annotations

import hashlib
import importlib
import marshal
from types import ModuleType
from typing import Callable

from .base import Game
from .rng import Rng, new_rng_state

LEVEL_LABELS = {"random": "Random squire", "knight": "Knight"}

Choose = Callable[[dict, list, Rng], dict]


def level_label(level: str) -> str:
    """The name people see for a level ("Knight")."""
    return LEVEL_LABELS.get(level, level.replace("_", " ").capitalize())


def players_module(kind: str) -> ModuleType | None:
    """``games.rules.<kind>.players``, or None for a game without computer players."""
    if not kind or not kind.isidentifier():
        return None
    try:
        return importlib.import_module(f"{__package__}.{kind}.players")
    except ModuleNotFoundError as err:
        # Only a missing players module means "none"; a broken import inside one is a bug.
        if err.name in (f"{__package__}.{kind}", f"{__package__}.{kind}.players"):
            return None
        raise


def levels_for(kind: str) -> list[str]:
    """The level names a seat of this game may be given, weakest first ([] if none)."""
    module = players_module(kind)
    return list(module.LEVELS) if module is not None else []


def seed_for(*parts) -> int:
    """A stable 63-bit seed from the parts (e.g. match seed, version, seat).

    sha256 of their repr, so the same parts give the same seed in every process (Python's
    own ``hash`` of a str is salted per process and would break replays)."""
    digest = hashlib.sha256(repr(parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def random_move(legal: list[dict], rng: Rng) -> dict:
    """Uniform over the legal moves: the "random" level of every game and the fallback."""
    return legal[rng.below(len(legal))]


def choose_move(game: Game, state: dict, seat: int, level: str, seed: int) -> tuple[dict, str | None]:
    """The move a computer player of ``level`` makes for ``seat``, and a note.

    The level is handed ``game.view_for(state, seat)`` and ``game.legal_moves(state, seat)``
    only. ``note`` is None when the level's own choice is used; otherwise it says why a random
    legal move was taken instead. The move is returned postable (for CCG with the quote or
    shout a person would add). ValueError when the seat has no legal move at all.
    """
    legal = game.legal_moves(state, seat)
    if not legal:
        raise ValueError(f"Seat {seat + 1} has no legal move to make.")
    module = players_module(game.kind)
    rng = Rng(new_rng_state(seed))
    note = None
    chosen = None
    level_fn = module.LEVELS.get(level) if module is not None else None
    if level_fn is None:
        note = f"No computer level '{level}' for {game.kind}: a random legal move was made."
    else:
        # Private copies: a view may share parts with the state (the CCG's card definitions),
        # and a level that wrote into its view must not be able to change the game.
        view, offered = _copy(game.view_for(state, seat)), _copy(legal)
        try:
            chosen = level_fn(view, offered, rng)
        except Exception as err:  # any bug in a level must not stall the table
            note = f"The {level} player failed ({type(err).__name__}: {err}): a random legal move was made."
        else:
            chosen = _listed(chosen, offered, legal)
            if chosen is None:
                note = f"The {level} player chose a move that is not legal: a random legal move was made."
    if chosen is None:
        # A fresh generator, so the fallback does not depend on how far the level got.
        chosen = random_move(legal, Rng(new_rng_state(seed ^ 0x5DEECE66D)))
    postable = getattr(module, "postable", None) if module is not None else None
    return (postable(state, chosen) if postable else chosen), note


def _copy(data):
    """A deep copy of plain JSON data (marshal: several times faster than copy.deepcopy)."""
    return marshal.loads(marshal.dumps(data, 2))  # version 2: no back-references, loads faster


def _listed(move, offered: list[dict], legal: list[dict]) -> dict | None:
    """The element of ``legal`` the level chose from its copy ``offered`` (by position when
    it returned an element, else by equality), or None when it is not listed."""
    for i, m in enumerate(offered):
        if move is m:
            return legal[i] if offered[i] == legal[i] else None  # a level that edited the move
    if isinstance(move, dict):
        for m in legal:
            if m == move:
                return m
    return None


def play_game(game: Game, state: dict, levels: list[str], seed: int, max_moves: int = 20_000,
              chooser=None) -> tuple[dict, int, list[str]]:
    """Play ``state`` to its end with a computer player of ``levels[seat]`` in every seat.

    The first pending seat moves each time, with the seed ``seed_for(seed, move number,
    seat)``. ``chooser`` replaces ``choose_move`` (same arguments), e.g. to time it.
    Returns the final state, the number of moves and the fallback notes. Used by the tests
    and bench/computer_players.py; RuntimeError if the game outruns ``max_moves``.
    """
    choose = chooser or choose_move
    notes: list[str] = []
    moves = 0
    while game.outcome(state) is None:
        if moves >= max_moves:
            raise RuntimeError(f"{game.kind}: no end after {max_moves} moves")
        seat = game.pending(state)[0].seat
        move, note = choose(game, state, seat, levels[seat], seed_for(seed, moves, seat))
        if note:
            notes.append(note)
        state, _ = game.apply(state, seat, move)
        moves += 1
    return state, moves, notes
