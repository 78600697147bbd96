"""Ladders: one per game that two may play, open all the time (the rules: the pure
``ladder`` module and docs/tournaments.md, "Ladder").

A challenge starts its game at once (a challenge cannot be declined: a ladder where the
players above could refuse would never move). The game is an ordinary one on the ladder's
clock; when it ends, the table announces it (``games.table.changes``) and ``game_ended``
moves the rungs inside the game's own transaction: the match is locked first, then the
ladder. A challenge locks the ladder and then creates its game (a new row), so the two
never wait on each other in opposite orders.

Running out of time on one's own turn (``Seat.ran_out``) loses the game and drops the late
player one rung further. A game aborted before a player's first move is lost by whoever left
it, with no further drop."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games import registry
from games.models import Ladder, LadderChallenge, LadderRung, Match
from games.table import access, services as table, unit_of_work
from games.tournaments import ladder as rules, selectors, versions
from grailsite.errors import NotFound, ServiceError

Open = LadderChallenge.Status.OPEN


def _ladder(kind: str, *, lock: bool) -> Ladder:
    if kind not in {g.kind for g in selectors.ladder_kinds()}:
        raise NotFound("No ladder for that game.")
    Ladder.objects.get_or_create(kind=kind)
    qs = Ladder.objects.select_for_update() if lock else Ladder.objects
    return qs.get(kind=kind)


def _order(ladder: Ladder) -> list[LadderRung]:
    return list(LadderRung.objects.filter(ladder=ladder).order_by("position"))


def _open_challenges(ladder: Ladder) -> list[rules.Challenge]:
    return [rules.Challenge(c, d) for c, d in LadderChallenge.objects.filter(ladder=ladder, status=Open)
            .values_list("challenger_id", "defender_id")]


def _rewrite(ladder: Ladder, rungs: list[LadderRung], order: list[int]) -> None:
    """Give each player the rung ``order`` says (the unique position is checked at commit)."""
    by_user = {r.user_id: r for r in rungs}
    changed = []
    for position, user_id in enumerate(order, start=1):
        rung = by_user[user_id]
        if rung.position != position:
            rung.position = position
            changed.append(rung)
    LadderRung.objects.bulk_update(changed, ["position"])


def ladder_join(*, kind: str, user, choice: dict | None = None) -> LadderRung:
    """Join at the bottom rung, with what the game asks a player to choose (the CCG's deck).
    A bot account joins only a ladder that is not rated."""
    with transaction.atomic():
        ladder = _ladder(kind, lock=True)
        if LadderRung.objects.filter(ladder=ladder, user=user).exists():
            raise ServiceError("You are on this ladder already.")
        if ladder.rated and access.bot_ids([user.pk]):
            raise ServiceError("Bot accounts may not join a rated ladder: no person's rating moves in a game "
                               "against a program.")
        try:
            chosen = registry.room(kind).seat_choice(user, choice or {})
        except ValueError as exc:
            raise ServiceError(str(exc)) from None
        order = rules.join([r.user_id for r in _order(ladder)], user.pk)
        rung = LadderRung.objects.create(ladder=ladder, user=user, position=len(order), choice=chosen)
        versions.bump_ladder(ladder)
    return rung


def ladder_leave(*, kind: str, user) -> None:
    """Leave: everyone below moves up one. Challenges being played go on as games, and move
    no rungs when they end."""
    with transaction.atomic():
        ladder = _ladder(kind, lock=True)
        rungs = _order(ladder)
        try:
            order = rules.leave([r.user_id for r in rungs], user.pk)
        except rules.LadderError:
            raise ServiceError("You are not on this ladder.") from None
        LadderRung.objects.filter(ladder=ladder, user=user).delete()
        _rewrite(ladder, [r for r in rungs if r.user_id != user.pk], order)
        versions.bump_ladder(ladder)


def ladder_challenge(*, kind: str, user, defender_id: int) -> LadderChallenge:
    """Challenge the player on a rung above (within the ladder's reach, at most three open
    challenges each way): their game starts at once, the challenger in the first seat."""
    with transaction.atomic():
        ladder = _ladder(kind, lock=True)
        rungs = {r.user_id: r for r in LadderRung.objects.filter(ladder=ladder).select_related("user")}
        if user.pk not in rungs:
            raise ServiceError("Join the ladder first.")
        if defender_id not in rungs:
            raise ServiceError("That player is not on this ladder.")
        order = [r.user_id for r in sorted(rungs.values(), key=lambda r: r.position)]
        try:
            rules.challenge(order, _open_challenges(ladder), user.pk, defender_id, ladder.reach)
        except rules.LadderError as exc:
            raise ServiceError(f"You cannot challenge that player: {exc}.") from None
        mine, theirs = rungs[user.pk], rungs[defender_id]
        name = registry.get(kind).name
        match = table.match_create_seated(
            creator=user, kind=kind, holders=[mine.user, theirs.user], choices=[mine.choice, theirs.choice],
            clock_kind=ladder.clock, clock_amount=ladder.clock_amount, rated=ladder.rated, competition="ladder",
            title=f"{name} ladder: {mine.user.username} challenges {theirs.user.username}")
        challenge = LadderChallenge.objects.create(ladder=ladder, challenger=mine.user, defender=theirs.user,
                                                   match=match)
        versions.bump_ladder(ladder)
    return challenge


# --- a challenge's game ends -------------------------------------------------------------

def game_finished(match: Match, seats) -> None:
    """The table's ``finished`` announcement: move the rungs for a ladder game."""
    if match.competition != "ladder":
        return
    winners = set((match.outcome or {}).get("winners") or ())
    draw = bool((match.outcome or {}).get("draw")) or len(winners) != 1
    winner = None if draw else _person(next(s for s in seats if s.index in winners))
    late = next((s for s in seats if s.ran_out), None)
    timed_out = _person(late) if late is not None and winner is not None and _person(late) != winner else None
    _settle(match, winner, timed_out)


def game_aborted(match: Match, seats, seat) -> None:
    """The table's ``aborted`` announcement: whoever left before their first move loses."""
    if match.competition != "ladder":
        return
    other = next((s for s in seats if s.index != seat.index), None) if seat is not None else None
    _settle(match, _person(other) if other is not None else None, None)


def _person(seat) -> int | None:
    """The person a seat stands for (the one who left it, if a computer took it over)."""
    return seat.user_id or seat.left_by_id


def _settle(match: Match, winner: int | None, timed_out: int | None) -> None:
    unit_of_work.require_sync("a ladder game's end moves rungs through the ORM")
    challenge = LadderChallenge.objects.filter(match_id=match.pk, status=Open).first()
    if challenge is None:
        return
    ladder = Ladder.objects.select_for_update().get(pk=challenge.ladder_id)
    rungs = _order(ladder)
    order = [r.user_id for r in rungs]
    played = rules.Challenge(challenge.challenger_id, challenge.defender_id)
    if played.challenger in order and played.defender in order:
        _rewrite(ladder, rungs, rules.after_game(order, played, winner, timed_out))
    challenge.status, challenge.finished_at = LadderChallenge.Status.DONE, timezone.now()
    challenge.winner_id, challenge.timed_out_id = winner, timed_out
    challenge.save(update_fields=["status", "finished_at", "winner", "timed_out"])
    versions.bump_ladder(ladder)
