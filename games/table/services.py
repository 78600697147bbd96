"""Every write to matches goes through here: check (validate, lock), do (change), notify
(after commit). Views, consumers and tasks only translate and call these."""
from __future__ import annotations

import logging
import uuid
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.table import (access, changes, clock, commitments, computers, persistence, referee, reliability,
                         selectors, unit_of_work)
from games import registry
from grailsite.errors import MoveRejected, NotAllowed, NotFound, ServiceError, StaleVersion
from games.models import ChatMessage, Match, MoveRecord, Notification, Seat
from games.table.replay import JOIN_MOVE
from games.rules.base import Event, IllegalMove, Outcome
from grailsite import metrics

log = logging.getLogger(__name__)
User = get_user_model()

MAX_KEY_LENGTH = 64
CHAT_MAX = 500


# --- creating, joining, starting -------------------------------------------------------

def _rated_at_creation(asked: bool, *, computer_seats: int) -> bool:
    """A game counts for ratings when its creator left "rated" on and every seat is a person."""
    return bool(asked) and computer_seats == 0


def match_create(*, creator, kind: str, num_seats: int, options: dict | None = None, invite: list[str] = (),
                 clock_kind: str = "days", clock_amount: int = 3, weekend_pause: bool = False,
                 vacation_days: int = 0, allow_spectators: bool = True, title: str = "",
                 creator_choice: dict | None = None, seed: int | None = None, rematch_of: Match | None = None,
                 computers_at: dict[int, str] | None = None, computer_delay: int = computers.DEFAULT_DELAY,
                 computer_takeover: bool = False, rated: bool = True, takeover_after: int = 2,
                 contribution: str | bytes | None = None, secret: bytes | None = None,
                 min_reliability: int = 0, deal_after_contribution: bool = False) -> Match:
    """Create a match with the creator in seat 0 and invited users in the next seats.

    The game is committed (games/table/commitments.py): a secret is drawn and its commitment
    published now; ``contribution`` is the creator's share of the seed (32 hex digits from
    their browser; none: zeros). A caller that gives its own ``seed`` (tests keeping their
    deals) makes a game without a commitment; ``secret`` (tests) commits to a known secret.

    A game whose every seat is filled now (the others all computers) would be set up in this
    call, with a contribution sent before its creator saw the commitment: the site, drawing
    the secret after reading it, could try secrets until the deal suited it. So such a game
    never uses ``contribution``. With ``deal_after_contribution`` (the pages and the API) it
    waits for the deal: the creator's page sends a contribution once it has shown the
    commitment (``match_contribute``), or the game is dealt with zeros for it after
    ``settings.DEAL_WAIT_SECONDS`` (``match_deal_due``). Without it (the site's own callers)
    it is dealt at once, the creator's contribution zeros.

    ``computers_at`` gives seats (by index, never the creator's) to computer players of the
    named levels; invitees take the other seats in order. The game starts as soon as every
    seat held by a person is filled, at once when the rest are all computers. ``rated``: the
    creator's wish, kept only when every seat is a person (games/players/ratings.py).
    ``min_reliability``: the table seats only players who finished at least this share of
    their recent games (games/table/reliability.py, one of its ``CHOICES``), invited ones too."""
    try:
        room = registry.room(kind)
    except LookupError as exc:
        raise ServiceError(str(exc)) from None
    game = room.game
    if not game.min_players <= num_seats <= game.max_players:
        raise ServiceError(f"{game.name} takes {game.min_players} to {game.max_players} players.")
    try:
        options = room.options_clean(options)
        clock.validate(clock_kind, clock_amount)
    except ValueError as exc:
        raise ServiceError(str(exc)) from None
    if not 0 <= vacation_days <= 30:
        raise ServiceError("The vacation allowance is 0 to 30 days a year.")
    if not isinstance(takeover_after, int) or not 1 <= takeover_after <= 5:
        raise ServiceError("A computer player takes over after 1 to 5 time-outs in a row.")
    invitees = users_named(invite)
    if creator in invitees:
        raise ServiceError("You are already in your own game.")
    refusal = access.invite_refusal(creator, invitees) or access.bot_refusal(
        invitees, kind=kind, num_seats=num_seats, clock_kind=clock_kind)
    if refusal is not None:
        raise refusal
    _check_min_reliability(min_reliability, invitees)
    computer_seats = _computer_seats(kind, num_seats, computers_at or {}, computer_delay, computer_takeover)
    if len(invitees) > num_seats - 1 - len(computer_seats):
        raise ServiceError(f"Only {num_seats - 1 - len(computer_seats)} other seat(s) to invite into.")
    practice = bool(computer_seats)
    if computer_takeover and num_seats < 3:
        raise ServiceError("A computer player takes over seats only in games of three or more.")
    if computer_takeover and not practice and registry.room(kind).hooks.on_finish is not None:
        # The game's end moves something outside it (the CCG's antes): a person who resigns
        # there leaves; only the clock hands such a seat over, and then it stakes nothing.
        raise ServiceError(f"In {game.name} a computer player can take over a seat only in a game "
                           "against the computer.")
    if not allow_spectators or not game.allows_spectators:
        allow_spectators = False
    if not allow_spectators and len(invitees) + len(computer_seats) < num_seats - 1:
        # Only those invited sit at a private game (games/table/access.py): a seat left open there
        # could be taken by nobody, and the game would never start.
        raise ServiceError("A game without spectators is by invitation: invite a player, or seat a "
                           "computer player, in every seat.")
    choice = _seat_choice(kind, creator, creator_choice or {})
    if seed is not None and secret is not None:
        raise ValueError("A game is given a seed (not committed) or a secret (committed), not both.")
    contribution = commitments.contribution_text(contribution)
    with transaction.atomic():
        match = Match.objects.create(
            kind=kind, title=title[:80], creator=creator, options=options, num_seats=num_seats,
            allow_spectators=allow_spectators, seed=seed,
            clock=clock_kind, clock_amount=clock_amount if clock_kind != "none" else 0,
            weekend_pause=weekend_pause, vacation_days=vacation_days, rematch_of=rematch_of,
            computer_delay=computer_delay, computer_takeover=computer_takeover, practice=practice,
            rated=_rated_at_creation(rated, computer_seats=len(computer_seats)), takeover_after=takeover_after,
            min_reliability=min_reliability)
        if seed is None:
            commitments.commit(match, secret)
        dealt_now = len(computer_seats) == num_seats - 1
        seats = [Seat.objects.create(match=match, index=0, user=creator, accepted=True, choice=choice,
                                     contribution=_creator_contribution(match, contribution, dealt_now=dealt_now,
                                                                        later=deal_after_contribution))]
        waiting = iter(invitees)
        for index in range(1, num_seats):
            if index in computer_seats:
                seats.append(Seat.objects.create(match=match, index=index, accepted=True,
                                                 computer=computer_seats[index],
                                                 contribution=commitments.seat_contribution(match, computer=True)))
                continue
            invitee = next(waiting, None)
            seats.append(Seat.objects.create(match=match, index=index, user=invitee, accepted=False))
            if invitee is not None:
                _notify(invitee, match, Notification.Kind.INVITED,
                        f"{creator.username} asks you for a rematch of {game.name} #{rematch_of.pk}." if rematch_of
                        else f"{creator.username} invites you to a game of {game.name}.")
        if all(s.accepted for s in seats):
            if deal_after_contribution and commitments.committed(match):
                _deal_later(match)
            else:
                _start(match, seats)
    return match


def _creator_contribution(match: Match, given, *, dealt_now: bool, later: bool) -> str:
    """The creator's seat's contribution at creation: what they sent, unless the game is set
    up in the same call (then it was sent before the commitment existed): none yet when it is
    to come from their page, zeros when the game is dealt at once."""
    if not dealt_now:
        return commitments.seat_contribution(match, given)
    return "" if later else commitments.seat_contribution(match, computer=True)


def _deal_later(match: Match) -> None:
    match.deal_due = timezone.now() + timedelta(seconds=settings.DEAL_WAIT_SECONDS)
    match.save(update_fields=["deal_due"])


def match_contribute(*, match_id: int, user, contribution) -> Match:
    """The creator's share of the seed of a game waiting for the deal, sent by their page
    after it showed them the commitment: stored, and the game is dealt with it at once. A
    game already dealt (the page sent it twice, or the time ran out) refuses it (409) and
    keeps the contribution it was dealt with."""
    contribution = commitments.contribution_text(contribution)
    with transaction.atomic():
        match, seats = lock_match(match_id)
        mine = access.seat_of(user, seats)
        if mine is None or not mine.accepted:
            raise NotAllowed("Only a player of this game sends a contribution to it.")
        if not commitments.waiting_for_deal(match) or mine.contribution:
            raise StaleVersion("This game was dealt already: it takes no contribution now.")
        mine.contribution = contribution
        mine.save(update_fields=["contribution"])
        _start(match, seats)
    return match


