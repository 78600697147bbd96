from .game import GrailDuel

__all__ = ["GrailDuel"]
