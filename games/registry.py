"""Game kind -> its room (rules, hooks, forms, URLs, assets). The shell looks games up here
and nowhere else. Adding a game is one line in ROOMS plus its own folders:
``games/rules/<kind>/`` (pure rules) and ``games/kinds/<kind>/`` (its room, see
``games/kinds/base.py``).

The registry stands beside the models, below every part that asks it: it names the rooms'
packages and imports them on first use, but never imports a room's code by name, so the
rooms (which import the table, decks and the API's edge) stand above it."""
from __future__ import annotations

import importlib
import threading
from pathlib import Path

from typing import Protocol

from games.rules.base import Game


class Room(Protocol):
    """What the registry needs of a room (``games.kinds.base.Room`` is the one rooms use)."""

    game: Game
    folder: Path | None

    @property
    def kind(self) -> str: ...

# The packages whose ROOM is a game of the site, in no particular order.
ROOMS = (
    "games.kinds.duel",
    "games.kinds.cupquest",
    "games.kinds.ccg",
    "games.kinds.fluxx",
    "games.kinds.camelot",
)

_ROOMS: dict[str, Room] = {}
_loaded = False
_loading = threading.RLock()
_in_progress = False


def _load() -> None:
    """Import the rooms on first use (they import models, so not at module import time).
    A fresh web process's first requests ask from several threads at once (sockets' frames,
    synchronous views): the flag is raised only once every room is in, under a lock, so no
    other thread ever sees a half-filled table (it answered "Unknown game kind 'duel'", a
    500). A room whose import asks the registry again, on the loading thread, is answered
    with the rooms loaded so far, as before."""
    global _loaded, _in_progress
    if _loaded:
        return
    with _loading:
        if _loaded or _in_progress:
            return
        _in_progress = True
        try:
            for path in ROOMS:
                add(path)
            _loaded = True
        finally:
            _in_progress = False


def add(package: str) -> Room:
    """Register the room defined by ``package`` (its ``ROOM``), with the package's folder."""
    module = importlib.import_module(package)
    room: Room = module.ROOM
    room.folder = Path(module.__file__).resolve().parent
    _ROOMS[room.kind] = room
    return room


def register(room: Room) -> Room:
    """Register a whole room (tests' own games: ``games.kinds.base.plain_room``)."""
    _ROOMS[room.kind] = room
    return room


def room(kind: str) -> Room:
    _load()
    try:
        return _ROOMS[kind]
    except (KeyError, TypeError):
        raise LookupError(f"Unknown game kind '{kind}'.") from None


def get(kind: str) -> Game:
    """The pure rules of ``kind``."""
    return room(kind).game


def kinds() -> list[Game]:
    return [r.game for r in rooms()]


def rooms() -> list[Room]:
    _load()
    return sorted(_ROOMS.values(), key=lambda r: r.game.name)