def match_deal_due(*, match_id: int, now=None) -> bool:
    """Deal a game that waited for its creator's contribution past its time, zeros in place
    of the missing one (a bot that sent none, a page without script). Whether it dealt."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = lock_match(match_id)
        if match.deal_due is None or match.deal_due > now:
            return False
        if not commitments.waiting_for_deal(match):  # called off while it waited: nothing to deal
            match.deal_due = None
            match.save(update_fields=["deal_due"])
            return False
        try:
            with transaction.atomic():
                _start(match, seats)
        except ServiceError as exc:
            # It cannot be set up any more (a CCG deck changed while it waited): called off,
            # so no sweep tries it again and again.
            log.warning("match %s could not be dealt: %s", match.pk, exc.message)
            match.deal_due = None
            match.save(update_fields=["deal_due"])
            _abandon_locked(match, seats)
            return False
    return True


def deal_if_due(match: Match) -> bool:
    """A read of a game (its page, its JSON) past its time to be dealt deals it then, before
    the clocks' sweep comes round. Whether it did: the caller reads the game again."""
    if match.deal_due is None or match.deal_due > timezone.now():
        return False
    return match_deal_due(match_id=match.pk)


def deals_fire_due(*, limit: int = 200, now=None) -> int:
    """Every game whose wait for the deal is over, dealt (the clocks' sweeps run it). Returns
    how many."""
    now = now or timezone.now()
    due = list(Match.objects.filter(deal_due__lte=now).order_by("deal_due").values_list("pk", flat=True)[:limit])
    return sum(match_deal_due(match_id=pk, now=now) for pk in due)


def _check_min_reliability(minimum, invitees) -> None:
    """A table asks for one of the minimums offered, and invites nobody who could not accept
    (one statement for all the invitees)."""
    if isinstance(minimum, bool) or minimum not in reliability.CHOICES:
        raise ServiceError(f"A table asks for a reliability of {', '.join(f'{c} %' for c in reliability.CHOICES)}.")
    if not minimum or not invitees:
        return
    records = reliability.of_many([u.pk for u in invitees])
    for invitee in invitees:
        if not records[invitee.pk].meets(minimum):
            raise ServiceError(reliability.refusal_text(minimum, records[invitee.pk], who=invitee.username))


def _computer_seats(kind: str, num_seats: int, wanted: dict, delay, takeover) -> dict[int, str]:
    """{seat index: level} checked: real seats other than the creator's, levels the game has."""
    if isinstance(delay, bool) or not isinstance(delay, int) or not 0 <= delay <= computers.MAX_DELAY:
        raise ServiceError(f"A computer player waits 0 to {computers.MAX_DELAY} seconds before it moves.")
    if not wanted:
        return {}
    levels = computers.levels_for(kind)
    if not levels:
        raise ServiceError(f"{registry.get(kind).name} has no computer players yet.")
    seats = {}
    for index, level in wanted.items():
        if isinstance(index, bool) or not isinstance(index, int) or not 1 <= index < num_seats:
            raise ServiceError(f"Computer players sit in seats 2 to {num_seats}; seat 1 is yours.")
        if level not in levels:
            raise ServiceError(f"Computer players here are: {', '.join(computers.level_label(lv) for lv in levels)}.")
        seats[index] = level
    return seats


def users_named(names) -> list:
    """The accounts invited by name (a game's or a tournament's invitation), in the order
    named; each name once, and every one an account."""
    names = [n.strip() for n in names if n and n.strip()]
    if len(set(names)) != len(names):
        raise ServiceError("The same player is invited twice.")
    found = {u.username: u for u in User.objects.filter(username__in=names)}
    missing = [n for n in names if n not in found]
    if missing:
        raise ServiceError(f"No player named {', '.join(missing[:5])}.")
    return [found[n] for n in names]


def _seat_choice(kind: str, user, choice: dict) -> dict:
    try:
        return registry.room(kind).seat_choice(user, choice)
    except ValueError as exc:
        raise ServiceError(str(exc)) from None


def match_create_seated(*, creator, kind: str, holders: list, choices: list[dict] | None = None,
                        options: dict | None = None, clock_kind: str = "days", clock_amount: int = 3,
                        title: str = "", rated: bool = True, competition: str = "", seed: int | None = None,
                        computer_delay: int = computers.DEFAULT_DELAY) -> Match:
    """A game whose players were chosen already (a tournament's pairing, a ladder's challenge):
    ``holders`` gives each seat in order a person (a user) or a computer player's level, every
    seat is taken and accepted, and the game starts at once. Nobody is invited: whoever chose
    the players tells them. ``creator`` need not play (a tournament's organiser);
    ``competition`` marks the game as part of one (``Match.competition``), so it cannot be
    abandoned. ``choices``: each seat's choice (the CCG's deck), checked as on joining."""
    try:
        room = registry.room(kind)
    except LookupError as exc:
        raise ServiceError(str(exc)) from None
    game = room.game
    if not game.min_players <= len(holders) <= game.max_players:
        raise ServiceError(f"{game.name} takes {game.min_players} to {game.max_players} players.")
    people = [h for h in holders if not isinstance(h, str)]
    if len({u.pk for u in people}) != len(people):
        raise ServiceError("A player is seated twice.")
    try:
        options = room.options_clean(options)
        clock.validate(clock_kind, clock_amount)
    except ValueError as exc:
        raise ServiceError(str(exc)) from None
    levels = {i: h for i, h in enumerate(holders) if isinstance(h, str)}
    _computer_seats(kind, len(holders), {i: h for i, h in levels.items() if i}, computer_delay, False)
    if levels.get(0) is not None and levels[0] not in computers.levels_for(kind):
        raise ServiceError(f"{game.name} has no computer player '{levels[0]}'.")
    choices = list(choices or [{}] * len(holders))
    seat_choices = [{} if isinstance(h, str) else _seat_choice(kind, h, c or {}) for h, c in zip(holders, choices)]
    with transaction.atomic():
        match = Match.objects.create(
            kind=kind, title=title[:80], creator=creator, options=options, num_seats=len(holders),
            allow_spectators=game.allows_spectators, seed=seed,
            clock=clock_kind, clock_amount=clock_amount if clock_kind != "none" else 0,
            computer_delay=computer_delay, practice=bool(levels), competition=competition,
            rated=_rated_at_creation(rated, computer_seats=len(levels)))
        if seed is None:  # committed like every new game; nobody here gives a contribution
            commitments.commit(match)
        seats = [Seat.objects.create(match=match, index=i, accepted=True, choice=choice,
                                     contribution=commitments.seat_contribution(match, computer=isinstance(holder, str)),
                                     **({"computer": holder} if isinstance(holder, str) else {"user": holder}))
                 for i, (holder, choice) in enumerate(zip(holders, seat_choices))]
        _start(match, seats)
    return match


def match_join(*, match_id: int, user, choice: dict | None = None, contribution: str | bytes | None = None) -> Match:
    """Take an open seat, or accept an invitation. Starts the match when every seat is taken.
    ``contribution``: the joiner's share of a committed game's seed (as ``match_create``'s);
    a newcomer in a game under way gives none, its seed being fixed already.
    A game under way takes a newcomer in a new seat when its rules allow it (``_join_running``).
    Who may sit at all is games/table/access.py's answer, asked first, whatever the game's status:
    a private game admits only those invited, and nobody sits again at a table they left."""
    choice = None if choice is None else dict(choice)
    contribution = commitments.contribution_text(contribution)
    with transaction.atomic():
        match, seats = lock_match(match_id)
        access.check_join(match, user, seats)
        if match.status == Match.Status.ACTIVE and hasattr(registry.get(match.kind), "add_seat"):
            _join_running(match, seats, user, choice or {})
            return match
        if match.status != Match.Status.OPEN:
            raise ServiceError("This game is not waiting for players.")
        mine = access.seat_of(user, seats)  # an invitation, if any (access refused a taken seat)
        took_open_seat = mine is None
        if mine is None:
            mine = next((s for s in seats if s.is_open), None)
            if mine is None:
                raise ServiceError("Every seat is taken.")
        mine.user, mine.accepted = user, True
        mine.choice = _seat_choice(match.kind, user, choice or {})
        mine.contribution = commitments.seat_contribution(match, contribution)  # published at once, with the seat
        mine.save(update_fields=["user", "accepted", "choice", "contribution"])
        if took_open_seat and match.creator_id != user.id:  # "someone joined your open game" (a notice, a push)
            persistence.notify(match.creator_id, match.pk, Notification.Kind.JOINED,
                               f"{user.username} joined your game of {registry.get(match.kind).name} #{match.pk}.")
        if all(s.accepted for s in seats):
            _start(match, seats)
        else:
            _bump(match, seats)
    return match


