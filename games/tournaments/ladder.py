"""Ladder: players stand on rungs, top to bottom, and climb by beating players above them
(the rules in plain words: docs/tournaments.md).

A ladder is a list of player ids, rung 1 first. The functions return new lists and never
change the one given.

- Joining puts a player on the bottom rung; leaving moves everyone below up one.
- A player may challenge anyone from one to ``reach`` rungs above them, not someone they
  already have an open challenge with (either way round); a player has at most
  ``MAX_OPEN`` open challenges they made and at most ``MAX_OPEN`` made against them.
- When a challenger beats the defender and still stands below them, the challenger takes the
  defender's rung and the defender and everyone between them move down one rung. A defender's
  win, a draw, or a challenger who has meanwhile climbed above the defender changes nothing.
- Running out of time loses the game, and then the player who ran out drops one more rung:
  they change places with the player directly below (the bottom rung stays put).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.tournaments.entrants import PlayerId

MAX_OPEN = 3


@dataclass(frozen=True)
class Challenge:
    challenger: PlayerId
    defender: PlayerId


class LadderError(ValueError):
    """A challenge or result the rules do not allow; the message says why."""


def rung(ladder: Sequence[PlayerId], player: PlayerId) -> int:
    """The player's rung, 1 at the top."""
    try:
        return ladder.index(player) + 1
    except ValueError:
        raise LadderError(f"{player!r} is not on the ladder") from None


def join(ladder: Sequence[PlayerId], player: PlayerId) -> list[PlayerId]:
    if player in ladder:
        raise LadderError(f"{player!r} is already on the ladder")
    return [*ladder, player]


def leave(ladder: Sequence[PlayerId], player: PlayerId) -> list[PlayerId]:
    rung(ladder, player)
    return [p for p in ladder if p != player]


def challenge_refusal(ladder: Sequence[PlayerId], open_challenges: Iterable[Challenge],
                      challenger: PlayerId, defender: PlayerId, reach: int) -> str | None:
    """Why ``challenger`` may not challenge ``defender`` now, or None if they may."""
    gap = rung(ladder, challenger) - rung(ladder, defender)
    if gap <= 0:
        return "a challenge goes to a player above you"
    if gap > reach:
        return f"you may challenge at most {reach} rungs above you"
    made = received = 0
    for c in open_challenges:
        if {c.challenger, c.defender} == {challenger, defender}:
            return "you already have an open challenge with this player"
        made += c.challenger == challenger
        received += c.defender == defender
    if made >= MAX_OPEN:
        return f"you already have {MAX_OPEN} open challenges"
    if received >= MAX_OPEN:
        return f"this player already has {MAX_OPEN} open challenges against them"
    return None


def challenge(ladder: Sequence[PlayerId], open_challenges: Iterable[Challenge],
              challenger: PlayerId, defender: PlayerId, reach: int) -> Challenge:
    refusal = challenge_refusal(ladder, open_challenges, challenger, defender, reach)
    if refusal:
        raise LadderError(refusal)
    return Challenge(challenger, defender)


def after_game(ladder: Sequence[PlayerId], played: Challenge, winner: PlayerId | None,
               timed_out: PlayerId | None = None) -> list[PlayerId]:
    """The ladder once a challenge game has ended: ``winner`` None for a draw; ``timed_out``
    the player who ran out of time, if that is how it ended (the other one won)."""
    sides = (played.challenger, played.defender)
    if winner is not None and winner not in sides:
        raise LadderError("the winner did not play this challenge")
    if timed_out is not None:
        if timed_out not in sides:
            raise LadderError("the player who ran out of time did not play this challenge")
        if winner is None or winner == timed_out:
            raise LadderError("running out of time loses the game")
    ladder = list(ladder)
    if winner == played.challenger:
        below, above = ladder.index(played.challenger), ladder.index(played.defender)
        if below > above:
            ladder.insert(above, ladder.pop(below))
    return drop(ladder, timed_out) if timed_out is not None else ladder


def drop(ladder: Sequence[PlayerId], player: PlayerId) -> list[PlayerId]:
    """The player changes places with the one directly below (the bottom stays put)."""
    ladder = list(ladder)
    i = rung(ladder, player) - 1
    if i + 1 < len(ladder):
        ladder[i], ladder[i + 1] = ladder[i + 1], ladder[i]
    return ladder
