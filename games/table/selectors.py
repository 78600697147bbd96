"""Reads: what a viewer may see of matches. Every view of a game's state goes through
``match_payload``, which applies the rules' ``view_for`` for the viewer's own seat."""
from __future__ import annotations

import re
from datetime import datetime, timezone as dt_timezone

from django.db.models import (BooleanField, Case, Exists, ExpressionWrapper, F, IntegerField, OuterRef, Q, Subquery,
                              Value, When)

from grailsite.accounts import bots
from games.table import access, commitments, computers
from games import registry
from grailsite.errors import NotAllowed, NotFound, ServiceError
from games.models import ChatMessage, Match, MoveRecord, Notification, Rating, RatingChange, Seat
from games.rules.base import Event

LOG_TAIL = 60
CHAT_TAIL = 50


def match_get(match_id, *, setup_options: bool = False) -> Match:
    """The match; its setup options (whole decks, for the CCG) only when asked for."""
    try:
        return (Match.objects if setup_options else Match.objects.defer("setup_options")).get(pk=int(match_id))
    except (Match.DoesNotExist, ValueError, TypeError, OverflowError):
        raise NotFound("No such game.") from None


def viewable(match_id, user, *, setup_options: bool = False) -> tuple[Match, list[Seat]]:
    """The match and its seats, if this viewer may read it; every page, API call and socket
    that shows a game opens with this (NotFound: no such game; NotAllowed: not for you)."""
    match = match_get(match_id, setup_options=setup_options)
    seats = seats_for(match)
    if not can_view(match, user, seats):
        raise NotAllowed("This game has no spectators.")
    return match, seats


def seat_of(match: Match, user, seats=None) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    for seat in seats if seats is not None else match.seats.all():
        if seat.user_id == user.id and seat.accepted:
            return seat.index
    return None


def can_view(match: Match, user, seats) -> bool:
    """Anyone when the game allows spectators; otherwise its players, those invited (so they
    can reach the join form), those who left their seat to a computer, and staff: the rule
    of games/table/access.py, which every door asks."""
    return access.can_view(match, user, seats)


def seats_for(match: Match) -> list[Seat]:
    return list(Seat.objects.filter(match=match).select_related("user").order_by("index"))


def match_payload(match: Match, user, *, seats: list[Seat] | None = None) -> dict:
    """Everything the game page shows, for this viewer. Query count does not grow with history."""
    seats = seats if seats is not None else seats_for(match)
    if not can_view(match, user, seats):
        raise NotAllowed("This game has no spectators.")
    my_seat = seat_of(match, user, seats)
    game = registry.get(match.kind)
    names = seat_names(seats)
    payload = state_payload(match, my_seat, game=game)
    if payload["outcome"]:
        payload["outcome"] = {**payload["outcome"], "reason": with_names(payload["outcome"]["reason"], seats, names)}
    payload["ending"] = ending_for(match, my_seat, seats, game=game, names=names, ratings=rating_lines(match))
    payload["situation"] = situation_for(match, my_seat, seats, game=game, names=names)
    payload["rematch"] = rematch_for(match)
    # The commitment and contributions from the start; the secret and seed once it is over.
    payload["commitment"] = commitments.public(match, seats)
    payload.update({
        "id": match.pk, "kind": match.kind, "name": game.name, "title": match.title,
        "status": match.status, "my_seat": my_seat, "moves": match.move_count,
        "seats": [seat_public(s, names, game=game) for s in seats],
        "clock": {"kind": match.clock, "amount": match.clock_amount, "weekend_pause": match.weekend_pause,
                  "vacation_days": match.vacation_days},
        "allow_spectators": match.allow_spectators,
        "practice": match.practice,  # a game against the computer: nothing outside it is at stake
        "creator": match.creator_id and next((s.user.username for s in seats if s.user_id == match.creator_id), None),
        "log": log_for(match, my_seat, seats=seats, names=names) if match.move_count else
        opening_lines(match, my_seat, seats, game=game, names=names),
        "moved_since_turn": moved_since_turn_for(match, my_seat, game=game),
    })
    return payload