def _join_running(match: Match, seats: list[Seat], user, choice: dict) -> None:
    """Seat a newcomer in a locked game under way: the rules' ``add_seat`` deals them in (or
    says why the table takes nobody), recorded as a move so the game still replays from its
    seed (games/table/replay.py); then deadlines and pushes as after any move. The caller asked
    games/table/access.py whether this person may sit here."""
    game = registry.get(match.kind)
    try:
        state, events = game.add_seat(match.state)
    except IllegalMove as exc:
        raise ServiceError(exc.reason) from None
    opening = _opening_events(match, game)
    # A seat taken in a game under way: its player leaving never aborts the game (referee.aborts).
    seat = Seat.objects.create(match=match, index=len(seats), user=user, accepted=True, joined_late=True,
                               choice=_seat_choice(match.kind, user, choice))
    seats.append(seat)
    match.num_seats += 1
    match.save(update_fields=["num_seats"])
    match.state = state
    match.move_count += 1
    record = MoveRecord(match=match, seq=match.move_count, seat=seat.index, user=user, move=JOIN_MOVE,
                        events=[*opening, *(e.as_dict() for e in events)], key=f"join-{uuid.uuid4().hex}", by_timeout=False,
                        version_after=match.version + 1)
    _after_change(match, seats, game, mover=seat.index, record=record)  # stores the record too


def match_decline(*, match_id: int, user) -> Match:
    with transaction.atomic():
        match, seats = lock_match(match_id)
        seat = next((s for s in seats if s.user_id == user.id and not s.accepted), None)
        if match.status != Match.Status.OPEN or seat is None:
            raise ServiceError("There is no invitation of yours to decline here.")
        seat.user = None
        seat.save(update_fields=["user"])
        # Who left the table with this change, for its listeners (a bot's event stream hears
        # that the invitation is gone): the seats no longer name them.
        match.__dict__["_left_user_ids"] = (user.id,)
        _bump(match, seats)
    return match


def _bot_game_unrated(seats: list[Seat]) -> bool:
    """A bot plays unrated (``BOT_GAMES_RATED = "unrated"``), or rated among bots alone
    (``"pool"``: a game where every person seated is a bot counts, a bot against people does
    not), so no person's rating ever moves against a program."""
    people = {s.user_id for s in seats if s.user_id}
    bots = access.bot_ids(people)
    if not bots:
        return False
    return settings.BOT_GAMES_RATED != "pool" or bots != people


def _start(match: Match, seats: list[Seat]) -> None:
    room = registry.room(match.kind)
    game, hooks = room.game, room.hooks
    options = dict(match.options)
    if hooks.setup_options:
        try:
            options = hooks.setup_options(match, seats)
        except ValueError as exc:
            raise ServiceError(str(exc)) from None
    match.setup_options = options
    if commitments.committed(match):
        match.seed = commitments.seed_at_setup(match, seats)  # every seat is filled: the seed is fixed now
    try:
        match.state = game.setup(match.num_seats, options, match.seed)
    except ValueError as exc:
        raise ServiceError(f"The game could not be set up: {exc}") from None
    fields = ["setup_options", "seed"]
    if match.deal_due is not None:
        match.deal_due = None
        fields.append("deal_due")
    if match.rated and _bot_game_unrated(seats):
        match.rated = False
        fields.append("rated")
    match.save(update_fields=fields)
    match.status = Match.Status.ACTIVE
    match.started_at = timezone.now()
    _after_change(match, seats, game, mover=None)
    if hooks.on_start:
        hooks.on_start(match, seats)
    _apply_auto_moves(match, seats)


# --- moves -----------------------------------------------------------------------------

def move_submit(*, match_id: int, user, move: dict, version: int | None, key: str | None = None) -> dict:
    """Apply one move in one transaction. A repeated ``key`` returns the first result.

    ``version`` is the version the player looked at. In a game with ``strict_versions``
    any change since refuses the move as stale; otherwise only a change of the mover's own
    situation does (``Seat.situation_version``), and the move is checked against the state
    as it is now: the other seats acting at the same time never make it stale.

    games/live/live_moves.py runs the same ``move_submission`` and ``move_submit_locked`` on an
    event loop, with its own lock and commit."""
    key, supplied = move_submission(move, key)
    with transaction.atomic():
        # The house's lock order, as lock_match; only a key the client chose can have been
        # used before, so only then is the earlier move looked up (with the seats).
        match, seats, earlier = persistence.lock_for_move(match_id, key if supplied else None)
        return move_submit_locked(match, seats, earlier, user=user, move=move, version=version, key=key)


def move_submission(move, key: str | None) -> tuple[str, bool]:
    """(the submission's key, whether the client chose it), once the move's shape is checked."""
    if not isinstance(move, dict):
        raise MoveRejected("A move must be a JSON object.")
    if move == JOIN_MOVE:
        raise MoveRejected("Join a game from its page, not as a move.")
    return (key or uuid.uuid4().hex)[:MAX_KEY_LENGTH], bool(key)


def move_submit_locked(match: Match, seats: list[Seat], earlier, *, user, move: dict, version: int | None,
                       key: str) -> dict:
    """What ``move_submit`` decides and changes once the match and its seats are locked
    (``earlier``: the move already made with ``key``, from the lock). Its writes go through
    ``persistence``, its after-commit work through ``unit_of_work.on_commit``."""
    if earlier is not None:
        earlier_user, version_after, seq = earlier
        if earlier_user != user.id:
            raise NotAllowed("That submission key belongs to another player.")
        return {"version": version_after, "seq": seq, "repeated": True}
    seat = next((s for s in seats if s.user_id == user.id and s.accepted), None)
    if seat is None:
        raise NotAllowed("You are not playing in this game.")
    if match.status != Match.Status.ACTIVE:
        raise MoveRejected("This game is not in play.")
    if version is not None and version != match.version and _stale_for(match, seat, version):
        raise StaleVersion("The game moved on since you looked: it has been refreshed, please try again.")
    # A person moves only as the rules offer their seat now: never the clock's own move (a
    # Camelot end of turn "timed out"), nor anything the listing does not hold. The clock's,
    # the computer players' and the site's own moves take _apply directly; no request does.
    game = registry.get(match.kind)
    refusal = game.offered(match.state, seat.index, move)
    if refusal is not None:
        raise MoveRejected(_refusal_words(game, match.state, seat.index, move, refusal))
    leaving = move.get("type") == "resign"
    if leaving and referee.aborts(seat):  # as match_resign: leaving before one's first move aborts
        _abort(match, seats, seat, "resigned before their first move")
        return {"version": match.version, "seq": None, "repeated": False}
    # Leaving is not a move of one's own: it must not save a no-show from aborting, nor count
    # towards a game's being rated.
    record = _apply(match, seats, seat.index, move, user=user, key=key, by_timeout=False, own=not leaving)
    _apply_auto_moves(match, seats)
    return {"version": record.version_after, "seq": record.seq, "repeated": False}


def _refusal_words(game, state, seat: int, move: dict, refusal: str) -> str:
    """The reason a person reads for a move the rules do not offer them. A move that is an
    offered one plus fields of the site's own (the clock's "timed_out") is told which field
    is not theirs to send: the rules would call the whole move "not open", though the plain
    move is. Otherwise the rules' own words when they have one ("It is not your turn.",
    "That unit is frozen this turn."), which say more than "not open to you"; else the offer's."""
    extra = _fields_not_offered(game, state, seat, move)
    if extra:
        named = " and ".join(f"'{name}'" for name in extra)
        if len(extra) == 1:
            return f"{named} is not the player's to send: the move is open to you without it."
        return f"{named} are not the player's to send: the move is open to you without them."
    try:
        game.apply(state, seat, move)
    except IllegalMove as exc:
        return exc.reason
    except Exception:  # noqa: BLE001 - a move no rule expected: the offer's words will do
        return refusal
    return refusal


def _fields_not_offered(game, state, seat: int, move: dict) -> list[str]:
    """The fields of ``move`` beyond those of a move the rules offer ``seat`` now, when
    leaving them out makes it that offered move; [] when no listed move is so contained."""
    try:
        candidates = game.offered_candidates(state, seat, move)
    except Exception:  # noqa: BLE001 - a move the listing cannot read has no such near miss
        return []
    # A field the game declares free for this type (a quote, an aim) is the player's own:
    # a bad value there is told by its own check, never as a field not theirs to send.
    free = set(game.free_fields.get(move.get("type"), ()))
    for candidate in candidates:
        if not isinstance(candidate, dict) or candidate.get("type") != move.get("type"):
            continue
        if not set(candidate) < set(move):
            continue
        extra = sorted(set(move) - set(candidate) - free)
        plain = {name: move[name] for name in move if name in candidate or name in free}
        if extra and game.offered(state, seat, plain) is None:
            return extra
    return []


def _opening_events(match: Match, game) -> list[dict]:
    """The rules' words for how the game began (``Game.opening_events``: who goes first),
    stored with its first record, so the log, the recap, history and replay all start with
    them; nothing once the game has a record."""
    return [] if match.move_count else [e.as_dict() for e in game.opening_events(match.state)]


