"""Every write to a tournament goes through here (its rounds' own work: ``rounds``): create,
enter and leave, invite, start, pause, resume, cancel, and an administrator's removal of a
player, and the sweep behind the timers. Views, the API and tasks only translate and call
these; a refusal is a ``ServiceError`` whose message a person can read."""
from __future__ import annotations

import logging
from datetime import datetime, timezone as tz

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from games import registry
from games.models import Match, Rating, Tournament, TournamentEntry, TournamentGame, TournamentRound
from games.players.ratings import NEW_DISPLAY
from games.table import access, clock, computers, reliability, services as table
from games.tournaments import notices, rounds, versions
from games.tournaments.entrants import Entrant
from games.tournaments.round_robin import snake_groups
from games.tournaments.tables import table_sizes
from grailsite.errors import NotAllowed, NotFound, ServiceError

log = logging.getLogger(__name__)

Format = Tournament.Format
Status = Tournament.Status
Entered = TournamentEntry.Status

MAX_PLAYERS = 256
MAX_ROUNDS = 20
MAX_GROUP = 16
MAX_ROUND_DAYS = 60
MAX_RATING = 5000
# The clocks a tournament's games may have: correspondence, or quicker for practice.
CLOCKS = ("days", "hours", "minutes")


# --- creating ----------------------------------------------------------------------------

def tournament_create(*, organiser, kind: str, format: str, name: str = "", rounds: int = 3, table_size: int = 2,
                      max_players: int = 64, clock_kind: str = "days", clock_amount: int = 3, round_days: int = 14,
                      rated: bool = True, invitation_only: bool = False, invite=(), min_rating: int | None = None,
                      min_reliability: int = 0, starts_at: datetime | None = None) -> Tournament:
    """A new tournament taking entries. The format decides what ``table_size`` means (Swiss:
    2; tables: the players at a table; round robin: the players in a group) and whether
    ``rounds`` is the organiser's (Swiss, tables) or the schedule's (round robin, set at the
    start). ``invite``: the players of an invitation-only tournament. ``min_reliability``:
    only players who finished at least this share of their recent games may enter (one of
    games/table/reliability.py's ``CHOICES``, as a table may ask)."""
    try:
        game = registry.get(kind)
    except LookupError:
        raise ServiceError(f"Unknown game '{kind}'.") from None
    if format not in Format.values:
        raise ServiceError("The format is swiss, tables or round_robin.")
    table_size = _table_size(game, format, table_size)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ServiceError(f"A tournament has 1 to {MAX_ROUNDS} rounds.")
    if not 2 <= max_players <= MAX_PLAYERS:
        raise ServiceError(f"A tournament takes 2 to {MAX_PLAYERS} players.")
    if format == Format.SWISS and rounds >= max_players:
        raise ServiceError("A Swiss needs more players than rounds: every round pairs players who have not met.")
    if clock_kind not in CLOCKS:
        raise ServiceError("A tournament's games have a clock: days, hours or minutes per move.")
    try:
        clock.validate(clock_kind, clock_amount)
    except ValueError as exc:
        raise ServiceError(str(exc)) from None
    if not 1 <= round_days <= MAX_ROUND_DAYS:
        raise ServiceError(f"A round lasts 1 to {MAX_ROUND_DAYS} days.")
    if min_rating is not None and not 0 <= min_rating <= MAX_RATING:
        raise ServiceError(f"The minimum rating is 0 to {MAX_RATING}.")
    if isinstance(min_reliability, bool) or min_reliability not in reliability.CHOICES:
        raise ServiceError("A tournament asks for a reliability of "
                           f"{', '.join(f'{c} %' for c in reliability.CHOICES)}.")
    if starts_at is not None and timezone.is_naive(starts_at):
        starts_at = timezone.make_aware(starts_at, tz.utc)  # a time without a zone is UTC
    if starts_at is not None and starts_at <= timezone.now():
        raise ServiceError("The start time must be in the future.")
    if any(invite) and not invitation_only:
        raise ServiceError("Only an invitation-only tournament sends invitations; anyone may enter an open one.")
    invitees = table.users_named(invite)
    if len(invitees) > max_players:
        raise ServiceError(f"At most {max_players} players can be invited.")
    label = Format(format).label
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=(name.strip() or f"{game.name} {label}")[:80], kind=kind, format=format, organiser=organiser,
            rounds=rounds, table_size=table_size, max_players=max_players, clock=clock_kind,
            clock_amount=clock_amount, round_days=round_days, rated=rated, invitation_only=invitation_only,
            min_rating=min_rating, min_reliability=min_reliability, starts_at=starts_at)
        TournamentEntry.objects.bulk_create([TournamentEntry(tournament=tournament, user=u, status=Entered.INVITED)
                                             for u in invitees])
        notices.invited(tournament, invitees)
        if starts_at is not None:
            rounds_schedule_start(tournament)
    return tournament


