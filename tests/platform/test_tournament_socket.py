"""A tournament page's socket (/ws/tournaments/<id>/): told the version on connect and after
each change, through the real Redis channel layer; an unknown tournament is refused, and the
socket takes no messages."""
import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from games.models import Tournament
from games.tournaments import services
from tests.platform.wsclient import communicator

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def test_the_page_socket_hears_each_change_and_refuses_what_it_should(make_user):
    organiser = make_user("merlin")
    t = services.tournament_create(organiser=organiser, kind="duel", format="swiss", rounds=1, max_players=4)
    arthur = make_user("arthur")

    def join():
        try:
            services.tournament_join(tournament_id=t.pk, user=arthur)
        finally:
            connection.close()  # this worker thread's own connection, not left open

    async def scenario():
        ws = communicator(f"/ws/tournaments/{t.pk}/")
        assert (await ws.connect())[0]
        assert json.loads(await ws.receive_from(timeout=5)) == {"type": "update", "version": 0}
        await database_sync_to_async(join)()
        assert json.loads(await ws.receive_from(timeout=5)) == {"type": "update", "version": 1}
        await ws.send_to(text_data=json.dumps({"type": "ping"}))
        closed = await ws.receive_output(timeout=5)
        assert closed["type"] == "websocket.close" and closed["code"] == 4400
        await ws.disconnect()
        missing = communicator("/ws/tournaments/999999/")
        connected, code = await missing.connect()
        assert not connected and code == 4404
        await missing.disconnect()

    asyncio.run(scenario())
    assert Tournament.objects.get(pk=t.pk).version == 1