# How many records back the pieces moved since a player's last turn are looked for, and how
# many are read at a time: a six-player Camelot round is well within the first batch, and a
# seat that has not ended a turn for longer than the cap is marked from the cap's moves.
SINCE_TURN_RECORDS = 2000
SINCE_TURN_BATCH = 200


def moved_since_turn_for(match: Match, seat: int | None, *, game) -> dict | None:
    """The pieces others moved since this seat's last turn ended (``Game.moved_since_turn``),
    and ``upto``, the last record that covers: the page marks them, then reads the log lines
    it receives after ``upto`` the same way. Whatever the page's log still holds, a move made
    many lines ago is marked. None for a spectator, a game not under way, or one that marks
    nothing; the game's records are read only as far back as it asks."""
    if seat is None or match.status != Match.Status.ACTIVE or match.state is None:
        return None
    units = game.moved_since_turn(match.state, seat, _events_newest_first(match, seat))
    return None if units is None else {"upto": match.move_count, "units": units}


def _events_newest_first(match: Match, seat: int):
    """The stored events this seat may see, newest first, a batch of records at a time (read
    lazily: the rules stop where they have what they need), from the record the state shows."""
    below, read = match.move_count + 1, 0
    while read < SINCE_TURN_RECORDS:
        rows = list(MoveRecord.objects.filter(match=match, seq__lt=below).order_by("-seq")
                    .values_list("seq", "events")[:SINCE_TURN_BATCH])
        for _seq, events in rows:
            for raw in reversed(events):
                if Event.from_dict(raw).visible_to(seat):
                    yield raw
        if len(rows) < SINCE_TURN_BATCH:
            return
        below, read = rows[-1][0], read + len(rows)


def opening_lines(match: Match, seat: int | None, seats: list[Seat], *, game,
                  names: dict[int, str] | None = None) -> list[dict]:
    """Before a game's first record its log has nothing stored, yet the rules already say how
    it began (who goes first): those lines, marked ``provisional``, which the page replaces
    with the first record's lines (they begin with the same words, stored then)."""
    if match.status != Match.Status.ACTIVE or match.state is None:
        return []
    events = [e.as_dict() for e in game.opening_events(match.state)]
    names = seat_names(seats) if names is None else names
    return [{**line, "provisional": True} for line in _log_lines(1, events, False, seat, names, game)]


def change_payload(match: Match, seats: list[Seat], seat: int | None, *, game, prev: int, records,
                   shared: dict | None = None, view: dict | None = None) -> dict:
    """What a page that shows version ``prev`` needs to show the current one (games/live/frames.py):
    the version-bound part, the seats, the ending, and the new log lines this seat may see.
    ``shared`` is ``change_shared`` of the same change, and ``view`` the rules' view for this
    seat (``Game.views_for``), when several viewers' frames are built."""
    shared = shared or change_shared(match, seats, records)
    names = shared["names"]
    payload = state_payload(match, seat, game=game, view=view)
    if payload["outcome"]:
        payload["outcome"] = {**payload["outcome"], "reason": with_names(payload["outcome"]["reason"], seats, names)}
    payload.update({"prev": prev, "status": match.status, "moves": match.move_count, "my_seat": seat,
                    "seats": shared["seats"],
                    "ending": ending_for(match, seat, seats, game=game, names=names, ratings=shared["ratings"]),
                    "situation": situation_for(match, seat, seats, game=game, names=names),
                    "rematch": shared["rematch"],
                    "events": [_line(seq, event, line_words(game, event.text, names), by_timeout, game.log_data)
                               for seq, by_timeout, event in shared["events"] if event.visible_to(seat)]})
    return payload


