"""No move a player can borrow from the clock: a person's move is applied only as the rules
offer it to their seat (``Game.offered``); the clock's own move goes through the shell's own
path, which no request reaches.

For every kind, the clock's move for the seat to act, marked as the clock's (the
``"timed_out": true`` of Camelot's time-out, which ended a turn without its failed attacks'
cost), sent by that seat's own player over the HTTP API and over the game's websocket, is
refused with the rules' reason (422, or a "refused" frame) and the game is unchanged. Camelot's
own time-out move, ``{"type": "end_turn", "timed_out": true}``, is refused as it stands; in the
other kinds the clock's move unmarked is an ordinary move the player may well make."""
from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games import registry
from games.models import Match, MoveRecord
from games.table import services
from tests.platform.ccg_helpers import cards, players  # noqa: F401 (fixtures this module uses)
from tests.platform.ccg_helpers import start_two_player
from tests.platform.wsclient import communicator, next_state, session_cookie

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

KINDS = ("duel", "cupquest", "fluxx", "camelot", "ccg")
NOT_YOURS = "'timed_out' is not the player's to send: the move is open to you without it."


def _started(kind: str, make_match, players):  # noqa: F811 (the fixture)
    if kind == "ccg":
        return start_two_player(players)
    seats = {"cupquest": 3, "camelot": 3}.get(kind, 2)
    return make_match(kind=kind, seats=seats, clock_kind="days", clock_amount=1)


def _to_act(match) -> int:
    return registry.get(match.kind).pending(match.state)[0].seat


def _through_the_entries(match, users):
    """Camelot: every Entry hex chosen, so a turn is under way (and its time-out move is the
    clock's own end of turn)."""
    game = registry.get("camelot")
    while match.state["phase"] == "entry":
        seat = _to_act(match)
        services.move_submit(match_id=match.pk, user=users[seat], move=game.legal_moves(match.state, seat)[0],
                             version=match.version)
        match.refresh_from_db()
    return match


def _unchanged(match) -> tuple:
    fresh = Match.objects.get(pk=match.pk)
    return fresh.version, fresh.state, MoveRecord.objects.filter(match=match).count()


async def _refused_over_the_socket(match, user, move) -> dict:
    cookie = await database_sync_to_async(session_cookie)(user)
    ws = communicator(f"/ws/matches/{match.pk}/", cookie)
    assert (await ws.connect())[0]
    await next_state(ws, whole=True)
    await ws.send_to(text_data=json.dumps({"type": "move", "move": move, "version": match.version, "key": "clock-1"}))
    while True:
        answer = json.loads(await ws.receive_from(timeout=10))
        if answer["type"] in ("ack", "refused"):
            await ws.disconnect()
            return answer


@pytest.mark.parametrize("kind", KINDS)
def test_the_clocks_move_sent_by_the_seats_player_is_refused(kind, make_match, players):  # noqa: F811
    match, users = _started(kind, make_match, players)
    if kind == "camelot":
        match = _through_the_entries(match, users)
    game = registry.get(kind)
    seat = _to_act(match)
    clock_move = game.timeout_move(match.state, seat)
    marked = {**clock_move, "timed_out": True}
    tries = [marked] + ([clock_move] if kind == "camelot" else [])
    if kind == "camelot":
        assert clock_move == {"type": "end_turn", "timed_out": True}
    before = _unchanged(match)
    client = Client()
    client.force_login(users[seat])
    for move in tries:
        answer = client.post(f"/api/matches/{match.pk}/moves/", {"move": move, "version": match.version},
                             content_type="application/json")
        assert answer.status_code == 422, (kind, move, answer.content)
        assert answer.json()["error"]["code"] == "illegal_move"
        if move is marked and clock_move != marked:
            # Only the clock's mark stands between the move and an offered one: the player is
            # told that field is not theirs, not that the move is closed to them.
            assert answer.json()["error"]["message"] == NOT_YOURS, (kind, answer.content)
        assert _unchanged(match) == before
        refused = asyncio.run(_refused_over_the_socket(match, users[seat], move))
        assert refused["type"] == "refused", (kind, move, refused)
        assert (refused["status"], refused["error"]["code"]) == (422, "illegal_move"), (kind, move, refused)
        assert refused["error"]["message"] == answer.json()["error"]["message"]
        assert _unchanged(match) == before
    # The seat's own ordinary move still goes through: only the clock's mark was refused.
    plain = game.legal_moves(match.state, seat)[0]
    answer = client.post(f"/api/matches/{match.pk}/moves/", {"move": plain, "version": match.version},
                         content_type="application/json")
    assert answer.status_code == 200, answer.content
