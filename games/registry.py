"""Game kind -> its room (rules, hooks, forms, URLs, assets). The shell looks games up here
and nowhere else. Adding a game is one line in ROOMS plus its own folders:
``games/rules/<kind>/`` (pure rules) and ``games/kinds/<kind>/`` (its room, see
``games/kinds/base.py``)."""
from __future__ import annotations

import importlib
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


def _load() -> None:
    """Import the rooms on first use (they import models, so not at module import time)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for path in ROOMS:
        add(path)


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
