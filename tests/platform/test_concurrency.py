"""Racing submissions on a real PostgreSQL: row locks make each move apply exactly once."""
import pytest

from games.table import services
from games import registry
from grailsite.errors import StaleVersion
from games.models import Match, MoveRecord

# serialized_rollback keeps the card database of the data migrations across the flush.
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def test_the_same_move_submitted_twice_at_once_applies_exactly_once(make_match, run_threads):
    match, (alice, _) = make_match()
    move = registry.get("duel").legal_moves(match.state, 0)[0]

    def submit():
        return services.move_submit(match_id=match.pk, user=alice, move=move, version=match.version, key="double")

    results = run_threads(submit, submit, submit)
    assert all(isinstance(r, dict) for r in results), results
    assert sorted(r["repeated"] for r in results) == [False, True, True]
    assert len({r["version"] for r in results}) == 1
    assert MoveRecord.objects.filter(match=match).count() == 1


def test_two_different_moves_on_one_version_one_wins_the_other_is_told(make_match, run_threads):
    match, (alice, _) = make_match(kind="secret")
    hand = match.state["hands"][0]

    def submit(card, key):
        return lambda: services.move_submit(match_id=match.pk, user=alice, move={"type": "play", "card": card},
                                            version=match.version, key=key)

    results = run_threads(submit(hand[0], "a"), submit(hand[1], "b"))
    wins = [r for r in results if isinstance(r, dict)]
    losses = [r for r in results if isinstance(r, StaleVersion)]
    assert len(wins) == 1 and len(losses) == 1, results
    assert "moved on" in losses[0].message
    match.refresh_from_db()
    assert match.move_count == 1 and MoveRecord.objects.filter(match=match).count() == 1


def test_a_vacation_and_moves_in_the_same_games_never_deadlock(make_match, run_threads):
    """Every writer locks the match row before its seats (services.lock_match): a vacation
    that stops clocks in two games while both games take moves waits, never deadlocks."""
    from django.db import OperationalError

    first, (alice, bob) = make_match(kind="secret", clock_kind="days", clock_amount=3, vacation_days=30)
    second, _ = make_match(kind="secret", users=[alice, bob], clock_kind="days", clock_amount=3, vacation_days=30)
    for _ in range(5):
        moves = []
        for match in (first, second):
            match.refresh_from_db()
            mover = [alice, bob][match.state["turn"]]
            card = match.state["hands"][match.state["turn"]][0]
            moves.append(lambda m=match, u=mover, c=card: services.move_submit(
                match_id=m.pk, user=u, move={"type": "play", "card": c}, version=None))
        results = run_threads(lambda: services.vacation_start(user=bob, days=1), *moves)
        assert not any(isinstance(r, OperationalError) for r in results), results
        assert all(not isinstance(r, Exception) for r in results), results
    assert MoveRecord.objects.filter(match__in=[first, second]).count() == 10
