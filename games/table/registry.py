"""Game kind -> its room (rules, hooks, forms, URLs, assets). The shell looks games up here
and nowhere else. Adding a game is one line in ROOMS plus its own folders:
``games/rules/<kind>/`` (pure rules) and ``games/kinds/<kind>/`` (its room, see
``games/kinds/base.py``)."""
from __future__ import annotations

import importlib
import threading
from pathlib import Path

from games.kinds.base import Room
from games.rules.base import Game

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


def register(game: Game | Room) -> Room:
    """Register a rules object with a default room (tests' own games), or a whole room."""
    room = game if isinstance(game, Room) else Room(game=game, script=None)
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
