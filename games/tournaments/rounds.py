"""How a tournament's rounds run by correspondence (docs/tournaments.md, "Rounds by
correspondence").

A round begins with its pairing (or seating): its games are created through the table's
services, each an ordinary game on the tournament's clock, and the round gets a deadline
``round_days`` later. The round ends as soon as its last game ends: the table announces
every game's end (``games.table.changes``: ``finished``, ``aborted``), and ``game_ended``
records the result on the game's tournament row inside that game's own transaction; once it
commits, ``advance`` closes the round and pairs the next one, or ends the tournament (as a
Celery task in the timers' lane, sent on that commit, or there and then without Celery). No
sweep has to notice first. A round whose deadline passes with games still running is
closed by ``round_close`` (a Celery task at the deadline in the timers' lane, and the sweep
as the guarantee): each such game's time is up under the table's time-out rules
(``services.match_time_up``), which ends it, and the round then closes the same way.

Locks: a game's end holds its match and writes only its own tournament row
(``TournamentGame``); ``advance`` locks the tournament after that commit and creates the
next round's games (new rows, locking nothing else). No path locks a tournament and then a
game it already has, so the two never wait on each other in opposite orders.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import registry
from games.models import Match, Tournament, TournamentEntry, TournamentGame, TournamentRound
from games.table import services as table, unit_of_work
from games.tournaments import notices, results, selectors, versions
from games.tournaments.entrants import Entrant
from games.tournaments.round_robin import pair_schedule, table_schedule
from games.tournaments.swiss import NoPairing, pair_round
from games.tournaments.tables import seat_round

log = logging.getLogger(__name__)

Kind = TournamentGame.Kind
Format = Tournament.Format

# The timers' tasks (games/tasks.py), named rather than imported: the tasks import this module.
ROUND_CLOSE_TASK = "games.tasks.tournament_round_close"
START_TASK = "games.tasks.tournament_start"
ADVANCE_TASK = "games.tasks.tournament_advance"
# A task further ahead than this is left to the sweep: long ETA tasks sit in a worker's
# memory and come late after it dies (games/inbox/notify.py says the same of deadlines).
FAST_PATH_HORIZON = timedelta(hours=1)


# --- a game of the round ends ----------------------------------------------------------

def game_finished(match: Match, seats) -> None:
    """The table's ``finished`` announcement: a tournament game's places, from its outcome."""
    if match.competition != "tournament":
        return
    _record(match, results.places_from_outcome(match.outcome, len(seats)))


def game_aborted(match: Match, seats, seat) -> None:
    """The table's ``aborted`` announcement: whoever left before their first move loses."""
    if match.competition != "tournament":
        return
    _record(match, results.places_after_abort(len(seats), [seat.index] if seat is not None else []))


def _record(match: Match, places: list[int]) -> None:
    """Inside the game's transaction: its tournament row gets the places, once; the round
    moves on after the commit."""
    unit_of_work.require_sync("a tournament game's end is recorded through the ORM")
    tg = TournamentGame.objects.filter(match_id=match.pk).only("id", "tournament_id").first()
    if tg is None:
        return
    if TournamentGame.objects.filter(pk=tg.pk, places__isnull=True).update(places=places, decided_at=timezone.now()):
        # A Celery send may wait on the broker: never on an event loop (games/table/unit_of_work.py).
        unit_of_work.on_commit(partial(_advance_after_result, tg.tournament_id), blocking=True)


def _advance_after_result(tournament_id: int) -> None:
    """Once the game's end has committed (its result stands whatever happens here): move on at
    once. With Celery, as a task in the clocks' lane, so the player whose move ended the round
    does not wait while a large round is paired (256 players: about 3 s of CPU for 128 new
    games); without it, or if the broker cannot take the task, here. The sweep pairs the
    round later if both fail."""
    if settings.TOURNAMENT_ROUNDS_BY_TASK:
        from grailsite.celery import app

        try:
            app.send_task(ADVANCE_TASK, args=(tournament_id,))
            return
        except Exception:  # the broker is down: move on here instead
            log.warning("could not send tournament %s's move on; doing it here", tournament_id, exc_info=True)
    try:
        advance(tournament_id, changed=True)
    except Exception:  # noqa: BLE001 - logged; tournaments_sweep advances a finished round
        log.exception("tournament %s: could not move on after a result", tournament_id)


# --- moving on -------------------------------------------------------------------------

