"""move_submit: one transaction per move, versions, idempotency keys, clear refusals."""
import pytest

from games.table import services
from grailsite.errors import MoveRejected, NotAllowed, StaleVersion
from games.models import Match, MoveRecord
from tests.conftest import seated_players_moved


def _first_legal(match, seat):
    from games import registry

    return registry.get(match.kind).legal_moves(match.state, seat)[0]


def test_match_starts_when_the_last_seat_is_taken(make_match):
    match, users = make_match()
    assert match.status == Match.Status.ACTIVE
    assert match.state is not None and match.setup_options == {"rounds": 4}
    seat0 = match.seats.get(index=0)
    assert seat0.waiting_for == "turn" and seat0.deadline is not None


def test_a_legal_move_is_applied_logged_and_versioned(make_match):
    match, (alice, bob) = make_match()
    move = _first_legal(match, 0)
    result = services.move_submit(match_id=match.pk, user=alice, move=move, version=match.version, key="k1")
    match.refresh_from_db()
    assert result == {"version": match.version, "seq": 1, "repeated": False}
    record = MoveRecord.objects.get(match=match)
    assert record.move == move and record.seat == 0 and record.user == alice
    assert match.state["played"][0] == [move["card"]]
    assert match.seats.get(index=1).waiting_for == "turn" and match.seats.get(index=0).waiting_for == ""


def test_a_repeated_key_returns_the_first_result_and_applies_once(make_match):
    match, (alice, _) = make_match()
    move = _first_legal(match, 0)
    first = services.move_submit(match_id=match.pk, user=alice, move=move, version=match.version, key="same")
    again = services.move_submit(match_id=match.pk, user=alice, move=move, version=match.version, key="same")
    assert again == {**first, "repeated": True}
    assert MoveRecord.objects.filter(match=match).count() == 1


def test_a_stale_version_is_refused_and_nothing_is_written(make_match):
    match, (alice, _) = make_match()
    with pytest.raises(StaleVersion, match="moved on"):
        services.move_submit(match_id=match.pk, user=alice, move=_first_legal(match, 0), version=match.version - 1)
    assert MoveRecord.objects.filter(match=match).count() == 0


def test_illegal_and_out_of_turn_moves_are_refused_with_reasons(make_match):
    match, (alice, bob) = make_match()
    before = (match.version, match.state)
    with pytest.raises(MoveRejected, match="not your turn"):
        services.move_submit(match_id=match.pk, user=bob, move=_first_legal(match, 0), version=match.version)
    with pytest.raises(MoveRejected, match="do not hold"):
        services.move_submit(match_id=match.pk, user=alice, move={"type": "play", "card": 42}, version=match.version)
    with pytest.raises(MoveRejected, match="Unknown move"):
        services.move_submit(match_id=match.pk, user=alice, move={"type": "fly"}, version=match.version)
    with pytest.raises(MoveRejected, match="'type'"):
        services.move_submit(match_id=match.pk, user=alice, move={"card": 1}, version=match.version)
    match.refresh_from_db()
    assert (match.version, match.state) == before
    assert not MoveRecord.objects.filter(match=match).exists()


def test_outsiders_cannot_move(make_match, make_user):
    match, _ = make_match()
    with pytest.raises(NotAllowed):
        services.move_submit(match_id=match.pk, user=make_user(), move=_first_legal(match, 0), version=None)


def test_resign_finishes_the_game_for_the_other_player(make_match):
    match, (alice, bob) = make_match()
    seated_players_moved(match)
    services.match_resign(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.outcome["winners"] == [0]
    assert not match.seats.exclude(waiting_for="").exists()


def test_playing_to_the_end_records_the_outcome(make_match):
    from games import registry

    match, users = make_match(options={"rounds": 1})
    game = registry.get("duel")
    while match.status == Match.Status.ACTIVE:
        seat = game.pending(match.state)[0].seat
        services.move_submit(match_id=match.pk, user=users[seat], move=game.legal_moves(match.state, seat)[0],
                             version=match.version)
        match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.finished_at is not None
    assert match.outcome == game.outcome(match.state).as_dict()


def test_abandon_before_any_move_but_not_after(make_match, make_user):
    match, (alice, bob) = make_match()
    with pytest.raises(NotAllowed):
        services.match_abandon(match_id=match.pk, user=bob)
    services.move_submit(match_id=match.pk, user=alice, move=_first_legal(match, 0), version=match.version)
    with pytest.raises(services.ServiceError, match="resign"):
        services.match_abandon(match_id=match.pk, user=alice)
    fresh, (carol, _) = make_match()
    services.match_abandon(match_id=fresh.pk, user=carol)
    fresh.refresh_from_db()
    assert fresh.status == Match.Status.ABANDONED


def test_invitations_lobby_seats_and_decline(make_user):
    alice, bob, carol = make_user(), make_user(), make_user()
    match = services.match_create(creator=alice, kind="secret", num_seats=3, invite=[bob.username])
    assert match.status == Match.Status.OPEN
    services.match_decline(match_id=match.pk, user=bob)
    services.match_join(match_id=match.pk, user=carol)
    with pytest.raises(services.ServiceError, match="already"):
        services.match_join(match_id=match.pk, user=carol)
    services.match_join(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert [s.user for s in match.seats.order_by("index")] == [alice, carol, bob]


@pytest.mark.parametrize("kwargs,message", [
    ({"kind": "nope"}, "Unknown game kind"),
    ({"num_seats": 5}, "takes 2 to 2"),
    ({"invite": ["ghost"]}, "No player named ghost"),
    ({"clock_kind": "days", "clock_amount": 30}, "1 to 14"),
    ({"options": {"rounds": 99}}, "Rounds: .* less than or equal to 6"),
    ({"options": {"rounds": "many"}}, "Rounds: Enter a whole number"),
    ({"options": {"speed": 3}}, "Unknown option"),
])
def test_bad_creation_requests_are_refused(make_user, kwargs, message):
    args = {"kind": "duel", "num_seats": 2, **kwargs}
    with pytest.raises(services.ServiceError, match=message):
        services.match_create(creator=make_user(), **args)
    assert not Match.objects.exists()