def _stale_for(match: Match, seat: Seat, version: int) -> bool:
    """Whether a move made on ``version`` (not the current one) must be refused as stale."""
    if registry.get(match.kind).strict_versions or version > match.version:
        return True
    return seat.situation_version > version


def _apply(match: Match, seats: list[Seat], seat_index: int, move: dict, *, user, key: str,
           by_timeout: bool, lead_events: list[dict] = (), own: bool = False, reason: str | None = None) -> MoveRecord:
    """Apply ``move`` to a locked active match (``seats`` locked too) and persist what follows.
    ``lead_events`` are the shell's own log lines that come before the rules' (a takeover).
    ``own``: the seat's person made this move themselves (not the clock, a computer player or
    one of their presets): the referee counts it (games/table/referee.py). ``reason``: the
    result's reason when this move ends the game, in the referee's words ("Seat 2 ran out of
    time.") rather than the rules' (a resignation).

    The idempotency key was checked under the match lock, so the insert cannot collide."""
    game = registry.get(match.kind)
    try:
        state, events = game.apply(match.state, seat_index, move)
    except IllegalMove as exc:
        raise MoveRejected(exc.reason) from None
    opening = _opening_events(match, game)
    previous_state, match.state = match.state, state
    match.move_count += 1
    record = MoveRecord(match=match, seq=match.move_count, seat=seat_index, user=user, move=move,
                        events=[*opening, *lead_events, *(e.as_dict() for e in events)], key=key, by_timeout=by_timeout,
                        version_after=match.version + 1)
    hooks = registry.room(match.kind).hooks
    if hooks.after_move:
        hooks.after_move(match, seats, previous_state)
    _after_change(match, seats, game, mover=seat_index, record=record, own=own, reason=reason)  # stores the record too
    # Counted once committed: a batch retried on the synchronous path counts its moves once.
    by = "timeout" if by_timeout else ("player" if user is not None else "computer")
    unit_of_work.on_commit(partial(metrics.moved, match.kind, by))
    return record


MAX_AUTO_MOVES = 50


def _apply_auto_moves(match: Match, seats: list[Seat]) -> None:
    """Make the moves players preset (e.g. always pass a response window), one after another,
    until the rules wait for a real decision. Bounded, in case presets answer each other."""
    hook = registry.room(match.kind).hooks.auto_move
    if hook is None:
        return
    game = registry.get(match.kind)
    for _ in range(MAX_AUTO_MOVES):
        if match.status != Match.Status.ACTIVE:
            return
        choice = next(((seat, move) for p in game.pending(match.state)
                       for seat in seats if seat.index == p.seat
                       for move in [hook(match, seat, p.kind)] if move is not None), None)
        if choice is None:
            return
        seat, move = choice
        try:
            _apply(match, seats, seat.index, move, user=seat.user, key=f"auto-{match.move_count + 1}",
                   by_timeout=False)
        except MoveRejected:
            log.exception("preset move refused for match %s seat %s", match.pk, seat.index)
            return


def _after_change(match: Match, seats: list[Seat], game, *, mover: int | None, record: MoveRecord | None = None,
                  own: bool = False, reason: str | None = None) -> None:
    """Outcome, deadlines and notifications after the state changed; saves match and seats.

    Each seat's stored ``(waiting_for, waiting_key)`` is what the rules waited for from it
    before this change. A seat's clock restarts when that changes (a new decision, a new
    turn), or on each of its own moves when the rules give no key (a clock per move)."""
    changes.shown(match, seats, record)
    now = timezone.now()
    result = game.outcome(match.state)
    out = game.seats_out(match.state) if result is None else {}
    if out:
        result = _no_person_left(seats, out)
    pending: dict[int, tuple[str, str]] = {}
    for p in (game.pending(match.state) if result is None else ()):
        pending.setdefault(p.seat, (p.kind, p.key))  # a seat listed twice owes its first entry first
    new_version = match.version + 1
    track_situations = not game.strict_versions
    paused = result is None and game.clocks_paused(match.state)
    newly_due, new_deadlines, changed, computers_due, done_waiting = [], [], [], [], []
    for seat in seats:
        entry = pending.get(seat.index)
        previous = (seat.waiting_for, seat.waiting_key) if seat.waiting_for else None
        if previous is not None and entry is None and seat.user_id:
            done_waiting.append(seat.user_id)
        was = (seat.waiting_for, seat.waiting_key, seat.deadline, seat.deadline_warned, seat.situation_version,
               seat.computer_due, seat.own_moves, seat.timeouts_in_row)
        if own and seat.index == mover:  # a move of their own: counted, and their run of time-outs ends
            seat.own_moves += 1
            seat.timeouts_in_row = 0
        if track_situations and (entry != previous or seat.index == mover):
            seat.situation_version = new_version
        if _computer_due_set(match, seat, entry, previous, mover=mover, now=now):
            computers_due.append(seat)
        if entry is None:
            seat.waiting_for, seat.waiting_key, seat.deadline = "", "", None
        elif paused:
            seat.waiting_for, seat.waiting_key = entry
            seat.deadline = None
        elif (entry != previous or (seat.index == mover and not entry[1])
              # A pending seat without a deadline on a timed clock was paused: its clock restarts.
              or (seat.deadline is None and _allowance(match, entry[0])[0] != "none")):
            seat.waiting_for, seat.waiting_key = entry
            clock_kind, amount = _allowance(match, entry[0])
            seat.deadline = clock.deadline(now, clock_kind, amount, weekend_pause=match.weekend_pause,
                                           paused_until=seat.paused_until)
            seat.deadline_warned = False
            if seat.deadline is not None:
                new_deadlines.append(seat)
            if previous is None:
                newly_due.append(seat)
        if (seat.waiting_for, seat.waiting_key, seat.deadline, seat.deadline_warned, seat.situation_version,
                seat.computer_due, seat.own_moves, seat.timeouts_in_row) != was:
            changed.append(seat)
    match.version += 1
    if result is not None:
        match.status = Match.Status.FINISHED
        match.outcome = result.as_dict()
        if reason:
            match.outcome["reason"] = reason
        match.finished_at = now
    name = registry.get(match.kind).name
    # "Your move" notices go into the same statement as the change (games/table/persistence.py).
    notices = [(seat.user_id, Notification.Kind.YOUR_TURN, _your_turn_text(seat, match, name))
               for seat in newly_due if seat.user_id]
    # A "Your move" (or "less than a day left") that no longer applies goes away: the seat
    # moved, or the game ended; one that came true again is the new notice above.
    withdrawn = [s.user_id for s in seats if s.user_id] if result is not None else done_waiting
    persistence.write(match, changed, record, notices, withdrawn=withdrawn)
    if result is None and out:
        _mark_out(match, seats, out, record)
    if result is not None:
        hook = registry.room(match.kind).hooks.on_finish
        if hook:
            hook(match, seats, match.outcome)
        changes.finished(match, seats)  # a rated game rates its players here, once (games/players/ratings.py)
        for seat in seats:
            if seat.user_id:
                _notify(seat.user, match, Notification.Kind.GAME_OVER, _game_over_text(match, seat, seats))
    changes.written(match, [s for s in seats if s.deadline], timers=new_deadlines)
    computers.schedule_on_commit(match, computers_due, apply=computer_move_apply)


def _no_person_left(seats: list[Seat], out: dict[int, str]):
    """The end of a game in which every person has left and only computer players play on
    (say the one person at a Camelot table of computers resigned): nobody is left to play
    for, so it stops here, won by the computer players still in, rather than playing on
    for a hundred moves before no one. None while a person still plays (or none ever did)."""
    people = [s for s in seats if s.user_id is not None]
    still_in = [s.index for s in seats if s.index not in out]
    if not people or any(s.index not in out for s in people) or not still_in:
        return None
    left = "; ".join(f"Seat {s.index + 1} {out[s.index]}" for s in people)
    who = "the computer player" if len(still_in) == 1 else "the computer players"
    return Outcome(winners=tuple(still_in),
                   reason=f"{left}. With no person left playing, the game stops here, won by {who} still in.")


