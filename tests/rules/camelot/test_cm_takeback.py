"""Taking back a move (games/rules/takeback.py; docs/rules/camelot.md, "Taking back a move").

A token holder may take back a piece brought on, a movement or a drop, one step at a time
back to the start of the turn or to their declaration, until they strike, ask, end the turn,
or anyone else moves. A declaration of attacks stands once made (edition 4 on; edition 3
let it be taken back too). A take-back restores exactly the state before the move, names the mark
it was sent for (a doubled or stale one is refused), and replays from the log."""
import json

import pytest

from games.rules import takeback
from games.rules.cupquest import CupQuest
from games.rules.rng import Rng

from .helpers import BOARD, GAME, play, put, refused, table
from .playout import seeking


def bare(state):
    return takeback.without_chain(state)


def back(state, seat):
    mark = GAME.takeback_mark(state, seat)
    assert mark is not None, "no take-back offered"
    new, events = GAME.apply(state, seat, {"type": "takeback", "mark": mark})
    assert [e.kind for e in events] == ["takeback"]
    return new


def test_a_move_taken_back_leaves_exactly_the_state_before_it():
    state = table(3, tokens=(0, 1))
    entry = state["entries"][0]
    moved = play(state, 0, {"type": "enter", "piece": "arthur", "to": entry})
    assert moved["units"] and GAME.takeback_mark(moved, 0) is not None
    restored = back(moved, 0)
    assert bare(restored) == bare(state)
    assert GAME.legal_moves(restored, 0) == GAME.legal_moves(state, 0)
    assert GAME.takeback_mark(restored, 0) is None  # nothing before the turn's first move


def _declared_then_moved(edition=None):
    state = table(3, tokens=(0, 1), options={} if edition is None else {"edition": edition})
    put(state, 1, "arthur", "0,2")
    put(state, 0, "lancelot", "0,3")
    states = [state]
    declare = {"type": "declare", "targets": ["s1-arthur-1"]}
    assert declare in GAME.legal_moves(state, 0)
    states.append(play(states[-1], 0, declare))
    states.append(play(states[-1], 0, {"type": "enter", "piece": "arthur", "to": state["entries"][0]}))
    walk = next(m for m in GAME.legal_moves(states[-1], 0) if m["type"] == "move" and m["unit"] == "s0-lancelot-1")
    states.append(play(states[-1], 0, walk))
    return states


def test_a_turn_steps_back_one_move_at_a_time_to_its_declaration_which_stands():
    # SIMULTANEOUS COMBAT: once attacks are declared, the attackers move up and strike
    # straight away: a declaration is not taken back.
    states = _declared_then_moved()
    now = states[-1]
    for earlier in reversed(states[1:-1]):
        now = back(now, 0)
        assert bare(now) == bare(earlier)
    assert now["turns"]["0"]["declared"] == ["s1-arthur-1"]
    assert GAME.takeback_mark(now, 0) is None
    assert "no move to take back" in refused(now, 0, {"type": "takeback", "mark": now["takeback"]["mark"]})
    assert GAME.takeback_mark(states[1], 0) is None  # not even right after declaring


def test_edition_3_stepped_back_through_the_declaration_to_the_turns_start():
    states = _declared_then_moved(edition=3)
    now = states[-1]
    for earlier in reversed(states[:-1]):
        now = back(now, 0)
        assert bare(now) == bare(earlier)
    assert GAME.takeback_mark(now, 0) is None


