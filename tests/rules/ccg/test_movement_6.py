"""Rules 6.x: movement, face-down reveals, filling an area, one card per space, occupying."""
from games.rules.ccg import state as S

from .helpers import GAME, add_card, end_turn, new_game, pass_window, place_rt, play, set_area, stack_deck, to_hand, listed


def _moves(s, seat=0):
    return {m["to"] for m in listed(s, seat) if m["type"] == "move"}


def test_from_the_round_table_area_the_knights_enter_the_bottom_row():
    s = new_game()
    assert _moves(s) == {"E0.0", "E0.1", "E0.2", "E0.3"}


def test_one_adjacent_area_per_turn():
    s = new_game()
    set_area(s, "E0.1", ["moor"])
    s = play(s, 0, {"type": "move", "to": "E0.1"})
    assert _moves(s) == set()
    s = end_turn(s)
    s = end_turn(s)
    # E0.1 (row of 4) touches E0.0, E0.2, the Round Table Area and the overlapping areas above.
    assert _moves(s) == {"E0.0", "E0.2", None, "E0.4", "E0.5"}


def test_a_round_table_without_knights_may_not_move():
    s = new_game()
    p = s["p"][0]
    arthur = p["knights"][0]
    S.slay_member(s, 0, arthur)
    assert _moves(s) == set()


def test_face_down_cards_are_revealed_first_placed_first_and_the_opponent_chooses():
    s = new_game()
    first, second = set_area(s, "E0.0", ["french-taunt", "black-knight"], owner=1, face="down")
    for entry in S.area(s, "E0.0")["down"]:
        entry[2] = 1  # both laid by seat 2
    s = play(s, 0, {"type": "move", "to": "E0.0"})
    pend = GAME.pending(s)[0]
    assert (pend.seat, pend.kind) == (1, "choice")
    assert s["steps"][-1]["card"] == first  # the taunt, laid first, comes up first
    s = play(s, 1, {"type": "choose", "option": "apply"})
    assert s["mods"] and s["mods"][0]["seat"] == 0
    assert S.up_iids(S.area(s, "E0.0")) == [second]


def test_the_opponent_may_let_a_revealed_card_pass():
    s = new_game()
    iid = set_area(s, "E0.0", ["french-taunt"], face="down")[0]
    stack_deck(s, 0, ["moor"])
    s = play(s, 0, {"type": "move", "to": "E0.0"})
    s = play(s, 1, {"type": "choose", "option": "ignore"})
    assert s["mods"] == [] and iid in s["p"][0]["dead"]


def test_an_area_keeps_filling_from_the_movers_deck_until_a_place_card_comes_up():
    s = new_game()
    set_area(s, "E0.0", ["french-taunt"], face="down")
    stack_deck(s, 0, ["rabbit-trap", "moor", "lancelot"])
    s = play(s, 0, {"type": "move", "to": "E0.0"})
    s = play(s, 1, {"type": "choose", "option": "ignore"})
    s = pass_window(s)  # nobody lays a place card from hand
    s = play(s, 1, {"type": "choose", "option": "ignore"})
    assert [s["inst"][i] for i in S.up_iids(S.area(s, "E0.0"))] == ["moor"]
    assert s["inst"][s["p"][0]["deck"][-1]] == "lancelot"


def test_one_of_each_kind_per_space_the_first_played_stays():
    s = new_game()
    castle = to_hand(s, 0, "swamp-castle")
    s = play(s, 0, {"type": "play", "card": castle, "use": "primary", "to": "E1.0", "face": "up"})
    assert S.up_iids(S.area(s, "E1.0")) == [castle]
    other = to_hand(s, 0, "tintagel")
    assert not any(m.get("to") == "E1.0" and m.get("face") == "up" for m in listed(s, 0)
                   if m.get("card") == other)


def test_the_original_face_down_castle_outranks_a_castle_played_on_top_later():
    s = new_game()
    orig = set_area(s, "E1.0", ["swamp-castle"], owner=1, face="down")[0]
    later = to_hand(s, 0, "tintagel")
    s["cards"]["tintagel"] = dict(s["cards"]["tintagel"], castle_occupant=None)
    s = play(s, 0, {"type": "play", "card": later, "use": "primary", "to": "E1.0", "face": "up"})
    s = end_turn(s)
    s = play(s, 1, {"type": "move", "to": "E1.0"})
    assert S.up_iids(S.area(s, "E1.0")) == [orig]
    assert later in s["p"][0]["dead"]