def _mark_out(match: Match, seats: list[Seat], out: dict[int, str], record: MoveRecord | None = None) -> None:
    """A person just left a game that goes on without them: mark the seat (lists of games
    then show it as over for them without reading the state) and tell them at once, with
    what becomes of their stake. Rare, so through the ORM, on the synchronous path.

    A seat whose own resignation (``record``: theirs, or the clock's in their place) put them
    out walked out on the others (``Seat.walked_out``: their reliability counts it); one the
    rules put out (the CCG's player who ran out of cards) did not."""
    newly = [s for s in seats if s.user_id and s.index in out and selectors.OUT_MARK not in (s.choice or {})]
    if not newly:
        return
    unit_of_work.require_sync("a player left the game: their seat is marked through the ORM")
    name = registry.get(match.kind).name
    resigned = record.seat if record is not None and (record.move or {}).get("type") == "resign" else None
    for seat in newly:
        seat.choice = dict(seat.choice or {}, **{selectors.OUT_MARK: out[seat.index]})
        seat.walked_out = seat.index == resigned
        seat.save(update_fields=["choice", "walked_out"])
        ending = selectors.ending_for(match, seat.index, seats)
        more = " ".join([ending["reason"], *ending["details"]]) if ending else ""
        _notify(seat.user, match, Notification.Kind.GAME_OVER,
                _fitted(f"You {out[seat.index]} in {name} #{match.pk}", more))


def _fitted(head: str, more: str) -> str:
    """``head: more`` within a notification's length, cut at a sentence if it must be."""
    text = f"{head}: {more}" if more else f"{head}."
    if len(text) <= NOTICE_LENGTH:
        return text
    cut = text[:NOTICE_LENGTH - 1]
    end = max(cut.rfind(". "), cut.rfind("; "))
    return cut[:end + 1] if end > len(head) else cut.rstrip() + "…"


def match_rematch(*, match_id: int, user, contribution: str | bytes | None = None,
                  deal_after_contribution: bool = False) -> tuple[Match, bool]:
    """A new game after a finished one: the same game and table options, clock, spectators
    and computer players, the same people invited (each accepts, choosing again what the
    game asks of a seat, the CCG's deck). The asker sits first and the others follow in
    their order round the table. A block keeps its pair apart (``_rematch_order``): the
    rematch invites the others and has a seat fewer for each person left out, or an open
    seat where the game needs the players. One rematch per game: asked again, by anyone, it
    is the one already made (the CCG's drawn game makes its own at once). Returns (the
    rematch, whether this call made it); the finished game's pages are told (a bump).
    ``contribution``, ``deal_after_contribution``: the asker's share of the rematch's seed,
    and whether a rematch against computers waits for it to be sent again (``match_create``)."""
    with transaction.atomic():
        old, seats = lock_match(match_id)
        mine = next((s for s in seats if s.user_id == user.id and s.accepted), None)
        if mine is None:
            raise NotAllowed("Only the players of a game can ask for a rematch.")
        if old.status != Match.Status.FINISHED:
            raise ServiceError("A rematch follows a finished game.")
        existing = Match.objects.filter(rematch_of=old).order_by("pk").first()
        if existing is not None:
            return existing, False
        order, num_seats = _rematch_order(old, seats, mine)
        if None in order and not old.allow_spectators:
            raise ServiceError("A block keeps players of this game apart, and a game without spectators "
                               "has no open seat to offer instead: start a new game.")
        base = old.title.removeprefix("Rematch: ")
        rematch = match_create(
            creator=user, kind=old.kind, num_seats=num_seats, options=old.options,
            invite=[s.user.username for s in order[1:] if s is not None and s.user_id],
            computers_at={i: s.computer for i, s in enumerate(order) if s is not None and s.computer},
            clock_kind=old.clock, clock_amount=old.clock_amount, weekend_pause=old.weekend_pause,
            vacation_days=old.vacation_days, allow_spectators=old.allow_spectators,
            title=(f"Rematch: {base}" if base else f"Rematch of #{old.pk}")[:80],
            creator_choice=_own_choice(mine.choice), rematch_of=old, computer_delay=old.computer_delay,
            computer_takeover=old.computer_takeover, takeover_after=old.takeover_after, contribution=contribution,
            min_reliability=old.min_reliability, deal_after_contribution=deal_after_contribution)
        old.__dict__["_rematch"] = {"id": rematch.pk, "status": rematch.status}
        _bump(old, seats)
    return rematch, True


def _rematch_order(old: Match, seats: list[Seat], mine: Seat) -> tuple[list[Seat | None], int]:
    """The old seats in the rematch's order (the asker first, then round the table) and its
    number of seats. Going round, a person a block ties to someone already kept (either
    way round) is left out, so no blocked pair sits together; the rematch has a seat fewer
    for each, down to the game's minimum, and the seats still needed are open (None)."""
    around = seats[mine.index:] + seats[:mine.index]
    apart = access.blocked_pairs(s.user_id for s in around)
    kept: list[Seat] = []
    for seat in around:
        if seat.user_id is None or not any(frozenset((seat.user_id, k.user_id)) in apart for k in kept):
            kept.append(seat)
    num_seats = max(len(kept), registry.get(old.kind).min_players)
    return [*kept, *[None] * (num_seats - len(kept))], num_seats


# What the shell itself notes in Seat.choice, never part of what a player chose.
_SHELL_MARKS = (selectors.OUT_MARK, "took_over_from")


def _own_choice(choice: dict | None) -> dict:
    return {k: v for k, v in (choice or {}).items() if k not in _SHELL_MARKS}


def match_resign(*, match_id: int, user) -> Match:
    with transaction.atomic():
        match, seats = lock_match(match_id)
        seat = next((s for s in seats if s.user_id == user.id and s.accepted), None)
        if seat is None:
            raise NotAllowed("You are not playing in this game.")
        if match.status != Match.Status.ACTIVE:
            raise ServiceError("Only a game in play can be resigned.")
        if seat.index in registry.get(match.kind).seats_out(match.state):
            raise ServiceError("You are already out of this game.")
        if referee.aborts(seat):  # before their first move: the game never got going
            _abort(match, seats, seat, "resigned before their first move")
            return match
        if _takes_over(match, seats, seat):
            _computer_takeover(match, seats, seat, why="resigned")
            return match
        _apply(match, seats, seat.index, {"type": "resign"}, user=user, key=f"resign-{seat.index}-{match.version}",
               by_timeout=False)
    return match


def match_abandon(*, match_id: int, user) -> Match:
    """The creator may call off a game that has not started, or one with no move made yet."""
    with transaction.atomic():
        match, seats = lock_match(match_id)
        if match.creator_id != user.id and not user.is_staff:
            raise NotAllowed("Only the game's creator can abandon it.")
        if match.competition:
            # Its result is owed to a tournament or a ladder: it ends as any game ends.
            raise ServiceError("A tournament or ladder game cannot be abandoned; resign instead.")
        if match.status == Match.Status.OPEN or (match.status == Match.Status.ACTIVE and match.move_count == 0):
            _abandon_locked(match, seats)
        else:
            raise ServiceError("A game under way cannot be abandoned; resign instead.")
    return match


def _abandon_locked(match: Match, seats: list[Seat]) -> None:
    was_active = match.status == Match.Status.ACTIVE
    match.status = Match.Status.ABANDONED
    match.finished_at = timezone.now()
    match.seats.update(deadline=None, waiting_for="", waiting_key="", computer_due=None)
    for seat in seats:
        seat.deadline, seat.waiting_for, seat.waiting_key, seat.computer_due = None, "", "", None
    _bump(match, seats, withdrawn=[s.user_id for s in seats if s.user_id])
    hook = registry.room(match.kind).hooks.on_abandon
    if hook and was_active:
        hook(match)


# --- timers ----------------------------------------------------------------------------

def deadline_expire(*, match_id: int, seat_index: int, version: int | None = None,
                    deadline: datetime | None = None) -> bool:
    """Apply the rules' timeout move for a seat whose deadline has passed.

    Idempotent and safe to race: returns False (doing nothing) when the deadline is not yet
    due, the match is over, or the timer is for a deadline that was since replaced: the
    ``deadline`` it was set for (seats acting at once keep their own timers however the
    others move), or, for a timer that names none, the ``version`` it was set at.
    """
    now = timezone.now()
    with transaction.atomic():
        try:
            match, seats = lock_match(match_id)
        except NotFound:
            return False
        if match.status != Match.Status.ACTIVE:
            return False
        if deadline is None and version is not None and version != match.version:
            return False
        seat = next((s for s in seats if s.index == seat_index), None)
        if seat is None or seat.deadline is None or seat.deadline > now:
            return False
        if deadline is not None and seat.deadline != deadline:
            return False
        game = registry.get(match.kind)
        late = (now - seat.deadline).total_seconds()  # before the move sets the next deadline
        _rule_time_out(match, seats, seat, game)
        transaction.on_commit(partial(metrics.deadline_fired, late))
    return True


# The clock's default answers one ``match_time_up`` makes at most (answers may lead to others).
MAX_TIME_UP_STEPS = 50


