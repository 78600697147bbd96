"""Rules 7.x: disputes — combat, knight-assist, wits, multi-talented adversaries, ties,
running away. Worked examples 7.1 and 7.2 are reproduced with arranged decks."""
import pytest

from games.rules.base import IllegalMove
from games.rules.ccg import state as S

from .helpers import (GAME, end_turn, grail_deck, join, new_game, pass_window, place_rt, play, play_ev,
                      set_area, listed)


def _fight(s, foe, method, lead, ours, theirs):
    grail_deck(s, 0, [ours])
    grail_deck(s, 1, [theirs])
    s = play(s, 0, {"type": "fight", "foe": foe, "method": method, "lead": lead})
    return pass_window(s)


def test_example_7_1_lancelot_slays_gawain_who_refused_to_join():
    s = new_game()
    arthur = s["p"][0]["knights"][0]
    lancelot = join(s, 0, "lancelot")
    join(s, 0, "robin")
    from .helpers import add_card, listed
    s["p"][0]["pages"].append({"c": add_card(s, "page-generic", 0), "k": [], "i": []})
    gawain = set_area(s, "E0.0", ["gawain"], face="down")[0]
    s = play(s, 0, {"type": "move", "to": "E0.0"})
    assert S.up_iids(S.area(s, "E0.0")) == [gawain]
    # The Round Table draw: Gawain's number exceeds Arthur's, so he refuses.
    grail_deck(s, 0, [2])
    grail_deck(s, 1, [5])
    s = play(s, 0, {"type": "invite", "card": gawain, "rep": arthur})
    s = pass_window(s)
    assert gawain in S.area(s, "E0.0")["hostile"]
    # Lancelot (8) draws 3 = 11; Gawain (4) draws 6 = 10.
    s = _fight(s, gawain, "combat", lancelot, 3, 6)
    assert gawain in s["p"][0]["dead"]
    assert S.up_iids(S.area(s, "E0.0")) == [] and not s["p"][0]["must"]


def test_example_7_1_with_equal_totals_the_combat_continues_next_turn():
    s = new_game()
    lancelot = join(s, 0, "lancelot")
    gawain = set_area(s, "E0.0", ["gawain"])[0]
    S.area(s, "E0.0")["hostile"].append(gawain)
    place_rt(s, 0, "E0.0")
    s = _fight(s, gawain, "combat", lancelot, 2, 6)  # 10 against 10
    assert gawain in S.up_iids(S.area(s, "E0.0")) and lancelot in s["p"][0]["knights"]
    assert not any(m["type"] == "fight" for m in listed(s, 0))  # not again this turn
    assert any(m["type"] == "end_turn" for m in listed(s, 0))
    s = end_turn(s)
    s = end_turn(s)
    assert s["p"][0]["must"] and any(m["type"] == "fight" for m in listed(s, 0))


def test_the_loser_of_a_combat_dies_and_goes_to_the_dead_cart():
    s = new_game()
    robin = join(s, 0, "robin")
    bk = set_area(s, "E0.0", ["black-knight"])[0]
    place_rt(s, 0, "E0.0")
    s = _fight(s, bk, "combat", robin, 0, 0)
    assert robin in s["p"][0]["dead"] and robin not in s["p"][0]["knights"]


def test_example_7_2_the_knights_assist_lancelot_against_the_vicious_chicken():
    s = new_game()
    lancelot = join(s, 0, "lancelot")
    join(s, 0, "bedevere")
    chicken = set_area(s, "E0.0", ["vicious-chicken-of-bristol"])[0]
    place_rt(s, 0, "E0.0")
    grail_deck(s, 0, [3])
    grail_deck(s, 1, [2])
    s = play(s, 0, {"type": "fight", "foe": chicken, "method": "combat", "lead": lancelot})
    s, events = play_ev(s, 1, {"type": "pass"})
    s, events = play_ev(s, 0, {"type": "pass"})
    result = next(e for e in events if e.kind == "dispute")
    assert (result.data["lead_total"], result.data["foe_total"]) == (13, 5)
    assert chicken in s["p"][0]["dead"]


def test_example_7_2_only_the_lead_knight_dies_if_the_chicken_wins():
    s = new_game()
    arthur = s["p"][0]["knights"][0]
    robin = join(s, 0, "robin")
    bed = join(s, 0, "bedevere")
    chicken = set_area(s, "E0.0", ["vicious-chicken-of-bristol"])[0]
    place_rt(s, 0, "E0.0")
    s = _fight(s, chicken, "combat", robin, 0, 7)  # 2 + 0 + 2 assist = 4 against 3 + 7
    assert robin in s["p"][0]["dead"]
    assert arthur in s["p"][0]["knights"] and bed in s["p"][0]["knights"]


