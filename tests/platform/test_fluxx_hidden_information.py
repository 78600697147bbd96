"""Hidden information in Monty Python Fluxx, over the browser test's whole seeded game: at
every step no seat's JSON, HTML or websocket frame shows a card in another hand, in the draw
pile or drawn for someone else to use — not by id, not by a name it has never been shown —
nor a log line meant for another seat. The out-of-turn discards and the judges' prompts are
in the game, so the decision stack's private prompts are covered too.

Card ids are unmistakable strings ("sir-robin"), so a leak of one is a string in the answer.
A name is checked when the viewer has never been shown that card (everything public on the
table, their own hand, what their events named) and the name is no part of another card's
name ("Sir Robin" is part of "Sir Robin's Minstrels", so a line about the one is no leak of
the other)."""
from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async

from games.table import services
from games.models import MoveRecord
from games.rules.base import Event
from games.rules.fluxx.cards import BY_ID, CURRENT, DECKS, NAME
from tests.browser.test_fluxx_browser import SEED, quotes_set_up, script
from tests.platform.wsclient import communicator, next_state, session_cookie

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)
SCRIPT = script()
# Names that are no part of any other card's name (see the docstring).
# (Among the cards of the deck the game is dealt from: the legacy deck has cards of the same names.)
DEALT = {c: NAME[c] for c in DECKS[CURRENT]}
DISTINCT = {c: n for c, n in DEALT.items() if not any(n in other for d, other in DEALT.items() if d != c)}


def pools(state) -> list[str]:
    return [c for frame in state["effects"] for c in frame.get("pool", ())]


def hidden_from(state, seat) -> set[str]:
    """The cards ``seat`` (None: a spectator) may not see now."""
    hidden = set(state["draw"]) | {c for s, hand in enumerate(state["hands"]) if s != seat for c in hand}
    if seat != state["turn"]["seat"]:
        hidden |= set(pools(state))
    return hidden


def shown_now(state, seat) -> set[str]:
    public = set(state["rules"]) | set(state["goals"]) | set(state["limbo"]) | set(state["discard"])
    public |= {c for table in state["tables"] for c in table}
    if seat is not None:
        public |= set(state["hands"][seat])
        if seat == state["turn"]["seat"]:
            public |= set(pools(state))
    return public


def cards_in(value) -> set[str]:
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return {value} if isinstance(value, str) and value in BY_ID else set()


class Witness:
    """What each viewer has been shown so far, and the log lines only others were shown."""

    def __init__(self, match, viewers):
        self.viewers = viewers
        self.seen = {v: shown_now(match.state, v) for v in viewers}
        self.mine = {v: set() for v in viewers}
        self.theirs = {v: set() for v in viewers}

    def step(self, match):
        record = MoveRecord.objects.get(match=match, seq=match.move_count)
        for v in self.viewers:
            self.seen[v] |= shown_now(match.state, v)
            for raw in record.events:
                event = Event.from_dict(raw)
                if event.visible_to(v):
                    self.seen[v] |= cards_in(event.data)
                    self.mine[v].add(event.text)
                else:
                    self.theirs[v].add(event.text)

    def check(self, text: str, state, viewer, payload: dict | None = None) -> None:
        hidden = hidden_from(state, viewer)
        if payload is not None:
            leaked = cards_in([payload.get("view"), payload.get("legal_moves")]) & hidden
            assert not leaked, f"viewer {viewer} is shown {sorted(leaked)}"
            assert not {"hands", "draw", "rng", "effects"} & set(payload.get("view") or {})
        named = [NAME[c] for c in hidden - self.seen[viewer] if c in DISTINCT and NAME[c] in text]
        assert not named, f"viewer {viewer} reads the names {named}"
        lines = [line for line in self.theirs[viewer] - self.mine[viewer] if line in text]
        assert not lines, f"viewer {viewer} reads another seat's lines {lines}"


@pytest.fixture
def table(make_match, make_user):
    users = [make_user(name) for name in ("arthur", "lancelot", "robin")]
    with quotes_set_up():  # as the script's game
        match, users = make_match(kind="fluxx", seats=3, users=users, seed=SEED)
    return match, users, make_user("watcher")


def test_pages_and_answers_show_each_seat_only_its_own_cards(client, table):
    match, users, watcher = table
    viewers = [(u, i) for i, u in enumerate(users)] + [(watcher, None)]
    witness = Witness(match, [seat for _, seat in viewers])
    checked = 0
    for step, (seat, move) in enumerate(SCRIPT):
        full = step % 5 == 0 or match.state.get("decisions")
        for user, viewer in viewers:
            client.force_login(user)
            body = client.get(f"/api/matches/{match.pk}/").content.decode()
            payload = json.loads(body)
            witness.check(body, match.state, viewer, payload)
            if viewer is not None:
                assert payload["view"]["my_hand"] == match.state["hands"][viewer]
            if full:
                for url in (f"/api/matches/{match.pk}/log/", f"/api/matches/{match.pk}/replay/",
                            f"/games/{match.pk}/", f"/games/{match.pk}/history/"):
                    answer = client.get(url)
                    assert answer.status_code == 200, url
                    witness.check(answer.content.decode(), match.state, viewer)
            checked += 1
        services.move_submit(match_id=match.pk, user=users[seat], move=move, version=match.version)
        match.refresh_from_db()
        witness.step(match)
    assert match.status == "finished" and checked == len(SCRIPT) * 4
    # The checks can fail: a seat's own hand is found in its own answer, by id and by name.
    client.force_login(users[1])
    body = client.get(f"/api/matches/{match.pk}/").content.decode()
    own = match.state["hands"][1]
    assert own and cards_in(json.loads(body)["view"]) >= set(own)
    with pytest.raises(AssertionError, match="is shown"):
        witness.check(body, match.state, 0, json.loads(body))


def test_websocket_frames_show_each_seat_only_its_own_cards(table):
    match, users, watcher = table
    cookies = [(i, session_cookie(u)) for i, u in enumerate(users)] + [(None, session_cookie(watcher))]
    witness = Witness(match, [seat for seat, _ in cookies])

    async def scenario():
        sockets = []
        for seat, cookie in cookies:
            ws = communicator(f"/ws/matches/{match.pk}/", cookie)
            assert (await ws.connect())[0]
            await next_state(ws)
            sockets.append((seat, ws))
        # The first 18 moves: the two out-of-turn discards, a quote and an accent judged by two.
        for seat, move in SCRIPT[:18]:
            await database_sync_to_async(services.move_submit)(match_id=match.pk, user=users[seat], move=move,
                                                               version=match.version)
            await database_sync_to_async(match.refresh_from_db)()
            await database_sync_to_async(witness.step)(match)
            for viewer, ws in sockets:
                data, raw = await next_state(ws)
                assert data["version"] == match.version
                witness.check(raw, match.state, viewer, data)
                if viewer is not None:
                    assert data["view"]["my_hand"] == match.state["hands"][viewer]
        for _, ws in sockets:
            await ws.disconnect()

    asyncio.run(scenario())
