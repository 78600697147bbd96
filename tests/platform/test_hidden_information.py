"""A seat sees only what the rules let it see: in HTML, JSON and websocket frames alike.
The 'secret' test game's cards are unmistakable strings, so a leak is a substring."""
import asyncio

import pytest
from channels.db import database_sync_to_async

from games.table import services
from games import registry
from games.models import Notification
from tests.platform.wsclient import communicator, next_state, session_cookie
from tests.secret_game import secrets_of

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def assert_no_secret(text: str, state: dict, seat):
    leaked = [card for card in secrets_of(state, seat) if card in text]
    assert leaked == [], f"seat {seat} can see {leaked}"


def test_html_and_json_never_carry_another_seats_hand(client, make_match, make_user):
    match, users = make_match(kind="secret", seats=3)
    game = registry.get("secret")
    viewers = [(u, i) for i, u in enumerate(users)] + [(make_user(), None)]
    for step in range(6):
        match.refresh_from_db()
        for user, seat in viewers:
            client.force_login(user)
            for url in (f"/games/{match.pk}/", f"/api/matches/{match.pk}/", f"/api/matches/{match.pk}/log/",
                        f"/games/{match.pk}/history/", f"/api/matches/{match.pk}/replay/?step={step}"):
                body = client.get(url).content.decode()
                assert_no_secret(body, match.state, seat)
            if seat is not None:
                own = client.get(f"/api/matches/{match.pk}/").json()["view"]["my_hand"]
                assert own == match.state["hands"][seat]
        seat = game.pending(match.state)[0].seat
        services.move_submit(match_id=match.pk, user=users[seat], move=game.legal_moves(match.state, seat)[0],
                             version=match.version)


def test_websocket_frames_never_carry_another_seats_hand(make_match, make_user):
    match, users = make_match(kind="secret", seats=3)
    game = registry.get("secret")
    watcher = make_user()

    cookies = [(0, session_cookie(users[0])), (1, session_cookie(users[1])), (2, session_cookie(users[2])),
               (None, session_cookie(watcher))]

    async def scenario():
        sockets = []
        for seat, cookie in cookies:
            ws = communicator(f"/ws/matches/{match.pk}/", cookie)
            assert (await ws.connect())[0]
            await next_state(ws)
            sockets.append((seat, ws))
        state = match.state
        version = match.version
        for _ in range(5):
            seat = game.pending(state)[0].seat
            move = game.legal_moves(state, seat)[0]
            await database_sync_to_async(services.move_submit)(match_id=match.pk, user=users[seat], move=move,
                                                               version=version)
            state, _ = game.apply(state, seat, move)
            version += 1
            for viewer, ws in sockets:
                data, raw = await next_state(ws)
                assert data["version"] == version
                assert_no_secret(raw, state, viewer)
                if viewer is not None:
                    assert data["view"]["my_hand"] == state["hands"][viewer]
        for _, ws in sockets:
            await ws.disconnect()

    asyncio.run(scenario())


def test_every_hand_may_be_revealed_in_the_replay_only_once_the_game_is_over(client, make_match, make_user):
    match, users = make_match(kind="secret", seats=3)
    game = registry.get("secret")
    client.force_login(users[0])
    url = f"/api/matches/{match.pk}/replay/?step=0&as=2"
    refused = client.get(url)
    assert refused.status_code == 403 and "over" in refused.json()["error"]["message"]
    for _ in range(2):
        seat = game.pending(match.state)[0].seat
        services.move_submit(match_id=match.pk, user=users[seat], move=game.legal_moves(match.state, seat)[0],
                             version=match.version)
        match.refresh_from_db()
    seat = game.pending(match.state)[0].seat
    services.move_submit(match_id=match.pk, user=users[seat], move={"type": "finish"}, version=match.version)
    match.refresh_from_db()
    assert match.status == "finished"
    from games.table.replay import state_at
    for viewer in (users[0], make_user()):
        client.force_login(viewer)
        for step in (0, 2):
            state, _ = state_at(match, step)
            for seat in range(3):
                frame = client.get(f"/api/matches/{match.pk}/replay/?step={step}&as={seat + 1}").json()
                assert frame["seat"] == seat and frame["view"]["my_hand"] == state["hands"][seat]
    for bad in ("4", "0", "x"):
        response = client.get(f"/api/matches/{match.pk}/replay/?step=0&as={bad}")
        assert response.status_code == 400, bad