def test_a_strike_an_ask_and_the_end_of_a_turn_stand():
    state = table(3, tokens=(0, 1))
    put(state, 1, "arthur", "0,2")
    put(state, 0, "lancelot", "0,3")
    put(state, 0, "arthur", "-3,6")
    declared = play(state, 0, {"type": "declare", "targets": ["s1-arthur-1"]})
    moved = play(declared, 0, {"type": "move", "unit": "s0-arthur-1", "to": "-3,5"})
    strike = next(m for m in GAME.legal_moves(moved, 0) if m["type"] == "strike")
    struck = play(moved, 0, strike)
    assert GAME.takeback_mark(struck, 0) is None
    assert "out of date" in refused(struck, 0, {"type": "takeback", "mark": GAME.takeback_mark(moved, 0)})
    assert "no move to take back" in refused(struck, 0, {"type": "takeback", "mark": struck["takeback"]["mark"]})
    ended = play(play(state, 0, {"type": "enter", "piece": "arthur", "to": state["entries"][0]}), 0, {"type": "end_turn"})
    assert GAME.takeback_mark(ended, 0) is None


def test_another_players_move_ends_the_chance_and_nobody_takes_back_for_another():
    state = table(4, tokens=(0, 1))
    mine = play(state, 0, {"type": "enter", "piece": "arthur", "to": state["entries"][0]})
    mark = GAME.takeback_mark(mine, 0)
    assert GAME.takeback_mark(mine, 1) is None and GAME.takeback_mark(mine, None) is None
    assert "no move to take back" in refused(mine, 1, {"type": "takeback", "mark": mark})
    theirs = play(mine, 1, {"type": "enter", "piece": "arthur", "to": state["entries"][1]})
    assert GAME.takeback_mark(theirs, 0) is None
    assert "out of date" in refused(theirs, 0, {"type": "takeback", "mark": mark})
    assert "no move to take back" in refused(theirs, 0, {"type": "takeback", "mark": theirs["takeback"]["mark"]})


@pytest.mark.parametrize("sent", [None, "1", True, 10**12, -1, 0])
def test_a_take_back_names_the_mark_it_was_offered(sent):
    state = table(3, tokens=(0, 1))
    moved = play(state, 0, {"type": "enter", "piece": "arthur", "to": state["entries"][0]})
    move = {"type": "takeback"} if sent is None else {"type": "takeback", "mark": sent}
    assert "names the mark" in refused(moved, 0, move)


def test_the_only_move_of_a_turn_taken_back_twice_is_out_of_date_the_second_time():
    state = table(3, tokens=(0, 1))
    moved = play(state, 0, {"type": "enter", "piece": "arthur", "to": state["entries"][0]})
    doubled = {"type": "takeback", "mark": GAME.takeback_mark(moved, 0)}
    after = play(moved, 0, doubled)
    assert "out of date" in refused(after, 0, doubled)


def test_a_take_back_sent_twice_steps_back_once():
    state = table(3, tokens=(0, 1))
    one = play(state, 0, {"type": "declare", "targets": []})
    two = play(one, 0, {"type": "enter", "piece": "arthur", "to": state["entries"][0]})
    doubled = {"type": "takeback", "mark": GAME.takeback_mark(two, 0)}
    after, _ = GAME.apply(two, 0, doubled)
    assert bare(after) == bare(one)
    assert "out of date" in refused(after, 0, doubled)  # the same click again: still one step back
    assert GAME.takeback_mark(after, 0) is not None     # declaring nobody may still be taken back


def test_merlins_teleport_taken_back_is_his_to_use_again():
    state = table(3, tokens=(0, 1))
    teleport = next(m for m in GAME.legal_moves(state, 0) if m["type"] == "enter" and m.get("teleport"))
    used = play(state, 0, teleport)
    assert not used["spells"][0]["teleport"]
    assert back(used, 0)["spells"][0]["teleport"]


def test_the_log_says_what_was_taken_back_and_the_view_offers_it_to_the_mover_only():
    state = table(3, tokens=(0, 1))
    moved = play(state, 0, {"type": "enter", "piece": "arthur", "to": state["entries"][0]})
    _, events = GAME.apply(moved, 0, {"type": "takeback", "mark": GAME.takeback_mark(moved, 0)})
    assert events[0].text == f"Seat 1 takes back a move (brings Arthur on to {BOARD.hex_name(state['entries'][0])})."
    views = {seat: GAME.view_for(moved, seat) for seat in (0, 1, 2, None)}
    assert views[0]["takeback"] == GAME.takeback_mark(moved, 0)
    assert all(views[s]["takeback"] is None for s in (1, 2, None))
    for view in views.values():
        assert '"before"' not in json.dumps(view)  # the earlier states never leave the server


