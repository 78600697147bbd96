"""Deadline arithmetic for time controls (no Django): per-move allowances, weekend pauses
and vacation pauses. Times are aware UTC datetimes."""
from __future__ import annotations

from datetime import datetime, timedelta

UNIT_SECONDS = {"seconds": 1, "minutes": 60, "hours": 3600, "days": 86400}
# Seconds are for live tables (Camelot's 20-120 s turns); the sweep still guarantees them.
LIMITS = {"seconds": (10, 600), "minutes": (1, 120), "hours": (1, 72), "days": (1, 14)}


def allowance(clock: str, amount: int) -> timedelta | None:
    """The time one move may take, or None for an untimed game."""
    if clock == "none":
        return None
    return timedelta(seconds=UNIT_SECONDS[clock] * amount)


# What one "add time" gives another player: the game's own allowance for a move, at most a
# day (a days clock gives a day; a 30-second game 30 seconds).
MOST_ADDED = timedelta(days=1)


def added_time(clock: str, amount: int) -> timedelta | None:
    """The time another player's "add time" gives a seat, or None for an untimed game."""
    step = allowance(clock, amount)
    return None if step is None else min(step, MOST_ADDED)


def within(game: tuple[str, int], wait: tuple[str, int] | None) -> tuple[str, int]:
    """The clock of one kind of wait: its own (a table's response-window clock, say) when it is
    no longer than the game's, else the game's. A wait never outlasts a move: a 15-minute game
    asks for every answer within 15 minutes, and an untimed game times no wait."""
    if wait is None or game[0] == "none" or wait[0] == "none":
        return game
    return wait if allowance(*wait) <= allowance(*game) else game


def validate(clock: str, amount: int) -> None:
    if clock == "none":
        return
    if clock not in LIMITS:
        raise ValueError("The clock is one of: none, " + ", ".join(LIMITS) + ".")
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise ValueError("A clock's amount is a whole number.")
    low, high = LIMITS[clock]
    if not low <= amount <= high:
        raise ValueError(f"A {clock} clock takes {low} to {high} {clock} per move.")


def _is_weekend(moment: datetime) -> bool:
    return moment.weekday() >= 5


def _next_monday(moment: datetime) -> datetime:
    days = 7 - moment.weekday()
    return (moment + timedelta(days=days)).replace(hour=0, minute=0, second=0, microsecond=0)


def add_weekday_time(start: datetime, duration: timedelta) -> datetime:
    """``start`` + ``duration`` where Saturdays and Sundays (UTC) do not count."""
    moment, left = start, duration
    while True:
        if _is_weekend(moment):
            moment = _next_monday(moment)
        saturday = (moment + timedelta(days=5 - moment.weekday())).replace(hour=0, minute=0, second=0, microsecond=0)
        span = saturday - moment
        if left <= span:
            return moment + left
        left -= span
        moment = saturday


def deadline(now: datetime, clock: str, amount: int, *, weekend_pause: bool = False,
             paused_until: datetime | None = None) -> datetime | None:
    """When a move owed from ``now`` is due. A vacation pause delays the start of counting."""
    step = allowance(clock, amount)
    if step is None:
        return None
    start = max(now, paused_until) if paused_until else now
    return add_weekday_time(start, step) if weekend_pause else start + step
