"""What a finished rated game says of the ratings (games/table/selectors.py ``rating_lines``):
each player's change, lichess-style ("+12"), with the provisional mark explained, on the
game's page and API, in the frames of the end, and on the history page, at a cost that does
not grow with the table; the leaderboard lists provisional players, marked."""
import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.live import frames
from games.models import Rating, RatingChange
from games.players import ratings
from games.table import services
from tests.podium_game import everyone_moves

pytestmark = pytest.mark.django_db


def _end(match, creator, winners):
    everyone_moves(match)
    services.move_submit(match_id=match.pk, user=creator, move={"type": "end", "winners": winners, "draw": False}, version=None)


def test_the_ending_says_each_players_rating_change(client, make_match):
    match, (alice, bob) = make_match(kind="podium")
    _end(match, alice, [1])
    client.force_login(alice)
    ending = client.get(f"/api/matches/{match.pk}/").json()["ending"]
    lines = {line["name"]: line for line in ending["ratings"]}
    for user in (alice, bob):
        change = RatingChange.objects.get(match=match, user=user)
        line = lines[user.username]
        assert line["before"] == round(change.display_before) and line["after"] == round(change.display_after)
        assert line["change"] == line["after"] - line["before"] and line["provisional"]
    won, lost = lines[bob.username], lines[alice.username]
    assert won["shown"] == f"+{won['change']}" and won["change"] > 0
    assert lost["shown"] == f"−{-lost['change']}" and lost["change"] < 0
    assert ending["rating_note"] is None
    history = client.get(reverse("match_history", args=[match.pk])).content.decode()
    assert re.search(rf'data-testid="rating-change-1">{bob.username} \d+<abbr title="Provisional: fewer than 10 rated games[^"]*">'
                     r'\?</abbr> <b>\+\d+</b>', history)
    # An unrated game says nothing of ratings.
    unrated, (carol, dave) = make_match(kind="podium", rated=False)
    _end(unrated, carol, [0])
    client.force_login(carol)
    assert client.get(f"/api/matches/{unrated.pk}/").json()["ending"]["ratings"] == []


def test_the_frames_of_the_end_carry_the_changes_without_a_query(make_match, monkeypatch,
                                                                 django_capture_on_commit_callbacks):
    match, (alice, bob) = make_match(kind="podium")
    everyone_moves(match)
    built = []
    real = frames.frames_for

    def spy(m, seats, **kw):
        with CaptureQueriesContext(connection) as ctx:
            out = real(m, seats, **kw)
        built.append((out, len(ctx.captured_queries)))
        return out

    monkeypatch.setattr(frames, "frames_for", spy)
    monkeypatch.setattr(frames, "_unheard", {})  # every seat listens: frames, not nudges
    with django_capture_on_commit_callbacks(execute=True):
        services.move_submit(match_id=match.pk, user=alice, move={"type": "end", "winners": [0], "draw": False}, version=None)
    messages, queries = built[-1]
    assert queries == 0
    frame = json.loads(next(m["text"] for group, m in messages if group == frames.seat_group(match.pk, 1)))
    lines = {line["name"]: line for line in frame["data"]["ending"]["ratings"]}
    assert lines[alice.username]["shown"].startswith("+") and lines[bob.username]["shown"].startswith("−")


def test_the_game_page_costs_the_same_for_a_rated_end_of_two_or_of_six(client, make_match, make_user):
    def cost(match, viewer):
        client.force_login(viewer)
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(f"/api/matches/{match.pk}/").status_code == 200
            assert client.get(reverse("match_history", args=[match.pk])).status_code == 200
        return len(ctx.captured_queries)

    two, (a, _) = make_match(kind="podium", seats=2)
    _end(two, a, [0])
    six, (b, *_) = make_match(kind="podium", seats=6)
    _end(six, b, [2])
    assert len(RatingChange.objects.filter(match=six)) == 6
    assert cost(two, a) == cost(six, b)


def test_the_leaderboard_lists_provisional_players_marked_and_says_what_that_means(client, make_user):
    established, newcomer, nobody = make_user("established"), make_user("newcomer"), make_user("nobody")
    Rating.objects.create(user=established, kind="podium", mu=30, sigma=2, display=ratings.display(30, 2),
                          games=ratings.PROVISIONAL_GAMES)
    Rating.objects.create(user=newcomer, kind="podium", mu=40, sigma=5, display=ratings.display(40, 5), games=3)
    Rating.objects.create(user=nobody, kind="podium", mu=25, sigma=25 / 3, display=ratings.NEW_DISPLAY, games=0)
    page = client.get(reverse("leaderboard", args=["podium"])).content.decode()
    board = page.split('data-testid="leaderboard"')[1].split("</table>")[0]
    assert 'data-player="established"' in board and "newcomer" not in board
    provisional = page.split('data-testid="provisional-board"')[1].split("</table>")[0]
    assert 'data-provisional="newcomer"' in provisional and "nobody" not in provisional
    assert re.search(r'<abbr title="Provisional: fewer than 10 rated games">\?</abbr>', provisional)
    assert "fewer than\n    10 rated games of this game" in page.split('data-testid="provisional-meaning"')[1]


@pytest.mark.parametrize("kind,many", [("camelot", True), ("duel", False)])
def test_every_rules_page_says_what_counts_for_ratings(client, kind, many):
    page = client.get(f"/rules/{kind}/").content.decode()
    words = page.split('data-testid="rules-ratings"')[1].split("</li>")[0]
    assert reverse("leaderboard", args=[kind]) in words
    assert "made a move of their own" in words and "a few times a day" in words
    # Leaving a game that goes on only means something with three or more (the time rules
    # beside it say where a leaver ranks).
    assert ("leaving a game that goes on" in words) is many
    time_rules = page.split('data-testid="rules-time"')[1].split("</section>")[0]
    assert ("ranks below everyone who played the game out" in time_rules) is many