def advance(tournament_id: int, *, changed: bool = False, now: datetime | None = None) -> bool:
    """Close the tournament's current round if every game of it is decided, then pair the
    next one or end the tournament. ``changed``: a result came in, so its page reloads
    either way. Returns True when a round closed. Safe to repeat: under the tournament's
    lock, a round closes once."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None:
            return False
        if changed:
            versions.bump(tournament)
        if tournament.status != Tournament.Status.RUNNING:
            return False
        current = TournamentRound.objects.filter(tournament=tournament, number=tournament.current_round).first()
        if current is None or current.closed_at is not None:
            return False
        if TournamentGame.objects.filter(round=current, places__isnull=True).exists():
            return False
        current.closed_at = now
        current.save(update_fields=["closed_at"])
        next_round(tournament, now=now)
        if not changed:
            versions.bump(tournament)
    return True


def next_round(tournament: Tournament, *, now: datetime) -> None:
    """Pair the round after the current one of a locked running tournament, or end it when
    it has played its rounds or no pairing is left. A round decided at once (everyone has a
    bye or sits out) closes at once."""
    while tournament.status == Tournament.Status.RUNNING:
        if tournament.current_round >= tournament.rounds:
            finish(tournament, now=now)
            return
        number = tournament.current_round + 1
        try:
            round_ = _pair(tournament, number, now)
        except NoPairing:
            finish(tournament, now=now, note=f"Round {number} could not be paired without two players meeting "
                                             f"again, so the tournament ended after round {number - 1}.")
            return
        except TooFew as exc:
            finish(tournament, now=now, note=str(exc))
            return
        tournament.current_round = number
        tournament.save(update_fields=["current_round"])
        if TournamentGame.objects.filter(round=round_, places__isnull=True).exists():
            return
        round_.closed_at = now
        round_.save(update_fields=["closed_at"])


def finish(tournament: Tournament, *, now: datetime, note: str = "") -> None:
    """End a locked tournament and tell each player their place."""
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    if note:
        tournament.note = note[:200]
    tournament.save(update_fields=["status", "finished_at", "note"])
    found = selectors.detail(tournament)
    fields: dict[int | None, int] = {}
    for line in found.standings:
        fields[line.group] = fields.get(line.group, 0) + 1
    notices.ended(tournament, {line.entry.pk: (line.standing.rank, fields[line.group], line.group)
                               for line in found.standings}, found.entries)


class TooFew(Exception):
    """Too few players are left for another round (the message says so, for the page)."""


# --- pairing a round -------------------------------------------------------------------

def _pair(tournament: Tournament, number: int, now: datetime) -> TournamentRound:
    """Create round ``number``: its pairing or seating by the format, and its games."""
    entries = {e.pk: e for e in TournamentEntry.objects.filter(tournament=tournament).select_related("user")}
    rounds = list(TournamentRound.objects.filter(tournament=tournament))
    history = list(TournamentGame.objects.filter(tournament=tournament))
    playing = [e for e in entries.values() if e.playing]
    score = selectors.scores(tournament, entries, rounds, history)
    if tournament.format == Format.SWISS:
        boards, others = _swiss(playing, score, history)
    elif tournament.format == Format.TABLES:
        boards, others = _tables(tournament, playing, score, history)
    else:
        boards, others = _round_robin(tournament, number, entries)
    round_ = TournamentRound.objects.create(tournament=tournament, number=number, started_at=now,
                                            deadline=now + timedelta(days=tournament.round_days))
    firsts = _times_first(history)
    made = []
    for board, players in enumerate(boards, start=1):
        seated = _seat_order(players, firsts, keep=tournament.format == Format.ROUND_ROBIN)
        match = table.match_create_seated(
            creator=tournament.organiser, kind=tournament.kind,
            holders=[entries[p].computer or entries[p].user for p in seated],
            choices=[entries[p].choice for p in seated], clock_kind=tournament.clock,
            clock_amount=tournament.clock_amount, title=tournament.name, rated=tournament.rated,
            competition="tournament")
        made.append(TournamentGame(round=round_, tournament=tournament, board=board, match=match, players=seated))
    for board, (kind, players, places) in enumerate(others, start=len(boards) + 1):
        made.append(TournamentGame(round=round_, tournament=tournament, board=board, kind=kind, players=players,
                                   places=places, decided_at=now if places is not None else None))
    TournamentGame.objects.bulk_create(made)
    notices.round_started(tournament, round_, made, entries)
    schedule_on_commit(ROUND_CLOSE_TASK, (tournament.pk, number), round_.deadline)
    return round_


def _entrants(players: list[TournamentEntry], score, had_bye=frozenset()) -> list[Entrant]:
    return [Entrant(e.pk, score.get(e.pk, 0), e.seed_rating, e.pk in had_bye) for e in players]


def _swiss(playing, score, history):
    if len(playing) < 2:
        raise TooFew("Fewer than two players are left, so the tournament ended.")
    byes = {g.players[0] for g in history if g.kind == Kind.BYE}
    played = [g.players for g in history if g.kind == Kind.GAME and len(g.players) == 2]
    pairing = pair_round(_entrants(playing, score, byes), played)
    others = [(Kind.BYE, [pairing.bye], [1])] if pairing.bye is not None else []
    return [list(pair) for pair in pairing.pairs], others


def _tables(tournament, playing, score, history):
    game = registry.get(tournament.kind)
    if len(playing) < game.min_players:
        raise TooFew(f"Fewer than {game.min_players} players are left, so the tournament ended.")
    met = [g.players for g in history if g.kind == Kind.GAME]
    try:
        seating = seat_round(_entrants(playing, score), tournament.table_size, game.min_players, game.max_players, met)
    except ValueError as exc:
        raise TooFew(f"The players left cannot be seated ({exc}), so the tournament ended.") from None
    return [list(t) for t in seating.tables], [(Kind.SIT_OUT, [p], None) for p in seating.sitting_out]


def groups_of(entries: dict[int, TournamentEntry]) -> dict[int, list[int]]:
    """Each round robin group's players in the order its schedule was made with: the order of
    the start (seed, then entry), whoever has withdrawn since (the schedule never changes)."""
    members: dict[int, list[TournamentEntry]] = {}
    for e in entries.values():
        if e.group is not None:
            members.setdefault(e.group, []).append(e)
    return {g: [e.pk for e in sorted(es, key=lambda e: (-e.seed_rating, e.pk))] for g, es in sorted(members.items())}


def rounds_of_round_robin(tournament: Tournament, groups: dict[int, list[int]]) -> int:
    """How many rounds the schedule takes: every pair once (the circle method), or at a
    group's table every seat once."""
    if selectors.games_of_two(tournament):
        return max((len(pair_schedule(g)) for g in groups.values()), default=0)
    return max((len(g) for g in groups.values()), default=0)