def test_winning_a_battle_of_wits_lets_the_knights_pass_but_the_adversary_remains():
    s = new_game()
    arthur = s["p"][0]["knights"][0]
    keeper = set_area(s, "E0.0", ["bridgekeeper"])[0]
    place_rt(s, 0, "E0.0")
    assert {m["method"] for m in listed(s, 0) if m["type"] == "fight"} == {"wits"}
    s = _fight(s, keeper, "wits", arthur, 4, 1)  # 9 against 6
    assert keeper in S.up_iids(S.area(s, "E0.0"))
    assert any(m["type"] == "move" for m in listed(s, 0))


def test_losing_a_battle_of_wits_applies_the_adversarys_special_effect():
    s = new_game()
    arthur = s["p"][0]["knights"][0]
    keeper = set_area(s, "E0.0", ["bridgekeeper"])[0]
    place_rt(s, 0, "E0.0")
    s = _fight(s, keeper, "wits", arthur, 0, 7)
    assert s["p"][0]["fx"]["skip"] == 1  # the Bridgekeeper costs the loser a turn
    assert not any(m["type"] == "move" for m in listed(s, 0))


def test_a_multi_talented_adversary_may_be_outwitted_only_once():
    s = new_game()
    arthur = s["p"][0]["knights"][0]
    bk = set_area(s, "E0.0", ["black-knight"])[0]
    place_rt(s, 0, "E0.0")
    assert {m["method"] for m in listed(s, 0) if m["type"] == "fight"} == {"combat", "wits"}
    s = _fight(s, bk, "wits", arthur, 5, 0)
    assert bk in s["outwitted"]
    # Back again later (another visit): only combat is left.
    S.area(s, "E0.0")["ow"] = []
    s["p"][0]["disputed"] = []
    assert {m["method"] for m in listed(s, 0) if m["type"] == "fight"} == {"combat"}


def test_running_away_needs_the_shout():
    s = new_game()
    set_area(s, "E0.0", ["black-knight"])
    place_rt(s, 0, "E0.0")
    with pytest.raises(IllegalMove, match="Run away"):
        GAME.apply(s, 0, {"type": "run_away", "shout": "Retreat!"})


def test_running_away_from_the_bottom_row_goes_to_the_round_table_area():
    s = new_game()
    set_area(s, "E0.0", ["black-knight"])
    place_rt(s, 0, "E0.0")
    s = play(s, 0, {"type": "run_away"})
    assert s["p"][0]["pos"] is None and not s["p"][0]["must"]


def test_down_and_back_differ_so_the_opponent_chooses():
    s = new_game()
    set_area(s, "E0.4", ["black-knight"])
    set_area(s, "E0.0", ["moor"])
    set_area(s, "E0.1", ["moor"])
    set_area(s, "E0.2", ["moor"])
    place_rt(s, 0, "E0.4", came_from="E0.5")
    set_area(s, "E0.5", ["moor"])
    s = play(s, 0, {"type": "run_away"})
    pend = GAME.pending(s)[0]
    assert (pend.seat, pend.kind) == (1, "choice")
    assert set(s["steps"][-1]["options"]) == {"E0.0", "E0.1", "E0.5"}
    s = play(s, 1, {"type": "choose", "option": "E0.5"})
    assert s["p"][0]["pos"] == "E0.5"


def test_no_voluntary_retreat_into_an_unexplored_area_unless_nothing_else_is_left():
    s = new_game()
    set_area(s, "E0.4", ["black-knight"])
    place_rt(s, 0, "E0.4", came_from="E0.0")
    set_area(s, "E0.0", ["moor"])
    # E0.1 is still face down: only E0.0 remains.
    s = play(s, 0, {"type": "run_away"})
    assert s["p"][0]["pos"] == "E0.0"


def test_only_unexplored_areas_below_lets_the_opponent_pick_among_them():
    s = new_game()
    set_area(s, "E0.4", ["black-knight"])
    place_rt(s, 0, "E0.4", came_from="E0.4")
    s = play(s, 0, {"type": "run_away"})
    assert set(s["steps"][-1]["options"]) == {"E0.0", "E0.1"}


