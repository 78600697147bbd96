"""Rules 15.x: searching for the Grail, the draw, losing on an empty deck, cards that end
the game, the ante to the finder, finishing alone."""
from games.rules.ccg import state as S
from games.rules.ccg.game import ante_result

from .helpers import GAME, end_turn, grail_deck, new_game, pass_window, place_rt, play, play_ev, set_area, listed


def _in_avalon(s, seat=0, ref="A.0"):
    set_area(s, ref, ["moor"])
    place_rt(s, seat, ref)


def _search(s, number, seat=0):
    grail_deck(s, seat, [number])
    s = play(s, seat, {"type": "search"})
    return pass_window(s)


def test_a_six_finds_the_grail_and_the_finder_wins_the_ante():
    s = new_game()
    _in_avalon(s)
    s = _search(s, 6)
    out = GAME.outcome(s)
    assert out.winners == (0,) and not out.draw
    res = ante_result(s)
    assert res["status"] == "won" and res["winner"] == 0 and len(res["cards"]) == 2


def test_a_five_fails_and_the_area_may_not_be_searched_again_by_anyone():
    s = new_game()
    _in_avalon(s)
    s = _search(s, 5)
    assert GAME.outcome(s) is None and S.area(s, "A.0")["searched"]
    assert not any(m["type"] == "search" for m in listed(s, 0))


def test_each_failed_search_adds_one_to_the_next_search_by_anyone():
    s = new_game()
    _in_avalon(s)
    s = _search(s, 4)
    s = end_turn(s)
    _in_avalon(s, seat=1, ref="A.1")
    grail_deck(s, 1, [5])
    s, events = play_ev(s, 1, {"type": "search"})
    while s["steps"] and s["steps"][-1]["k"] == "response":  # the window before the draw
        step = s["steps"][-1]
        s, more = play_ev(s, step["order"][step["i"]], {"type": "pass"})
        events += more
    assert GAME.outcome(s).winners == (1,)
    # The line says what the search added to the number drawn: 5, +1 = 6.
    (line,) = [e.text for e in events if e.kind == "search"]
    assert ": 6 (5, +1 for the area of Avalon searched in vain) — the Holy Grail is found!" in line, line


def test_searching_needs_the_area_cleared_of_adversaries():
    s = new_game()
    set_area(s, "A.0", ["black-knight"])
    place_rt(s, 0, "A.0")
    assert not any(m["type"] == "search" for m in listed(s, 0))


def test_every_area_searched_in_vain_is_a_draw_with_the_ante_carried_over():
    s = new_game()
    for i in range(3):
        S.area(s, f"A.{i}")["searched"] = True
    s["failed_searches"] = 0
    _in_avalon(s, ref="A.3")
    s = _search(s, 0)
    out = GAME.outcome(s)
    assert out.draw
    res = ante_result(s)
    assert res["status"] == "carried_over" and len(res["carried_ante"]) == 2


def test_the_rematch_carries_the_ante_and_adds_a_new_card_each():
    s = new_game()
    for i in range(3):
        S.area(s, f"A.{i}")["searched"] = True
    _in_avalon(s, ref="A.3")
    s = _search(s, 0)
    carried = ante_result(s)["carried_ante"]
    s2 = new_game(carried_ante=carried)
    assert len(s2["ante"]) == 4
    assert sorted(s2["own"][i] for i in s2["ante"]) == [0, 0, 1, 1]


def test_a_player_who_must_draw_from_an_empty_deck_loses():
    s = new_game()
    s["p"][1]["dead"] += s["p"][1]["deck"]
    s["p"][1]["deck"] = []
    s = end_turn(s)
    assert s["p"][1]["out"] and s["solo"] == 0 and GAME.outcome(s) is None


def test_a_card_may_end_the_game_early():
    from .helpers import to_hand
    s = new_game()
    iid = to_hand(s, 0, "slaying-of-the-historian")
    s = play(s, 0, {"type": "play", "card": iid, "use": "primary"})
    assert GAME.outcome(s).draw


def test_after_the_opponent_falls_the_survivor_searches_on_alone():
    s = new_game()
    s = GAME.apply(s, 1, {"type": "resign"})[0]
    assert GAME.outcome(s) is None and s["solo"] == 0
    assert {"type": "give_up"} in listed(s, 0)
    s = end_turn(s)
    assert s["turn"] == 0  # her turns follow one another


