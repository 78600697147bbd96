"""Presence (games/live/presence.py): a person's open pages are counted over their own socket in
Redis; the people who follow them are told when they come and go, over the channel layer,
and a new socket learns who is online now. No polling."""
import asyncio
import json

import pytest
from django.core.cache import cache
from django.test import override_settings

from games.live import presence
from games.players import profiles as players
from tests.platform.wsclient import communicator, session_cookie

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


@pytest.fixture(autouse=True)
def clean_counts():
    cache.clear()
    yield
    cache.clear()


async def _frame(ws, timeout=5):
    return json.loads(await ws.receive_from(timeout=timeout))


@override_settings(PRESENCE_GRACE_SECONDS=0.2)
def test_followers_see_a_friend_come_and_go_live(make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    players.follow(user=alice, name="bob")
    alice_cookie, bob_cookie, carol_cookie = session_cookie(alice), session_cookie(bob), session_cookie(carol)

    async def scenario():
        alice_ws = communicator("/ws/presence/", alice_cookie)
        assert (await alice_ws.connect())[0]
        assert await _frame(alice_ws) == {"type": "online", "names": []}
        # bob opens two pages: alice is told once that he came.
        bob_one, bob_two = communicator("/ws/presence/", bob_cookie), communicator("/ws/presence/", bob_cookie)
        assert (await bob_one.connect())[0]
        assert await _frame(alice_ws) == {"type": "presence", "name": "bob", "online": True}
        assert (await bob_two.connect())[0]
        assert await _frame(bob_one) == {"type": "online", "names": []}  # bob follows nobody
        assert await alice_ws.receive_nothing(timeout=0.3)  # his second page is no news
        assert presence.online_among([bob.pk, carol.pk]) == {bob.pk}
        # carol, whom alice does not follow, comes: alice hears nothing of it.
        carol_ws = communicator("/ws/presence/", carol_cookie)
        assert (await carol_ws.connect())[0]
        assert await alice_ws.receive_nothing(timeout=0.3)
        # A second page of alice's learns at once that bob is online.
        alice_two = communicator("/ws/presence/", alice_cookie)
        assert (await alice_two.connect())[0]
        assert await _frame(alice_two) == {"type": "online", "names": ["bob"]}
        # bob closes one page: still online, nothing said; then the other: alice is told.
        await bob_one.disconnect()
        assert await alice_ws.receive_nothing(timeout=0.5)
        await bob_two.disconnect()
        assert await _frame(alice_ws) == {"type": "presence", "name": "bob", "online": False}
        assert await _frame(alice_two) == {"type": "presence", "name": "bob", "online": False}
        assert presence.online_among([bob.pk]) == set()
        for ws in (alice_ws, alice_two, carol_ws):
            await ws.disconnect()

    asyncio.run(scenario())


@override_settings(PRESENCE_GRACE_SECONDS=0.5)
def test_going_from_page_to_page_does_not_flicker_offline(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    players.follow(user=alice, name="bob")
    alice_cookie, bob_cookie = session_cookie(alice), session_cookie(bob)

    async def scenario():
        alice_ws = communicator("/ws/presence/", alice_cookie)
        assert (await alice_ws.connect())[0]
        await _frame(alice_ws)
        page = communicator("/ws/presence/", bob_cookie)
        assert (await page.connect())[0]
        assert (await _frame(alice_ws))["online"] is True
        await page.disconnect()
        next_page = communicator("/ws/presence/", bob_cookie)  # the next page opens within the grace
        assert (await next_page.connect())[0]
        # At most a repeated "online" (the count went 1, 0, 1); never "offline", grace or not.
        if not await alice_ws.receive_nothing(timeout=1.2):
            assert await _frame(alice_ws) == {"type": "presence", "name": "bob", "online": True}
            assert await alice_ws.receive_nothing(timeout=1.0)
        assert presence.online_among([bob.pk]) == {bob.pk}
        await next_page.disconnect()
        await alice_ws.disconnect()

    asyncio.run(scenario())


def test_anonymous_sockets_are_refused_and_counts_expire():
    async def scenario():
        ws = communicator("/ws/presence/")
        assert not (await ws.connect())[0]

    asyncio.run(scenario())
    assert presence.arrive(4242) is True and presence.arrive(4242) is False
    assert presence.leave(4242) is False and presence.leave(4242) is True
    presence.arrive(4343)
    cache.touch("presence:4343", 1)  # a process that died: nobody refreshes its count
    import time
    time.sleep(1.5)
    assert presence.online_among([4343]) == set()


def test_the_page_shows_the_live_count(client, make_user):
    alice = make_user("alice")
    client.force_login(alice)
    html = client.get("/friends/").content.decode()
    assert "js/presence.js" in html and "data-presence-count" in html
    client.logout()
    assert "js/presence.js" not in client.get("/lobby/").content.decode()
