"""Chat that never drops a line: lines are numbered per match and channel under
the match's lock, every socket gets every line (the line travels whole in the push: the
consumer once loaded "the newest line" for each push, so two lines said at once reached a
page as one line twice), a page can fetch what it missed, and a line counts in the
notifications of the players away from the game, once per game."""
import asyncio
import json

import pytest
from channels.db import database_sync_to_async

from games.table import selectors, services
from games.models import ChatMessage, Match, Notification
from tests.platform.wsclient import communicator, next_state, session_cookie


def _unread_chat(user):
    return list(Notification.objects.filter(user=user, kind="chat", read_at__isnull=True))


@pytest.mark.django_db
def test_lines_are_numbered_in_their_own_channel(make_match, make_user):
    match, (alice, bob) = make_match()
    Match.objects.filter(pk=match.pk).update(spectator_chat=True)
    watcher = make_user()
    said = [services.chat_post(match_id=match.pk, user=u, text=t)
            for u, t in ((alice, "Ni!"), (watcher, "Psst."), (bob, "Ekke ekke!"), (watcher, "Run away."))]
    assert [(m.spectators, m.seq) for m in said] == [(False, 1), (True, 1), (False, 2), (True, 2)]
    assert [(line["seq"], line["text"]) for line in selectors.chat_for(match, player=True)] == [
        (1, "Ni!"), (2, "Ekke ekke!")]


@pytest.mark.django_db
def test_the_api_gives_the_lines_after_one_oldest_first_and_a_spectator_its_own_channel(client, make_match,
                                                                                           make_user):
    match, (alice, bob) = make_match()
    Match.objects.filter(pk=match.pk).update(spectator_chat=True)
    watcher = make_user()
    lines = [services.chat_post(match_id=match.pk, user=alice, text=f"line {i}") for i in range(60)]
    services.chat_post(match_id=match.pk, user=watcher, text="from the rail")
    client.force_login(bob)
    url = f"/api/matches/{match.pk}/chat/"
    page = client.get(f"{url}?after={lines[4].pk}").json()["messages"]
    assert [m["seq"] for m in page] == list(range(6, 56))  # the 50 lines after line 5, not the last 50
    assert all(not m["spectators"] for m in page)
    assert "from the rail" not in json.dumps(client.get(f"{url}?after={lines[55].pk}").json())
    client.force_login(watcher)
    rail = client.get(f"{url}?after={lines[59].pk}").json()["messages"]
    assert [(m["text"], m["spectators"], m["seq"]) for m in rail] == [("from the rail", True, 1)]


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_lines_said_at_the_same_moment_are_all_kept_and_numbered_one_after_another(make_match, run_threads):
    match, (alice, bob) = make_match()
    results = run_threads(*[(lambda u, i: lambda: services.chat_post(match_id=match.pk, user=u, text=f"{i}"))(
        (alice, bob)[i % 2], i) for i in range(10)])
    assert not [r for r in results if isinstance(r, Exception)], results
    rows = list(ChatMessage.objects.filter(match=match).order_by("id").values_list("seq", flat=True))
    assert rows == list(range(1, 11))


