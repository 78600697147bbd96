"""A seat once left stays left: a player who resigned, or ran out of time,
and whose seat a computer player took over, could sit down again at once in a Fluxx game that
takes late joiners, with a new hand. The site has no way to invite someone back into a game,
so they cannot rejoin it: every join door refuses them with the reason, and the page offers
no join button but says why. They may still watch, a private game included."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.table import services
from games.models import Match, Seat
from tests.conftest import seated_players_moved

pytestmark = pytest.mark.django_db


def _table(make_user, *, private: bool) -> tuple[Match, list]:
    """Three at a Fluxx table under way that takes late joiners and hands a left seat to a
    computer (at a resignation, and at the first time-out)."""
    users = [make_user() for _ in range(3)]
    match = services.match_create(creator=users[0], kind="fluxx", num_seats=3, invite=[u.username for u in users[1:]],
                                  seed=11, computer_takeover=True, takeover_after=1, allow_spectators=not private,
                                  options={"late_joiners": True})
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user)
    seated_players_moved(match)
    match.refresh_from_db()
    assert match.status == "active" and match.state["options"]["late_joiners"]
    return match, users


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _assert_cannot_sit_again(match, user):
    client = _client(user)
    before = Match.objects.get(pk=match.pk).num_seats
    got = client.post(f"/api/matches/{match.pk}/join/", "{}", content_type="application/json")
    assert got.status_code == 403, got.content
    assert "a seat once left stays left" in got.json()["error"]["message"]
    page = client.get(f"/games/{match.pk}/")
    assert page.status_code == 200, "they may still watch the game they played"
    html = page.content.decode()
    assert 'data-testid="join"' not in html and 'data-testid="seat-left"' in html
    got = client.post(f"/games/{match.pk}/join/", follow=True)
    assert "a seat once left stays left" in got.content.decode()
    assert not Seat.objects.filter(match=match, user=user).exists()
    assert Match.objects.get(pk=match.pk).num_seats == before


@pytest.mark.parametrize("private", [False, True], ids=["public", "private"])
def test_who_resigned_to_a_computer_cannot_sit_down_again(make_user, private):
    match, (alice, bob, carol) = _table(make_user, private=private)
    services.match_resign(match_id=match.pk, user=carol)
    seat = Seat.objects.get(match=match, index=2)
    assert (seat.user, seat.computer) == (None, "knight")
    _assert_cannot_sit_again(match, carol)
    if not private:
        # The table still takes newcomers: only the one who left is refused.
        stranger = make_user()
        got = _client(stranger).post(f"/api/matches/{match.pk}/join/", "{}", content_type="application/json")
        assert got.status_code == 200 and got.json()["my_seat"] == 3


def test_who_ran_out_of_time_to_a_computer_cannot_sit_down_again(make_user):
    match, users = _table(make_user, private=False)
    late = Seat.objects.filter(match=match).exclude(waiting_for="").first()
    Seat.objects.filter(pk=late.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.deadline_expire(match_id=match.pk, seat_index=late.index)
    seat = Seat.objects.get(pk=late.pk)
    assert (seat.user, seat.computer) == (None, "knight")
    _assert_cannot_sit_again(match, late.user)
