"""Per-kind hooks into a match's life, for what a game needs from the rest of the site
(the CCG takes decks and antes from collections). Pure rules never see Django; these
hooks are the shell's side, held by each game's room (``games/kinds/<kind>/``). Each hook
runs inside the transaction of the change.

The seats a hook is given are the locked ones, with each player's id and name: on the move
path a hook reads nothing through the ORM (it would leave the batch, games/live/live_moves.py),
and writes through ``games.table.persistence.execute``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass
class Hooks:
    # (match, seats in index order) -> the options setup() is called with (default: the
    # match's table options); e.g. the CCG adds decks. May raise ValueError.
    setup_options: Callable | None = None
    # (match, seats) after the match became active
    on_start: Callable | None = None
    # (match, seats, outcome dict) when it finished
    on_finish: Callable | None = None
    # (match) when it was abandoned
    on_abandon: Callable | None = None
    # (match, seats, previous_state) after every applied move, before it is saved (e.g. hold
    # new antes)
    after_move: Callable | None = None
    # (match, pending_kind) -> (clock kind, amount) for that kind of wait, or None for the match's
    # own clock (e.g. a 12-hour response window in a 3-days-a-move game)
    allowance: Callable | None = None
    # (match, seat, pending_kind) -> a move to make for that seat now, from its owner's presets
    # (e.g. "always pass" on response windows), or None to ask them
    auto_move: Callable | None = None

