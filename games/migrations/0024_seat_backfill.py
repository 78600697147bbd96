"""The referee's seat columns for seats that 0018 could not fill.

0018 counted a seat's own moves only while a person still held it (matched on ``user``), so a
seat a computer player had taken over (``user`` empty, ``left_by`` the person who left) kept
``own_moves = 0``; the ratings then refused every rated game with such a seat ("Seat N made no
move of their own"), and ``ratings_recompute --write`` unrated them. The moves are in the log:
those ``left_by`` submitted in that seat.

A seat's ``ran_out`` (and, in a game still in play, ``timeouts_in_row``) is what the clock did
on the seat's own turn; the log keeps every move the clock made (``by_timeout``) but not which
wait it answered, so each game with such a move is replayed from its seed to ask the rules what
the seat owed at that moment. A game that no longer replays keeps its marks as they are.

Each step only raises a column from its default: a seat counted or marked since keeps its value."""
from django.db import migrations
from django.db.models import Count, Exists, IntegerField, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce

JOIN = {"type": "join"}
# The keys of the moves made for a seat rather than by its person: presets and computer players.
PRESET_PREFIX = "auto-"
COMPUTER_PREFIX = "computer-"


def count_left_seats_moves(apps, schema_editor=None) -> int:
    """A seat a computer took over counts the moves its person made there before leaving: as
    the table counts them now, neither the clock's, a preset's, joining nor resigning."""
    Seat = apps.get_model("games", "Seat")
    MoveRecord = apps.get_model("games", "MoveRecord")
    own = (MoveRecord.objects.filter(match=OuterRef("match"), seat=OuterRef("index"), user=OuterRef("left_by"),
                                     by_timeout=False)
           .exclude(key__startswith=PRESET_PREFIX).exclude(move__type__in=["join", "resign"])
           .order_by().values("match").annotate(n=Count("pk")).values("n"))
    return Seat.objects.filter(left_by__isnull=False, own_moves=0).update(
        own_moves=Coalesce(Subquery(own, output_field=IntegerField()), Value(0)))


def own_turn_time_outs(game, state, records, seat: int, person: int) -> tuple[list[int], int]:
    """Replaying ``records`` (dicts: seq, seat, user_id, move, by_timeout, key, events) from
    ``state``: the seqs at which the clock moved for ``seat`` on its own turn while ``person``
    held it, and the seq of that person's last move of their own there (0: none). The person's
    time ends with the seat's first computer move, or with the move that announced a takeover
    (the clock's move that handed the seat over was still the person's time running out)."""
    late, last_own, held = [], 0, True
    for record in records:
        if record["move"] == JOIN:
            state, _ = game.add_seat(state)
            continue
        if record["seat"] == seat and held:
            if record["key"].startswith(COMPUTER_PREFIX):
                held = False
            elif record["by_timeout"]:
                owed = next((p.kind for p in game.pending(state) if p.seat == seat), None)
                if owed in game.own_turn_waits:
                    late.append(record["seq"])
            elif (record["user_id"] == person and not record["key"].startswith(PRESET_PREFIX)
                  and record["move"].get("type") != "resign"):
                last_own = record["seq"]
            if any(e.get("kind") == "takeover" for e in record["events"] or ()):
                held = False
        state, _ = game.apply(state, record["seat"], record["move"])
    return late, last_own


def mark_time_outs(apps, schema_editor=None) -> int:
    """Mark ``ran_out`` on each person's seat whose own turn the clock played, and in games in
    play the run of such time-outs since their last own move. Returns the seats changed."""
    from games import registry  # the rules are pure: replaying them here is what the site does

    Seat = apps.get_model("games", "Seat")
    MoveRecord = apps.get_model("games", "MoveRecord")
    clocked = MoveRecord.objects.filter(match=OuterRef("match"), seat=OuterRef("index"), by_timeout=True)
    candidates = (Seat.objects.filter(Q(user__isnull=False) | Q(left_by__isnull=False), ran_out=False)
                  .filter(Exists(clocked)).select_related("match").order_by("match_id", "index"))
    by_match: dict[int, list] = {}
    for seat in candidates:
        by_match.setdefault(seat.match_id, []).append(seat)
    changed = 0
    for seats in by_match.values():
        changed += _mark_match(registry, MoveRecord, seats)
    return changed


def _mark_match(registry, MoveRecord, seats) -> int:
    match = seats[0].match
    try:
        game = registry.get(match.kind)
        records = list(MoveRecord.objects.filter(match_id=match.pk).order_by("seq")
                       .values("seq", "seat", "user_id", "move", "by_timeout", "key", "events"))
        joins = sum(1 for r in records if r["move"] == JOIN)
        start = game.setup(match.num_seats - joins, match.setup_options or {}, match.seed)
        found = {s.index: own_turn_time_outs(game, start, records, s.index, s.user_id or s.left_by_id)
                 for s in seats}
    except Exception:  # noqa: BLE001 - a game stored under older rules that no longer replays
        return 0
    changed = 0
    for seat in seats:
        late, last_own = found[seat.index]
        if not late:
            continue
        seat.ran_out = True
        fields = ["ran_out"]
        if match.status == "active" and seat.user_id is not None and not seat.timeouts_in_row:
            seat.timeouts_in_row = sum(1 for seq in late if seq > last_own)
            fields.append("timeouts_in_row")
        seat.save(update_fields=fields)
        changed += 1
    return changed


def backfill(apps, schema_editor):
    count_left_seats_moves(apps, schema_editor)
    mark_time_outs(apps, schema_editor)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0023_tournament_min_reliability"),
    ]

    operations = [
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