def change_shared(match: Match, seats: list[Seat], records) -> dict:
    """The parts of a change that are the same for every viewer: the seats as the page shows
    them, the players' names, and the new log entries (each viewer then keeps those it may see)."""
    game = registry.get(match.kind)
    names = seat_names(seats)
    return {"seats": [seat_public(s, names, game=game) for s in seats], "names": names,
            # Never a query here (frames may be built on the event loop): the service that
            # made the rematch says so on the match it bumps (services.match_rematch).
            "rematch": match.__dict__.get("_rematch"),
            # Nor here: the ratings leave a game's changes on the match that just ended (ratings_note).
            "ratings": match.__dict__.get(_RATINGS) or [],
            "events": [(record.seq, record.by_timeout, Event.from_dict(raw))
                       for record in records for raw in record.events]}


def _log_lines(seq: int, events: list[dict], by_timeout: bool, seat: int | None, names, game) -> list[dict]:
    """The lines of one record this seat may see, in players' ``names`` (None: seats as the
    rules wrote them) and the words the game says today (``line_words``); with their events'
    data when the rules ask for it (``Game.log_data``)."""
    out = []
    for raw in events:
        event = Event.from_dict(raw)
        if event.visible_to(seat):
            out.append(_line(seq, event, line_words(game, event.text, names), by_timeout, game.log_data))
    return out


def line_words(game, text: str, names: dict[int, str] | None) -> str:
    """A stored log line as a person reads it: in the game's words of today
    (``Game.log_words``: Camelot's old lines name hexes), with players' ``names`` for seats
    (None: "Seat 2", as the rules wrote it)."""
    text = game.log_words(text)
    return _named(text, names) if names is not None else text


def _line(seq: int, event: Event, text: str, by_timeout: bool, with_data: bool) -> dict:
    line = {"seq": seq, "kind": event.kind, "text": text, "timeout": by_timeout}
    if with_data:
        # An event's data has its event's audience (games/rules/base.py, Event): the line is
        # only ever built for a viewer who may see the event.
        line["data"] = event.data
    return line


def state_payload(match: Match, my_seat: int | None, *, game=None, view: dict | None = None) -> dict:
    """The version-bound part: the rules' view for this seat (``view``, if it was built
    already), its legal moves, the outcome."""
    game = game or registry.get(match.kind)
    if match.state is None:
        return {"version": match.version, "view": None, "legal_moves": [], "outcome": match.outcome}
    legal = game.legal_moves(match.state, my_seat) if my_seat is not None and match.status == "active" else []
    return {"version": match.version, "view": game.view_for(match.state, my_seat) if view is None else view,
            "legal_moves": legal, "outcome": match.outcome}


def seat_public(seat: Seat, names: dict[int, str], *, game=None) -> dict:
    """One seat for the page. A computer player's seat shows its name ("Computer (Knight)")
    where a person's shows theirs, so every board names it without knowing about computers.
    ``waiting`` says what the seat owes in words ("to discard Keepers down to the Keeper
    Limit", ``Game.wait_words``); ``waiting_for`` is the rules' own kind, for programs.
    ``names``: ``seat_names`` of the table."""
    waiting = None
    if seat.waiting_for:
        waiting = "to " + (game.wait_text(seat.waiting_for) if game is not None else "act")
    return {"seat": seat.index, "username": names.get(seat.index + 1), "computer": seat.computer or None,
            # A bot is shown as one on every board (grailsite/accounts/bots.py: no query).
            "bot": bool(seat.user_id) and not seat.computer and bots.is_bot_name(names.get(seat.index + 1)),
            "accepted": seat.accepted, "to_act": bool(seat.waiting_for), "waiting_for": seat.waiting_for or None,
            "waiting": waiting,
            "deadline": seat.deadline.isoformat() if seat.deadline else None,
            "paused_until": seat.paused_until.isoformat() if seat.paused_until else None}


_SEAT_WORD = re.compile(r"\bseat (\d+)\b", re.IGNORECASE)


def seat_names(seats: list[Seat]) -> dict[int, str]:
    """Seat number as the rules say it (1-based) -> the name the site shows."""
    return {index + 1: name for index, name in computers.seat_names(seats).items()}


