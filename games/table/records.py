"""A game's record (docs/verify.md, "The record"): everything anyone needs to replay a game
and check it with games/rules/verify.py, which ``check_for`` also runs on the server.

Once the game is over (finished or called off) the record is whole and the same for every
viewer: the revealed secret, the seed, the setup options (for the CCG every player's deck
list: the replay shows every hand by then too), every move with who made it, the result.
While it is under way a record holds only what every viewer may already see: the players,
the commitment and the contributions. The secret, the seed, the setup options, the moves
and the result are null: a move may name a card only its player has seen (a CCG card put
under the deck), and the log pages already show each viewer the moves as they may read them.
"""
from __future__ import annotations

from datetime import timezone

from django.core.cache import cache

from games.models import Match, MoveRecord, Seat
from games.rules import verify
from games.table import commitments, computers
from games.table.replay import JOIN_MOVE

# A finished game's check never changes (its record is written once it is over): kept, so a
# page opened by many re-runs no replay. Keyed by the game's commitment too, which no other
# game shares: a database restored or reset reuses ids and versions, never a commitment.
CHECK_CACHE_SECONDS = 24 * 3600


def check_key(match: Match) -> str:
    return f"game-check:{match.pk}:{match.version}:{match.commitment}"


def record_for(match: Match, seats: list[Seat]) -> dict:
    """The record of ``match`` (read with its setup options) and its seats, as docs/verify.md
    defines it, plus ``complete`` (whether the game is over, so the record is whole) and the
    game's ``status``. Whoever may see the game may read it: the caller asked access."""
    over = commitments.is_over(match)
    set_up = match.started_at is not None
    rows = _moves(match) if over else []
    joined = (sum(1 for row in rows if row["move"] == JOIN_MOVE) if over
              else MoveRecord.objects.filter(match=match, move=JOIN_MOVE).count())
    at_setup = len(seats) - joined
    names = computers.seat_names(seats)
    committed = commitments.committed(match)
    return {
        "record_format": verify.RECORD_FORMAT,
        "match": match.pk,
        "kind": match.kind,
        "edition": _edition(match),
        "complete": over,
        "status": match.status,
        "setup_options": (match.setup_options or {}) if over and set_up else None,
        "players": [{"seat": s.index, "name": names.get(s.index, f"Seat {s.index + 1}"),
                     "held_by": _held_by(s, joined=s.index >= at_setup), "held_by_at_end": _held_now(s)}
                    for s in seats],
        "commitment": match.commitment or None,
        "secret": match.secret if committed and over else None,
        "contributions": _contributions(seats[:at_setup], set_up=set_up) if committed else [],
        "seed": match.seed if over and set_up else None,
        "moves": _entries(match, rows) if over else None,
        "result": match.outcome if over else None,
    }


def check_for(match: Match, seats: list[Seat]) -> dict:
    """games/rules/verify.py's check of the game's own record, as the "Check this game"
    section shows it: what was compared, in order, and the first mismatch if any; with the
    commitment, contributions and seed it compared. A game under way is not checked (its
    secret is not out): the answer says so."""
    key = check_key(match)
    keep = commitments.is_over(match) and commitments.committed(match)
    if keep:
        kept = cache.get(key)
        if kept is not None:
            return kept
    record = record_for(match, seats)
    report = verify.check_record(record)
    answer = {"ok": report.ok, "problem": report.problem, "checked": report.checked, "moves": report.moves,
              "seed": report.seed, "outcome": report.outcome, "complete": record["complete"],
              "commitment": record["commitment"], "secret": record["secret"],
              "contributions": record["contributions"]}
    if keep:
        cache.set(key, answer, CHECK_CACHE_SECONDS)
    return answer


def _contributions(seats: list[Seat], *, set_up: bool) -> list[str | None]:
    """One per seat at setup, as the seed was derived; before setup, those given so far
    (None for a seat nobody has taken)."""
    return commitments.at_setup(seats) if set_up else [s.contribution or None for s in seats]


def _edition(match: Match) -> int | str:
    """The edition committed to; for a game not committed, the one its setup options name
    (Camelot's), else 1."""
    if match.rules_edition:
        return commitments.edition_value(match.rules_edition)
    stamped = (match.setup_options or {}).get("edition") if match.started_at else None
    return stamped if isinstance(stamped, (int, str)) and not isinstance(stamped, bool) else 1


def _held_by(seat: Seat, *, joined: bool) -> str:
    """Who held the seat when the game was set up (or the newcomer joined): a seat a computer
    took over was a person's."""
    if joined or seat.left_by_id is not None:
        return "person"
    return "computer" if seat.computer else "person"


def _held_now(seat: Seat) -> str:
    return "computer" if seat.computer else "person"


def _moves(match: Match) -> list[dict]:
    return list(MoveRecord.objects.filter(match=match).order_by("seq")
                .values("seq", "seat", "user_id", "by_timeout", "move", "created_at"))


def _entries(match: Match, rows: list[dict]) -> list[dict]:
    # Who made a move the site made (no person's): a computer player, or the clock. The one
    # computer move the clock occasions is a takeover's first (a person ran out of time and a
    # computer player moved in their place, games/table/services.py): its log says so, and
    # only those few rows' log lines are read.
    timed = [row["seq"] for row in rows if row["user_id"] is None and row["by_timeout"]]
    takeovers = set()
    if timed:
        for seq, events in MoveRecord.objects.filter(match=match, seq__in=timed).values_list("seq", "events"):
            if any(event.get("kind") == "takeover" for event in events or ()):
                takeovers.add(seq)
    return [{"seq": row["seq"], "seat": row["seat"], "time": _utc(row["created_at"]),
             "who": _who(row, takeovers), "move": row["move"]} for row in rows]


def _who(row: dict, takeovers: set[int]) -> str:
    if row["user_id"] is not None:
        return "person"  # their own move, or one they preset (the site made it for them)
    if not row["by_timeout"] or row["seq"] in takeovers:
        return "computer"
    return "clock"


def _utc(moment) -> str:
    """ISO 8601 in UTC, to the millisecond: "2026-05-01T12:00:01.250Z"."""
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
