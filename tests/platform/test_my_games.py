"""My games (the home page): every game under way says whose move it is and how long they have
left, the games waiting for my move come first, most urgent first, and "Next game where it's my
move" takes me through them in that order, at a cost in statements that does not grow with
the number of games."""
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Seat

pytestmark = pytest.mark.django_db


def _due_in(match, user, hours):
    """The seat of ``user`` in ``match`` owes its move within ``hours`` (None: no clock)."""
    deadline = None if hours is None else timezone.now() + timedelta(hours=hours)
    Seat.objects.filter(match=match, user=user).update(deadline=deadline)
    return deadline


def _rows(html: str, section: str) -> list[tuple[int, str]]:
    """(game, the to-move text) of each row of a section of the home page."""
    part = html.split(f'data-testid="{section}"')[1].split("</section>")[0]
    return [(int(m), re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", text)).strip())
            for m, text in re.findall(r'data-match="(\d+)".*?<span class="to-move[^"]*" data-testid="to-move">(.*?)</span>',
                                      part, re.S)]


@pytest.fixture
def alices_games(make_match, make_user):
    """Three duels waiting for alice (due in 30 h, in 2 h, with no clock) and one waiting for
    bob (due in 5 h)."""
    alice, bob = make_user("alice"), make_user("bob")
    games = [make_match(users=[alice, make_user()])[0] for _ in range(3)]
    theirs, _ = make_match(users=[bob, alice])
    for match, hours in zip(games, (30, 2, None)):
        _due_in(match, alice, hours)
    _due_in(theirs, bob, 5)
    return alice, games, theirs


def test_the_games_waiting_for_me_come_most_urgent_first_each_with_its_time_left(client, alices_games):
    alice, (later, soon, untimed), theirs = alices_games
    client.force_login(alice)
    html = client.get("/").content.decode()
    mine = _rows(html, "my-turn")
    assert [m for m, _ in mine] == [soon.pk, later.pk, untimed.pk]
    assert mine[0][1].startswith("You: 1 hour") and mine[1][1].startswith("You: 1 day") and mine[2][1] == "You: no clock"
    assert re.search(rf'data-match="{soon.pk}".*?data-deadline="{re.escape(_iso(soon, alice))}"', html, re.S)
    others = _rows(html, "waiting-for-others")
    assert [m for m, _ in others] == [theirs.pk] and others[0][1].startswith("bob: 4 hours")
    assert 'href="/games/next/" data-testid="next-game"' in html


def _iso(match, user) -> str:
    return Seat.objects.get(match=match, user=user).deadline.isoformat()


def test_next_game_goes_through_the_games_waiting_for_me_most_urgent_first(client, alices_games):
    alice, (later, soon, untimed), theirs = alices_games
    client.force_login(alice)

    def next_from(after=None):
        response = client.get("/games/next/" + (f"?after={after}" if after else ""))
        return response["Location"]

    assert next_from() == f"/games/{soon.pk}/"
    assert next_from(soon.pk) == f"/games/{later.pk}/"
    assert next_from(later.pk) == f"/games/{untimed.pk}/"
    assert next_from(untimed.pk) == f"/games/{soon.pk}/"  # round to the first
    assert next_from(theirs.pk) == f"/games/{soon.pk}/"  # from a game waiting for someone else
    assert 'data-testid="next-game"' in client.get(f"/games/{theirs.pk}/").content.decode()
    Seat.objects.filter(user=alice).update(waiting_for="")
    assert next_from(soon.pk) == "/"  # nothing else waits: home, saying so


def test_my_games_cost_the_same_statements_however_many_games(client, make_match, make_user):
    alice = make_user("alice")
    client.force_login(alice)

    def cost():
        with CaptureQueriesContext(connection) as ctx:
            assert client.get("/").status_code == 200
        return len(ctx.captured_queries)

    for _ in range(2):
        make_match(users=[alice, make_user()])
        make_match(users=[make_user(), alice])
    few = cost()
    for _ in range(6):
        make_match(users=[alice, make_user()])
        make_match(users=[make_user(), alice])
    assert cost() == few