def test_a_peril_may_not_share_a_space_with_a_knight():
    s = new_game()
    set_area(s, "E1.0", ["gawain"], owner=1)
    chicken = to_hand(s, 0, "vicious-chicken-of-bristol")
    assert not any(m.get("to") == "E1.0" and m.get("face") == "up" for m in listed(s, 0)
                   if m.get("card") == chicken)


def test_anthrax_cards_share_a_space_and_are_outwitted_together():
    s = new_game()
    zoot, dingo = set_area(s, "E0.0", ["zoot", "dingo"])
    place_rt(s, 0, "E0.0")
    fights = [m for m in listed(s, 0) if m["type"] == "fight" and m["foe"] == zoot]
    assert fights and {m["method"] for m in fights} == {"wits"}
    from games.rules.ccg import disputes
    assert disputes.foe_total(s, zoot, "wits", "E0.0") == 5  # 3 + 2


def test_a_second_anthrax_card_laid_on_a_space_stays():
    s = new_game()
    zoot = set_area(s, "E1.0", ["zoot"], owner=1)[0]
    a = S.area(s, "E1.0")
    from games.rules.ccg import movement
    dingo = add_card(s, "dingo", 0)
    assert movement.place_face_up(s, a, dingo, 99, [], 1)
    assert S.up_iids(a) == [zoot, dingo]


def test_occupying_a_space_once_its_adversaries_are_beaten():
    s = new_game()
    set_area(s, "E0.0", ["moor"])
    place_rt(s, 0, "E0.0")
    assert not s["p"][0]["must"]
    assert {"move"} <= {m["type"] for m in listed(s, 0)}


def test_a_revealed_lands_primary_acts_on_the_entering_knights_if_the_opponent_chooses():
    from . import cards_for_tests as T
    s = new_game()
    bog = dict(T.MOOR, code="bog", primary=[{"op": "block_movement", "who": "opponent", "turns": 1}])
    land = set_area(s, "E0.0", [bog], face="down")[0]
    s = play(s, 0, {"type": "move", "to": "E0.0"})
    assert GAME.pending(s)[0].seat == 1 and s["steps"][-1]["what"] == "reveal_place"
    s = play(s, 1, {"type": "choose", "option": "apply"})
    assert s["p"][0]["fx"]["block"] == 1 and S.up_iids(S.area(s, "E0.0")) == [land]


def test_an_opponent_may_fill_the_space_from_his_hand():
    s = new_game()
    set_area(s, "E0.0", ["french-taunt"], face="down")
    bk = to_hand(s, 1, "black-knight")
    s = play(s, 0, {"type": "move", "to": "E0.0"})
    s = play(s, 1, {"type": "choose", "option": "ignore"})
    assert GAME.pending(s)[0].kind == "response"
    s = play(s, 1, {"type": "play", "card": bk, "use": "primary", "to": "E0.0", "face": "up"})
    s = pass_window(s)
    assert S.up_iids(S.area(s, "E0.0")) == [bk] and s["p"][0]["must"]


def test_the_chooser_names_the_knight_a_revealed_card_aims_at():
    from . import cards_for_tests as T
    from .helpers import join
    s = new_game()
    lance = join(s, 0, "lancelot")
    curse = dict(T.TAUNT, code="curse", primary=[{"op": "slay", "target": "opponent_knight"}])
    set_area(s, "E0.0", [curse, "moor"], face="down")
    s = play(s, 0, {"type": "move", "to": "E0.0"})
    options = s["steps"][-1]["options"]
    assert set(options) == {f"apply:{k}" for k in s["p"][0]["knights"]} | {"ignore"}
    s = play(s, 1, {"type": "choose", "option": f"apply:{lance}"})
    assert lance in s["p"][0]["dead"] and len(s["p"][0]["knights"]) == 1


def test_events_name_areas_as_the_board_does():
    from games.rules.ccg import layout
    assert layout.name(12, "E1.5") == "Seat 2's England, row 2 area 2"
    assert layout.name(13, "E0.12") == "Seat 1's England, row 4 area 2"
    assert layout.name(12, "A.1") == "Avalon 2"
    assert layout.name(12, None) == "the Round Table Area"
    s = new_game()
    set_area(s, "E0.1", ["moor"])
    s, events = GAME.apply(s, 0, {"type": "move", "to": "E0.1"})
    texts = " ".join(e.text for e in events)
    assert "moves to Seat 1's England, row 1 area 2" in texts and "E0.1" not in texts