def with_names(text: str, seats: list[Seat], names: dict[int, str] | None = None) -> str:
    """The rules speak of "Seat 2"; the site names the person in it (``names``: seat_names of
    ``seats``, when the caller already has them)."""
    return _named(text, seat_names(seats) if names is None else names)


def _named(text: str, names: dict[int, str]) -> str:
    return _SEAT_WORD.sub(lambda m: names.get(int(m.group(1)), m.group(0)), text)


# Where ratings.record_end leaves the rating changes of a game that just ended on the match,
# so the frames of that change show them without a query (as services.match_rematch leaves
# the rematch).
_RATINGS = "_rating_lines"


def _rating_line(seat: int, name: str, before: float, after: float, games: int) -> dict:
    """One player's rating change as the banner says it: "alice 1012 +12", the change being
    the difference of the two numbers shown, and "?" while the rating is provisional. The
    name is the rated person's (of a seat a computer took over, the one who left it)."""
    before, after = round(before), round(after)
    change = after - before
    return {"seat": seat, "name": name, "before": before, "after": after, "change": change,
            "shown": f"+{change}" if change > 0 else f"−{-change}" if change < 0 else "±0",
            "provisional": games < Rating.PROVISIONAL_GAMES}


def ratings_note(match: Match, changes, ratings: dict, names: dict[int, str]) -> None:
    """Called by the ratings when they rate a game that just ended: its changes (each
    player's rating row after it, for the number of games; their names) for the frames of
    the end."""
    match.__dict__[_RATINGS] = [_rating_line(c.seat, names.get(c.user_id, ""), c.display_before, c.display_after,
                                             ratings[c.user_id].games)
                                for c in sorted(changes, key=lambda c: c.seat)]


def rating_lines(match: Match) -> list[dict]:
    """What a finished rated game did to its players' ratings, by seat: one statement, and
    none for a game that was not rated."""
    if match.status != Match.Status.FINISHED or not match.rated or (match.outcome or {}).get("not_rated"):
        return []
    if _RATINGS in match.__dict__:
        return match.__dict__[_RATINGS]
    games = Rating.objects.filter(user_id=OuterRef("user_id"), kind=OuterRef("kind")).values("games")[:1]
    rows = (RatingChange.objects.filter(match_id=match.pk).annotate(games=Subquery(games))
            .order_by("seat").values_list("seat", "user__username", "display_before", "display_after", "games"))
    return [_rating_line(seat, name, before, after, n or 0) for seat, name, before, after, n in rows]


def ending_for(match: Match, seat: int | None, seats: list[Seat], *, game=None,
               names: dict[int, str] | None = None, ratings: list[dict] | None = None) -> dict | None:
    """How the game ended, said to this viewer once: a headline ("You won", "You lost",
    "Draw", or who won for a spectator), the reason in players' names, and ``details``: what
    else the viewer should read about the end (what changed hands: the CCG's ante).

    A player who is out of a game that goes on without them (resigned, conceded the
    doubled ante) reads at once that it is over for them ("You resigned", result "out").

    The details come from the state, when it is loaded; lists of games defer it and show the
    headline and reason only. ``names``: ``seat_names(seats)``, when the caller has them.

    A finished rated game also says what it did to each player's rating (``ratings``: the
    caller's ``rating_lines``; lists of games pass none), or, in ``rating_note``, why it was
    not rated."""
    if match.status == Match.Status.ABANDONED:
        return {"result": "abandoned", "headline": "Called off",
                "reason": "The game was called off before it got going.", "details": []}
    if match.status == Match.Status.ABORTED:
        names = seat_names(seats) if names is None else names
        return {"result": "aborted", "headline": "Aborted",
                "reason": _named((match.outcome or {}).get("reason") or "The game was aborted.", names), "details": []}
    if match.status == Match.Status.ACTIVE:
        return _out_ending(match, seat, seats, game, names)
    outcome = match.outcome
    if match.status != Match.Status.FINISHED or not outcome:
        return None
    names = seat_names(seats) if names is None else names
    reason = _named(outcome.get("reason") or "", names)
    details = _details(match, seat, seats, game, names)
    rated = {"ratings": list(ratings or ()),
             "rating_note": _named(outcome["not_rated"], names) if outcome.get("not_rated") else None}
    winners = list(outcome.get("winners") or [])
    if outcome.get("draw") or not winners:
        return {"result": "draw", "headline": "Draw", "reason": reason, "details": details, **rated}
    if seat is not None:
        won = seat in winners
        return {"result": "won" if won else "lost", "headline": "You won" if won else "You lost", "reason": reason,
                "details": details, **rated}
    who = " and ".join(names.get(w + 1, f"Seat {w + 1}") for w in winners)
    return {"result": "decided", "headline": f"{who} won", "reason": reason, "details": details, **rated}


