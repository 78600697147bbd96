"""Out-of-turn decisions on the shared decision stack: asked at once, answered in any order,
each with its own pending key and a default for when its time runs out."""
import pytest

from games.rules.fluxx.cards import LEGACY
from games.rules import decisions
from games.rules.base import IllegalMove, Pending

from .helpers import GAME, act, decide, give, open_decision, play, put, rules, table_for
from .playout import play as play_game

# Written for the reconstructed deck, which games stored on it still play (conftest.py).
DECK = LEGACY


def _limit_frame(players=4):
    state = table_for(players=players)
    rules(state, "play-2")
    give(state, 1, "cow", "coconuts", "swallow")
    give(state, 2, "catapult", "shrubbery", "holy-grail")
    give(state, 3, "excalibur", "sir-robin")
    give(state, 0, "hand-limit-1", "trojan-rabbit")
    state, _ = play(state, 0, "hand-limit-1")
    return state


def test_a_limit_asks_every_bound_player_in_one_frame_and_the_turn_waits():
    state = _limit_frame()
    assert GAME.strict_versions is False
    frame = state["decisions"][-1]
    assert len(state["decisions"]) == 1 and sorted(d["seat"] for d in frame) == [1, 2, 3]
    assert [p.seat for p in GAME.pending(state)] == [1, 2, 3]
    assert all(p.kind == "discard" for p in GAME.pending(state))
    assert GAME.legal_moves(state, 0) == []
    with pytest.raises(IllegalMove, match="Waiting for Seat 2, Seat 3, Seat 4"):
        GAME.apply(state, 0, {"type": "play", "card": "trojan-rabbit"})


@pytest.mark.parametrize("order", [(1, 2, 3), (3, 2, 1), (2, 3, 1)])
def test_simultaneous_discards_succeed_in_any_order(order):
    state = _limit_frame()
    answers = {1: ["cow", "swallow"], 2: ["catapult", "holy-grail"], 3: "sir-robin"}
    for seat in order:
        state, _ = decide(state, seat, answers[seat])
    assert state["hands"][1] == ["coconuts"] and state["hands"][2] == ["shrubbery"]
    assert state["hands"][3] == ["excalibur"]
    assert GAME.pending(state) == [Pending(0, "turn", str(state["turn"]["number"]))]


def test_answering_one_decision_leaves_the_others_pending_keys_unchanged():
    state = _limit_frame()
    before = {p.seat: p for p in GAME.pending(state)}
    state, _ = decide(state, 2, ["catapult", "holy-grail"])
    after = {p.seat: p for p in GAME.pending(state)}
    assert set(after) == {1, 3} and after[1] == before[1] and after[3] == before[3]
    # A move seat 4 prepared on the older state is still legal now: the stale guard lets it in.
    mine = decisions.open_for(state, 3)[0]
    state, _ = act(state, 3, {"type": "decide", "id": mine["id"], "choice": "excalibur"})


def test_the_default_discard_keeps_the_first_cards():
    state = _limit_frame()
    for seat in (1, 2, 3):
        state, _ = act(state, seat, GAME.timeout_move(state, seat))
    assert state["hands"][1] == ["cow"] and state["hands"][2] == ["catapult"] and state["hands"][3] == ["excalibur"]


def test_a_decision_cannot_be_answered_twice_nor_by_another_seat():
    state = _limit_frame()
    d = open_decision(state, 1)
    with pytest.raises(IllegalMove):
        GAME.apply(state, 2, {"type": "decide", "id": d["id"], "choice": ["cow", "swallow"]})
    state, _ = decide(state, 1, ["cow", "swallow"])
    with pytest.raises(IllegalMove):
        GAME.apply(state, 1, {"type": "decide", "id": d["id"], "choice": ["coconuts"]})


def test_a_wrong_sized_discard_is_refused_with_a_reason():
    state = _limit_frame()
    d = open_decision(state, 1)
    with pytest.raises(IllegalMove, match="exactly 2"):
        GAME.apply(state, 1, {"type": "decide", "id": d["id"], "choice": ["cow"]})


def test_the_turn_players_own_limits_come_at_the_end_of_the_turn_hand_first():
    state = table_for()
    rules(state, "hand-limit-1", "keeper-limit-2")
    put(state, 0, "cow", "coconuts")
    give(state, 0, "swallow", "catapult", "shrubbery", "holy-grail")
    state, _ = play(state, 0, "swallow")
    assert [(p.seat, p.kind) for p in GAME.pending(state)] == [(0, "discard")]
    state, _ = decide(state, 0, ["catapult", "shrubbery"])
    assert [(p.seat, p.kind) for p in GAME.pending(state)] == [(0, "discard_keepers")]
    state, _ = decide(state, 0, "coconuts")
    assert state["hands"][0] == ["holy-grail"] and sorted(state["tables"][0]) == ["cow", "swallow"]
    assert state["turn"]["seat"] == 1


def test_choices_inside_actions_are_decisions_with_defaults():
    state = table_for()
    put(state, 1, "cow")
    put(state, 2, "coconuts")
    give(state, 0, "steal-a-keeper")
    state, _ = play(state, 0, "steal-a-keeper")
    (pending,) = GAME.pending(state)
    assert pending.seat == 0 and pending.kind == "choose_card"
    state, _ = act(state, 0, GAME.timeout_move(state, 0))
    assert state["tables"][0] == ["cow"]


def test_timeout_of_a_turn_plays_the_first_card_and_ends_a_finished_turn():
    state = table_for()
    give(state, 0, "cow", "coconuts")
    assert GAME.timeout_move(state, 0) == {"type": "play", "card": "cow"}
    state = table_for()
    put(state, 0, "finger-of-god")
    give(state, 0, "cow")
    put(state, 1, "death")
    state, _ = play(state, 0, "cow")  # plays done, but the Finger of God could still smite
    assert GAME.legal_moves(state, 0)[-1] == {"type": "end_turn"}
    assert GAME.timeout_move(state, 0) == {"type": "end_turn"}
    state, _ = act(state, 0, GAME.timeout_move(state, 0))
    assert state["turn"]["seat"] == 1


def test_every_pending_kind_has_a_timeout_move_that_applies():
    kinds = set()

    def step(before, state, seat, move, moves, events):
        for p in GAME.pending(state):
            kinds.add(p.kind)
            GAME.apply(state, p.seat, GAME.timeout_move(state, p.seat))

    for seed in range(12):
        play_game(GAME, seed, players=4, on_step=step, options={"deck": LEGACY})
    assert {"turn", "discard", "judge", "choose_card", "give_card"} <= kinds
