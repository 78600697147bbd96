"""The stage stamps of socket moves (games/live/move_trace.py, read by bench/move_stages.py): off,
nothing is written; on, a batched move leaves its stages in order and each seat's frame its
build and publication, after the commit."""
import asyncio

import pytest

from games.live import frames, live_moves, move_trace

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def _lines(folder):
    return [line.split() for path in folder.glob("*.txt") for line in path.read_text().splitlines()]


def _play(match, user):
    """Seat 0's move over the socket path, once its frames are published too."""
    for seat in (0, 1):
        frames.listening(frames.seat_group(match.pk, seat))  # both players' pages are open

    async def scenario():
        card = match.state["hands"][0][0]
        answer = await live_moves.move_submit(match_id=match.pk, user=user, move={"type": "play", "card": card},
                                              version=None, key=None)
        await live_moves._committer(match.pk).publishing
        return answer
    return asyncio.run(scenario())


def test_without_a_folder_nothing_is_stamped(make_match, monkeypatch, tmp_path):
    match, (alice, _) = make_match(kind="secret")
    monkeypatch.setattr(move_trace, "FOLDER", None)
    _play(match, alice)
    move_trace.flush()
    assert not move_trace._lines and not list(tmp_path.iterdir())


def test_a_batched_move_stamps_its_stages_in_order_and_its_frames_after_the_commit(make_match, monkeypatch, tmp_path):
    match, (alice, _) = make_match(kind="secret")
    monkeypatch.setattr(move_trace, "FOLDER", str(tmp_path))
    answer = _play(match, alice)
    move_trace.flush()
    lines = _lines(tmp_path)
    moves = [f for f in lines if f[0] == "move"]
    assert [(int(f[1]), int(f[2]), int(f[3])) for f in moves] == [(match.pk, answer["version"], 1)]
    queued, taken, locked, sent, committed = map(float, moves[0][4:])
    assert 0 < queued <= taken <= locked <= sent <= committed
    frames = {f[1]: f for f in lines if f[0] == "frames"}
    assert set(frames) == {f"match-{match.pk}-seat-0", f"match-{match.pk}-seat-1"}
    for f in frames.values():
        built_from, built, publishing = map(float, f[3:])
        assert int(f[2]) == answer["version"]
        assert sent <= built_from <= built <= publishing and committed <= publishing
