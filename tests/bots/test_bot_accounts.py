"""Bot accounts: marked by staff (or asked for), offered only the games they accept, shown as
bots on their profile, and unrated against people (or rated in a pool of their own)."""
from __future__ import annotations

import pytest
from django.test import Client

from games.table import services
from grailsite.accounts.models import Profile
from grailsite.errors import ServiceError


def test_a_bot_is_offered_only_the_games_it_accepts(make_bot, make_user, client):
    alice = make_user()
    bot, key = make_bot(accepts=[{"kind": "duel", "seats": [2, 2], "clocks": ["days"]}])
    with pytest.raises(ServiceError, match="does not accept this game"):
        services.match_create(creator=alice, kind="fluxx", num_seats=2, invite=[bot.username])
    with pytest.raises(ServiceError, match="does not accept this game"):
        services.match_create(creator=alice, kind="duel", num_seats=2, invite=[bot.username], clock_kind="hours",
                              clock_amount=4)
    client.force_login(alice)
    refused = client.post("/api/matches/", {"kind": "fluxx", "seats": 2, "invite": [bot.username]},
                          content_type="application/json")
    assert refused.status_code == 400 and "does not accept" in refused.json()["error"]["message"]
    match = services.match_create(creator=alice, kind="duel", num_seats=2, invite=[bot.username])
    assert match.seats.get(index=1).user == bot
    # A person who is not a bot is invited to anything, as before.
    services.match_create(creator=alice, kind="fluxx", num_seats=2, invite=[make_user().username])


def test_the_profile_says_a_bot_is_one_and_what_it_accepts(make_bot, make_user, client):
    bot, _key = make_bot(accepts=[{"kind": "duel", "seats": [2, 2], "clocks": ["days", "hours"]},
                                  {"kind": "camelot", "seats": [3, 4], "clocks": ["none"]}])
    page = client.get(f"/players/{bot.username}/").content.decode()
    assert 'data-testid="bot-badge"' in page
    assert "Grail Duel, 2 players, days or hours" in page and "Camelot, 3 to 4 players, no clock" in page
    person = make_user()
    assert 'data-testid="bot-badge"' not in client.get(f"/players/{person.username}/").content.decode()


def test_a_bot_declares_what_it_accepts_and_a_person_asks_to_be_a_bot(make_bot, make_user):
    bot, _key = make_bot(accepts=[])
    page = Client()
    page.force_login(bot)
    page.post("/accounts/settings/bot/", {"accepts": "1", "on_duel": "1", "least_duel": "2", "most_duel": "2",
                                          "clock_duel_days": "1", "on_fluxx": "1", "least_fluxx": "2",
                                          "most_fluxx": "4", "clock_fluxx_hours": "1"})
    assert Profile.objects.get(user=bot).bot_accepts == [
        {"kind": "duel", "seats": [2, 2], "clocks": ["days"]}, {"kind": "fluxx", "seats": [2, 4], "clocks": ["hours"]}]
    page.post("/accounts/settings/bot/", {"accepts": "1", "on_duel": "1", "least_duel": "1", "most_duel": "9",
                                          "clock_duel_days": "1"})
    assert len(Profile.objects.get(user=bot).bot_accepts) == 2  # refused: seats out of the game's counts
    person = make_user()
    page.force_login(person)
    page.post("/accounts/settings/bot/", {"request_bot": "1"})
    profile = Profile.objects.get(user=person)
    assert profile.bot_requested and not profile.is_bot  # staff decide


def test_a_bot_plays_unrated_against_people_and_rated_among_bots_in_a_pool(make_bot, make_user, make_match, settings):
    (bot, _), (other, _) = make_bot(), make_bot()
    person = make_user()
    against_person, _ = make_match(users=[person, bot])
    assert not against_person.rated
    among_bots, _ = make_match(users=[bot, other])
    assert not among_bots.rated
    settings.BOT_GAMES_RATED = "pool"
    pool, _ = make_match(users=[bot, other])
    assert pool.rated
    mixed, _ = make_match(users=[person, bot])
    assert not mixed.rated
    people, _ = make_match(users=[person, make_user()])
    assert people.rated


def test_a_bot_is_shown_as_one_in_lists_and_on_the_board(make_bot, make_user, make_match, client):
    from games.templatetags.players import player
    from grailsite.accounts import bots

    bot, _key = make_bot()
    person = make_user()
    bots._memo = (0.0, frozenset())  # this process reads the list now, as after its time is up
    assert "bot-badge" in player(bot.username) and "bot-badge" not in player(person.username)
    match, _ = make_match(users=[person, bot])
    client.force_login(person)
    seats = client.get(f"/api/matches/{match.pk}/").json()["seats"]
    assert [(s["username"], s["bot"]) for s in seats] == [(person.username, False), (bot.username, True)]
    Profile.objects.filter(user=bot).update(is_bot=False)
    bots.refresh()
    assert "bot-badge" not in player(bot.username)