def match_time_up(*, match_id: int, reason: str) -> Match:
    """The time a game had is up for every seat at once (a tournament round's deadline).

    Each seat owing a decision runs out of time as at its own deadline, under the referee's
    rules (games/table/referee.py): a wait with a default is answered by the clock, and so is
    any wait those answers lead to; a seat that owed its own turn when the time was up runs
    out of time on it, once. In a game of two that ends it: the seat to move loses (or the
    game is aborted, before that person's first move). A game of three or more goes on after
    the clock played the late seat's turn, so it ends here: the seats that ran out of time
    lose and everyone else still in shares the win, ``reason`` saying why. Does nothing to a
    game that is not in play."""
    with transaction.atomic():
        match, seats = lock_match(match_id)
        if match.status != Match.Status.ACTIVE:
            return match
        game = registry.get(match.kind)
        turns = game.own_turn_waits
        owed = {s.index for s in seats if s.waiting_for in turns}
        ran_out: set[int] = set()
        for _ in range(MAX_TIME_UP_STEPS):
            if match.status != Match.Status.ACTIVE:
                break
            seat = (next((s for s in seats if s.waiting_for and s.waiting_for not in turns), None)
                    or next((s for s in seats if s.waiting_for in turns and s.index in owed - ran_out), None))
            if seat is None:
                break
            if seat.waiting_for in turns:
                ran_out.add(seat.index)
            _rule_time_out(match, seats, seat, game)
        if match.status == Match.Status.ACTIVE:
            _end_by_time(match, seats, game, ran_out, reason)
    return match


def _end_by_time(match: Match, seats: list[Seat], game, ran_out: set[int], reason: str) -> None:
    """End a locked game whose time is up: the seats that ran out of time lose, the others
    still in share the win (all of them: a draw). The reason says so after ``reason``."""
    out = game.seats_out(match.state)
    winners = tuple(s.index for s in seats if s.index not in ran_out and s.index not in out)
    late = " and ".join(f"Seat {i + 1}" for i in sorted(ran_out))
    said = (f"{reason}: {late} ran out of time and {'loses' if len(ran_out) == 1 else 'lose'}, so the others "
            "share the win." if ran_out else f"{reason}: nobody owed a move, so the game is drawn.")
    match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()
    match.outcome = Outcome(winners=winners, draw=len(winners) == len(seats), reason=said).as_dict()
    for s in seats:
        s.deadline, s.waiting_for, s.waiting_key, s.computer_due = None, "", "", None
    Seat.objects.filter(match_id=match.pk).update(deadline=None, waiting_for="", waiting_key="", computer_due=None)
    _bump(match, seats, withdrawn=[s.user_id for s in seats if s.user_id])
    hook = registry.room(match.kind).hooks.on_finish
    if hook:
        hook(match, seats, match.outcome)
    changes.finished(match, seats)
    for seat in seats:
        if seat.user_id:
            _notify(seat.user, match, Notification.Kind.GAME_OVER, _game_over_text(match, seat, seats))


def _rule_time_out(match: Match, seats: list[Seat], seat: Seat, game) -> None:
    """Carry out the referee's ruling on a seat whose time ran out (games/table/referee.py)."""
    former = seat.user if seat.user_id else None
    index = seat.index
    ruling = referee.on_time_out(game, match, seat, computer_available=_computer_may_take(match))
    if ruling.verdict == referee.ABORT:  # a no-show: it counts against their reliability too
        seat.ran_out = True
        seat.save(update_fields=["ran_out"])
        _abort(match, seats, seat, ruling.why)
        return
    if ruling.verdict != referee.DEFAULT:  # their own turn ran out: it counts against them
        seat.ran_out = True
        seat.timeouts_in_row += 1
        seat.save(update_fields=["ran_out", "timeouts_in_row"])
    if ruling.verdict == referee.HAND_OVER:
        # The computer player makes this move in the late player's place, and the next ones.
        _computer_takeover(match, seats, seat, why=ruling.why)
        _computer_apply(match, seats, seat, key=f"timeout-{index}-{match.version}", by_timeout=True)
        _apply_auto_moves(match, seats)
        return
    if ruling.verdict in (referee.FORFEIT, referee.LEAVE):
        ends = "loses the game" if ruling.verdict == referee.FORFEIT else "leaves the game"
        if ruling.verdict == referee.LEAVE:
            _walked_out(seat)
        lead = [Event("timeout", f"Seat {index + 1} {ruling.why}, and {ends}.", data={"seat": index}).as_dict()]
        _apply(match, seats, index, {"type": "resign"}, user=None, key=f"timeout-resign-{index}-{match.version}",
               by_timeout=True, lead_events=lead, reason=f"Seat {index + 1} {ruling.why}.")
        _apply_auto_moves(match, seats)
        if former is not None:
            _notify(former, match, Notification.Kind.TIMEOUT,
                    f"Your time ran out in {game.name} #{match.pk}: you {'lost' if ruling.verdict == referee.FORFEIT else 'left'} the game.")
        return
    move = game.timeout_move(match.state, index)
    described = game.describe_move(move, match.state)
    # Said in words, in the log (before the rules' own line) and to the player: whose time
    # ran out and what the clock did in their place.
    lead = [Event("timeout", f"Seat {index + 1}'s time ran out, so the clock {described} for them.",
                  data={"seat": index}).as_dict()]
    try:
        _apply(match, seats, index, move, user=None, key=f"timeout-{index}-{match.version}",
               by_timeout=True, lead_events=lead)
    except MoveRejected:
        log.exception("timeout move refused for match %s seat %s; resigning the seat", match.pk, index)
        described = None
        lead = [Event("timeout", f"Seat {index + 1}'s time ran out, and the clock could not move for them: "
                                 "they leave the game.", data={"seat": index}).as_dict()]
        _apply(match, seats, index, {"type": "resign"}, user=None,
               key=f"timeout-resign-{index}-{match.version}", by_timeout=True, lead_events=lead)
    _apply_auto_moves(match, seats)
    if former is not None:
        _notify(former, match, Notification.Kind.TIMEOUT, _timeout_text(game.name, match, described, seats))


def _walked_out(seat: Seat) -> None:
    """Mark a seat the clock sends out of a game of three or more before its leaving is
    applied: when that leave ends the game, the end is rated in the same transaction and
    ``_mark_out`` (which marks leavers of a game that goes on) never runs, yet the leaver
    still ranks below those who played it out, and their reliability counts it."""
    seat.walked_out = True
    seat.save(update_fields=["walked_out"])


def _computer_may_take(match: Match) -> bool:
    """Whether a computer player may take over a person's seat at this table: the kind has
    one. Where the rules treat such a seat apart (the CCG's: it stakes nothing more, so no
    computer risks a departed person's cards), the takeover records it (``_computer_takeover``)."""
    return computers.default_level(match.kind) is not None


def _abort(match: Match, seats: list[Seat], seat: Seat, why: str) -> None:
    """End a game that never got going (games/table/referee.py): no winner, not rated, the
    antes returned (the kind's abandon hook), every player told. Rare, so through the ORM,
    on the synchronous path."""
    unit_of_work.require_sync("an aborted game's seats and antes are written through the ORM")
    name = registry.get(match.kind).name
    match.status = Match.Status.ABORTED
    match.finished_at = timezone.now()
    match.outcome = {"aborted": True, "winners": [], "draw": False,
                     "reason": f"Seat {seat.index + 1} {why}, so the game is aborted: no result, not rated."}
    for s in seats:
        s.deadline, s.waiting_for, s.waiting_key, s.computer_due = None, "", "", None
    Seat.objects.filter(match_id=match.pk).update(deadline=None, waiting_for="", waiting_key="", computer_due=None)
    _bump(match, seats, withdrawn=[s.user_id for s in seats if s.user_id])
    hook = registry.room(match.kind).hooks.on_abandon
    if hook:
        hook(match)
    changes.aborted(match, seats, seat)  # a tournament's or a ladder's game: who left it loses there
    said = selectors.with_names(match.outcome["reason"], seats)
    for s in seats:
        if s.user_id:
            _notify(s.user, match, Notification.Kind.GAME_OVER, _fitted(f"{name} #{match.pk} was aborted", said))


def _timeout_text(game_name: str, match: Match, described: str | None, seats: list[Seat]) -> str:
    """"Your time ran out in Camelot #7, so the clock ends the turn for you." (``described``:
    the move made for the player; None when none could be and the seat left the game)."""
    if described is None:
        return f"Your time ran out in {game_name} #{match.pk}, and the clock could not move for you: you left the game."
    return (f"Your time ran out in {game_name} #{match.pk}, so the clock "
            f"{selectors.with_names(described, seats)} for you.")[:NOTICE_LENGTH]


def deadlines_fire_due(*, limit: int = 500, now=None) -> int:
    """The guarantee behind the Celery fast path: expire every overdue seat (read through the
    index on ``Seat.deadline``; each under the match lock, so a task firing at the same
    moment makes the move once), and deal every game whose wait for its creator's
    contribution is over (``deals_fire_due``). Returns how many."""
    now = now or timezone.now()
    overdue = list(Seat.objects.filter(deadline__lte=now, match__status=Match.Status.ACTIVE)
                   .order_by("deadline").values_list("match_id", "index")[:limit])
    return sum(deadline_expire(match_id=m, seat_index=i) for m, i in overdue) + deals_fire_due(now=now)


