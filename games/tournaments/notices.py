"""What a tournament tells its players, through the site's notifications (and from there
e-mail and push, as every notice: games/inbox): an invitation, each round's game (the first
round's says the tournament has started), the end with their place, a cancellation.

A notice names the player's game when there is one (a click opens it) and always the
tournament (the notice links there otherwise). Written in the transaction of the change,
in one statement, and handed to the push lane once it commits."""
from __future__ import annotations

from collections.abc import Iterable

from games import registry
from games.inbox import push
from games.models import Notification, Tournament, TournamentEntry, TournamentGame, TournamentRound

NOTICE_LENGTH = 300


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _send(tournament: Tournament, rows: Iterable[tuple[int, int | None, str]]) -> None:
    """(user id, match id or None, text) notices of this tournament."""
    notices = [Notification(user_id=user_id, match_id=match_id, tournament=tournament,
                            kind=Notification.Kind.TOURNAMENT, text=text[:NOTICE_LENGTH])
               for user_id, match_id, text in rows]
    if notices:
        Notification.objects.bulk_create(notices)
        push.flush_on_commit([n.user_id for n in notices])


def invited(tournament: Tournament, users) -> None:
    game = registry.get(tournament.kind).name
    _send(tournament, [(u.pk, None, f"{tournament.organiser.username} invites you to {tournament.name}, "
                                    f"a tournament of {game}.") for u in users])


def round_started(tournament: Tournament, round_: TournamentRound, games: list[TournamentGame],
                  entries: dict[int, TournamentEntry]) -> None:
    """Each person of the round: their game and opponents, their bye, or their round sat out."""
    head = (f"{tournament.name} has started. Round 1" if round_.number == 1
            else f"Round {round_.number} of {tournament.name}")
    rows = []
    for tg in games:
        for player in tg.players:
            entry = entries[player]
            if not entry.user_id:
                continue
            rows.append((entry.user_id, tg.match_id, f"{head}: {_what(tg, entry, entries)}"))
    _send(tournament, rows)


def _what(tg: TournamentGame, entry: TournamentEntry, entries: dict[int, TournamentEntry]) -> str:
    if tg.kind == TournamentGame.Kind.BYE:
        return "you have the bye, which counts as a win."
    if tg.kind == TournamentGame.Kind.SIT_OUT:
        return "you sit this round out."
    if tg.kind == TournamentGame.Kind.FORFEIT:
        return "your opponent withdrew, so you win this round's game without play."
    others = [entries[p].name for p in tg.players if p != entry.pk]
    return f"your game against {', '.join(others)} is #{tg.match_id}. Good luck!"


def ended(tournament: Tournament, places: dict[int, tuple[int, int, int | None]],
          entries: dict[int, TournamentEntry]) -> None:
    """``places``: entry id -> (rank, players ranked beside them, group or None)."""
    rows = []
    for entry_id, (rank, field, group) in places.items():
        entry = entries[entry_id]
        if entry.user_id:
            where = f" in group {group}" if group else ""
            rows.append((entry.user_id, None, f"{tournament.name} has ended: you placed {ordinal(rank)}{where} "
                                              f"of {field}."))
    _send(tournament, rows)


def cancelled(tournament: Tournament, entries: Iterable[TournamentEntry]) -> None:
    _send(tournament, [(e.user_id, None, f"{tournament.name} was cancelled by its organiser.")
                       for e in entries if e.user_id])


def removed(tournament: Tournament, entry: TournamentEntry) -> None:
    if entry.user_id:
        _send(tournament, [(entry.user_id, None, f"An administrator removed you from {tournament.name}.")])
