"""Game kind -> rules object. The shell looks games up here and nowhere else."""
from __future__ import annotations

from games.rules.base import Game
from games.rules.ccg.game import MPHGGame
from games.rules.cupquest import CupQuest
from games.rules.duel import GrailDuel

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    _GAMES[game.kind] = game
    return game


def get(kind: str) -> Game:
    try:
        return _GAMES[kind]
    except KeyError:
        raise LookupError(f"Unknown game kind '{kind}'.") from None


def kinds() -> list[Game]:
    return sorted(_GAMES.values(), key=lambda g: g.name)


register(GrailDuel())
register(CupQuest())
register(MPHGGame())