def test_alone_the_survivor_draws_for_the_adversary_first_then_for_herself():
    s = new_game()
    s = GAME.apply(s, 1, {"type": "resign"})[0]
    arthur = s["p"][0]["knights"][0]
    bk = set_area(s, "E0.0", ["black-knight"])[0]
    place_rt(s, 0, "E0.0")
    grail_deck(s, 0, [7, 1])  # the first drawn (7) is the Black Knight's, then 1 for Arthur
    s, events = GAME.apply(s, 0, {"type": "fight", "foe": bk, "method": "combat", "lead": arthur})
    d = next(e for e in events if e.kind == "dispute")
    assert d.data["foe_total"] == 13 and d.data["lead_total"] == 6


def test_giving_up_ends_the_game_and_returns_the_ante():
    s = new_game()
    s = GAME.apply(s, 1, {"type": "resign"})[0]
    s = play(s, 0, {"type": "give_up"})
    assert GAME.outcome(s).winners == (0,)
    assert ante_result(s)["status"] == "returned"


def test_the_ante_is_won_only_by_finding_the_grail_even_alone():
    s = new_game()
    s = GAME.apply(s, 1, {"type": "resign"})[0]
    _in_avalon(s)
    s = _search(s, 7)
    assert ante_result(s)["status"] == "won" and ante_result(s)["winner"] == 0


def test_alone_the_survivor_may_call_it_a_draw():
    s = new_game()
    s = GAME.apply(s, 1, {"type": "resign"})[0]
    s = play(s, 0, {"type": "call_draw"})
    assert GAME.outcome(s).draw and ante_result(s)["status"] == "returned"


def _last_card_only(s, seat, number):
    """The seat's deck holds one card, whose grail number is ``number``."""
    s["p"][seat]["dead"] += s["p"][seat]["deck"]
    s["p"][seat]["deck"] = []
    grail_deck(s, seat, [number])


def test_a_grail_number_that_takes_the_last_card_ends_the_game_at_once():
    # 15.2: an empty deck loses whatever emptied it: not at his next draw.
    s = new_game()
    arthur = s["p"][0]["knights"][0]
    bk = set_area(s, "E0.0", ["black-knight"])[0]
    place_rt(s, 0, "E0.0")
    _last_card_only(s, 0, 7)
    grail_deck(s, 1, [1])
    s, events = play_ev(s, 0, {"type": "fight", "foe": bk, "method": "combat", "lead": arthur})
    while s["steps"] and s["steps"][-1]["k"] == "response":
        step = s["steps"][-1]
        s, more = play_ev(s, step["order"][step["i"]], {"type": "pass"})
        events += more
    # The number still counted for the dispute it was drawn for ...
    assert bk in s["p"][0]["dead"] and any(e.kind == "dispute" for e in events)
    # ... and the empty deck then ends seat 0's game, before any later draw.
    assert s["p"][0]["out"] and s["solo"] == 1
    assert any(e.kind == "defeat" and "ran out of cards" in e.text for e in events)


def test_a_search_with_the_last_card_that_finds_the_grail_still_wins():
    s = new_game()
    _in_avalon(s)
    _last_card_only(s, 0, 6)
    s = play(s, 0, {"type": "search"})
    s = pass_window(s)
    assert GAME.outcome(s).winners == (0,) and ante_result(s)["status"] == "won"


def test_a_draw_that_empties_the_deck_ends_the_game_at_once():
    s = new_game()
    s["p"][1]["dead"] += s["p"][1]["deck"][1:]
    s["p"][1]["deck"] = s["p"][1]["deck"][:1]
    s = end_turn(s)  # seat 1's draw phase takes his last card
    assert s["p"][1]["out"] and s["solo"] == 0


def test_every_player_out_of_cards_at_once_is_a_draw():
    s = new_game()
    arthur = s["p"][0]["knights"][0]
    bk = set_area(s, "E0.0", ["black-knight"])[0]
    place_rt(s, 0, "E0.0")
    _last_card_only(s, 0, 3)
    _last_card_only(s, 1, 3)
    s = play(s, 0, {"type": "fight", "foe": bk, "method": "combat", "lead": arthur})
    s = pass_window(s)
    assert GAME.outcome(s).draw and ante_result(s)["status"] == "returned"
