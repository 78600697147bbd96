"""Words, not internals: every kind of wait a game can ask for has a sentence, and
the seats bar and notifications use it ("to discard Keepers down to the Keeper Limit", never
"discard_keepers"); games are listed by the game's name and title, and computer players are
named the same on the home page as in the game."""
from __future__ import annotations

import random
import re

import pytest

from games.table import selectors, services
from games import registry
from games.models import Match, Notification
from tests.platform.ccg_helpers import cards  # noqa: F401 (autouse: the starter set)
from tests.platform.test_wait_clocks import _path_to, _start
from tests.rules.ccg import cards_for_tests as T

GAMES = [("duel", 2, {}), ("cupquest", 3, {}), ("camelot", 4, {}), ("fluxx", 3, {}),
         ("ccg", 2, {"decks": [T.test_deck() for _ in range(2)], "collection_sizes": [100, 99],
                     "double_the_ante": True})]


def _kinds_met(game, players, options, *, games=12, moves=500) -> set[str]:
    """Every kind of wait random play meets in a few games."""
    met = set()
    for seed in range(games):
        state, rng = game.setup(players, options, seed), random.Random(seed)
        for _ in range(moves):
            pending = game.pending(state)
            if game.outcome(state) is not None or not pending:
                break
            met.update(p.kind for p in pending)
            seat = rng.choice(pending).seat
            state, _ = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
    return met


@pytest.mark.parametrize("kind,players,options", GAMES, ids=[g[0] for g in GAMES])
def test_every_wait_a_game_asks_for_has_words(kind, players, options):
    game = registry.get(kind)
    met = _kinds_met(game, players, options)
    assert met - set(game.wait_words) == set(), f"{kind} waits for these without words"
    for words in game.wait_words.values():
        assert "_" not in words and words == words.strip() and words[0].islower(), words


def test_a_kind_without_words_says_act_never_its_identifier():
    assert registry.get("duel").wait_text("some_new_kind") == "act"


@pytest.mark.django_db
def test_the_seat_chip_and_the_notice_say_what_a_keeper_discard_asks(make_user):
    match, users = _start("fluxx", 3, {}, make_user, clock_kind="days", clock_amount=3)
    for seat, move in _path_to(registry.get("fluxx"), match.state, "discard_keepers"):
        services.move_submit(match_id=match.pk, user=users[seat], move=move, version=None)
    match.refresh_from_db()
    seat = next(s for s in match.seats.all() if s.waiting_for == "discard_keepers")
    chip = next(s for s in selectors.match_payload(match, users[0])["seats"] if s["seat"] == seat.index)
    assert chip["waiting"] == "to discard Keepers down to the Keeper Limit"
    # The notice a seat gets when a wait becomes its own (it was not waiting before).
    assert services._your_turn_text(seat, match, "Monty Python Fluxx") == (
        f"You are asked to discard Keepers down to the Keeper Limit in Monty Python Fluxx #{match.pk}.")


@pytest.mark.django_db
def test_a_ccg_cut_notice_is_in_words(make_user):
    match, users = _start("ccg", 2, {}, make_user)
    notice = Notification.objects.get(user=users[0], kind="your_turn")
    assert notice.text == f"You are asked to cut a deck for the ante in Monty Python and the Holy Grail CCG #{match.pk}."


@pytest.mark.django_db
def test_games_against_the_computer_are_listed_by_game_name_and_computers_named_as_in_the_game(client, make_user):
    tim = make_user("tim_3")
    client.force_login(tim)
    client.post("/games/against-the-computer/", {"kind": "camelot"})
    match = Match.objects.get(kind="camelot")
    home = client.get("/").content.decode()
    row = re.search(r'<li class="match-row[^>]*data-match="%d">(.*?)</li>' % match.pk, home, re.S).group(1)
    assert f"<strong>Camelot</strong> #{match.pk}" in row and "against the computer" not in row
    in_game = [s["username"] for s in selectors.match_payload(match, tim)["seats"]]
    assert in_game == ["tim_3", "Computer 2 (Knight)", "Computer 3 (Knight)"]
    # As read: a person's name is a link to their profile, a computer's plain text.
    assert "tim_3, Computer 2 (Knight), Computer 3 (Knight)" in re.sub(r"<[^>]+>", "", row)
    assert '<a class="player" href="/players/tim_3/">tim_3</a>' in row and "/players/Computer" not in row


@pytest.mark.django_db
def test_a_titled_game_is_listed_by_its_game_name_then_its_title(client, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(creator=alice, kind="cupquest", num_seats=2, invite=["bob"], title="Tuesday quest")
    client.force_login(alice)
    assert f"<strong>Cup Quest</strong> #{match.pk} · Tuesday quest" in client.get("/").content.decode()
