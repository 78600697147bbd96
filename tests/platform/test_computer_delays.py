"""When a computer player moves: its delay counts from when its own
decision became due, not from the table's last change. In Camelot two seats hold turn
tokens at once; a person holding the other token and moving on and on must not keep the
computer waiting (before the fix each of their moves restarted its delay: 0 moves in 30 s).

Through a real Celery worker on Redis, as in production."""
import time

import pytest

from games.table import services
from games import registry
from grailsite.errors import MoveRejected, StaleVersion
from games.models import Match, MoveRecord, Seat

pytestmark = pytest.mark.django_db
# What the worker does must be committed for it to see.
committed = pytest.mark.django_db(transaction=True, serialized_rollback=True)

CAMELOT = registry.get("camelot")
DELAY = 2          # the table's computer delay (seconds)
SLACK = 1.5        # a worker on a busy 2-core machine: how late a move may still count as on time
COMPUTER = 2       # alice and bob at seats 0 and 1, a computer player at seat 2


def person_move(state: dict, seat: int) -> dict | None:
    """A quick player who keeps moving: answers any question, takes entry hexes, enters and
    moves units, and otherwise ends the turn (so the free token keeps passing between the
    two people). Never pauses, declares or asks: nothing here waits on the computer."""
    legal = CAMELOT.legal_moves(state, seat)
    for kinds in (("decide",), ("entry",), ("enter", "move"), ("end_turn",)):
        moves = [m for m in legal if m["type"] in kinds]
        if moves:
            return moves[0]
    return None


def _people_keep_moving(match_id: int, users, seconds: float) -> dict[int, float]:
    """The people move every 0.3 s for ``seconds``; returns, for each decision the computer
    was seen to owe (by its seat's situation_version), when the loop first saw it."""
    owed: dict[int, float] = {}
    end = time.monotonic() + seconds
    turn = 0
    while time.monotonic() < end:
        match = Match.objects.get(pk=match_id)
        if match.status != "active":
            break
        computer = Seat.objects.get(match_id=match_id, index=COMPUTER)
        if computer.waiting_for:
            owed.setdefault(computer.situation_version, time.monotonic())
        for seat in (turn % 2, (turn + 1) % 2):  # alternate who goes first when both may move
            move = person_move(match.state, seat)
            if move is None:
                continue
            try:
                services.move_submit(match_id=match_id, user=users[seat], move=move, version=match.version)
            except (StaleVersion, MoveRejected):
                pass  # the computer moved in between: the next round looks again
            break
        turn += 1
        time.sleep(0.3)
    return owed


@committed
def test_a_computer_holding_a_token_moves_within_its_delay_while_the_other_holder_keeps_moving(
        worker, make_match, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match, users = make_match(kind="camelot", seats=3, users=[alice, bob], seed=31, computers_at={COMPUTER: "knight"},
                              computer_delay=DELAY, clock_kind="seconds", clock_amount=300)
    owed = _people_keep_moving(match.pk, users, seconds=14)
    records = list(MoveRecord.objects.filter(match=match).order_by("seq"))
    at_version = {r.version_after: r for r in records}
    waits, busy_waits = [], []
    for version in sorted(owed):
        due_since = at_version.get(version)  # the change that made this decision due
        if due_since is None:
            continue  # owed from the game's start: no move record to time it from
        made = next((r for r in records if r.seat == COMPUTER and r.version_after > version), None)
        if made is None:
            waited = time.time() - due_since.created_at.timestamp()
            assert waited < DELAY + SLACK, f"the computer has owed a move for {waited:.1f} s (delay {DELAY} s)"
            continue
        wait = (made.created_at - due_since.created_at).total_seconds()
        waits.append(wait)
        people_meanwhile = sum(1 for r in records if r.seat != COMPUTER and version < r.version_after < made.version_after)
        if people_meanwhile >= 2:
            busy_waits.append(wait)
    assert busy_waits, f"the people never moved while the computer owed a move (waits {waits})"
    assert all(DELAY - 0.2 <= w <= DELAY + SLACK for w in waits), \
        f"each computer move within its {DELAY} s delay of becoming due: {[round(w, 2) for w in waits]}"


def test_a_computers_due_move_is_kept_when_another_seat_moves(make_match, make_user):
    """The database side of the same rule: the computer's due time (what the sweep reads)
    is set when its decision becomes due and stays put while another seat moves."""
    alice, bob = make_user("alice"), make_user("bob")
    match, users = make_match(kind="camelot", seats=3, users=[alice, bob], seed=31, computers_at={COMPUTER: "knight"},
                              computer_delay=DELAY, clock_kind="seconds", clock_amount=300)
    # Play (the computer's moves made by hand) until a person and the computer hold the tokens.
    for _ in range(200):
        match.refresh_from_db()
        if match.state["phase"] == "play" and COMPUTER in match.state["tokens"]:
            break
        computer = Seat.objects.get(match=match, index=COMPUTER)
        if computer.waiting_for:
            assert services.computer_move_apply(match_id=match.pk, seat_index=COMPUTER, due=computer.computer_due)
            continue
        seat = next(s for s in (0, 1) if person_move(match.state, s))
        services.move_submit(match_id=match.pk, user=users[seat], move=person_move(match.state, seat),
                             version=match.version)
    person = next(s for s in match.state["tokens"] if s != COMPUTER)
    due = Seat.objects.get(match=match, index=COMPUTER).computer_due
    assert due is not None
    services.move_submit(match_id=match.pk, user=users[person], move=person_move(match.state, person),
                         version=match.version)
    assert Seat.objects.get(match=match, index=COMPUTER).computer_due == due