def _table_size(game, format: str, size: int) -> int:
    if format == Format.SWISS:
        if not game.min_players <= 2 <= game.max_players:
            raise ServiceError(f"A Swiss pairs two players a game, and {game.name} is not played by two.")
        return 2
    if format == Format.TABLES:
        low, high = max(3, game.min_players), game.max_players
        if not low <= size <= high:
            raise ServiceError(f"Tables of {game.name} seat {low} to {high} players." if low <= high
                               else f"{game.name} is not played at tables of three or more.")
        return size
    if game.min_players <= 2:
        if not 2 <= size <= MAX_GROUP:
            raise ServiceError(f"A round robin group has 2 to {MAX_GROUP} players.")
    elif not game.min_players <= size <= game.max_players:
        raise ServiceError(f"A group of {game.name} plays at one table: {game.min_players} to "
                           f"{game.max_players} players.")
    return size


def rounds_schedule_start(tournament: Tournament) -> None:
    rounds.schedule_on_commit(rounds.START_TASK, (tournament.pk,), tournament.starts_at)


# --- entering and leaving -------------------------------------------------------------------

def _locked(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound("No such tournament.")
    return tournament


def _rating(kind: str, user) -> float:
    row = Rating.objects.filter(kind=kind, user=user).values_list("display", flat=True).first()
    return NEW_DISPLAY if row is None else row


def tournament_join(*, tournament_id: int, user, choice: dict | None = None) -> TournamentEntry:
    """Enter a tournament that has not started (an invitation-only one only when invited),
    with what the game asks a player to choose (the CCG's deck). A bot account enters only a
    practice one, and a player enters only with the rating and the reliability it asks."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status != Status.OPEN:
            raise ServiceError("This tournament has started: it takes no more players.")
        entry = TournamentEntry.objects.filter(tournament=tournament, user=user).first()
        if entry is not None and entry.status == Entered.ENTERED:
            raise ServiceError("You are already in this tournament.")
        if tournament.invitation_only and entry is None:
            raise NotAllowed("This tournament is by invitation only.")
        if tournament.rated and access.bot_ids([user.pk]):
            raise ServiceError("Bot accounts enter only practice (unrated) tournaments: no person's rating "
                               "moves in a game against a program.")
        if tournament.min_rating is not None and _rating(tournament.kind, user) < tournament.min_rating:
            raise ServiceError(f"This tournament wants a rating of at least {tournament.min_rating} in "
                               f"{registry.get(tournament.kind).name}.")
        _check_reliability(tournament, user)
        if _entered(tournament) >= tournament.max_players:
            raise ServiceError("This tournament is full.")
        try:
            chosen = registry.room(tournament.kind).seat_choice(user, choice or {})
        except ValueError as exc:
            raise ServiceError(str(exc)) from None
        if entry is None:
            entry = TournamentEntry(tournament=tournament, user=user)
        entry.status, entry.choice = Entered.ENTERED, chosen
        entry.save()
        versions.bump(tournament)
    return entry


def _check_reliability(tournament: Tournament, user) -> None:
    """Refuse a player whose record falls short of the tournament's minimum (one statement,
    asked only when it has one)."""
    if not tournament.min_reliability:
        return
    record = reliability.of(user.pk)
    if not record.meets(tournament.min_reliability):
        raise ServiceError(reliability.refusal_text(tournament.min_reliability, record, asker="This tournament"))


def tournament_add_computer(*, tournament_id: int, user, level: str) -> TournamentEntry:
    """The organiser enters a computer player: only in a practice (unrated) tournament, so no
    rating ever rests on a game against one."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        _check_organiser(tournament, user)
        if tournament.rated:
            raise ServiceError("Computer players enter only practice (unrated) tournaments.")
        if tournament.status != Status.OPEN:
            raise ServiceError("This tournament has started: it takes no more players.")
        levels = computers.levels_for(tournament.kind)
        if level not in levels:
            raise ServiceError(f"Computer players of {registry.get(tournament.kind).name}: "
                               f"{', '.join(levels) or 'none yet'}.")
        if _entered(tournament) >= tournament.max_players:
            raise ServiceError("This tournament is full.")
        entry = TournamentEntry.objects.create(tournament=tournament, computer=level)
        versions.bump(tournament)
    return entry


def _entered(tournament: Tournament) -> int:
    return TournamentEntry.objects.filter(tournament=tournament, status=Entered.ENTERED).count()


