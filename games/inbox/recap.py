"""Since your last turn: what happened in a game while its player was away.

Opening a game's page shows, once, everything since the player last acted or looked: the
moves in words, as the game's log tells them to that seat (so the cards they drew, and what
changed on the board, as the rules' events say it), the chat lines, the deadlines that passed
(moves the clock made) and the ending. It is built from the log the same way the log itself
is shown: the events stored with each move, kept only when ``Event.visible_to(seat)``, never
from a state. So it cannot show a card the seat could not see when it happened: a hand drawn
by another seat is an event for that seat's audience alone.

Where a player last looked is a ``MatchVisit``: written when they open the page (after the
recap is read), and by the page while it is in view and when it is hidden
(``POST /api/matches/{id}/seen/``, from static/js/recap.js), with the moves and chat line it
had shown; their own last move
counts too, so a bot or a move made elsewhere is not recapped to its maker.
"""
from __future__ import annotations

from django.db.models import Max
from django.utils import timezone

from games import registry
from games.table import access, selectors
from games.models import ChatMessage, Match, MatchVisit, MoveRecord, Seat
from games.rules.base import Event

MAX_LINES = 30      # of the log; older lines are counted, and the History page has them all
MAX_RECORDS = 200   # moves read at most (a game left for months says "and N more")
MAX_CHAT = 20


def _since(match: Match, user) -> tuple[int, int, MatchVisit | None]:
    visit = MatchVisit.objects.filter(user=user, match=match).first()
    acted = (MoveRecord.objects.filter(match=match, user=user).aggregate(last=Max("seq"))["last"] or 0)
    return max(visit.seq if visit else 0, acted), (visit.chat_id if visit else 0), visit


def recap_for(match: Match, user, seats: list[Seat]) -> dict | None:
    """The recap for this player, or None when there is nothing to tell (or they have no seat:
    a spectator is not away from anything)."""
    seat = selectors.seat_of(match, user, seats)
    if seat is None or match.status == Match.Status.OPEN:
        return None
    since, chat_since, visit = _since(match, user)
    records = list(MoveRecord.objects.filter(match=match, seq__gt=since).order_by("-seq")
                   .values("seq", "events", "by_timeout")[:MAX_RECORDS])
    records.reverse()
    names = selectors.seat_names(seats)
    game = registry.get(match.kind)
    lines = []
    for record in records:
        for raw in record["events"]:
            event = Event.from_dict(raw)
            if event.visible_to(seat):
                lines.append({"seq": record["seq"], "text": selectors.line_words(game, event.text, names),
                              "timeout": record["by_timeout"]})
    unread = (ChatMessage.objects.filter(match=match, spectators=False, pk__gt=chat_since)
              .exclude(user=user).exclude(user_id__in=access.muted_authors(user))  # those they blocked
              .select_related("user").order_by("-id")[:MAX_CHAT])
    chat = [selectors.chat_public(m) for m in reversed(list(unread))]
    ended = match.status == Match.Status.FINISHED and (visit is None or match.finished_at is None
                                                        or match.finished_at > visit.at)
    if not lines and not chat and not ended:
        return None
    timeouts = sum(1 for r in records if r["by_timeout"])
    moves = match.move_count - since
    return {
        "moves": moves, "timeouts": timeouts, "lines": lines[-MAX_LINES:],
        # Lines left out (the History page has them all).
        "earlier": max(0, len(lines) - MAX_LINES) or moves > len(records),
        "chat": chat, "ending": selectors.ending_for(match, seat, seats, names=names) if ended else None,
        "summary": _summary(moves, timeouts, len(chat)),
    }


def _summary(moves: int, timeouts: int, chat: int) -> str:
    parts = []
    if moves:
        parts.append(f"{moves} move{'s' if moves != 1 else ''}")
    if timeouts:
        parts.append(f"{timeouts} made by the clock when time ran out")
    if chat:
        parts.append(f"{chat} chat line{'s' if chat != 1 else ''}")
    return ("Since you last looked: " + ", ".join(parts) + ".") if parts else "Since you last looked:"


def visit_record(*, match: Match, user, seq: int | None = None, chat_id: int | None = None) -> None:
    """This player has seen the game up to move ``seq`` and chat line ``chat_id`` (the latest
    ones when not given); never further than the game is, never back."""
    if not getattr(user, "is_authenticated", False):
        return
    seq = match.move_count if seq is None else max(0, min(seq, match.move_count))
    latest_chat = (ChatMessage.objects.filter(match=match, spectators=False).aggregate(last=Max("id"))["last"] or 0)
    chat_id = latest_chat if chat_id is None else max(0, min(chat_id, latest_chat))
    now = timezone.now()
    if seq == match.move_count and chat_id == latest_chat:
        # All of it (a page opening): one statement, first visit or not, since nothing
        # stored can be further on.
        MatchVisit.objects.bulk_create([MatchVisit(user=user, match=match, seq=seq, chat_id=chat_id, at=now)],
                                       update_conflicts=True, unique_fields=["user", "match"],
                                       update_fields=["seq", "chat_id", "at"])
        return
    visit, created = MatchVisit.objects.get_or_create(user=user, match=match,
                                                      defaults={"seq": seq, "chat_id": chat_id, "at": now})
    if not created:  # a page that showed less than another (an older tab) moves nothing back
        MatchVisit.objects.filter(pk=visit.pk).update(seq=max(seq, visit.seq), chat_id=max(chat_id, visit.chat_id),
                                                      at=now)