def _state_loaded(match: Match) -> bool:
    """Whether the match was read with its state (lists of games defer it)."""
    return "state" in match.__dict__ and match.state is not None


def out_why(match: Match, seat: int | None, seats: list[Seat], game=None) -> str | None:
    """Why this seat's player is out of the game under way ("resigned"), or None: from the
    rules when the state is loaded, else from the mark the shell left on the seat
    (services._mark_out) for lists of games."""
    if seat is None or match.status != Match.Status.ACTIVE:
        return None
    if _state_loaded(match):
        return (game or registry.get(match.kind)).seats_out(match.state).get(seat)
    mine = next((s for s in seats if s.index == seat), None)
    return (mine.choice or {}).get(OUT_MARK) if mine is not None else None


# The key of Seat.choice under which the shell notes that the seat's player is out of a game
# that goes on (services._mark_out), so lists of games know without reading the state.
OUT_MARK = "out_of_game"


def _out_ending(match: Match, seat: int | None, seats: list[Seat], game, names) -> dict | None:
    why = out_why(match, seat, seats, game)
    if not why:
        return None
    return {"result": "out", "headline": f"You {why}", "over_for_you": True,
            "reason": "The game is over for you; it goes on without you.",
            "details": _details(match, seat, seats, game, names)}


def _details(match: Match, seat: int | None, seats: list[Seat], game, names) -> list[str]:
    if not _state_loaded(match):
        return []
    game = game or registry.get(match.kind)
    lines = [with_names(text, seats, names) for text in game.ending_notes(match.state, seat)]
    if match.practice and match.status == Match.Status.FINISHED and registry.room(match.kind).hooks.on_finish:
        # The game's end would move something outside it (the CCG's antes), but not in practice.
        lines.append("A practice game: nothing was staked, and no card changes hands.")
    return lines


def situation_for(match: Match, seat: int | None, seats: list[Seat], *, game=None,
                  names: dict[int, str] | None = None) -> list[str]:
    """While a game goes on after a player left it: why it goes on and what is still at
    stake (the CCG's search alone, 15.3), for a viewer still playing or watching. Empty
    otherwise, and for a player who is out (``ending_for`` tells them)."""
    if match.status != Match.Status.ACTIVE or not _state_loaded(match):
        return []
    game = game or registry.get(match.kind)
    if seat is not None and game.seats_out(match.state).get(seat):
        return []
    names = seat_names(seats) if names is None else names
    return [_named(text, names) for text in game.ending_notes(match.state, seat)]


def rematch_for(match: Match) -> dict | None:
    """The game that follows this finished one (a rematch asked for, or the CCG's drawn
    game's own), if any: its id and status."""
    if match.status != Match.Status.FINISHED:
        return None
    row = Match.objects.filter(rematch_of=match).order_by("pk").values("pk", "status").first()
    return {"id": row["pk"], "status": row["status"]} if row else None


def log_for(match: Match, seat: int | None, *, limit: int = LOG_TAIL, seats: list[Seat] | None = None,
            names: dict[int, str] | None = None) -> list[dict]:
    """The latest events this seat may see, oldest first, with players' names when ``seats``
    (with their users) are given (``names``: their ``seat_names``, when the caller has them)."""
    if names is None and seats is not None:
        names = seat_names(seats)
    records = list(MoveRecord.objects.filter(match=match).order_by("-seq")
                   .values("seq", "events", "by_timeout")[:limit])
    game = registry.get(match.kind)
    return [line for record in reversed(records)
            for line in _log_lines(record["seq"], record["events"], record["by_timeout"], seat, names, game)]


