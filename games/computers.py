"""Computer players in the shell: which levels a game has, what a computer seat is called,
choosing its move, and when its move runs.

The players themselves are pure code beside each game's rules (``games/rules/<kind>/players.py``,
reached through ``games/rules/computer.py``); they see only the seat's view and its legal moves.
This module is the Django side: services calls it to choose (under the match lock) and to
schedule (after commit); the move itself goes through ``services.computer_move_apply``, the
same path as a person's move.

Scheduling: after every change, each computer seat that owes a decision gets a task
``games.tasks.computer_move(match, seat, version)`` after the table's delay, sent through
Celery once the transaction commits (or, in the embedded default without a broker, a timer
thread in this process that calls the ``apply`` services hands over). The task is sent by
name and the service handed in, so this module imports neither the tasks nor the services
that call it. A task for a version the game moved on from does nothing, and the
change that moved it on scheduled its own. The sweep (Celery beat, or the embedded worker's
loop) is the guarantee behind both: it runs any computer move overdue by a few seconds, so a
lost task or a restarted process never stalls a game.
"""
from __future__ import annotations

import logging
import threading
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from games import unit_of_work
from games.rules import computer

log = logging.getLogger(__name__)

DEFAULT_DELAY = 2
MAX_DELAY = 60
# A computer move this late (beyond its delay) is run by the sweep.
SWEEP_GRACE = timedelta(seconds=5)


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
    several = seats is not None and sum(1 for s in seats if getattr(s, "computer", "")) > 1
    if several:
        return f"Computer {seat.index + 1} ({level_label(seat.computer)})"
    return f"Computer ({level_label(seat.computer)})"


def seat_name(seat, seats=None) -> str | None:
    """What the site calls whoever holds a seat: the player's name, a computer player's name,
    or None for an open seat."""
    if getattr(seat, "computer", ""):  # plain stand-ins for seats (tests) may not say
        return display_name(seat, seats)
    return seat.user.username if seat.user_id else None


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
    """After the change commits: a move task for each computer seat that owes a decision.
    ``apply(match_id=, seat_index=, version=)`` is the service the embedded timer calls."""
    if match.status != "active":
        return
    due = [s.index for s in seats if s.computer and s.waiting_for]
    if due:
        # A Celery send may wait on the broker: never on an event loop (games/unit_of_work.py).
        unit_of_work.on_commit(partial(_send, match.pk, match.version, due, match.computer_delay, apply), blocking=True)


def _send(match_id: int, version: int, seat_indexes: list[int], delay: int, apply) -> None:
    for seat_index in seat_indexes:
        if settings.TIMERS_USE_CELERY:
            from grailsite.celery import app

            try:
                app.send_task(COMPUTER_MOVE_TASK, args=(match_id, seat_index, version), countdown=delay)
            except Exception:  # the broker is down: the sweep still makes the move
                log.warning("could not schedule the computer move of match %s", match_id, exc_info=True)
        else:
            timer = threading.Timer(delay, _run_in_thread, args=(apply, match_id, seat_index, version))
            timer.daemon = True
            timer.name = f"grailsite-computer-{match_id}-{seat_index}"
            timer.start()


def _run_in_thread(apply, match_id: int, seat_index: int, version: int) -> None:
    """The embedded default's task: the same service call, on this thread's own connection."""
    try:
        close_old_connections()
        apply(match_id=match_id, seat_index=seat_index, version=version)
    except Exception:  # noqa: BLE001 - logged; the sweep will try again
        log.exception("computer move of match %s seat %s failed", match_id, seat_index)
    finally:
        connection.close()


def overdue(*, limit: int = 200) -> list[tuple[int, int, int]]:
    """(match, seat, version) of computer moves that should have run a while ago."""
    from games.models import Match, Seat

    rows = (Seat.objects.filter(match__status=Match.Status.ACTIVE).exclude(computer="").exclude(waiting_for="")
            .values_list("match_id", "index", "match__version", "match__updated_at", "match__computer_delay")
            .order_by("match__updated_at")[:limit])
    now = timezone.now()
    return [(m, i, v) for m, i, v, updated, delay in rows if updated + timedelta(seconds=delay) + SWEEP_GRACE <= now]