def tournament_leave(*, tournament_id: int, user) -> None:
    """Leave before the start (the entry goes; an invitation stays answerable), or withdraw
    from a running tournament: not paired again, results so far kept; a game being played is
    still theirs to finish or resign."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        entry = TournamentEntry.objects.filter(tournament=tournament, user=user, status=Entered.ENTERED).first()
        if entry is None:
            raise ServiceError("You are not playing in this tournament.")
        if tournament.status == Status.OPEN:
            if tournament.invitation_only:
                entry.status = Entered.INVITED
                entry.save(update_fields=["status"])
            else:
                entry.delete()
        elif tournament.status in (Status.RUNNING, Status.PAUSED):
            entry.status = Entered.WITHDRAWN
            entry.save(update_fields=["status"])
        else:
            raise ServiceError("This tournament is over.")
        versions.bump(tournament)


def tournament_remove(*, entry_id: int, by) -> TournamentEntry:
    """An administrator removes a player: never paired again, and a game of theirs still
    being played in this tournament is resigned for them (so it is lost, or aborted before
    their first move, which loses it too)."""
    if not by.is_staff:
        raise NotAllowed("Only an administrator can remove a player.")
    with transaction.atomic():
        entry = TournamentEntry.objects.select_related("user").filter(pk=entry_id).first()
        if entry is None:
            raise NotFound("No such entry.")
        tournament = _locked(entry.tournament_id)
        if entry.status == Entered.REMOVED:
            return entry
        if tournament.status == Status.OPEN:
            entry.delete()
        else:
            entry.status = Entered.REMOVED
            entry.save(update_fields=["status"])
        notices.removed(tournament, entry)
        versions.bump(tournament)
    # After the tournament's commit, each game on its own (its lock alone: rounds.py's order).
    if entry.user_id and entry.pk:
        for match_id in (TournamentGame.objects.filter(tournament_id=entry.tournament_id, places__isnull=True,
                                                       match__status=Match.Status.ACTIVE,
                                                       players__contains=[entry.pk])
                         .values_list("match_id", flat=True)):
            try:
                table.match_resign(match_id=match_id, user=entry.user)
            except ServiceError as exc:  # already out of that game
                log.info("removing entry %s: game %s not resigned: %s", entry.pk, match_id, exc.message)
    return entry


# --- the organiser -----------------------------------------------------------------------

def _check_organiser(tournament: Tournament, user) -> None:
    if user is None or (user.pk != tournament.organiser_id and not user.is_staff):
        raise NotAllowed("Only the tournament's organiser can do that.")


def minimum_players(tournament: Tournament) -> int:
    game = registry.get(tournament.kind)
    if tournament.format == Format.SWISS:
        return tournament.rounds + 1
    if tournament.format == Format.TABLES:
        return max(game.min_players, 3)
    return 2 if game.min_players <= 2 else game.min_players


def tournament_start(*, tournament_id: int, user=None, now: datetime | None = None) -> Tournament:
    """Start: the players entered are seeded by their rating in the game, round robin groups
    are drawn, and round 1 is paired. ``user`` None: the start time came (the sweep)."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if user is not None:
            _check_organiser(tournament, user)
        if tournament.status != Status.OPEN:
            raise ServiceError("This tournament has already started.")
        entries = list(TournamentEntry.objects.filter(tournament=tournament, status=Entered.ENTERED)
                       .select_related("user"))
        needed = minimum_players(tournament)
        if len(entries) < needed:
            raise ServiceError(f"This tournament needs at least {needed} players to start; it has {len(entries)}.")
        ratings = dict(Rating.objects.filter(kind=tournament.kind, user_id__in=[e.user_id for e in entries if e.user_id])
                       .values_list("user_id", "display"))
        for e in entries:
            e.seed_rating = ratings.get(e.user_id, NEW_DISPLAY)
        if tournament.format == Format.ROUND_ROBIN:
            _draw_groups(tournament, entries)
        elif tournament.format == Format.TABLES:
            game = registry.get(tournament.kind)
            try:
                table_sizes(len(entries), tournament.table_size, game.min_players, game.max_players)
            except ValueError as exc:
                raise ServiceError(f"These players cannot be seated: {exc}.") from None
        TournamentEntry.objects.bulk_update(entries, ["seed_rating", "group"])
        # Invitations nobody answered lapse with the start.
        TournamentEntry.objects.filter(tournament=tournament, status=Entered.INVITED).delete()
        tournament.status = Status.RUNNING
        tournament.started_at = now
        tournament.save(update_fields=["status", "started_at", "rounds"])
        rounds.next_round(tournament, now=now)
        versions.bump(tournament)
    return tournament


