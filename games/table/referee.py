"""The clock as referee: what a seat's time running out means, and when a game is aborted.

Correspondence play works only when the clock decides and a result means what it says, so
the rules are the same for every game (docs/rules/*.md, "Time"):

- a wait with a default (a response window, a choice, a discard: anything but the seat's
  own turn, ``Game.own_turn_waits``) is answered by the clock with the rules' default, as a
  player who stepped away would want;
- a person whose time runs out on their own turn before they have made a move of their own
  (and who sat at the table from the start) aborts the game: no winner, not rated, antes
  returned, as lichess aborts a game whose first moves are never made;
- in a game of two, running out of time on one's own turn loses it ("X ran out of time");
- in a game of three or more the clock ends that turn for them, once; a seat that runs out
  ``Match.takeover_after`` times in a row is handed to a computer player for the rest of the
  game, and the table is told.

This module decides; ``services`` carries the decision out under the match's lock."""
from __future__ import annotations

from dataclasses import dataclass

DEFAULT = "default"      # the clock answers the wait with the rules' default
ABORT = "abort"          # the game ends with no result
FORFEIT = "forfeit"      # the seat loses (a game of two)
CLOCK_TURN = "clock"     # the clock ends the turn for the seat, this once
HAND_OVER = "hand_over"  # a computer player takes the seat from now on
LEAVE = "leave"          # the seat leaves the game (no computer player can take it)


@dataclass(frozen=True)
class Ruling:
    verdict: str
    # The words for the log, the table and the player: "robin ran out of time".
    why: str = ""


def on_time_out(game, match, seat, *, computer_available: bool) -> Ruling:
    """What happens when ``seat``'s deadline passes on its current wait (``seat.waiting_for``)."""
    if seat.waiting_for not in game.own_turn_waits or seat.user_id is None:
        return Ruling(DEFAULT)
    if aborts(seat):
        return Ruling(ABORT, "ran out of time before their first move")
    if match.num_seats == 2:
        return Ruling(FORFEIT, "ran out of time")
    if seat.timeouts_in_row + 1 >= match.takeover_after:
        if computer_available:
            times = "twice" if match.takeover_after == 2 else f"{match.takeover_after} times"
            return Ruling(HAND_OVER, "ran out of time" if match.takeover_after == 1 else f"ran out of time {times} in a row")
        return Ruling(LEAVE, "ran out of time")
    return Ruling(CLOCK_TURN, "ran out of time")


def aborts(seat) -> bool:
    """Whether this person leaving now (resigning, running out of time) aborts the game: they
    sat at the table from its start and have not yet made a move of their own."""
    return seat.user_id is not None and not seat.joined_late and seat.own_moves == 0