def chat_for(match: Match, *, after_id: int = 0, limit: int = CHAT_TAIL, player: bool = True,
             reader=None) -> list[dict]:
    """The chat lines this viewer may read: the players' channel for everyone, the
    spectators' own channel for spectators only (``player=False``). Without ``after_id`` the
    latest ``limit`` lines (a page opening); with it the first ``limit`` lines after that id
    (a page fetching what it missed, page by page), oldest first either way. A line by
    someone the ``reader`` blocked comes as a placeholder (``chat_muted``), in the same
    statement."""
    rows = ChatMessage.objects.filter(match=match, pk__gt=after_id)
    if player:
        rows = rows.filter(spectators=False)
    rows = rows.select_related("user")
    muted = access.muted_authors(reader)
    if muted is not None:
        rows = rows.annotate(muted=ExpressionWrapper(Q(user_id__in=muted), output_field=BooleanField()))
    rows = rows.order_by("id")[:limit] if after_id else reversed(list(rows.order_by("-id")[:limit]))
    return [chat_muted(chat_public(m)) if getattr(m, "muted", False) else chat_public(m) for m in rows]


def chat_public(message: ChatMessage) -> dict:
    """A line as pages and the API show it: ``seq`` numbers it in its channel (``spectators``
    says which), so a page can tell it missed one."""
    return {"id": message.pk, "seq": message.seq, "user": message.user.username, "text": message.text,
            "at": message.created_at.isoformat(), "spectators": message.spectators, "muted": False}


def chat_muted(line: dict) -> dict:
    """A line (``chat_public``) as a reader who blocked its author gets it: its place in the
    channel's numbering and nothing said, neither who nor what, so the page sees no gap to
    fetch and shows nothing."""
    return {**line, "user": "", "text": "", "muted": True}


def can_chat(match: Match, user, seats: list[Seat]) -> bool:
    """Whether this viewer may post (games/table/access.py's rule, which chat_post enforces, for
    the page to show)."""
    return access.can_chat(match, user, seats)


# What lists of games never show: a game's state and set-up (whole decks for the CCG), up to
# tens of kilobytes each, which ``distinct()`` would otherwise also have to compare.
_BIG_COLUMNS = ("state", "state_fixed", "setup_options")


def matches_for_user(user) -> list[Match]:
    """My games: those waiting for me first, then the rest by status and recency."""
    waiting_for_me = Seat.objects.filter(match=OuterRef("pk"), user=user).exclude(waiting_for="")
    invited = Seat.objects.filter(match=OuterRef("pk"), user=user, accepted=False)
    return list(
        Match.objects.filter(seats__user=user).defer(*_BIG_COLUMNS).distinct()
        .annotate(my_turn=Exists(waiting_for_me), invited=Exists(invited))
        .order_by("-my_turn", Case(When(status="active", then=Value(0)), When(status="open", then=Value(1)),
                                   default=Value(2), output_field=IntegerField()), "-updated_at")
        .prefetch_related("seats__user")[:200]
    )


_NEVER = datetime.max.replace(tzinfo=dt_timezone.utc)


def to_move(match: Match, user, seats: list[Seat]) -> dict | None:
    """Who a game under way waits for, and until when, for the lists of games (from the seats
    the list prefetched): this viewer when they owe a move, else whoever's time runs out first
    (a wait with no clock after any clock). ``{"mine", "who", "deadline", "others"}``, or None
    when nobody owes a move; ``others``: how many more owe one at the same time."""
    if match.status != Match.Status.ACTIVE:
        return None
    waiting = [s for s in seats if s.waiting_for and s.accepted]
    mine = [s for s in waiting if user is not None and s.user_id == user.id]
    if not waiting:
        return None
    first = min(mine or waiting, key=lambda s: (s.deadline or _NEVER, s.index))
    return {"mine": bool(mine), "deadline": first.deadline, "others": 0 if mine else len(waiting) - 1,
            "who": "You" if mine else computers.seat_name(first, seats)}