def _draw_groups(tournament: Tournament, entries: list[TournamentEntry]) -> None:
    """Snake groups by rating; the schedule's length becomes the tournament's rounds."""
    game = registry.get(tournament.kind)
    minimum = 2 if game.min_players <= 2 else game.min_players
    try:
        groups = snake_groups([Entrant(e.pk, 0, e.seed_rating) for e in entries], tournament.table_size, minimum)
    except ValueError as exc:
        raise ServiceError(f"These players cannot make groups: {exc}.") from None
    number = {pk: n for n, group in enumerate(groups, start=1) for pk in group}
    for e in entries:
        e.group = number[e.pk]
    tournament.rounds = rounds.rounds_of_round_robin(tournament, rounds.groups_of({e.pk: e for e in entries}))


def tournament_pause(*, tournament_id: int, user) -> Tournament:
    """No round closes and none is paired while paused; the games being played go on."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        _check_organiser(tournament, user)
        if tournament.status != Status.RUNNING:
            raise ServiceError("Only a running tournament can be paused.")
        tournament.status, tournament.paused_at = Status.PAUSED, timezone.now()
        tournament.save(update_fields=["status", "paused_at"])
        versions.bump(tournament)
    return tournament


def tournament_resume(*, tournament_id: int, user) -> Tournament:
    """Resume: the current round's deadline moves on by the time paused, and a round whose
    games all ended meanwhile closes now."""
    now = timezone.now()
    with transaction.atomic():
        tournament = _locked(tournament_id)
        _check_organiser(tournament, user)
        if tournament.status != Status.PAUSED:
            raise ServiceError("This tournament is not paused.")
        paused = now - (tournament.paused_at or now)
        current = TournamentRound.objects.filter(tournament=tournament, number=tournament.current_round,
                                                 closed_at__isnull=True).first()
        if current is not None:
            current.deadline += paused
            current.save(update_fields=["deadline"])
            rounds.schedule_on_commit(rounds.ROUND_CLOSE_TASK, (tournament.pk, current.number), current.deadline)
        tournament.status, tournament.paused_at = Status.RUNNING, None
        tournament.save(update_fields=["status", "paused_at"])
        versions.bump(tournament)
    rounds.advance(tournament.pk)
    return tournament


def tournament_cancel(*, tournament_id: int, user) -> Tournament:
    """Call the tournament off: no more rounds; games being played go on as games of their own."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        _check_organiser(tournament, user)
        if tournament.status in (Status.FINISHED, Status.CANCELLED):
            raise ServiceError("This tournament is over.")
        tournament.status, tournament.finished_at = Status.CANCELLED, timezone.now()
        tournament.save(update_fields=["status", "finished_at"])
        notices.cancelled(tournament, TournamentEntry.objects.filter(tournament=tournament, status=Entered.ENTERED))
        versions.bump(tournament)
    return tournament


# --- the timers' guarantee -------------------------------------------------------------------

def sweep(*, now: datetime | None = None, limit: int = 100) -> int:
    """Beat, every minute: start the tournaments whose start time came, close the rounds past
    their deadline, and move on from any round whose games all ended when the move after the
    last result was lost (a crash after its commit). Returns how many it acted on."""
    now = now or timezone.now()
    acted = 0
    for tournament_id in (Tournament.objects.filter(status=Status.OPEN, starts_at__lte=now)
                          .order_by("starts_at").values_list("pk", flat=True)[:limit]):
        acted += _start_when_due(tournament_id, now)
    due = (TournamentRound.objects.filter(closed_at__isnull=True, deadline__lte=now, tournament__status=Status.RUNNING)
           .order_by("deadline").values_list("tournament_id", "number")[:limit])
    for tournament_id, number in due:
        acted += rounds.round_close(tournament_id, number, now=now)
    undecided = TournamentGame.objects.filter(round=OuterRef("pk"), places__isnull=True)
    complete = (TournamentRound.objects.filter(closed_at__isnull=True, tournament__status=Status.RUNNING)
                .exclude(Exists(undecided)).values_list("tournament_id", flat=True)[:limit])
    for tournament_id in complete:
        acted += rounds.advance(tournament_id, changed=True, now=now)
    return acted


def sweep_start(tournament_id: int, *, now: datetime | None = None) -> bool:
    """Start an open tournament whose start time has come (its task, or the sweep)."""
    now = now or timezone.now()
    if not Tournament.objects.filter(pk=tournament_id, status=Status.OPEN, starts_at__lte=now).exists():
        return False
    return _start_when_due(tournament_id, now)


def _start_when_due(tournament_id: int, now: datetime) -> bool:
    try:
        tournament_start(tournament_id=tournament_id, now=now)
        return True
    except ServiceError as exc:
        # Too few players (or none can be seated): it stays open for the organiser to decide,
        # and the sweep stops trying.
        with transaction.atomic():
            tournament = _locked(tournament_id)
            if tournament.status == Status.OPEN:
                tournament.starts_at = None
                tournament.note = f"It could not start at its start time: {exc.message}"[:200]
                tournament.save(update_fields=["starts_at", "note"])
                versions.bump(tournament)
        return False

