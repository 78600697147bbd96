"""The spectators' channel is never pushed to a player's socket (a real Channels layer on Redis)."""
import asyncio
import json

import pytest
from channels.db import database_sync_to_async

from games.table import services
from games.models import Match
from tests.platform.wsclient import communicator, next_state, session_cookie

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def test_a_spectator_line_reaches_spectators_and_never_a_player(make_match, make_user):
    match, (alice, bob) = make_match()
    Match.objects.filter(pk=match.pk).update(spectator_chat=True)
    watcher, other_watcher = make_user(), make_user()
    bob_cookie, watcher_cookie = session_cookie(bob), session_cookie(other_watcher)

    async def scenario():
        bob_ws = communicator(f"/ws/matches/{match.pk}/", bob_cookie)
        rail_ws = communicator(f"/ws/matches/{match.pk}/", watcher_cookie)
        assert (await bob_ws.connect())[0] and (await rail_ws.connect())[0]
        await next_state(bob_ws)
        await next_state(rail_ws)
        await database_sync_to_async(services.chat_post)(match_id=match.pk, user=watcher, text="Psst: run away.")
        heard = json.loads(await rail_ws.receive_from(timeout=5))
        assert heard["type"] == "chat" and heard["message"]["text"] == "Psst: run away."
        await database_sync_to_async(services.chat_post)(match_id=match.pk, user=alice, text="Ni!")
        # Bob's next message is Alice's line: the spectator's line never came.
        said = json.loads(await bob_ws.receive_from(timeout=5))
        assert said["type"] == "chat" and said["message"]["text"] == "Ni!"
        assert await bob_ws.receive_nothing(timeout=0.3)
        await bob_ws.disconnect()
        await rail_ws.disconnect()

    asyncio.run(scenario())


def test_a_blockers_socket_gets_only_the_place_of_the_blocked_players_line(make_match, make_user):
    """The line reaches the rest of the table whole; the socket of the one who blocked its
    author gets its number alone (so the page sees no gap), neither who nor what."""
    from games.players import profiles

    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match, _ = make_match(kind="fluxx", seats=3, users=[alice, bob, carol])
    profiles.block(user=alice, name="bob")
    alice_cookie, carol_cookie = session_cookie(alice), session_cookie(carol)

    async def scenario():
        alice_ws = communicator(f"/ws/matches/{match.pk}/", alice_cookie)
        carol_ws = communicator(f"/ws/matches/{match.pk}/", carol_cookie)
        assert (await alice_ws.connect())[0] and (await carol_ws.connect())[0]
        await next_state(alice_ws)
        await next_state(carol_ws)
        await database_sync_to_async(services.chat_post)(match_id=match.pk, user=bob, text="Alice smells of elderberries.")
        heard = json.loads(await carol_ws.receive_from(timeout=5))
        assert heard["message"]["user"] == "bob" and heard["message"]["text"] == "Alice smells of elderberries."
        muted = json.loads(await alice_ws.receive_from(timeout=5))
        assert muted["type"] == "chat" and muted["message"]["seq"] == 1 and muted["message"]["muted"]
        assert "elderberries" not in json.dumps(muted) and "bob" not in json.dumps(muted)
        await database_sync_to_async(services.chat_post)(match_id=match.pk, user=carol, text="Ni!")
        said = json.loads(await alice_ws.receive_from(timeout=5))
        assert said["message"]["text"] == "Ni!" and not said["message"]["muted"]
        await alice_ws.disconnect()
        await carol_ws.disconnect()

    asyncio.run(scenario())
