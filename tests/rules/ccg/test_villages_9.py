"""Rule 9.1: entering a village draws a grail number on its village table."""
from .helpers import GAME, grail_deck, new_game, pass_window, play, play_ev, set_area


def _enter_village(number):
    s = new_game()
    set_area(s, "E0.0", ["witch-village"], face="down")
    s = play(s, 0, {"type": "move", "to": "E0.0"})
    assert GAME.pending(s)[0].kind == "response"  # the opponents may play before the draw
    grail_deck(s, 0, [number])
    return s


def test_a_high_number_on_the_village_table_draws_a_card():
    s = _enter_village(6)
    hand = len(s["p"][0]["hand"])
    s = pass_window(s)
    assert len(s["p"][0]["hand"]) == hand + 1


def test_a_low_number_costs_a_card():
    s = _enter_village(1)
    hand = len(s["p"][0]["hand"])
    s = pass_window(s)
    assert len(s["p"][0]["hand"]) == hand - 1


def test_the_middle_of_the_table_does_nothing_and_says_so():
    s = _enter_village(4)
    hand = len(s["p"][0]["hand"])
    s, events = play_ev(s, 1, {"type": "pass"})
    s, events = play_ev(s, 0, {"type": "pass"})
    assert len(s["p"][0]["hand"]) == hand
    assert any(e.kind == "village" and e.data["number"] == 4 for e in events)


def test_the_village_table_can_be_switched_off():
    s = new_game(rules_off=["village_table"])
    set_area(s, "E0.0", ["witch-village"], face="down")
    s = play(s, 0, {"type": "move", "to": "E0.0"})
    assert GAME.pending(s)[0].kind == "turn"
