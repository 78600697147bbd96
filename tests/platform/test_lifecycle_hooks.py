"""The per-kind hooks the CCG uses: clocks per kind of wait, preset moves, after-move."""
from datetime import timedelta

import pytest

from games.table import lifecycle, services
from games import registry
from games.models import MoveRecord


@pytest.fixture
def hooks(monkeypatch):
    installed = lifecycle.Hooks()
    monkeypatch.setattr(registry.room("secret"), "hooks", installed)
    return installed


def test_a_kind_can_give_a_wait_its_own_clock(hooks, make_match):
    hooks.allowance = lambda match, kind: ("hours", 12) if kind == "turn" else None
    match, _ = make_match(kind="secret", clock_kind="days", clock_amount=5)
    seat = match.seats.get(index=0)
    assert timedelta(hours=11, minutes=59) < seat.deadline - match.started_at < timedelta(hours=12, minutes=1)


def test_preset_moves_are_made_until_a_real_decision_is_needed(hooks, make_match):
    # Seat 1's owner preset "play my first card" on every turn.
    hooks.auto_move = lambda match, seat, kind: (
        {"type": "play", "card": match.state["hands"][1][0]} if seat.index == 1 else None)
    match, (alice, bob) = make_match(kind="secret")
    services.move_submit(match_id=match.pk, user=alice, move={"type": "play", "card": match.state["hands"][0][0]},
                         version=match.version)
    match.refresh_from_db()
    records = list(MoveRecord.objects.filter(match=match).order_by("seq"))
    assert [(r.seat, r.user) for r in records] == [(0, alice), (1, bob)]
    assert registry.get("secret").pending(match.state)[0].seat == 0
    assert match.seats.get(index=0).waiting_for == "turn"


def test_after_move_sees_the_previous_and_the_new_state(hooks, make_match):
    seen = []
    hooks.after_move = lambda match, seats, previous: seen.append((len(previous["table"]), len(match.state["table"])))
    match, (alice, _) = make_match(kind="secret")
    services.move_submit(match_id=match.pk, user=alice, move={"type": "play", "card": match.state["hands"][0][0]},
                         version=match.version)
    assert seen == [(0, 1)]