def test_a_chain_is_bounded_however_many_steps_are_kept():
    state = {"n": 0}
    for n in range(1, takeback.MAX_STEPS + 5):
        new = {"n": n}
        takeback.extend(state, new, 0, {"type": "step", "n": n})
        state = new
    steps = []
    while takeback.mark_for(state, 0) is not None:
        state, undone, _ = takeback.restore(state)
        steps.append(undone["n"])
    assert steps == list(range(takeback.MAX_STEPS + 4, 4, -1))  # the newest MAX_STEPS, newest first


def test_games_without_take_backs_keep_no_chain_and_refuse_one():
    game = CupQuest()
    state = game.setup(3, {}, 5)
    seat = game.pending(state)[0].seat
    state, _ = game.apply(state, seat, game.legal_moves(state, seat)[0])
    assert "takeback" not in state and game.takeback_mark(state, seat) is None
    with pytest.raises(Exception, match="takeback"):
        game.apply(state, game.pending(state)[0].seat, {"type": "takeback", "mark": 1})


def test_random_games_with_take_backs_restore_every_step_and_replay_from_the_log():
    for seed in range(6):
        players = 3 + seed % 4
        state = GAME.setup(players, {"turn_cap": 60, "gold": seed % 2 == 0}, seed)
        rng = Rng({"seed": seed, "n": 0})
        log, chain, taken = [], [], 0  # chain: the states a take-back steps back to, last first
        while GAME.outcome(state) is None:
            pending = GAME.pending(state)
            seat = pending[rng.below(len(pending))].seat
            mark = GAME.takeback_mark(state, seat)
            if mark is not None and rng.below(3) == 0:
                move = {"type": "takeback", "mark": mark}
                new, _ = GAME.apply(state, seat, move)
                assert bare(new) == bare(chain.pop()), "a take-back did not restore the state before"
                taken += 1
            else:
                move = seeking(GAME, state, seat, GAME.legal_moves(state, seat), rng)
                new, _ = GAME.apply(state, seat, move)
                kept = new["takeback"]["before"] is not None
                chain = (chain + [state])[-takeback.MAX_STEPS:] if kept else []
            log.append((seat, move))
            state = new
        assert taken > 5
        replayed = GAME.setup(players, {"turn_cap": 60, "gold": seed % 2 == 0}, seed)
        for seat, move in log:
            replayed, _ = GAME.apply(replayed, seat, move)
        assert json.dumps(replayed, sort_keys=True) == json.dumps(state, sort_keys=True)
        assert json.loads(json.dumps(state)) == state  # the chain is plain data, stored as it is


def test_games_of_earlier_editions_keep_no_chain_so_they_replay_as_they_stored():
    from games.rules.camelot import editions

    assert editions.CURRENT == 4 and editions.takebacks(4) and editions.takebacks(3) and not editions.takebacks(2)
    for edition in (1, 2):
        state = GAME.setup(3, {"edition": edition}, 9)
        rng = Rng({"seed": edition, "n": 0})
        for _ in range(60):
            seat = GAME.pending(state)[0].seat
            state, _ = GAME.apply(state, seat, seeking(GAME, state, seat, GAME.legal_moves(state, seat), rng))
            assert "takeback" not in state and GAME.takeback_mark(state, seat) is None
            assert GAME.view_for(state, seat)["takeback"] is None
        seat = GAME.pending(state)[0].seat
        assert "Unknown move" in refused(state, seat, {"type": "takeback", "mark": 1})