def test_knights_may_run_away_during_the_window_before_the_grail_numbers():
    s = new_game()
    arthur = s["p"][0]["knights"][0]
    bk = set_area(s, "E0.0", ["black-knight"])[0]
    place_rt(s, 0, "E0.0")
    s["p"][1]["hand"] = s["p"][1]["hand"][:1]
    s = play(s, 0, {"type": "fight", "foe": bk, "method": "combat", "lead": arthur})
    s = play(s, 1, {"type": "pass"})
    assert any(m["type"] == "run_away" for m in listed(s, 0))
    s = play(s, 0, {"type": "run_away"})
    assert s["p"][0]["pos"] is None and not s["steps"]


def test_running_away_in_avalon_goes_back_or_to_the_top_two_areas():
    s = new_game()
    set_area(s, "A.1", ["black-knight"])
    place_rt(s, 0, "A.1", came_from="A.0")
    moves = [m for m in listed(s, 0) if m["type"] == "run_away"]
    assert {m["to"] for m in moves} == {"A.0", "E0.10", "E0.11"}
    s = play(s, 0, {"type": "run_away", "to": "E0.11"})
    assert s["p"][0]["pos"] == "E0.11"


def test_an_adversary_that_wins_a_combat_also_brings_its_special_effect():
    from . import cards_for_tests as T
    s = new_game()
    robin = join(s, 0, "robin")
    brute = dict(T.BLACK_KNIGHT, code="brute", primary=[{"op": "block_movement", "who": "opponent", "turns": 1}])
    foe = set_area(s, "E0.0", [brute])[0]
    place_rt(s, 0, "E0.0")
    s = _fight(s, foe, "combat", robin, 0, 5)
    assert robin in s["p"][0]["dead"] and s["p"][0]["fx"]["block"] == 1


def test_running_between_two_adversaries_cannot_trap_the_turn():
    s = new_game()
    set_area(s, "E0.0", ["black-knight"])
    set_area(s, "E0.4", ["bridgekeeper"])
    place_rt(s, 0, "E0.4", came_from="E0.0")
    # Timeouts alone must bring the turn to an end: run once, then fight, then end.
    for _ in range(30):
        if s["turn"] != 0:
            break
        pend = GAME.pending(s)[0]
        s = play(s, pend.seat, GAME.timeout_move(s, pend.seat))
    assert s["turn"] == 1


def test_a_foe_already_disputed_this_turn_does_not_keep_the_turn_open():
    s = new_game()
    lancelot = join(s, 0, "lancelot")
    gawain = set_area(s, "E0.0", ["gawain"])[0]
    S.area(s, "E0.0")["hostile"].append(gawain)
    place_rt(s, 0, "E0.0")
    s = _fight(s, gawain, "combat", lancelot, 2, 6)  # a tie
    assert s["p"][0]["pos"] == "E0.0"
    assert {"type": "end_turn"} in listed(s, 0)


def _walk_off_and_back(s, there="E0.0", away="E0.4"):
    """Seat 0 leaves ``there`` for ``away``, both players end a turn, and seat 0 walks back."""
    set_area(s, away, ["moor"])
    s = play(s, 0, {"type": "move", "to": away})
    s = end_turn(s)
    s = end_turn(s)
    return play(s, 0, {"type": "move", "to": there})


def test_an_outwitted_multi_talented_adversary_met_again_must_be_combated():
    # 7.1: entering its area is a dispute; 7.4: outwitting lets the knights pass "but the
    # adversary remains"; 7.5: "thereafter it must be combated".
    s = new_game()
    arthur = s["p"][0]["knights"][0]
    bk = set_area(s, "E0.0", ["black-knight"])[0]
    place_rt(s, 0, "E0.0")
    s = _fight(s, bk, "wits", arthur, 5, 0)
    assert not s["p"][0]["must"] and any(m["type"] == "move" for m in listed(s, 0))
    s = _walk_off_and_back(s)
    assert s["p"][0]["pos"] == "E0.0" and s["p"][0]["must"]
    assert {m["method"] for m in listed(s, 0) if m["type"] == "fight" and m["foe"] == bk} == {"combat"}
    assert {"type": "end_turn"} not in listed(s, 0)


def test_an_outwitted_wits_only_adversary_met_again_is_a_new_battle_of_wits():
    s = new_game()
    arthur = s["p"][0]["knights"][0]
    keeper = set_area(s, "E0.0", ["bridgekeeper"])[0]
    place_rt(s, 0, "E0.0")
    s = _fight(s, keeper, "wits", arthur, 4, 1)
    s = _walk_off_and_back(s)
    assert s["p"][0]["must"]
    assert {m["method"] for m in listed(s, 0) if m["type"] == "fight" and m["foe"] == keeper} == {"wits"}


