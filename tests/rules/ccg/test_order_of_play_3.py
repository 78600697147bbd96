"""Rules 3.x: order of play."""
from games.rules.ccg import state as S

from .helpers import GAME, add_card, end_turn, new_game, place_rt, play, set_area, listed


def test_the_draw_phase_draws_one_card():
    s = new_game()
    before = len(s["p"][1]["hand"])
    s = end_turn(s)
    assert s["turn"] == 1 and len(s["p"][1]["hand"]) == before + 1


def test_a_land_with_a_draw_bonus_adds_cards_to_the_draw_phase():
    s = new_game()
    set_area(s, "E1.0", ["forest-of-ni"])
    place_rt(s, 1, "E1.0")
    before = len(s["p"][1]["hand"])
    s = end_turn(s)
    assert len(s["p"][1]["hand"]) == before + 2


def test_the_take_your_turn_actions_come_in_any_order():
    s = new_game()
    kinds = {m["type"] for m in listed(s, 0)}
    assert {"play", "move", "end_turn"} <= kinds
    s = play(s, 0, {"type": "move", "to": "E0.0"})
    while s["steps"]:  # answer whatever the reveal asks
        pend = GAME.pending(s)[0]
        s = play(s, pend.seat, GAME.timeout_move(s, pend.seat))
    assert any(m["type"] == "play" for m in listed(s, 0))


def test_more_than_seven_cards_must_be_discarded_down_to_seven():
    s = new_game()
    hand = s["p"][0]["hand"]
    while len(hand) < 10:
        hand.append(add_card(s, "moor", 0))
    s = play(s, 0, {"type": "end_turn"})
    assert GAME.pending(s)[0].kind == "balance" and GAME.pending(s)[0].seat == 0
    for _ in range(3):
        s = play(s, 0, GAME.timeout_move(s, 0))
    assert len(s["p"][0]["hand"]) == 7
    assert GAME.pending(s)[0].kind == "turn" and s["turn"] == 1


def test_two_or_fewer_cards_are_topped_up_to_three():
    s = new_game()
    p = s["p"][0]
    p["dead"] += p["hand"][1:]
    del p["hand"][1:]
    s = play(s, 0, {"type": "end_turn"})
    assert len(s["p"][0]["hand"]) == 3


def test_an_adversary_in_the_area_must_be_dealt_with_before_the_turn_ends():
    s = new_game()
    set_area(s, "E0.0", ["black-knight"])
    place_rt(s, 0, "E0.0")
    assert s["p"][0]["must"]
    kinds = {m["type"] for m in listed(s, 0)}
    assert "end_turn" not in kinds and {"fight", "run_away"} <= kinds


def test_the_turn_passes_clockwise_in_a_four_player_game():
    s = new_game(players=4, collection_sizes=[9, 1, 1, 1])
    order = []
    for _ in range(5):
        order.append(s["turn"])
        s = end_turn(s)
    assert order == [0, 1, 2, 3, 0]


def test_the_turn_cap_ends_the_game_in_a_draw():
    s = new_game(turn_cap=10)
    while GAME.outcome(s) is None:
        pend = GAME.pending(s)[0]
        s = play(s, pend.seat, GAME.timeout_move(s, pend.seat))
    out = GAME.outcome(s)
    assert out.draw and "turn cap" in out.reason
    assert S.alive(s) == [0, 1]


def test_timeouts_end_the_turn_or_run_away_when_an_adversary_must_be_faced():
    s = new_game()
    assert GAME.timeout_move(s, 0) == {"type": "end_turn"}
    set_area(s, "E0.0", ["black-knight"])
    place_rt(s, 0, "E0.0")
    move = GAME.timeout_move(s, 0)
    assert move["type"] == "run_away" and move["shout"]
    s = play(s, 0, move)
    assert s["p"][0]["pos"] is None


def test_the_cut_timeout_cuts_in_the_middle():
    s = new_game(cut=False)
    assert GAME.timeout_move(s, 0) == {"type": "cut", "at": len(s["p"][1]["deck"]) // 2}


def test_a_lost_turn_passes_to_the_next_seat_even_when_that_is_seat_one():
    s = new_game(players=3, collection_sizes=[1, 9, 1])  # seat 2 goes first
    s = end_turn(s)  # to seat 3
    s["p"][2]["fx"]["skip"] = 0
    s["p"][1]["fx"]["skip"] = 0
    s = end_turn(s)  # seat 3 -> seat 1
    assert s["turn"] == 0
    s = end_turn(s)
    assert s["turn"] == 1
    s["p"][2]["fx"]["skip"] = 1
    s = end_turn(s)  # seat 3 loses the turn: seat 1 plays next
    assert s["turn"] == 0
