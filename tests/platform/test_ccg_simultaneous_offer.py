"""A doubled ante (16.2) in a three-player CCG game waits for two opponents at once: on a
real PostgreSQL, both accepting at the same instant on the version they saw both apply
(seats that act at the same time); an answer that is no longer open gets a
clear error, and a turn holder's move made before another seat's face-up play stays stale."""
import pytest

from games.table import services
from grailsite.errors import MoveRejected, StaleVersion
from tests.platform.ccg_helpers import GAME, drive, ensure_card_database, prepared_player

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


@pytest.fixture
def offer(make_user):
    """A started three-player game with doubling on, the active player's double offered."""
    ensure_card_database()
    users = [make_user("alice"), make_user("bob"), make_user("carol")]
    decks = [prepared_player(u, spare=i) for i, u in enumerate(users)]
    match = services.match_create(creator=users[0], kind="ccg", num_seats=3, invite=["bob", "carol"], seed=11,
                                  clock_kind="days", clock_amount=3, creator_choice={"deck": decks[0].pk},
                                  options={"double_the_ante": True})
    for user, deck in zip(users[1:], decks[1:]):
        services.match_join(match_id=match.pk, user=user, choice={"deck": deck.pk})
    match = drive(match, users, until=lambda m: m.state["phase"] != "cut")
    offerer = match.state["turn"]
    services.move_submit(match_id=match.pk, user=users[offerer], move={"type": "end_turn", "double": True},
                         version=match.version)
    match = drive(match, users, until=lambda m: any(p.kind == "offer" for p in GAME.pending(m.state)))
    return match, users, offerer


def test_two_opponents_accepting_at_the_same_instant_both_apply(offer, run_threads):
    match, users, offerer = offer
    others = [s for s in range(3) if s != offerer]
    assert sorted(p.seat for p in GAME.pending(match.state)) == others
    seen = match.version

    def accept(seat):
        return lambda: services.move_submit(match_id=match.pk, user=users[seat], move={"type": "accept"},
                                            version=seen, key=f"accept-{seat}")

    results = run_threads(*(accept(s) for s in others))
    assert all(isinstance(r, dict) and not r["repeated"] for r in results), results
    match.refresh_from_db()
    assert match.version >= seen + 2
    assert match.state["doubling"]["count"] == 1
    assert not any(p.kind == "offer" for p in GAME.pending(match.state))
    # A second answer to the settled offer: on the version seen before, the seat's own
    # situation changed since (it answered), so it is stale; on the current one, the
    # rules refuse it with a reason.
    with pytest.raises(StaleVersion):
        services.move_submit(match_id=match.pk, user=users[others[0]], move={"type": "accept"}, version=seen)
    with pytest.raises(MoveRejected) as refused:
        services.move_submit(match_id=match.pk, user=users[others[0]], move={"type": "accept"},
                             version=match.version)
    assert not isinstance(refused.value, StaleVersion) and str(refused.value)


def test_a_turn_holders_move_on_a_position_another_seat_changed_is_still_stale(offer):
    """Only the offer is keyed to outlive other seats' moves: any change of the position
    changes the turn holder's situation, so his move on the older version is refused."""
    match, users, offerer = offer
    for seat in [s for s in range(3) if s != offerer]:
        match.refresh_from_db()
        services.move_submit(match_id=match.pk, user=users[seat], move={"type": "accept"}, version=match.version)
    match = drive(match, users, until=lambda m: not m.state["steps"] and m.state["turn"] != offerer)
    holder, seen = match.state["turn"], match.version
    before = [p.key for p in GAME.pending(match.state) if p.seat == holder]
    # Another seat leaves the three-player table: the game goes on, the position changed.
    services.match_resign(match_id=match.pk, user=users[next(s for s in range(3) if s != holder)])
    match.refresh_from_db()
    assert match.status == "active" and match.version > seen
    assert [p.key for p in GAME.pending(match.state) if p.seat == holder] != before
    with pytest.raises(StaleVersion):
        services.move_submit(match_id=match.pk, user=users[holder], move={"type": "end_turn"}, version=seen)
