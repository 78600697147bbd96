"""How many moves the event loop's move path made, and how (games/live/live_moves.py ``counts``),
for tests that say which path a move took."""
from games.live import live_moves


def counts() -> dict:
    """The counters now, to compare with later (``since``)."""
    return dict(live_moves.counts)


def since(before: dict) -> dict:
    """How much each counter grew since ``before``."""
    return {k: live_moves.counts[k] - before[k] for k in before}
