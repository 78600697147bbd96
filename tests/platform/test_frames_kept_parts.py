"""A page keeps the lasting parts of a view (Game.view_lasting: the CCG's card definitions by
code), so a change frame carries only the names its viewer was not shown at ``prev``, and
says so (``"kept"``); merged into what the page holds, it is the whole view. A frame whose
``prev`` this process did not build is whole (games/live/frames.py)."""
import asyncio

import pytest
from channels.db import database_sync_to_async

from games.live import frames
from games.table import services
from games.live.frames import _Shown
from games.rules.ccg.game import with_words
from tests.platform.ccg_helpers import GAME, ensure_card_database, prepared_player, scripted_move, start_two_player
from tests.platform.wsclient import communicator, next_state, session_cookie

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


@pytest.fixture
def table(make_user):
    ensure_card_database()
    alice, bob = make_user("alice"), make_user("bob")
    return start_two_player(((alice, prepared_player(alice, spare=2)), (bob, prepared_player(bob))), seed=3)


def _move(match, users):
    match.refresh_from_db()
    seat = GAME.pending(match.state)[0].seat
    move = with_words(match.state, scripted_move(match.state, seat, GAME.legal_moves(match.state, seat)))
    services.move_submit(match_id=match.pk, user=users[seat], move=move, version=match.version)
    match.refresh_from_db()
    return match


def test_the_ccg_names_its_card_definitions_as_lasting():
    assert GAME.view_lasting == ("cards",)


def test_a_change_carries_only_new_card_definitions_and_merges_into_the_whole_view(table):
    match, users = table
    cookie = session_cookie(users[0])

    async def scenario():
        ws = communicator(f"/ws/matches/{match.pk}/", cookie)
        assert (await ws.connect())[0]
        page, _ = await next_state(ws, whole=True)
        kept_seen = trimmed_seen = whole_after_clear = False
        for step in range(14):
            cleared = step == 9
            if cleared:  # as if another process had built the last frame
                await database_sync_to_async(frames.shown.clear)()
            m = await database_sync_to_async(_move)(match, users)
            while page["version"] < m.version:  # preset moves may add versions
                change, _ = await next_state(ws)
                if cleared:  # the first frame after: its prev was not built here, so it is whole
                    assert "kept" not in change
                    whole_after_clear, cleared = True, False
                if "kept" in change:
                    kept_seen = True
                    assert change["kept"] == ["cards"]
                    # a card in view whose definition the frame left to the page
                    trimmed_seen |= bool(_codes_in(change["view"]) - set(change["view"]["cards"]))
                    assert not set(change["view"]["cards"]) & set(page["view"]["cards"])  # nothing sent twice
                page = await _applied(page, change)
            whole = await database_sync_to_async(GAME.view_for)(m.state, 0)
            # What the page holds: the whole view, plus definitions of cards it was shown before.
            assert {k: v for k, v in page["view"].items() if k != "cards"} == {k: v for k, v in whole.items() if k != "cards"}
            assert set(whole["cards"]) <= set(page["view"]["cards"])
            assert all(page["view"]["cards"][code] == whole["cards"][code] for code in whole["cards"])
        assert kept_seen and trimmed_seen and whole_after_clear
        await ws.disconnect()

    asyncio.run(scenario())


def _codes_in(data) -> set:
    """The card codes a view names (outside its definitions)."""
    found = set()
    if isinstance(data, dict):
        if isinstance(data.get("code"), str):
            found.add(data["code"])
        for key, value in data.items():
            if key != "cards":
                found |= _codes_in(value)
    elif isinstance(data, list):
        for value in data:
            found |= _codes_in(value)
    return found


async def _applied(page: dict, change: dict) -> dict:
    """What static/js/match.js's applyChange does with a change that follows the page."""
    assert change["prev"] == page["version"]
    view = dict(change["view"])
    for key in change.get("kept", []):
        view[key] = {**page["view"].get(key, {}), **view[key]}
    return {**page, **change, "view": view}


def test_a_frame_is_whole_unless_the_previous_one_was_built_here_for_that_version():
    shown = _Shown(size=2)
    first = {"view": {"cards": {"a": 1, "b": 2}, "turn": 0}}
    assert shown.trimmed(7, 0, 5, 4, first, ("cards",)) is first  # nothing built before
    second = {"view": {"cards": {"a": 1, "c": 3}, "turn": 1}}
    out = shown.trimmed(7, 0, 6, 5, second, ("cards",))
    assert out == {"view": {"cards": {"c": 3}, "turn": 1}, "kept": ["cards"]}
    assert second == {"view": {"cards": {"a": 1, "c": 3}, "turn": 1}}  # left as it was
    # Version 7 built on top of 5 (a version this process never built a frame of): whole.
    third = {"view": {"cards": {"a": 1}, "turn": 2}}
    assert shown.trimmed(7, 0, 8, 7, third, ("cards",)) is third
    # Another seat's frames are its own.
    assert shown.trimmed(7, 1, 8, 7, third, ("cards",)) is third
    # Bounded: the oldest viewers are forgotten.
    shown.trimmed(8, 0, 1, 0, third, ("cards",))
    assert shown.trimmed(7, 0, 9, 8, third, ("cards",)) is third