def deadlines_sweep(*, limit: int = 500) -> int:
    """``deadlines_fire_due``, then the day-ahead warnings. Returns how many seats expired."""
    now = timezone.now()
    fired = deadlines_fire_due(limit=limit, now=now)
    deadline_warnings_send(now=now)
    return fired


def deadline_warnings_send(*, now=None) -> int:
    """Tell players whose deadline is within 24 hours (once per deadline)."""
    now = now or timezone.now()
    soon = Seat.objects.filter(deadline__gt=now, deadline__lte=now + timedelta(hours=24), deadline_warned=False,
                               match__status=Match.Status.ACTIVE, user__isnull=False).select_related("match", "user")
    sent = 0
    for seat in soon:
        # Only clocks longer than a day deserve a warning: a 10-minute game needs none.
        if clock.allowance(*_allowance(seat.match, seat.waiting_for)) <= timedelta(hours=24):
            continue
        if Seat.objects.filter(pk=seat.pk, deadline_warned=False).update(deadline_warned=True):
            _notify(seat.user, seat.match, Notification.Kind.DEADLINE_NEAR,
                    f"Less than a day left for your move in game #{seat.match_id}.")
            metrics.REMINDERS.labels("deadline_warning").inc()
            sent += 1
    return sent


def deadline_extend(*, match_id: int, user, seat_index: int) -> Match:
    """Give another seat more time to move: its deadline moves later by the game's own
    allowance for a move, at most a day (``clock.added_time``), as a player of lichess adds
    seconds to their opponent's clock. Any player of the game may give it to any other seat
    whose clock runs, as often as they like; a seat never adds to its own."""
    with transaction.atomic():
        match, seats = lock_match(match_id)
        mine = next((s for s in seats if s.user_id == user.id and s.accepted), None)
        if mine is None:
            raise NotAllowed("Only the players of a game can give time.")
        if match.status != Match.Status.ACTIVE:
            raise ServiceError("This game is not in play.")
        seat = next((s for s in seats if s.index == seat_index), None)
        if seat is None:
            raise NotFound("No such seat.")
        if seat.index == mine.index:
            raise ServiceError("You cannot give yourself more time.")
        added = clock.added_time(match.clock, match.clock_amount)
        if seat.deadline is None or added is None:
            raise ServiceError("That seat's clock is not running.")
        seat.deadline += added
        seat.deadline_warned = False
        seat.save(update_fields=["deadline", "deadline_warned"])
        minutes = int(added.total_seconds() // 60)
        words = (f"{minutes // 1440} day" if minutes >= 1440 else f"{minutes // 60} hours" if minutes >= 120
                 else f"{minutes} minutes" if minutes >= 2 else f"{int(added.total_seconds())} seconds")
        if seat.user_id:
            _notify(seat.user, match, Notification.Kind.DEADLINE_NEAR,
                    f"{user.username} gave you {words} more to move in {registry.get(match.kind).name} #{match.pk}.")
        _bump(match, seats, timers=[seat])
    return match


def vacation_start(*, user, days: int) -> int:
    """Stop this person's clocks for ``days`` in every active game, within each game's yearly
    allowance. Returns the number of games whose clock was stopped."""
    if days < 1:
        raise ValueError("A vacation lasts at least one day.")
    now = timezone.now()
    stopped = 0
    match_ids = list(Seat.objects.filter(user=user, match__status=Match.Status.ACTIVE)
                     .order_by("match_id").values_list("match_id", flat=True))
    with transaction.atomic():
        # Ascending match ids, each match before its seats: the order every writer keeps.
        for match_id in match_ids:
            match, seats = lock_match(match_id)
            seat = next((s for s in seats if s.user_id == user.id), None)
            if match.status != Match.Status.ACTIVE or seat is None:
                continue
            if seat.vacation_year != now.year:
                seat.vacation_year, seat.vacation_days_used = now.year, 0
            grant = min(days, match.vacation_days - seat.vacation_days_used)
            if grant <= 0:
                continue
            pause = timedelta(days=grant)
            seat.paused_until = max(now, seat.paused_until or now) + pause
            seat.vacation_days_used += grant
            if seat.deadline:
                seat.deadline += pause
            seat.save(update_fields=["vacation_year", "vacation_days_used", "paused_until", "deadline"])
            _bump(match, seats, timers=[seat] if seat.deadline else [])
            stopped += 1
        profile = user.profile
        profile.vacation_until = now + timedelta(days=days)
        profile.vacation_days_used = (profile.vacation_days_used if profile.vacation_year == now.year else 0) + days
        profile.vacation_year = now.year
        profile.save()
    if stopped == 0:
        raise ValueError("None of your games has vacation days left to stop its clock.")
    return stopped


# --- computer players (games/table/computers.py) ----------------------------------------------

def _computer_due_set(match: Match, seat: Seat, entry, previous, *, mover: int | None, now) -> bool:
    """Keep a computer seat's ``computer_due`` in step with a change; True when it was set anew
    (its task is then scheduled). Its delay counts from when its own decision became due: a
    new decision (kind or key), or its own move; another seat's move leaves it alone, so a
    player moving on and on beside it (Camelot's other token holder) never holds it back."""
    if not seat.computer or entry is None:
        seat.computer_due = None
        return False
    if entry != previous or seat.index == mover or seat.computer_due is None:
        seat.computer_due = now + timedelta(seconds=match.computer_delay)
        return True
    return False


def computer_move_apply(*, match_id: int, seat_index: int, version: int | None = None,
                        due: datetime | None = None) -> bool:
    """A computer player's move, through the same path as a person's: under the match lock,
    with an idempotency key from (match, version, seat), then deadlines, pushes and the humans'
    notifications as after any move, on the state as it is now.

    Does nothing (False) when the seat is no longer a computer's or owes nothing, or the
    decision the call was for was made or replaced since: ``due`` is the seat's
    ``computer_due`` it was scheduled for (the change that set a new one scheduled its own);
    a call naming only a ``version`` (tasks sent before ``computer_due`` existed) wants that
    version to be the match's."""
    with transaction.atomic():
        try:
            match, seats = lock_match(match_id)
        except NotFound:
            return False
        seat = next((s for s in seats if s.index == seat_index), None)
        if (match.status != Match.Status.ACTIVE or seat is None or not seat.computer or not seat.waiting_for
                or (due is not None and seat.computer_due != due)
                or (due is None and version is not None and match.version != version)):
            return False
        key = f"computer-{seat_index}-{match.version}"
        if persistence.earlier_move(match.pk, key) is not None:
            return False
        _computer_apply(match, seats, seat, key=key, by_timeout=False)
        _apply_auto_moves(match, seats)
    return True


def computer_moves_sweep(*, limit: int = 200) -> int:
    """The guarantee behind the scheduled tasks: make every computer move overdue by more
    than a few seconds (a lost task, a restarted process). Returns how many were made."""
    return sum(computer_move_apply(match_id=m, seat_index=i, due=due) for m, i, due in computers.overdue(limit=limit))


def _computer_apply(match: Match, seats: list[Seat], seat: Seat, *, key: str, by_timeout: bool) -> MoveRecord:
    """Choose and apply the computer player's move in a locked match. A crash or an illegal
    choice is logged and replaced by a legal move; if even that is refused, the rules' timeout
    move is made, so a computer player never stalls a game."""
    game = registry.get(match.kind)
    lead = _takeover_announcement(seat, seats)
    try:
        move = computers.choose(game, match, seat)
    except Exception:  # noqa: BLE001 - any bug in a player: logged, and a legal move instead
        log.exception("computer player (%s) failed in match %s seat %s", seat.computer, match.pk, seat.index)
        legal = game.legal_moves(match.state, seat.index)
        move = legal[computers.move_seed(match.seed, match.version, seat.index) % len(legal)] if legal else None
    if move is not None:
        try:
            return _apply(match, seats, seat.index, move, user=None, key=key, by_timeout=by_timeout,
                          lead_events=lead)
        except MoveRejected as exc:
            log.error("computer player (%s) chose a refused move in match %s seat %s: %s (%s)",
                      seat.computer, match.pk, seat.index, move, exc.message)
    return _apply(match, seats, seat.index, game.timeout_move(match.state, seat.index), user=None,
                  key=f"{key}-fallback", by_timeout=by_timeout, lead_events=lead)


def _takeover_announcement(seat: Seat, seats: list[Seat]) -> list[dict]:
    """The log line saying who left and who plays on, once, with the computer's first move
    after a takeover (a log line needs a move record to belong to). The name is written out:
    the seat's number now names the computer."""
    former = (seat.choice or {}).get("took_over_from")
    if not former:
        return []
    seat.choice = {k: v for k, v in seat.choice.items() if k != "took_over_from"}
    seat.save(update_fields=["choice"])
    text = (f"{former['name']} {former['why']}: {computers.display_name(seat, seats)} "
            "plays on in their place.")
    return [Event("takeover", text).as_dict()]


def _takes_over(match: Match, seats: list[Seat], seat: Seat) -> bool:
    """Whether a computer player takes over the seat of a person who resigns rather than the
    player leaving the table (the table's option, in games of three or more, while another
    person plays on: a table of computers alone would only play for itself). Running out of
    time has its own rule (games/table/referee.py)."""
    others_play = any(s.user_id is not None for s in seats if s.index != seat.index)
    return (match.computer_takeover and len(seats) >= 3 and seat.user_id is not None and others_play
            and computers.default_level(match.kind) is not None)


def _computer_takeover(match: Match, seats: list[Seat], seat: Seat, *, why: str) -> None:
    """The seat passes to a computer player, named as such from now on; the person who left
    is told, and no longer sees the seat's hidden cards."""
    former, level = seat.user, computers.default_level(match.kind)
    # ``left_by``: a seat once left stays left (games/table/access.py): they may not sit down again.
    seat.user, seat.computer, seat.left_by = None, level, former
    seat.choice = dict(seat.choice or {}, took_over_from={"name": former.username, "why": why})
    # What the seat owes is the computer's decision from now: its delay starts here.
    seat.computer_due = timezone.now() + timedelta(seconds=match.computer_delay) if seat.waiting_for else None
    seat.save(update_fields=["user", "computer", "left_by", "choice", "computer_due"])
    game = registry.get(match.kind)
    _notify(former, match, Notification.Kind.TIMEOUT if why.startswith("ran out of time") else Notification.Kind.GAME_OVER,
            f"You {why} in {game.name} #{match.pk}: {computers.display_name(seat, seats)} plays your seat from now on.")
    if not _takeover_record(match, seats, seat, game):
        _bump(match, seats)
    computers.schedule_on_commit(match, [seat] if seat.computer_due else [], apply=computer_move_apply)


def _takeover_record(match: Match, seats: list[Seat], seat: Seat, game) -> bool:
    """Record the rules' own move for a seat a computer just took (``Game.takeover_move``; the
    CCG's seat stakes nothing more from now on), as the clock's, before the computer's first
    move, so the game replays from its log exactly. False when the rules need none."""
    move = game.takeover_move(match.state, seat.index)
    if move is None:
        return False
    _apply(match, seats, seat.index, move, user=None, key=f"takeover-{seat.index}-{match.version}", by_timeout=True)
    return True


# --- chat and notifications ------------------------------------------------------------

def chat_post(*, match_id: int, user, text: str, key: str | None = None) -> ChatMessage:
    """Say ``text`` in the game's chat. ``key``: the sender's name for this line; a line sent
    again with the same key (its answer lost on the way) is the line stored the first time."""
    text = (text or "").strip()
    if not text:
        raise ServiceError("Say something first.")
    if len(text) > CHAT_MAX:
        raise ServiceError(f"Chat messages are at most {CHAT_MAX} characters.")
    with transaction.atomic():
        # The match row's lock (only that row: the lock order's first step) numbers the lines
        # of two players pressing Send at once one after the other, and keeps one unread chat
        # notice per player and game.
        match = (Match.objects.select_for_update(of=("self",)).filter(pk=match_id)
                 .only("id", "kind", "allow_spectators", "spectator_chat").first())
        if match is None:
            raise NotFound("No such game.")
        seats = list(match.seats.all())
        mine = [s for s in seats if s.user_id == user.id]
        # The game's chat is the players'. Spectators talk only when the table allows it, and
        # then in a channel of their own that the players never see (no advice from the rail).
        refusal = access.chat_refusal(match, user, seats)  # all the seats: a block is any player's
        if refusal is not None:
            raise refusal
        if key is not None:
            said = ChatMessage.objects.filter(match=match, user=user, key=key).first()
            if said is not None:
                return said
        spectators = not any(s.accepted for s in mine)
        last = (ChatMessage.objects.filter(match=match, spectators=spectators)
                .order_by("-seq").values_list("seq", flat=True).first())
        message = ChatMessage.objects.create(match=match, user=user, text=text, spectators=spectators,
                                             seq=(last or 0) + 1, key=key)
        if not spectators:
            _chat_notices(match, message, seats)
        changes.chatted(message, selectors.chat_public(message))
    return message


def _chat_notices(match: Match, message: ChatMessage, seats: list[Seat]) -> None:
    """A players' line counts in the other players' notifications: one unread notice per game,
    its text the latest line (``_notify``). A player with the game's page open has it marked
    read as the line reaches the page (games/live/consumers.py), so it counts only for those away.
    Nobody is told of a line they do not read (its author is someone they blocked)."""
    name = registry.get(match.kind).name
    text = f"{message.user.username} in {name} #{match.pk}: “{message.text}”"
    if len(text) > NOTICE_LENGTH:
        text = text[:NOTICE_LENGTH - 2] + "…”"
    readers = [s.user_id for s in seats if s.accepted and s.user_id and s.user_id != message.user_id]
    deaf = access.muting(message.user_id, readers)
    for reader in readers:
        if reader not in deaf:
            persistence.notify(reader, match.pk, Notification.Kind.CHAT, text)


def chat_notices_read(*, match_id: int, user_id: int) -> int:
    """This player sees the game's chat (its page is open): its unread chat notice is read."""
    return Notification.objects.filter(user_id=user_id, match_id=match_id, kind=Notification.Kind.CHAT,
                                       read_at__isnull=True).update(read_at=timezone.now())


def chat_spectators_set(*, match_id: int, user, allowed: bool) -> Match:
    """The table option: may spectators chat among themselves? The creator decides."""
    with transaction.atomic():
        match, _seats = lock_match(match_id)
        if match.creator_id != user.id:
            raise NotAllowed("Only the game's creator can change who may chat.")
        if allowed and not match.allow_spectators:
            raise ServiceError("This game has no spectators.")
        match.spectator_chat = bool(allowed)
        match.save(update_fields=["spectator_chat", "updated_at"])
    return match


def notifications_mark_read(*, user, ids: list[int] | None = None) -> int:
    qs = Notification.objects.filter(user=user, read_at__isnull=True)
    if ids is not None:
        qs = qs.filter(pk__in=ids)
    return qs.update(read_at=timezone.now())


def _notify(user, match, kind, text) -> None:
    """One unread notification per game and kind: a newer event of the same kind in the same
    game replaces the text of the unread one (and brings it to the top) instead of adding
    another, so seventeen moves make one "Your move", not seventeen. Once read, the next
    event makes a new one. A refreshed notification may be e-mailed again (the summary is
    still at most one an hour)."""
    persistence.notify(user.pk, match.pk, kind, text[:NOTICE_LENGTH])


NOTICE_LENGTH = 300


def _your_turn_text(seat: Seat, match: Match, game_name: str) -> str:
    # In words (Game.wait_words), never the rules' identifier of the wait ("discard_keepers").
    what = ("Your move" if seat.waiting_for == "turn"
            else f"You are asked to {registry.get(match.kind).wait_text(seat.waiting_for)}")
    return f"{what} in {game_name} #{match.pk}."[:NOTICE_LENGTH]


def _game_over_text(match: Match, seat: Seat, seats: list[Seat]) -> str:
    """"You won in Grail Duel #5: alice has the higher total." — in names, never "Seat N"."""
    ending = selectors.ending_for(match, seat.index, seats)
    name = registry.get(match.kind).name
    more = " ".join(t for t in [ending["reason"], *ending["details"]] if t) if ending else ""
    return _fitted(f"{ending['headline'] if ending else 'Game over'} in {name} #{match.pk}", more)


# --- helpers ---------------------------------------------------------------------------

def lock_match(match_id: int) -> tuple[Match, list[Seat]]:
    """Lock a match and its seats for a change, in the one order every writer uses: the
    match row first, then its seats by index (collections, if any, after both: see
    decks/services.py). Two writers that lock in this order can wait for each other but
    never deadlock. The seats come with their users (notifications name them)."""
    return persistence.lock(match_id)


def _allowance(match: Match, pending_kind: str) -> tuple[str, int]:
    """The clock for one kind of wait: the kind's hook may set a shorter one of its own (e.g.
    response windows), never a longer one than the game's (``clock.within``)."""
    hook = registry.room(match.kind).hooks.allowance
    override = hook(match, pending_kind) if hook else None
    return clock.within((match.clock, match.clock_amount), override)


def _bump(match: Match, seats: list[Seat], *, timers: list[Seat] = (), withdrawn=()) -> None:
    """A change clients must see that is not a move (a seat taken, a clock stopped);
    ``withdrawn``: users whose calls to act in this game no longer apply (persistence.write)."""
    changes.shown(match, seats)
    match.version += 1
    persistence.write(match, [], None, withdrawn=withdrawn)
    changes.written(match, [], timers=list(timers))