def urgency(match: Match) -> tuple:
    """A list's order, most urgent first: the soonest deadline (``match.to_move``, set by the
    list), then a wait with no clock, then a game waiting for nobody; the older game first
    among equals, as "Next game where it's my move" goes (``next_waiting``)."""
    waits = getattr(match, "to_move", None)
    return (waits is None, (waits or {}).get("deadline") or _NEVER, match.pk)


def next_waiting(user, *, after: int | None = None) -> int | None:
    """Where "Next game where it's my move" goes from game ``after``: the games under way that
    wait for this player's move, most urgent first (``urgency``'s order), the one after
    ``after`` (round to the first; the first when ``after`` waits for nothing), or None."""
    waiting = list(Seat.objects.filter(user=user, accepted=True, match__status=Match.Status.ACTIVE)
                   .exclude(waiting_for="").order_by(F("deadline").asc(nulls_last=True), "match_id")
                   .values_list("match_id", flat=True)[:500])
    if not waiting:
        return None
    if after in waiting:
        return waiting[(waiting.index(after) + 1) % len(waiting)] if len(waiting) > 1 else None
    return waiting[0]


def open_matches(*, exclude_user=None, limit: int = 100) -> list[Match]:
    """Public games with a seat nobody holds. A private game's seats are given to those it
    invites (games/table/access.py), so it is never offered here, even one made before that rule
    with a seat left open."""
    qs = (Match.objects.filter(status=Match.Status.OPEN, allow_spectators=True, seats__user__isnull=True,
                               seats__computer="").defer(*_BIG_COLUMNS).distinct()
          .prefetch_related("seats__user").order_by("-created_at"))
    if exclude_user is not None and exclude_user.is_authenticated:
        qs = qs.exclude(seats__user=exclude_user)
    return list(qs[:limit])


def live_matches(*, limit: int = 50) -> list[Match]:
    return list(Match.objects.filter(status=Match.Status.ACTIVE, allow_spectators=True).defer(*_BIG_COLUMNS)
                .prefetch_related("seats__user").order_by("-updated_at")[:limit])


def unread_count(user) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def replay_frames(match: Match, user, *, upto: int | None = None, as_seat: int | None = None,
                  full: bool = False) -> dict:
    """Replay from the seed: the view at step ``upto`` (0 = setup; beyond the last move, the
    last) for what this viewer could see at that time, plus the log lines of that step. Once
    the game is over (finished or called off), anyone who may watch it may replay it as any
    seat saw it (``as_seat``), or see the rules' whole state at each step (``full``: every
    hand, every deck order): its secret is out by then, and with it every card there was."""
    seats = seats_for(match)
    if not can_view(match, user, seats):
        raise NotAllowed("This game has no spectators.")
    if match.state is None:
        raise NotFound("This game has not started.")
    seat = seat_of(match, user, seats)
    if (as_seat is not None or full) and not commitments.is_over(match):
        raise NotAllowed("Other players' views are shown only once the game is over.")
    if as_seat is not None:
        if not 0 <= as_seat < len(seats):
            raise ServiceError(f"There is no seat {as_seat + 1} in this game.")
        seat = as_seat
    game = registry.get(match.kind)
    total = match.move_count
    upto = total if upto is None else max(0, min(int(upto), total))
    from games.table.replay import state_at

    state, records = state_at(match, upto)
    events = []
    if upto:
        events = [Event.from_dict(e) for e in records[-1].events]
    names = seat_names(seats)
    return {"step": upto, "total": total, "seat": seat, "view": game.view_for(state, seat),
            "events": [line_words(game, e.text, names) for e in events if full or e.visible_to(seat)],
            "mover": records[-1].seat if upto else None, "state": state if full else None}
