"""Hidden information in the CCG, over a whole random three-player game with the starter decks: at every step
no seat's HTML, JSON or websocket frame names a card it may not see — another hand, any
face-down card, any deck (so no deck order either) — nor repeats a log line meant for
another seat. Cards are named by instance id in every payload, so a leak is an id."""
import asyncio
import json
import random

import pytest
from channels.db import database_sync_to_async

from decks import services as deck_services
from decks.models import Deck
from games.table import services
from games.models import MoveRecord
from games.rules.base import Event
from games.rules.ccg.game import with_words
from tests.platform.ccg_helpers import GAME, ensure_card_database
from tests.platform.wsclient import communicator, next_state, session_cookie

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)
MAX_STEPS = 600  # a random three-player game ends well before (it is bounded by the decks)
ID_KEYS = {"id", "card", "iid", "pick", "foe", "lead", "page", "rep", "option"}


def hidden_ids(state, seat, view) -> set[int]:
    """Instance ids ``seat`` must not see now."""
    hidden = set()
    for s, p in enumerate(state["p"]):
        hidden.update(p["deck"])
        if s != seat:
            hidden.update(p["hand"])
        for a in p["england"]:
            hidden.update(entry[0] for entry in a["down"])
    for a in state["avalon"]:
        hidden.update(entry[0] for entry in a["down"])
    # A castle's occupant choice shows the chooser cards of his own deck (docs/rules/ccg.md §15).
    pend = view.get("pending") or {}
    if pend.get("what") == "occupant" and pend.get("seat") == seat:
        hidden -= set(o for o in pend.get("options", []) if o is not None)
    return hidden


def ids_in(data) -> set[int]:
    found = set()
    if isinstance(data, dict):
        for k, v in data.items():
            if k in ID_KEYS and isinstance(v, int) and not isinstance(v, bool):
                found.add(v)
            found |= ids_in(v)
    elif isinstance(data, list):
        for v in data:
            found |= ids_in(v)
    return found


_LINES: dict = {}
# Per match: the events of its records read so far, and the last seq read. Records are
# append-only (games/models.py), so each check reads only the records new since the last.
_EVENTS: dict = {}


def secret_lines(match, seat) -> set[str]:
    """Log lines only other seats were shown (and never this one, word for word)."""
    key = (match.pk, match.move_count, seat)
    if key not in _LINES:
        if len(_LINES) > 100:
            _LINES.clear()
        _LINES[key] = _secret_lines(match, seat)
    return _LINES[key]


def _events(match) -> list[Event]:
    last, events = _EVENTS.get(match.pk, (-1, []))
    for record in MoveRecord.objects.filter(match=match, seq__gt=last).order_by("seq"):
        events.extend(Event.from_dict(raw) for raw in record.events)
        last = record.seq
    _EVENTS[match.pk] = (last, events)
    return events


def _secret_lines(match, seat) -> set[str]:
    mine, theirs = set(), set()
    for event in _events(match):
        (mine if event.visible_to(seat) else theirs).add(event.text)
    return theirs - mine


def assert_clean(payload: dict, text: str, state, seat, match):
    view = payload.get("view") or {}
    # Card ids live in the view and the legal moves (the payload's own "id" is the match's).
    leaked = ids_in([view, payload.get("legal_moves") or []]) & hidden_ids(state, seat, view)
    assert not leaked, f"seat {seat} is shown hidden card(s) {sorted(leaked)}"
    said = [line for line in secret_lines(match, seat) if line in text]
    assert not said, f"seat {seat} reads another seat's log lines {said}"


@pytest.fixture
def table(make_user):
    ensure_card_database()
    users = [make_user(f"knight{i}") for i in range(3)]
    for user in users:   # a database test never reaches the on-commit starter grant of sign-up
        deck_services.starter_grant(user=user)
    decks = [Deck.objects.filter(owner=u).order_by("id").first() for u in users]
    match = services.match_create(creator=users[0], kind="ccg", num_seats=3, invite=[u.username for u in users[1:]],
                                  seed=11, creator_choice={"deck": decks[0].pk})
    for user, deck in zip(users[1:], decks[1:]):
        services.match_join(match_id=match.pk, user=user, choice={"deck": deck.pk})
    match.refresh_from_db()
    return match, users


def random_move(state, rng):
    seat = GAME.pending(state)[0].seat
    return seat, with_words(state, rng.choice(GAME.legal_moves(state, seat)))


def test_pages_json_and_log_show_each_seat_only_its_own_secrets(client, table, make_user):
    """A whole random game: each step one viewer in turn reads the JSON; every few steps
    every viewer reads every page (the replay and history rebuild from the records)."""
    match, users = table
    watcher = make_user("watcher")
    viewers = [(u, i) for i, u in enumerate(users)] + [(watcher, None)]
    rng = random.Random(5)
    steps = 0
    while steps < MAX_STEPS:
        match.refresh_from_db()
        if match.status != "active":
            break
        full = steps % 8 == 0
        for user, seat in (viewers if full else [viewers[steps % len(viewers)]]):
            client.force_login(user)
            urls = [f"/api/matches/{match.pk}/"]
            urls += [f"/api/matches/{match.pk}/log/", f"/api/matches/{match.pk}/replay/"] if full else []
            answers = []
            for url in urls:
                body = client.get(url).content.decode()
                answers.append(json.loads(body))
                assert_clean(answers[-1], body, match.state, seat, match)
            for url in [f"/games/{match.pk}/", f"/games/{match.pk}/history/"] if full else []:
                html = client.get(url).content.decode()
                assert_clean({}, html, match.state, seat, match)
            if seat is not None:
                # The game's JSON read above (nothing moved since) shows the seat its own hand.
                mine = answers[0]["view"]["my_hand"]
                assert [c["id"] for c in mine] == match.state["p"][seat]["hand"]
        seat, move = random_move(match.state, rng)
        services.move_submit(match_id=match.pk, user=users[seat], move=move, version=match.version)
        steps += 1
    assert match.status == "finished" and steps > 30, f"{steps} steps, {match.status}"


def test_websocket_frames_show_each_seat_only_its_own_secrets(table, make_user):
    match, users = table
    watcher = make_user("watcher")
    cookies = [(i, session_cookie(u)) for i, u in enumerate(users)] + [(None, session_cookie(watcher))]
    rng = random.Random(9)

    async def scenario():
        sockets = []
        for seat, cookie in cookies:
            ws = communicator(f"/ws/matches/{match.pk}/", cookie)
            assert (await ws.connect())[0]
            await next_state(ws)
            sockets.append((seat, ws))
        for _ in range(20):
            await database_sync_to_async(match.refresh_from_db)()
            if match.status != "active":
                break
            seat, move = random_move(match.state, rng)
            await database_sync_to_async(services.move_submit)(match_id=match.pk, user=users[seat], move=move,
                                                               version=match.version)
            await database_sync_to_async(match.refresh_from_db)()
            for viewer, ws in sockets:
                data, raw = await next_state(ws)
                while data["version"] < match.version:    # presets or windows may add versions
                    data, raw = await next_state(ws)
                await database_sync_to_async(assert_clean)(data, raw, match.state, viewer, match)
        for _, ws in sockets:
            await ws.disconnect()

    asyncio.run(scenario())