# --- a committed game's secret (games/table/commitments.py): out only once the game is over ------

def _game_urls(match_id: int, step: int) -> list[str]:
    return [f"/games/{match_id}/", f"/games/{match_id}/history/", f"/games/{match_id}/replay/",
            f"/games/{match_id}/replay/?at={step}", f"/api/matches/{match_id}/", f"/api/matches/{match_id}/log/",
            f"/api/matches/{match_id}/replay/?step={step}", f"/api/matches/{match_id}/record/",
            f"/api/matches/{match_id}/check/", f"/api/matches/{match_id}/chat/", "/api/matches/", "/",
            "/lobby/", "/notifications/", "/api/notifications/"]


def test_a_committed_games_secret_is_in_no_page_answer_or_log_line_until_it_is_over(client, make_match, make_user,
                                                                                    caplog):
    caplog.set_level("DEBUG")
    match, users = make_match(kind="secret", seats=3, seed=None)
    assert match.commitment and match.seed is not None, "committed, and set up"
    secret = match.secret
    game = registry.get("secret")
    staff = make_user(is_staff=True, is_superuser=True)
    viewers = [*users, make_user(), staff, None]
    for step in range(3):
        match.refresh_from_db()
        for user in viewers:
            if user is None:
                client.logout()
            else:
                client.force_login(user)
            for url in _game_urls(match.pk, step):
                body = client.get(url).content.decode()
                assert secret not in body, (url, user)
                assert str(match.seed) not in body, (url, user)
            if user is staff:  # the admin shows staff the state as the rules hold it, but never the secret
                assert secret not in client.get(f"/admin/games/match/{match.pk}/change/").content.decode()
        seat = game.pending(match.state)[0].seat
        services.chat_post(match_id=match.pk, user=users[seat], text=f"move {step} coming")
        services.move_submit(match_id=match.pk, user=users[seat], move=game.legal_moves(match.state, seat)[0],
                             version=match.version)
    assert secret not in caplog.text and str(match.seed) not in caplog.text
    assert not Notification.objects.filter(text__contains=secret).exists()
    match.refresh_from_db()
    seat = game.pending(match.state)[0].seat
    services.move_submit(match_id=match.pk, user=users[seat], move={"type": "finish"}, version=match.version)
    client.force_login(viewers[3])  # a spectator: once it is over, the secret is out for everyone
    assert client.get(f"/api/matches/{match.pk}/").json()["commitment"]["secret"] == secret
    assert secret in client.get(f"/games/{match.pk}/").content.decode()


def test_a_committed_games_secret_is_in_no_websocket_frame_until_it_is_over(make_match, make_user):
    match, users = make_match(kind="secret", seats=3, seed=None)
    game = registry.get("secret")
    secret, seed = match.secret, str(match.seed)
    cookies = [*(session_cookie(u) for u in users), session_cookie(make_user())]

    async def scenario():
        sockets = []
        for cookie in cookies:
            ws = communicator(f"/ws/matches/{match.pk}/", cookie)
            assert (await ws.connect())[0]
            _, raw = await next_state(ws)
            assert secret not in raw and seed not in raw
            sockets.append(ws)
        state, version = match.state, match.version
        for step in range(4):
            seat = game.pending(state)[0].seat
            move = game.legal_moves(state, seat)[0] if step < 3 else {"type": "finish"}
            await database_sync_to_async(services.move_submit)(match_id=match.pk, user=users[seat], move=move,
                                                               version=version)
            state, _ = game.apply(state, seat, move)
            version += 1
            for ws in sockets:
                _, raw = await next_state(ws)
                assert secret not in raw, "never in a frame, the game's last included"
        for ws in sockets:
            await ws.disconnect()

    asyncio.run(scenario())
