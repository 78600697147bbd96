"""Computer players in the shell: which levels a game has, what a computer seat is called,
choosing its move, and when its move runs.

The players themselves are pure code beside each game's rules (``games/rules/<kind>/players.py``,
reached through ``games/rules/computer.py``); they see only the seat's view and its legal moves.
This module is the Django side: services calls it to choose (under the match lock) and to
schedule (after commit); the move itself goes through ``services.computer_move_apply``, the
same path as a person's move.

Scheduling: a computer seat's move is due the table's delay after its own decision became
due (a new decision, or its own last move), and ``Seat.computer_due`` holds that time: the
other seats' moves meanwhile leave it alone (Camelot's other token holder may move on and
on). When a change sets it, the seat gets a task
``games.tasks.computer_move(match, seat, version, due)`` at that time, sent through Celery once
the transaction commits (or, in the embedded default without a broker, a timer thread in this
process that calls the ``apply`` services hands over). The task is sent by name and the
service handed in, so this module imports neither the tasks nor the services that call it. A
task whose ``due`` is no longer the seat's does nothing: the change that replaced it scheduled
its own. The sweep (Celery beat every few seconds, or the embedded worker's loop) is the
guarantee behind both: it runs any computer move a second past due, so a lost task or a
restarted process or broker never stalls a game.
"""
from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from games.table import unit_of_work
from games.rules import computer

log = logging.getLogger(__name__)

DEFAULT_DELAY = 2
MAX_DELAY = 60
# A computer move this late (beyond its due time) is run by the sweep. Short, because the
# sweep runs every few seconds (TIMERS_SWEEP_SECONDS) and a lost task should cost little; not
# zero, so that a sweep does not take the move from a task about to run (either is correct:
# both go through the match lock and ``computer_due``, so only one makes the move).
SWEEP_GRACE = timedelta(seconds=1)


# --- levels and names --------------------------------------------------------------------

def _players():
    return computer  # the pure door to every game's players


def levels_for(kind: str) -> list[str]:
    """The levels of computer player this game has ([] if none)."""
    return _players().levels_for(kind)


def level_label(level: str) -> str:
    return _players().level_label(level)


def level_choices(kind: str) -> list[tuple[str, str]]:
    return [(level, level_label(level)) for level in levels_for(kind)]


def default_level(kind: str) -> str | None:
    """The level "Play against the computer" uses: the real one when the game has it."""
    levels = levels_for(kind)
    return "knight" if "knight" in levels else (levels[-1] if levels else None)


def display_name(seat, seats=None) -> str:
    """"Computer (Knight)"; with several computer players at the table, each also says its
    seat ("Computer 3 (Knight)") so the log tells them apart."""
    return _computer_name(seat, seats is not None and _several(seats))


def _several(seats) -> bool:
    return sum(1 for s in seats if getattr(s, "computer", "")) > 1


def _computer_name(seat, several: bool) -> str:
    if several:
        return f"Computer {seat.index + 1} ({level_label(seat.computer)})"
    return f"Computer ({level_label(seat.computer)})"


def seat_name(seat, seats=None) -> str | None:
    """What the site calls whoever holds a seat: the player's name, a computer player's name,
    or None for an open seat."""
    return _held_name(seat, seats is not None and _several(seats))


def _held_name(seat, several: bool) -> str | None:
    if getattr(seat, "computer", ""):  # plain stand-ins for seats (tests) may not say
        return _computer_name(seat, several)
    return seat.user.username if seat.user_id else None


def seat_names(seats) -> dict[int, str]:
    """``seat_name`` of every held seat of one table, by seat index, worked out in one pass
    (the computers counted once): what a change's frames and a page name everyone by."""
    several = _several(seats)
    return {seat.index: name for seat in seats if (name := _held_name(seat, several))}


# --- choosing ----------------------------------------------------------------------------

def move_seed(match_seed: int, version: int, seat: int) -> int:
    """The generator's seed for one decision: a stable checksum (never Python's salted
    ``hash``), so the same game chooses the same moves on every run and in every process."""
    return _players().seed_for(match_seed, version, seat)


def choose(game, match, seat) -> dict:
    """The computer player's move for ``seat`` in the locked match. The pure helper falls back
    to a random legal move when a player crashes or names an illegal move; a note it returns
    is logged here."""
    move, note = _players().choose_move(game, match.state, seat.index, seat.computer,
                                        move_seed(match.seed, match.version, seat.index))
    if note:
        log.warning("computer player (%s) in match %s seat %s: %s", seat.computer, match.pk, seat.index, note)
    return move


# --- scheduling --------------------------------------------------------------------------

# games/tasks.py's task, named here rather than imported (the tasks import the services).
COMPUTER_MOVE_TASK = "games.tasks.computer_move"


def schedule_on_commit(match, seats, *, apply) -> None:
    """After the change commits: a move task for each of ``seats``, the computer seats whose
    ``computer_due`` this change set, to run at that time. ``apply(match_id=, seat_index=,
    due=)`` is the service the embedded timer calls."""
    if match.status != "active":
        return
    due = [(s.index, s.computer_due) for s in seats if s.computer and s.waiting_for and s.computer_due]
    if due:
        # A Celery send may wait on the broker: never on an event loop (games/table/unit_of_work.py).
        unit_of_work.on_commit(partial(_send, match.pk, match.version, due, apply), blocking=True)


def _send(match_id: int, version: int, due: list[tuple[int, datetime]], apply) -> None:
    for seat_index, when in due:
        if settings.TIMERS_USE_CELERY:
            from grailsite.celery import app

            try:
                app.send_task(COMPUTER_MOVE_TASK, args=(match_id, seat_index, version, when.isoformat()), eta=when)
            except Exception:  # the broker is down: the sweep still makes the move
                log.warning("could not schedule the computer move of match %s", match_id, exc_info=True)
        else:
            wait = max(0.0, (when - timezone.now()).total_seconds())
            timer = threading.Timer(wait, _run_in_thread, args=(apply, match_id, seat_index, when))
            timer.daemon = True
            timer.name = f"grailsite-computer-{match_id}-{seat_index}"
            timer.start()


def _run_in_thread(apply, match_id: int, seat_index: int, due: datetime) -> None:
    """The embedded default's task: the same service call, on this thread's own connection."""
    try:
        close_old_connections()
        apply(match_id=match_id, seat_index=seat_index, due=due)
    except Exception:  # noqa: BLE001 - logged; the sweep will try again
        log.exception("computer move of match %s seat %s failed", match_id, seat_index)
    finally:
        connection.close()


def overdue(*, limit: int = 200) -> list[tuple[int, int, datetime]]:
    """(match, seat, due) of computer moves due a while ago (by SWEEP_GRACE: their task, if
    any, has had its chance), read through the partial index on ``Seat.computer_due``."""
    from games.models import Match, Seat

    return list(Seat.objects.filter(computer_due__lte=timezone.now() - SWEEP_GRACE, match__status=Match.Status.ACTIVE)
                .order_by("computer_due").values_list("match_id", "index", "computer_due")[:limit])
