from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.table import services
from games import registry
from games.models import Match


def test_every_stored_game_replays_to_its_snapshot(make_match):
    match, users = make_match(kind="secret")
    game = registry.get("secret")
    for _ in range(5):
        seat = game.pending(match.state)[0].seat
        services.move_submit(match_id=match.pk, user=users[seat], move=game.legal_moves(match.state, seat)[0],
                             version=match.version)
        match.refresh_from_db()
    out = StringIO()
    call_command("replay_check", stdout=out)
    assert "1 game(s) replayed, 0 mismatch(es)" in out.getvalue()


def test_a_tampered_snapshot_is_reported(make_match):
    match, _ = make_match(kind="secret")
    state = dict(match.state, table=["forged"])
    Match.objects.filter(pk=match.pk).update(state=state)
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("replay_check", stdout=out)
    assert f"game {match.pk}" in out.getvalue() and "table" in out.getvalue()
