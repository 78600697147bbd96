"""The home page as a new player meets it: an invitation is under "Waiting for you",
and a new account is told what it has and how to start."""
import re

from decks import services as deck_services
from games.table import services


def _section(page: str, testid: str) -> str:
    start = page.index(f'data-testid="{testid}"')
    return page[start:page.index("</section>", start)]


def test_an_invitation_waits_for_me(client, make_user):
    alice, bob = make_user(), make_user()
    match = services.match_create(creator=alice, kind="duel", num_seats=2, invite=[bob.username])
    client.force_login(bob)
    waiting = _section(client.get("/").content.decode(), "my-turn")
    assert f'data-match="{match.pk}"' in waiting and "You are invited" in waiting
    # Once accepted the game is under way and the invitation is gone from the list.
    services.match_join(match_id=match.pk, user=bob)
    waiting = _section(client.get("/").content.decode(), "my-turn")
    assert "You are invited" not in waiting


def test_a_new_account_is_told_what_it_has_and_how_to_start(client, make_user):
    newcomer = make_user()
    deck_services.starter_grant(user=newcomer)
    client.force_login(newcomer)
    welcome = _section(client.get("/").content.decode(), "welcome")
    cards = deck_services.starter_collection_counts()
    assert f"{sum(cards.values())} cards" in welcome
    assert re.search(r"<b>2 decks ready to play</b>", welcome), welcome
    for deck in deck_services.starter_deck_lists():
        assert deck["name"] in welcome
    assert "/games/new/" in welcome and "/lobby/" in welcome


def test_a_player_with_games_is_not_welcomed_again(client, make_match):
    match, (alice, _) = make_match()
    client.force_login(alice)
    assert 'data-testid="welcome"' not in client.get("/").content.decode()
