"""Since your last turn: opening a game shows what happened while its player was
away, built from the per-seat log (games/inbox/recap.py). The leak test uses the test game whose
cards are unmistakable strings (tests/secret_game.py)."""
from __future__ import annotations

import html
import json
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.inbox import recap
from games.table import services
from games.models import MatchVisit, MoveRecord, Seat
from tests.conftest import seated_players_moved

pytestmark = pytest.mark.django_db


def recap_html(client, match) -> str:
    page = client.get(f"/games/{match.pk}/").content.decode()
    found = re.search(r'<section class="card recap".*?</section>', page, re.S)
    return found.group(0) if found else ""


def play_first(match, user, *, field="hands"):
    match.refresh_from_db()
    seat = match.seats.get(user=user).index
    services.move_submit(match_id=match.pk, user=user, move={"type": "play", "card": match.state[field][seat][0]},
                         version=match.version)
    match.refresh_from_db()


def test_a_player_reads_the_moves_made_while_away_once(client, make_match):
    match, (alice, bob) = make_match()
    first = match.seats.get(waiting_for="turn").user
    other = bob if first == alice else alice
    client.force_login(other)
    client.get(f"/games/{match.pk}/")  # looked once
    play_first(match, first)
    card = MoveRecord.objects.get(match=match).move["card"]
    shown = recap_html(client, match)
    assert "While you were away" in shown and "Since you last looked: 1 move." in shown
    assert f"{first.username} lays a {card}." in shown
    assert "draws a card" in shown and "You draw" not in shown  # the other's draw, as the log tells it
    assert recap_html(client, match) == ""  # read: not again


def test_a_recap_never_shows_a_card_the_player_could_not_see_then(client, make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    # The clock plays bob's turns: three time-outs in a row are allowed before a computer
    # would take his seat.
    match = services.match_create(creator=alice, kind="secret", num_seats=3, invite=["bob", "carol"], seed=11,
                                  clock_kind="days", clock_amount=3, takeover_after=5)
    for user in (bob, carol):
        services.match_join(match_id=match.pk, user=user)
    seated_players_moved(match)
    match.refresh_from_db()
    by_seat = {s.index: s.user for s in match.seats.select_related("user")}
    me = match.seats.get(user=bob).index
    client.force_login(bob)
    client.get(f"/games/{match.pk}/")
    seen_by_bob = set(match.state["hands"][me])  # his hand when he last looked
    # Nine moves while bob is away: his own turns are made by the clock (his seat's draws are his
    # to see), the others' by them.
    for _ in range(9):
        match.refresh_from_db()
        turn = match.state["turn"]
        if turn == me:
            Seat.objects.filter(match=match, index=me).update(deadline=timezone.now() - timedelta(seconds=1))
            assert services.deadline_expire(match_id=match.pk, seat_index=me)
        else:
            play_first(match, by_seat[turn])
    match.refresh_from_db()
    shown = recap_html(client, match)
    assert "Since you last looked: 9 moves, 3 made by the clock when time ran out." in shown
    records = list(MoveRecord.objects.filter(match=match).order_by("seq"))
    table = {r.move["card"] for r in records}
    mine = {e["text"].split()[-1].rstrip(".") for r in records for e in r.events
            if e.get("audience") == [me]}
    theirs = {e["text"].split()[-1].rstrip(".") for r in records for e in r.events
              if e.get("audience") and e["audience"] != [me]}
    cards = set(re.findall(r"SECRETCARD-\d{3}", shown))
    assert cards <= table | mine | seen_by_bob, cards - (table | mine | seen_by_bob)
    assert mine <= cards, "bob's own draws (by the clock) are his to read"
    assert not (theirs - table) & cards, "a card another seat drew and still holds"
    hidden_now = set(match.state["deck"]) | {c for i, h in enumerate(match.state["hands"]) if i != me for c in h}
    assert not hidden_now & cards
    assert "bob's time ran out, so the clock" in html.unescape(shown)


def test_chat_lines_and_the_ending_are_in_it_and_my_own_lines_are_not(client, make_match):
    match, (alice, bob) = make_match()
    client.force_login(bob)
    client.get(f"/games/{match.pk}/")
    services.chat_post(match_id=match.pk, user=alice, text="Have at you!")
    services.chat_post(match_id=match.pk, user=bob, text="From another tab")
    seated_players_moved(match)
    services.match_resign(match_id=match.pk, user=alice)
    shown = recap_html(client, match)
    assert "Have at you!" in shown and "From another tab" not in shown
    assert "You won" in shown and "1 chat line" in shown


def test_my_own_move_made_elsewhere_is_not_recapped_to_me(make_match):
    match, (alice, bob) = make_match()
    first = match.seats.get(waiting_for="turn").user
    play_first(match, first)  # by the API, say: no page looked
    seats = list(match.seats.select_related("user"))
    assert recap.recap_for(match, first, seats) is None


def test_a_spectator_has_no_recap(client, make_match, make_user):
    match, (alice, bob) = make_match()
    client.force_login(make_user("watcher"))
    client.get(f"/games/{match.pk}/")
    play_first(match, match.seats.get(waiting_for="turn").user)
    assert recap_html(client, match) == ""
    assert not MatchVisit.objects.filter(user__username="watcher").exists()


def test_a_page_says_how_far_it_showed_the_game(client, make_match, make_user):
    match, (alice, bob) = make_match()
    first = match.seats.get(waiting_for="turn").user
    other = bob if first == alice else alice
    client.force_login(other)
    client.get(f"/games/{match.pk}/")
    play_first(match, first)  # arrives on the open page
    response = client.post(f"/api/matches/{match.pk}/seen/", data=json.dumps({"moves": match.move_count, "chat": 0}),
                           content_type="application/json")
    assert response.status_code == 204
    assert recap_html(client, match) == ""  # the page had shown it
    # Never beyond the game, never back.
    client.post(f"/api/matches/{match.pk}/seen/", data=json.dumps({"moves": 999, "chat": 10**12}),
                content_type="application/json")
    visit = MatchVisit.objects.get(user=other, match=match)
    assert visit.seq == match.move_count and visit.chat_id == 0
    response = client.post(f"/api/matches/{match.pk}/seen/", data=json.dumps({"moves": "x"}),
                           content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_request"


def test_a_private_game_says_nothing_of_itself_to_a_stranger(client, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(creator=alice, kind="duel", num_seats=2, invite=["bob"], allow_spectators=False)
    client.force_login(make_user("stranger"))
    response = client.post(f"/api/matches/{match.pk}/seen/", data=json.dumps({"moves": 0}),
                           content_type="application/json")
    assert response.status_code in (403, 404)
    assert not MatchVisit.objects.exists()


def test_a_timed_out_move_says_so_once_in_the_recap(client, make_match):
    """The clock's own line already says whose time ran out and what it did; the recap adds no
    "(time ran out)" to that line and the game's own line after it (it said it three times)."""
    match, (alice, bob, carol) = make_match(kind="secret", seats=3, clock_kind="minutes", clock_amount=5)
    seated_players_moved(match)
    first = match.seats.get(waiting_for="turn")
    other = next(u for u in (alice, bob, carol) if u != first.user)
    client.force_login(other)
    client.get(f"/games/{match.pk}/")
    Seat.objects.filter(pk=first.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.deadline_expire(match_id=match.pk, seat_index=first.index)
    shown = html.unescape(re.sub(r'title="[^"]*"', "", recap_html(client, match)))  # words read, not hover texts
    assert f"{first.user.username}'s time ran out, so the clock" in shown
    assert shown.count("time ran out") == 2, shown  # that line, and the summary's count of such moves
