"""Asks answered out of turn, pauses, timeouts and resigning."""
from .helpers import GAME, moves_of, play, put, refused, table


def test_asks_are_pending_for_the_asked_seat_and_never_block_the_holders():
    state = table(3, tokens=(0, 1))
    mine = put(state, 0, "arthur", "0,1")
    target = put(state, 1, "arthur", "1,0")
    put(state, 2, "galahad", "3,-1")
    state = play(state, 0, {"type": "declare", "targets": [target]})
    state = play(state, 0, {"type": "ask_ally", "target": target, "seat": 2})
    pend = GAME.pending(state)
    ask = [p for p in pend if p.seat == 2]
    assert len(ask) == 1 and ask[0].kind == "ally"
    assert {p.seat for p in pend if p.kind == "turn"} == {0, 1}
    state = play(state, 1, {"type": "end_turn"})           # the other holder carries on
    state = play(state, 0, {"type": "strike", "unit": mine, "target": target, "mode": "melee"})
    assert [p for p in GAME.pending(state) if p.seat == 2 and p.kind == "ally"] == ask
    assert GAME.timeout_move(state, 2) == {"type": "decide", "id": int(ask[0].key), "choice": []}
    assert "no such question" in refused(state, 1, {"type": "decide", "id": int(ask[0].key), "choice": []})
    assert refused(state, 2, {"type": "decide", "id": int(ask[0].key), "choice": ["s0-arthur-1"]})


def test_timeouts_end_a_turn_answer_a_default_or_take_the_first_entry_space():
    state = GAME.setup(3, {}, 4)
    chooser = GAME.pending(state)[0].seat
    move = GAME.timeout_move(state, chooser)
    assert move == {"type": "entry", "hex": GAME.legal_moves(state, chooser)[0]["hex"]}
    state = table(3)
    assert GAME.timeout_move(state, 0) == {"type": "end_turn", "timed_out": True}
    after = play(state, 0, GAME.timeout_move(state, 0))
    assert 0 not in after["tokens"]


def test_a_pause_stops_every_clock_until_resumed_and_is_limited():
    state = table(3, options={"pauses": 1})
    assert not GAME.clocks_paused(state)
    state = play(state, 2, {"type": "pause", "question": "Does the wood block that shot?"})
    assert GAME.clocks_paused(state) and state["pauses_left"][2] == 0
    assert GAME.view_for(state, None)["paused"] == {"by": 2, "question": "Does the wood block that shot?"}
    assert "paused" in refused(state, 0, {"type": "end_turn"})
    assert GAME.legal_moves(state, 0) == [{"type": "resume"}]
    state = play(state, 1, {"type": "resume"})
    assert not GAME.clocks_paused(state)
    assert "no pauses" in refused(state, 2, {"type": "pause", "question": "again"})
    assert not [m for m in GAME.legal_moves(state, 2) if m["type"] == "pause"]
    assert refused(state, 0, {"type": "pause", "question": "x" * 400})
    assert refused(state, 0, {"type": "resume"})


def test_resigning_clears_the_board_drops_items_skips_the_token_and_the_last_wins():
    state = table(3, tokens=(0, 1))
    put(state, 1, "arthur", "0,0", carry="excalibur")
    put(state, 1, "galahad", "1,0")
    state, _ = GAME.apply(state, 1, {"type": "resign"})
    assert not any(u["seat"] == 1 for u in state["units"].values())
    assert state["items"] == {"0,0": ["excalibur"]}
    assert sorted(state["tokens"]) == [0, 2] and not state["active"][1]
    state = play(state, 0, {"type": "end_turn"})
    assert sorted(state["tokens"]) == [0, 2]  # seat 1 is skipped: seat 0 takes its token back
    assert GAME.legal_moves(state, 1) == [] and refused(state, 1, {"type": "end_turn"})
    state, _ = GAME.apply(state, 2, {"type": "resign"})
    assert GAME.outcome(state).winners == (0,)


def test_resigning_during_entry_skips_the_seat():
    state = GAME.setup(4, {}, 9)
    first = state["order"][0]
    state, _ = GAME.apply(state, first, {"type": "resign"})
    assert GAME.pending(state)[0].seat == state["order"][1]
    assert first not in state["tokens"] and len(state["tokens"]) == 2
    while state["phase"] == "entry":
        seat = GAME.pending(state)[0].seat
        state = play(state, seat, GAME.legal_moves(state, seat)[0])
    assert first not in state["tokens"] and state["entries"][first] is None


def test_an_ally_ask_lapses_when_the_asking_turn_ends():
    state = table(3, tokens=(0, 1))
    target = put(state, 1, "arthur", "1,0")
    put(state, 0, "arthur", "0,1")
    put(state, 2, "galahad", "3,-1")
    state = play(state, 0, {"type": "declare", "targets": [target]})
    state = play(state, 0, {"type": "ask_ally", "target": target, "seat": 2})
    assert moves_of(state, 2, "decide")
    state = play(state, 0, {"type": "end_turn"})
    assert not moves_of(state, 2, "decide") and "decisions" not in state