def _round_robin(tournament, number, entries):
    """Round ``number`` of every group's schedule. A game against a player who has left is
    won by forfeit; a group's table short of players for the game is not played."""
    boards, others = [], []
    present = {pk for pk, e in entries.items() if e.playing}
    min_players = registry.get(tournament.kind).min_players
    for group in groups_of(entries).values():
        if selectors.games_of_two(tournament):
            schedule = pair_schedule(group)
            if number > len(schedule):
                continue
            this = schedule[number - 1]
            for pair in this.pairs:
                here = [p for p in pair if p in present]
                if len(here) == 2:
                    boards.append(list(pair))
                elif here:
                    others.append((Kind.FORFEIT, list(pair), [1, 2] if pair[0] in present else [2, 1]))
            if this.sitting_out in present:
                others.append((Kind.SIT_OUT, [this.sitting_out], None))
        else:
            if number > len(group):
                continue
            seats = [p for p in table_schedule(group)[number - 1] if p in present]
            if len(seats) >= min_players:
                boards.append(seats)
            else:
                others += [(Kind.SIT_OUT, [p], None) for p in seats]
    return boards, others


def _times_first(history) -> dict[int, int]:
    """How often each player has sat first at a game of the tournament."""
    counts: dict[int, int] = {}
    for g in history:
        if g.kind == Kind.GAME and g.players:
            counts[g.players[0]] = counts.get(g.players[0], 0) + 1
    return counts


def _seat_order(players: list[int], firsts: dict[int, int], *, keep: bool) -> list[int]:
    """Who sits first: whoever has sat first least often (the pairing's order between equals).
    A round robin's schedule balances the first seat itself (``keep``)."""
    if keep:
        return list(players)
    first = min(players, key=lambda p: (firsts.get(p, 0), players.index(p)))
    return [first, *[p for p in players if p != first]]


# --- the round's deadline --------------------------------------------------------------

def round_close(tournament_id: int, number: int, *, now: datetime | None = None) -> bool:
    """Round ``number``'s deadline has passed: every game of it still running has its time up
    under the table's time-out rules (``match_time_up``: the seat to move runs out of time;
    a game of three or more that goes on is ended there, the late seats losing), then the
    round closes. Does nothing before the deadline, for a closed round, or while the
    tournament is paused. Returns True when it acted."""
    now = now or timezone.now()
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or tournament.status != Tournament.Status.RUNNING:
        return False
    round_ = TournamentRound.objects.filter(tournament=tournament, number=number, closed_at__isnull=True,
                                            deadline__lte=now).first()
    if round_ is None:
        return False
    reason = f"The time of round {number} of {tournament.name} is up"
    for match_id in (TournamentGame.objects.filter(round=round_, places__isnull=True, match__isnull=False)
                     .order_by("match_id").values_list("match_id", flat=True)):
        # Each in its own transaction (the game's lock alone): its end reaches ``game_ended``.
        table.match_time_up(match_id=match_id, reason=reason)
    # A game that ended without its result reaching the tournament (none should: every end
    # is announced) would hold the round for ever: it is drawn.
    for tg in TournamentGame.objects.filter(round=round_, places__isnull=True):
        TournamentGame.objects.filter(pk=tg.pk, places__isnull=True).update(places=[1] * len(tg.players),
                                                                            decided_at=now)
        log.warning("tournament %s round %s: game %s had no result at the deadline", tournament_id, number, tg.pk)
    advance(tournament_id, changed=True, now=now)
    return True


def schedule_on_commit(task: str, args: tuple, when: datetime) -> None:
    """The fast path of a timer: a Celery task at ``when`` once this commits, if that is
    soon (the sweep is the guarantee for the rest, and for a lost task)."""
    if not settings.TIMERS_USE_CELERY or when - timezone.now() > FAST_PATH_HORIZON:
        return
    unit_of_work.on_commit(partial(_send, task, args, when), blocking=True)


def _send(task: str, args: tuple, when: datetime) -> None:
    from grailsite.celery import app

    try:
        app.send_task(task, args=args, eta=when)
    except Exception:  # the broker is down: the sweep acts instead
        log.warning("could not schedule %s%s", task, args, exc_info=True)
