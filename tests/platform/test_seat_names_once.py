"""The players' names a change is told in are worked out once per change, not once per
viewer, log line or ending: the frames of one move and a game page with a long log each ask
for every seat's name exactly once (games/table/selectors.py, ``seat_names`` passed down)."""
import pytest

from games.live import frames
from games.table import computers, selectors, services
from games.models import MoveRecord
from games.rules.duel import GrailDuel

pytestmark = pytest.mark.django_db


@pytest.fixture
def counted(monkeypatch):
    """Each time the site works out the names at a table ("all") or one seat's ("one")."""
    calls = []
    whole, single = computers.seat_names, computers.seat_name

    def seat_names(seats):
        calls.append("all")
        return whole(seats)

    def seat_name(seat, seats=None):
        calls.append("one")
        return single(seat, seats)

    monkeypatch.setattr(computers, "seat_names", seat_names)
    monkeypatch.setattr(computers, "seat_name", seat_name)
    return calls


def _finished_duel(make_match):
    match, users = make_match(kind="duel", seats=2, options={"rounds": 6})
    game = GrailDuel()
    while match.move_count < 10:
        seat = game.pending(match.state)[0].seat
        services.move_submit(match_id=match.pk, user=users[seat], move=game.legal_moves(match.state, seat)[0],
                             version=match.version)
        match.refresh_from_db()
    services.match_resign(match_id=match.pk, user=users[0])
    match.refresh_from_db()
    assert match.status == "finished"
    return match, users


def test_the_frames_of_a_change_name_each_seat_once_for_every_viewer(make_match, counted):
    match, users = _finished_duel(make_match)
    seats = selectors.seats_for(match)
    records = list(MoveRecord.objects.filter(match=match).order_by("-seq")[:3])[::-1]
    counted.clear()
    out = frames.frames_for(match, seats, prev=match.version - 3, records=records)
    sent = [message for _, message in out if message["text"]]
    assert len(sent) == 3  # both players and the watchers, each with the ending in names
    assert all(users[1].username in message["text"] for message in sent)
    assert counted == ["all"]


def test_a_game_page_with_a_long_log_names_each_seat_once(make_match, counted):
    match, users = _finished_duel(make_match)
    counted.clear()
    payload = selectors.match_payload(match, users[1])
    assert len(payload["log"]) > 10 and payload["ending"]["headline"] == "You won"
    assert counted == ["all"]