def test_three_sockets_get_fifty_lines_said_at_once_every_one_in_the_same_order(live_url, transactional_db,
                                                                               django_db_serialized_rollback,
                                                                               make_match, run_threads):
    """Three players' sockets on the test server (uvicorn, its own process, as in production);
    50 lines posted from five threads at once. Each socket gets all 50 lines, once each, in
    the same order, and the lines' numbers follow their ids."""
    import websockets

    match, users = make_match(kind="cupquest", seats=3)
    cookies = [session_cookie(u) for u in users]
    count, posters = 50, 5

    def poster(worker):
        def post_lines():
            for i in range(worker, count, posters):
                services.chat_post(match_id=match.pk, user=users[i % 3], text=f"line {i}")
        return post_lines

    async def collect(ws):
        got = []
        while len(got) < count:
            msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
            if msg["type"] == "chat":
                got.append(msg["message"])
        with pytest.raises(asyncio.TimeoutError):  # nothing twice
            while True:
                if json.loads(await asyncio.wait_for(ws.recv(), timeout=0.5))["type"] == "chat":
                    raise AssertionError("a line came twice")
        return got

    async def scenario():
        sockets = [await websockets.connect(f"{live_url.replace('http', 'ws')}/ws/matches/{match.pk}/", origin=live_url,
                                            additional_headers={"Cookie": f"sessionid={c}"}) for c in cookies]
        for ws in sockets:
            assert json.loads(await asyncio.wait_for(ws.recv(), timeout=10))["type"] == "state"
        posting = asyncio.get_running_loop().run_in_executor(
            None, lambda: run_threads(*[poster(w) for w in range(posters)]))
        received = await asyncio.gather(*(collect(ws) for ws in sockets))
        assert not [r for r in await posting if isinstance(r, Exception)]
        for ws in sockets:
            await ws.close()
        return received

    received = asyncio.run(scenario())
    stored = list(ChatMessage.objects.filter(match=match).order_by("id").values_list("id", "seq"))
    assert [seq for _, seq in stored] == list(range(1, count + 1))
    for lines in received:
        assert sorted(m["id"] for m in lines) == [pk for pk, _ in stored]
        assert [m["id"] for m in lines] == [m["id"] for m in received[0]]


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_chat_line_counts_once_per_game_for_a_player_away_and_not_for_one_on_the_page(make_match, client):
    match, (alice, bob, carol) = make_match(kind="cupquest", seats=3)
    carol_cookie = session_cookie(carol)

    async def scenario():
        ws = communicator(f"/ws/matches/{match.pk}/", carol_cookie)
        assert (await ws.connect())[0]
        await next_state(ws)
        for text in ("Ni!", "Ekke ekke!", "Ptang!"):
            await database_sync_to_async(services.chat_post)(match_id=match.pk, user=alice, text=text)
            while json.loads(await ws.receive_from(timeout=5))["type"] != "chat":
                pass
        await asyncio.sleep(0.3)  # the socket marks the notice read after sending the line
        await ws.disconnect()

    asyncio.run(scenario())
    away = _unread_chat(bob)
    assert len(away) == 1  # one per game, not one per line: the latest line's words
    assert away[0].text == f"{alice.username} in Cup Quest #{match.pk}: \u201cPtang!\u201d"
    assert _unread_chat(carol) == []  # on the page: she read them there
    assert _unread_chat(alice) == []  # her own lines are no news to her
    # Opening the game's page reads the notice.
    client.force_login(bob)
    client.get(f"/games/{match.pk}/")
    assert _unread_chat(bob) == []


@pytest.mark.django_db
def test_a_line_sent_again_with_its_key_is_stored_once(client, make_match, make_user):
    """The page sends a line again when its answer was lost on the way: the key the page
    gave it makes the second sending return the first line, stored once, told once."""
    match, (alice, bob) = make_match()
    first = services.chat_post(match_id=match.pk, user=alice, text="Ni!", key="k-1")
    again = services.chat_post(match_id=match.pk, user=alice, text="Ni!", key="k-1")
    assert again.pk == first.pk and ChatMessage.objects.filter(match=match).count() == 1
    assert len(_unread_chat(bob)) == 1
    # Another player's key is theirs alone; lines without a key are all kept.
    services.chat_post(match_id=match.pk, user=bob, text="Ni!", key="k-1")
    services.chat_post(match_id=match.pk, user=alice, text="Ni!")
    services.chat_post(match_id=match.pk, user=alice, text="Ni!")
    assert ChatMessage.objects.filter(match=match).count() == 4
    # Through the API: the same answer twice.
    client.force_login(alice)
    url = f"/api/matches/{match.pk}/chat/"
    answers = [client.post(url, {"text": "Ekke!", "key": "k-2"}, content_type="application/json") for _ in range(2)]
    assert [a.status_code for a in answers] == [201, 201] and answers[0].json() == answers[1].json()
    assert ChatMessage.objects.filter(match=match, text="Ekke!").count() == 1
