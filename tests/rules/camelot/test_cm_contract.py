"""The rules contract: identity, pure apply, the fast copy, every listed move applies,
refusals with reasons, bounded and cheap legal_moves, words for moves."""
import json
import pickle
import time

import pytest

from games.rules.base import IllegalMove
from games.rules.camelot import Camelot, board_public
from games.rules.camelot.pieces import unit_name
from games.rules.camelot.state_copy import copy_state

from .helpers import GAME, play, put, table
from .playout import play as play_game
from .playout import random_options, uniform


def test_the_game_is_camelot_for_three_to_six_with_simultaneous_seats():
    assert (GAME.kind, GAME.name, GAME.min_players, GAME.max_players) == ("camelot", "Camelot", 3, 6)
    assert Camelot.strict_versions is False


def test_the_board_is_data_and_public():
    board = board_public("standard")
    assert len(board["terrain"]) == 169 and board["radius"] == 7 and board["excalibur"] == "0,0"
    assert set(board["terrain"].values()) == {"grass", "trees", "rocks", "water"}
    assert len(board["item_spaces"]) == 4 and len(board["edge"]) == 42
    with pytest.raises(ValueError):
        board_public("../etc")
    assert "board" in GAME.setup(3, {}, 1) and GAME.setup(3, {}, 1)["board"] == "standard"


def _containers(value, path="state"):
    if isinstance(value, (dict, list)):
        yield path, value
        for k, v in (value.items() if isinstance(value, dict) else enumerate(value)):
            yield from _containers(v, f"{path}/{k}")


def test_the_copy_shares_no_mutable_part_but_the_frozen_parts_of_asks():
    state = table(3, tokens=(0, 1), options={"guardians": True})
    target = put(state, 1, "arthur", "1,0")
    put(state, 0, "arthur", "0,1")
    put(state, 2, "galahad", "3,-1")
    state = play(state, 0, {"type": "declare", "targets": [target]})
    state = play(state, 0, {"type": "ask_ally", "target": target, "seat": 2})
    state["future"] = {"nested": [1, [2]]}
    copy = copy_state(state)
    assert copy == state
    originals = {id(c) for _, c in _containers(state)}
    shared = [p for p, c in _containers(copy) if id(c) in originals]
    assert all(p.startswith("state/decisions/") and any(f in p for f in ("/options", "/pick", "/default", "/data"))
               for p in shared), shared


def test_apply_leaves_its_input_unchanged_and_every_listed_move_applies():
    junk = [{"type": "move", "unit": "nobody", "to": "0,0"}, {"type": "strike"}, {"type": "enter", "piece": "dragon"},
            {"type": "declare", "targets": "all"}, {"type": "decide", "id": -1, "choice": None}, {"type": "fly"},
            {"type": "entry", "hex": "0,0"}, {"type": "drop", "unit": 3}, {"type": "ask_ally", "seat": 9}, "not a move",
            {"type": "move", "unit": ["x"], "to": {"a": 1}}, {"type": "declare", "targets": [["x"]]},
            {"type": "enter", "piece": ["arthur"], "to": "0,0"}, {"type": "strike", "unit": {}, "mode": []},
            {"type": "decide", "id": "1", "choice": "yes"}, {"type": "ask_disengage", "seat": True},
            {"type": "pause", "question": 7}, {"type": "entry", "hex": [0, 0]}]
    checked = {"moves": 0}

    def step(before, state, seat, move, moves, events):
        frozen = pickle.dumps(before)
        for other in moves:
            GAME.apply(before, seat, other)
            checked["moves"] += 1
        assert pickle.dumps(before) == frozen
        for bad in junk:
            if bad in moves:
                continue
            with pytest.raises(IllegalMove) as err:
                GAME.apply(before, seat, bad)
            assert err.value.reason

    for seed in range(3):
        options = dict(random_options(seed), turn_cap=24)
        play_game(GAME, seed, players=3 + seed, options=options, on_step=step)
    assert checked["moves"] > 1000


def test_legal_moves_stay_bounded_and_cheap():
    sizes, seconds, calls = [], 0.0, 0

    def step(before, state, seat, move, moves, events):
        nonlocal seconds, calls
        sizes.append(len(moves))
        if len(sizes) % 7 == 0:
            start = time.perf_counter()
            GAME.legal_moves(before, seat)
            seconds += time.perf_counter() - start
            calls += 1

    for seed in range(4):
        play_game(GAME, seed, players=6, options={"guardians": True, "turn_cap": 120}, on_step=step)
    assert max(sizes) < 1200  # no subset explosion: at most a few hundred, teleports included
    assert seconds / calls < 0.01


def test_words_for_moves():
    state = table(3)
    unit = put(state, 0, "arthur", "0,1")
    assert GAME.describe_move({"type": "move", "unit": unit, "to": "0,0"}, state) == "moves seat 1's Arthur 1 to h8"
    assert GAME.describe_move({"type": "enter", "piece": "merlin", "to": "0,0"}) == "brings Merlin on to h8"
    assert GAME.describe_move({"type": "end_turn", "timed_out": True}) == "ends the turn"
    for kind in ("declare", "drop", "strike", "ask_ally", "ask_disengage", "decide", "pause", "resume", "resign", "entry"):
        assert GAME.describe_move({"type": kind, "seat": 1}, state)


def test_states_are_plain_json_through_a_game():
    state, log = play_game(GAME, 5, players=4, chooser=uniform, options={"turn_cap": 30, "gold": True})
    assert json.loads(json.dumps(state)) == state and log


def test_legal_moves_come_in_the_same_order_in_every_process():
    # Sets of hex keys iterate in a hash-dependent order; the engine never lets that leak
    # into legal_moves, so a seeded player makes the same game under any PYTHONHASHSEED.
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = ("import json\nfrom games.rules.camelot import Camelot\nfrom tests.rules.camelot.playout import play\n"
            "s, log = play(Camelot(), 3, players=5, options={'guardians': True, 'turn_cap': 30})\n"
            "print(json.dumps(log))\n")
    root = Path(__file__).resolve().parents[3]
    logs = {subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True,
                           env={**os.environ, "PYTHONHASHSEED": h}, check=True).stdout for h in ("1", "99")}
    assert len(logs) == 1 and len(json.loads(logs.pop())) > 50


def test_two_units_of_one_kind_are_never_named_alike():
    """A line such as "declares attacks on tim_3's Arthur, tim_3's Arthur" must not happen. Each
    unit is named with the number of its id, and a target with what it carries."""
    state = table(3)
    put(state, 0, "arthur", "0,2")
    put(state, 0, "arthur", "1,1")
    one = put(state, 1, "arthur", "1,0")
    two = put(state, 1, "arthur", "0,1", carry="excalibur")
    merlin = put(state, 1, "merlin", "-1,1")
    after, events = GAME.apply(state, 0, {"type": "declare", "targets": [one, two]})
    said = next(e.text for e in events if e.kind == "declare")
    assert said == "Seat 1 declares attacks on Seat 2's Arthur 1, Seat 2's Arthur 2 carrying Excalibur."
    assert GAME.describe_move({"type": "declare", "targets": [one, two]}, state) == (
        "declares attacks on seat 2's Arthur 1, seat 2's Arthur 2 carrying Excalibur")
    assert unit_name(merlin) == "Seat 2's Merlin" and unit_name("guardian-2") == "Guardian 2"
    # The first edition's asks keep their old words (they are stored in the state).
    assert unit_name(one, numbered=False) == "Seat 2's Arthur"