def test_from_a_top_area_entered_from_avalon_the_way_back_is_offered():
    s = new_game()
    set_area(s, "E0.10", ["black-knight"])
    set_area(s, "E0.7", ["moor"])
    set_area(s, "E0.8", ["moor"])
    set_area(s, "A.1", ["moor"])
    place_rt(s, 0, "E0.10", came_from="A.1")
    s = play(s, 0, {"type": "run_away"})
    assert set(s["steps"][-1]["options"]) == {"E0.7", "E0.8", "A.1"}
    s = play(s, 1, {"type": "choose", "option": "A.1"})
    assert s["p"][0]["pos"] == "A.1"


def test_the_way_back_into_avalon_is_closed_while_another_round_table_holds_it():
    s = new_game()
    set_area(s, "E0.10", ["black-knight"])
    set_area(s, "E0.7", ["moor"])
    set_area(s, "E0.8", ["moor"])
    set_area(s, "A.1", ["moor"])
    place_rt(s, 1, "A.1")
    place_rt(s, 0, "E0.10", came_from="A.1")
    s = play(s, 0, {"type": "run_away"})
    assert set(s["steps"][-1]["options"]) == {"E0.7", "E0.8"}


def test_a_card_laid_face_down_later_leaves_an_explored_area_explored():
    # 7.6: an area is unexplored only while its set-up card has never been turned up.
    from .helpers import add_card
    s = new_game()
    set_area(s, "E0.4", ["black-knight"])
    set_area(s, "E0.0", ["moor"])
    set_area(s, "E0.1", ["moor"])
    S.area(s, "E0.1")["down"].append([add_card(s, "french-taunt", 1), 99, 1])  # laid by seat 1 later
    place_rt(s, 0, "E0.4", came_from="E0.4")
    s = play(s, 0, {"type": "run_away"})
    assert GAME.pending(s)[0].seat == 1 and set(s["steps"][-1]["options"]) == {"E0.0", "E0.1"}


def test_a_song_that_forces_a_run_away_mid_dispute_ends_the_dispute():
    from . import cards_for_tests as T
    from .helpers import stack_deck
    s = new_game()
    robin = join(s, 0, "robin")
    bk = set_area(s, "E0.0", ["black-knight"])[0]
    place_rt(s, 0, "E0.0")
    run_song = dict(T.SONG, code="run-song", primary=[{"op": "run_away", "who": "opponent"}])
    grail_deck(s, 0, [0])
    stack_deck(s, 1, [run_song])  # the Black Knight's number (6) is a song sung at seat 0
    s = play(s, 0, {"type": "fight", "foe": bk, "method": "combat", "lead": robin})
    s, events = play_ev(s, 1, {"type": "pass"})
    s, more = play_ev(s, 0, {"type": "pass"})
    events += more
    assert s["p"][0]["pos"] is None  # ran away to the Round Table Area
    assert robin in s["p"][0]["knights"] and bk in S.up_iids(S.area(s, "E0.0"))
    assert not any(e.kind == "dispute" for e in events)
    assert s.get("last_dispute") is None


def test_the_last_dispute_is_in_every_view_with_both_totals_and_the_dead():
    s = new_game()
    assert GAME.view_for(s, 0)["last_dispute"] is None
    robin = join(s, 0, "robin")
    bk = set_area(s, "E0.0", ["black-knight"])[0]
    place_rt(s, 0, "E0.0")
    s = _fight(s, bk, "combat", robin, 1, 2)  # 2 + 1 = 3 against 6 + 2 = 8
    d = s["last_dispute"]
    assert d["area"] == "E0.0" and d["seat"] == 0 and d["method"] == "combat" and d["result"] == "foe"
    assert d["lead"] == {"card": robin, "name": "Brave Sir Robin", "total": 3}
    assert d["foe"] == {"card": bk, "name": "The Black Knight", "total": 8}
    assert d["slain"] == ["Brave Sir Robin"] and d["outwitted"] == []
    views = [GAME.view_for(s, seat)["last_dispute"] for seat in (0, 1, None)]
    assert views[0] == views[1] == views[2] == d
    # A won battle of wits names the outwitted; the newer dispute replaces the older.
    arthur = s["p"][0]["knights"][0]
    s["p"][0]["disputed"] = []
    s = _fight(s, bk, "wits", arthur, 5, 0)
    d = GAME.view_for(s, 1)["last_dispute"]
    assert (d["result"], d["method"], d["outwitted"], d["slain"]) == ("lead", "wits", ["The Black Knight"], [])


def test_a_state_stored_before_last_dispute_existed_still_shows_none():
    s = new_game()
    s.pop("last_dispute", None)
    assert GAME.view_for(s, None)["last_dispute"] is None
