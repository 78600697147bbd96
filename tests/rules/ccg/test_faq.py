"""Every answer of the rulebook's Frequently Asked Questions holds."""
from games.rules.ccg import places
from games.rules.ccg import state as S

from .helpers import (GAME, add_card, join, new_game, listed, place_rt, play, set_area, stack_deck, to_hand)


def test_faq_1_the_opponent_chooses_only_whether_the_primary_applies():
    s = new_game()
    iid = set_area(s, "E0.0", ["french-taunt"], face="down")[0]
    stack_deck(s, 0, ["moor"])
    s = play(s, 0, {"type": "move", "to": "E0.0"})
    assert listed(s, 1) == [{"type": "choose", "option": "apply"}, {"type": "choose", "option": "ignore"}]
    s = play(s, 1, {"type": "choose", "option": "apply"})
    assert [m["stat"] for m in s["mods"]] == ["wits"]  # the primary, never the secondary draw


def test_faq_1_a_page_turned_up_takes_its_adversary_side_automatically():
    s = new_game()
    page = set_area(s, "E0.0", ["page-generic"], face="down")[0]
    s = play(s, 0, {"type": "move", "to": "E0.0"})
    assert GAME.pending(s)[0].kind == "turn"  # nobody is asked
    assert places.blocking_foes(s, 0) == [page]


def test_faq_2_running_into_an_adversary_starts_the_dispute_at_once():
    s = new_game()
    set_area(s, "E0.4", ["black-knight"])
    bk2 = set_area(s, "E0.0", ["vicious-chicken-of-bristol"])[0]
    place_rt(s, 0, "E0.4", came_from="E0.0")
    s = play(s, 0, {"type": "run_away"})
    assert s["p"][0]["pos"] == "E0.0" and s["p"][0]["must"]
    assert places.blocking_foes(s, 0) == [bk2]


def test_faq_3_a_space_may_be_empty():
    s = new_game()
    arthur = s["p"][0]["knights"][0]
    bk = set_area(s, "E0.0", ["vicious-chicken-of-bristol"])[0]
    place_rt(s, 0, "E0.0")
    from .helpers import grail_deck, pass_window, listed
    grail_deck(s, 0, [7])
    grail_deck(s, 1, [0])
    s = play(s, 0, {"type": "fight", "foe": bk, "method": "combat", "lead": arthur})
    s = pass_window(s)
    a = S.area(s, "E0.0")
    assert a["up"] == [] and a["down"] == [] and s["p"][0]["pos"] == "E0.0"


def test_faq_4_a_slain_knights_page_stays_on():
    s = new_game()
    p = s["p"][0]
    patsy = p["pages"][0]["c"]
    S.slay_member(s, 0, p["knights"][0])
    assert [pg["c"] for pg in p["pages"]] == [patsy]


def test_faq_5_items_may_pass_between_pages_within_their_limits():
    s = new_game()
    p = s["p"][0]
    other = add_card(s, "page-generic", 0)
    p["pages"].append({"c": other, "k": [], "i": []})
    sword = add_card(s, "excalibur", 0)
    p["pages"][0]["i"].append(sword)
    assert {"type": "trade_item", "card": sword, "page": other} in listed(s, 0)
    s = play(s, 0, {"type": "trade_item", "card": sword, "page": other})
    assert s["p"][0]["pages"][1]["i"] == [sword]


def test_faq_6_no_adversary_on_a_space_the_opponent_holds_but_a_land_is_fine():
    s = new_game()
    set_area(s, "E1.0", ["moor"], owner=1)
    place_rt(s, 1, "E1.0")
    bk = to_hand(s, 0, "black-knight")
    assert not any(m.get("to") == "E1.0" for m in listed(s, 0) if m.get("card") == bk)
    village = to_hand(s, 0, "witch-village")
    assert any(m.get("to") == "E1.0" and m["face"] == "up" for m in listed(s, 0)
               if m.get("card") == village)


def test_faq_7_no_running_away_from_a_village():
    s = new_game()
    set_area(s, "E0.0", ["witch-village"])
    place_rt(s, 0, "E0.0")
    assert not any(m["type"] == "run_away" for m in listed(s, 0))


def test_faq_8_a_duplicate_turned_up_in_my_england_is_discarded_and_replaced():
    s = new_game()
    join(s, 0, "lancelot")
    dup = set_area(s, "E0.0", ["lancelot"], face="down")[0]
    stack_deck(s, 0, ["moor"])
    s = play(s, 0, {"type": "move", "to": "E0.0"})
    from .helpers import pass_window
    s = pass_window(s)
    assert dup in s["p"][0]["dead"]
    assert [s["inst"][i] for i in S.up_iids(S.area(s, "E0.0"))] == ["moor"]


def test_faq_9_never_the_same_space_as_the_opponent():
    s = new_game()
    for i in range(4):
        set_area(s, f"A.{i}", ["moor"])
    set_area(s, "E0.10", ["moor"])
    place_rt(s, 0, "E0.10")
    place_rt(s, 1, "A.1")
    assert "A.1" not in {m["to"] for m in listed(s, 0) if m["type"] == "move"}


def test_faq_10_never_into_the_opponents_england():
    s = new_game()
    for seat_area in [m["to"] for m in listed(s, 0) if m["type"] == "move"]:
        assert seat_area.startswith("E0.")


def _avalon_runner_beside_the_opponent():
    """Seat 0 faces the Black Knight in Avalon 2, having come from Avalon 1, where seat
    1's Round Table now stands."""
    s = new_game()
    for i in range(4):
        set_area(s, f"A.{i}", ["moor"])
    bk = set_area(s, "A.1", ["black-knight"])[0]
    place_rt(s, 1, "A.0")
    place_rt(s, 0, "A.1", came_from="A.0")
    return s, bk


def test_faq_9_in_avalon_running_away_by_choice_never_joins_the_opponent():
    s, _ = _avalon_runner_beside_the_opponent()
    assert {m.get("to") for m in listed(s, 0) if m["type"] == "run_away"} == {"E0.10", "E0.11"}


def test_faq_9_in_avalon_the_timeout_run_away_never_joins_the_opponent():
    s, _ = _avalon_runner_beside_the_opponent()
    s = play(s, 0, GAME.timeout_move(s, 0))
    assert s["p"][0]["pos"] in ("E0.10", "E0.11") and s["p"][1]["pos"] == "A.0"


def test_faq_9_in_avalon_a_song_that_makes_the_knights_run_never_joins_the_opponent():
    from . import cards_for_tests as T
    from .helpers import grail_deck, pass_window
    s, bk = _avalon_runner_beside_the_opponent()
    run_song = dict(T.SONG, code="run-song", primary=[{"op": "run_away", "who": "opponent"}])
    grail_deck(s, 0, [3])
    stack_deck(s, 1, [run_song])  # seat 1 draws it for the Black Knight: sung at seat 0
    s = play(s, 0, {"type": "fight", "foe": bk, "method": "combat", "lead": s["p"][0]["knights"][0]})
    s = pass_window(s)
    assert s["p"][0]["pos"] in ("E0.10", "E0.11")
