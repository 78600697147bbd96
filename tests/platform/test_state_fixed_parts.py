"""A state's fixed parts (Game.fixed_keys: the CCG's card definitions, instance codes and
owners) live in the row's ``state_fixed``, written once, not with every move
(games/state_storage.py). Whatever path reads a match gets the whole state; a row written
whole (before this layout, or by a plain UPDATE) still reads as it was written."""
import json

import pytest
from django.db import connection

from games.table import persistence
from games import state_storage
from games.models import Match
from games.table.replay import replay_check
from tests.platform.ccg_helpers import GAME, drive
from tests.platform.ccg_helpers import cards, players  # noqa: F401 (fixtures this module uses)
from tests.platform.ccg_helpers import start_two_player as start

pytestmark = pytest.mark.django_db

FIXED = ("cards", "inst", "own")


def _columns(match_id) -> tuple[dict, dict | None]:
    """What the row's two columns hold, read without the model."""
    with connection.cursor() as cur:
        cur.execute("SELECT state::text, state_fixed::text FROM games_match WHERE id = %s", [match_id])
        state_text, fixed_text = cur.fetchone()
    return json.loads(state_text), (json.loads(fixed_text) if fixed_text is not None else None)


def test_the_ccg_declares_the_parts_its_moves_never_change():
    assert GAME.fixed_keys == FIXED


def test_a_ccg_row_holds_the_fixed_parts_apart_and_every_read_gets_the_whole_state(players):
    match, users = start(players)
    column, fixed = _columns(match.pk)
    assert sorted(fixed) == sorted(FIXED)
    assert not set(FIXED) & set(column)
    assert len(json.dumps(column)) < len(json.dumps(fixed))  # the definitions are most of it

    whole = Match.objects.get(pk=match.pk).state
    assert whole == {**column, **fixed}
    assert replay_check(Match.objects.get(pk=match.pk)) is None
    # Deferred, the state comes with its fixed parts whichever column was left behind.
    assert Match.objects.defer("state", "state_fixed").get(pk=match.pk).state == whole
    assert Match.objects.defer("state").get(pk=match.pk).state == whole


def test_moves_do_not_write_the_fixed_parts_again(players, monkeypatch):
    match, users = start(players)
    written = []
    real = state_storage.fixed_to_write

    def spy(state, keys, stored):
        out = real(state, keys, stored)
        written.append(out is not None)
        return out
    monkeypatch.setattr(state_storage, "fixed_to_write", spy)

    match = drive(match, users, until=lambda m: m.move_count >= 12)
    assert match.move_count >= 12
    assert written and not any(written)  # asked on every write, never rewritten
    column, fixed = _columns(match.pk)
    assert not set(FIXED) & set(column)
    assert replay_check(Match.objects.get(pk=match.pk)) is None


def test_a_row_written_whole_reads_the_same_and_its_next_move_splits_it(players):
    match, users = start(players)
    whole = Match.objects.get(pk=match.pk).state
    with connection.cursor() as cur:  # as a row of the earlier layout: everything in state
        cur.execute("UPDATE games_match SET state = (state::jsonb || state_fixed::jsonb)::json, state_fixed = NULL "
                    "WHERE id = %s", [match.pk])
    persistence.recent.clear()
    assert _columns(match.pk)[1] is None
    assert Match.objects.get(pk=match.pk).state == whole

    match = drive(match, users, until=lambda m: m.move_count >= 2)
    column, fixed = _columns(match.pk)
    assert sorted(fixed) == sorted(FIXED) and not set(FIXED) & set(column)
    assert replay_check(Match.objects.get(pk=match.pk)) is None


def test_the_state_column_wins_over_a_stale_fixed_part(players):
    match, users = start(players)
    whole = Match.objects.get(pk=match.pk).state
    with connection.cursor() as cur:  # a plain UPDATE of the whole state, fixed part left stale
        cur.execute("UPDATE games_match SET state = (state::jsonb || state_fixed::jsonb)::json, "
                    "state_fixed = '{\"cards\": {}, \"own\": []}'::json WHERE id = %s", [match.pk])
    persistence.recent.clear()
    assert Match.objects.get(pk=match.pk).state == whole
    locked, _ = persistence.lock(match.pk)  # the move path's own read
    assert locked.state == whole


def test_the_move_path_reads_both_columns_when_it_no_longer_holds_the_state(players):
    match, users = start(players)
    match = drive(match, users, until=lambda m: m.move_count >= 1)
    whole = Match.objects.get(pk=match.pk).state
    persistence.recent.clear()  # as when another process made the last move
    locked, _ = persistence.lock(match.pk)
    assert locked.state == whole and locked.state_fixed == {k: whole[k] for k in FIXED}


# --- the layout's rules, without a database ----------------------------------------------

def test_fixed_to_write_asks_identity_then_equality():
    cards = {"a": {"name": "A"}}
    state = {"cards": cards, "turn": 1}
    assert state_storage.fixed_to_write(state, ("cards",), None) == {"cards": cards}
    assert state_storage.fixed_to_write(state, ("cards",), {"cards": cards}) is None
    assert state_storage.fixed_to_write(state, ("cards",), {"cards": {"a": {"name": "A"}}}) is None  # equal copy
    assert state_storage.fixed_to_write(state, ("cards",), {"cards": {"a": {"name": "B"}}}) == {"cards": cards}
    assert state_storage.fixed_to_write(state, ("cards", "own"), {"cards": cards, "own": []}) == {"cards": cards}
    assert state_storage.fixed_to_write(state, (), None) is None
    assert state_storage.fixed_to_write(None, ("cards",), None) is None


def test_column_part_drops_only_what_the_fixed_column_holds_alike():
    cards = {"a": 1}
    state = {"cards": cards, "own": [0], "turn": 1}
    assert state_storage.column_part(state, {"cards": cards}) == {"own": [0], "turn": 1}
    assert state == {"cards": cards, "own": [0], "turn": 1}  # left as it was
    assert state_storage.column_part(state, {"cards": {"a": 2}}) is state  # differs: kept whole
    assert state_storage.column_part(state, None) is state


def test_joined_lets_the_state_column_win():
    assert state_storage.joined({"turn": 1}, {"cards": {"a": 1}}) == {"turn": 1, "cards": {"a": 1}}
    assert state_storage.joined({"cards": {"a": 2}}, {"cards": {"a": 1}}) == {"cards": {"a": 2}}
    assert state_storage.joined(None, {"cards": {}}) is None
