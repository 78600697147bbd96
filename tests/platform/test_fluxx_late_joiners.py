"""Joining a Monty Python Fluxx game under way, through the shell's generic mechanism
(services.match_join on an active game whose rules have ``add_seat``): the page's button,
the new seat dealt in, its turn coming round, the replay from the seed, and every refusal."""
from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from games.table import selectors, services
from games import registry
from grailsite.errors import MoveRejected, ServiceError
from games.models import Match, MoveRecord, Seat
from games.table.replay import JOIN_MOVE, state_at
from games.rules.fluxx.cards import TYPE
from games.rules.rng import Rng
from tests.rules.fluxx.playout import goal_seeking
from tests.conftest import seated_players_moved

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)
GAME = registry.get("fluxx")


@pytest.fixture
def running(make_match, make_user):
    """A three-player game a few moves in: (match, users by seat)."""
    users = [make_user(name) for name in ("arthur", "lancelot", "robin")]
    match, users = make_match(kind="fluxx", seats=3, users=users, seed=31, clock_kind="hours", clock_amount=12)
    return _advance(match, users, 6), users


def _advance(match, users, count, rng=None, until=None):
    """``count`` moves of the goal-seeking player (or until ``until(match)``)."""
    rng = rng or Rng({"seed": 5, "n": 0})
    for _ in range(count):
        if match.status != Match.Status.ACTIVE or (until and until(match)):
            break
        pending = GAME.pending(match.state)
        seat = pending[rng.below(len(pending))].seat
        move = goal_seeking(GAME, match.state, seat, GAME.legal_moves(match.state, seat), rng)
        services.move_submit(match_id=match.pk, user=users[seat], move=move, version=match.version)
        match.refresh_from_db()
    return match


def _replays(match) -> bool:
    out = StringIO()
    call_command("replay_check", match=match.pk, stdout=out)
    return "1 game(s) replayed, 0 mismatch(es)" in out.getvalue()


def test_a_newcomer_joins_from_the_page_is_dealt_in_and_plays_when_the_turn_comes(running, client, make_user):
    match, users = running
    dave = make_user("dave")
    client.force_login(dave)
    page = client.get(f"/games/{match.pk}/").content.decode()
    assert 'data-testid="join-running"' in page and "Join this game" in page
    before = match.move_count
    answer = client.post(f"/games/{match.pk}/join/")
    assert answer.status_code == 302
    match.refresh_from_db()
    seat = Seat.objects.get(match=match, user=dave)
    assert (seat.index, seat.accepted, match.num_seats, len(match.state["active"])) == (3, True, 4, 4)
    # Dealt three cards that are not Creepers (a Creeper dealt goes on the table and is replaced).
    hand, table = match.state["hands"][3], match.state["tables"][3]
    assert len(hand) == 3 and all(TYPE[c] != "creeper" for c in hand) and all(TYPE[c] == "creeper" for c in table)
    record = MoveRecord.objects.get(match=match, seq=before + 1)
    assert (record.move, record.seat, record.user_id) == (JOIN_MOVE, 3, dave.pk)
    seats = selectors.seats_for(match)
    assert "dave joins the game and is dealt 3 cards." in [line["text"] for line in selectors.log_for(match, 0, seats=seats)]
    mine = client.get(f"/api/matches/{match.pk}/").json()
    assert mine["my_seat"] == 3 and mine["view"]["my_hand"] == hand and len(mine["seats"]) == 4
    assert 'data-testid="join-running"' not in client.get(f"/games/{match.pk}/").content.decode()
    client.force_login(users[0])
    theirs = client.get(f"/api/matches/{match.pk}/").json()["view"]
    assert theirs["hand_counts"][3] == 3 and theirs["my_hand"] == match.state["hands"][0]

    # Seated last in the turn order: the turn comes round to dave after robin.
    users = users + [dave]
    match = _advance(match, users, 200, until=lambda m: m.state["turn"]["seat"] == 3)
    assert match.state["turn"]["seat"] == 3
    assert Seat.objects.get(match=match, index=3).waiting_for in ("turn", "discard", "judge", "discard_keepers")
    match = _advance(match, users, 30)
    assert MoveRecord.objects.filter(match=match, seat=3).exclude(move=JOIN_MOVE).exists()
    assert _replays(match)
    # The replay shows the game before dave sat down, and the history says when he did.
    before_join, _ = state_at(match, before)
    assert len(before_join["active"]) == 3


def test_the_api_joins_a_running_game_too(running, client, make_user):
    match, _ = running
    client.force_login(make_user("dave"))
    answer = client.post(f"/api/matches/{match.pk}/join/", {}, content_type="application/json")
    assert answer.status_code == 200
    data = answer.json()
    assert data["my_seat"] == 3 and len(data["view"]["my_hand"]) == 3 and data["status"] == "active"


def test_a_table_that_takes_nobody_once_begun_shows_no_button_and_refuses(make_match, make_user, client):
    match, users = make_match(kind="fluxx", seats=2, seed=8, options={"late_joiners": False})
    dave = make_user("dave")
    client.force_login(dave)
    assert 'data-testid="join-running"' not in client.get(f"/games/{match.pk}/").content.decode()
    with pytest.raises(ServiceError, match="does not take players once the game has begun"):
        services.match_join(match_id=match.pk, user=dave)
    answer = client.post(f"/api/matches/{match.pk}/join/", {}, content_type="application/json")
    assert answer.status_code == 400 and "does not take players" in answer.json()["error"]["message"]
    match.refresh_from_db()
    assert match.num_seats == 2 and Seat.objects.filter(match=match).count() == 2 and match.move_count == 0


def test_a_full_table_a_seated_player_and_a_finished_game_are_refused(make_match, make_user):
    match, users = make_match(kind="fluxx", seats=5, seed=9)
    sixth, seventh = make_user("sixth"), make_user("seventh")
    services.match_join(match_id=match.pk, user=sixth)
    with pytest.raises(ServiceError, match="The table is full."):
        services.match_join(match_id=match.pk, user=seventh)
    with pytest.raises(ServiceError, match="already have a seat"):
        services.match_join(match_id=match.pk, user=users[1])
    match.refresh_from_db()
    assert match.num_seats == 6
    seated_players_moved(match)
    for user in users[1:] + [sixth]:
        services.match_resign(match_id=match.pk, user=user)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    with pytest.raises(ServiceError, match="not waiting for players"):
        services.match_join(match_id=match.pk, user=seventh)
    assert _replays(match)


def test_a_join_cannot_be_sent_as_a_move(running):
    match, users = running
    with pytest.raises(MoveRejected, match="Join a game from its page"):
        services.move_submit(match_id=match.pk, user=users[0], move=dict(JOIN_MOVE), version=match.version)


def test_a_game_without_newcomers_in_its_rules_is_not_joined_once_begun(make_match, make_user, client):
    match, _ = make_match(kind="cupquest", seats=3, seed=88)
    dave = make_user("dave")
    client.force_login(dave)
    assert 'data-testid="join-running"' not in client.get(f"/games/{match.pk}/").content.decode()
    with pytest.raises(ServiceError, match="not waiting for players"):
        services.match_join(match_id=match.pk, user=dave)
