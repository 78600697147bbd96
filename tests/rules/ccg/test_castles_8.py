"""Rules 8.x: castles — the castle icon, the castle table, assaults, breaching, fighting
inside and staying out. Worked examples 8.1, 8.2 and 8.3 are reproduced."""
from games.rules.ccg import state as S

from . import cards_for_tests as T
from .helpers import (GAME, add_card, end_turn, grail_deck, join, new_game, place_rt, play, play_ev, set_area,
                      stack_deck, listed)


def _at_tintagel():
    """Arthur, Ector and Galahad with four pages before Tintagel, held by Bors (8.1)."""
    s = new_game()
    join(s, 0, "ector")
    join(s, 0, "galahad")
    s["p"][0]["pages"].append({"c": add_card(s, "page-generic", 0), "k": [], "i": []})
    assert len(s["p"][0]["pages"]) == 4
    tintagel = set_area(s, "E0.0", ["tintagel"], face="down")[0]
    stack_deck(s, 1, ["bors"])
    s = play(s, 0, {"type": "move", "to": "E0.0"})
    return s, tintagel


def _events_of(s, seat, move, kind):
    s, events = play_ev(s, seat, move)
    while s["steps"] and s["steps"][-1]["k"] == "response":
        step = s["steps"][-1]
        s, more = play_ev(s, step["order"][step["i"]], {"type": "pass"})
        events += more
    return s, [e for e in events if e.kind == kind]


def test_a_castle_that_names_its_occupant_is_filled_from_the_opponents_deck():
    s, _ = _at_tintagel()
    occ = S.area(s, "E0.0")["occ"]
    assert s["inst"][occ] == "bors" and s["own"][occ] == 1


def test_example_8_1_the_castle_table_refuses_passage_on_a_seven():
    s, _ = _at_tintagel()
    arthur = s["p"][0]["knights"][0]
    assert not any(m["type"] == "move" for m in listed(s, 0))  # cannot pass unread
    grail_deck(s, 0, [4, 2])
    s, events = _events_of(s, 0, {"type": "parley", "lead": arthur}, "castle")
    assert events[-1].data == {"total": 7, "result": "no_pass"}  # 4 + 2 + 5 - 4
    kinds = {m["type"] for m in listed(s, 0)}
    assert "parley" not in kinds  # again only next turn
    assert {"assault", "run_away"} <= kinds


def test_the_castle_table_can_let_the_knights_pass():
    s, _ = _at_tintagel()
    arthur = s["p"][0]["knights"][0]
    grail_deck(s, 0, [7, 3])
    s, events = _events_of(s, 0, {"type": "parley", "lead": arthur}, "castle")
    assert events[-1].data["result"] == "pass"
    s = end_turn(s)
    s = end_turn(s)
    assert any(m["type"] == "move" and m["to"] == "E0.4" for m in listed(s, 0))


def test_a_castle_may_not_be_assaulted_before_its_table_is_read():
    s, _ = _at_tintagel()
    assert not any(m["type"] == "assault" for m in listed(s, 0))


def _breach(s):
    arthur = s["p"][0]["knights"][0]
    grail_deck(s, 0, [4, 2])
    s, _ = _events_of(s, 0, {"type": "parley", "lead": arthur}, "castle")
    grail_deck(s, 0, [4])
    grail_deck(s, 1, [1])
    s, events = _events_of(s, 0, {"type": "assault", "lead": arthur}, "castle")
    return s, events


def test_example_8_2_arthur_plus_two_assists_against_bors_plus_the_castle_defence():
    s, _ = _at_tintagel()
    s, events = _breach(s)
    assert events[-1].data == {"ours": 11, "theirs": 9}  # 5 + 2 + 4 against 4 + 4 + 1
    assert s["p"][0]["castle"]["E0.0"] == "inside"


def test_example_8_2_a_lost_assault_slays_only_arthur():
    s, _ = _at_tintagel()
    arthur = s["p"][0]["knights"][0]
    grail_deck(s, 0, [4, 2])
    s, _ = _events_of(s, 0, {"type": "parley", "lead": arthur}, "castle")
    grail_deck(s, 0, [0])
    grail_deck(s, 1, [6])
    s, _ = _events_of(s, 0, {"type": "assault", "lead": arthur}, "castle")
    assert arthur in s["p"][0]["dead"] and len(s["p"][0]["knights"]) == 2


def test_example_8_3_inside_the_castle_the_extra_card_is_drawn_and_bors_fought_without_bonuses():
    s, _ = _at_tintagel()
    s, _ = _breach(s)
    bors = S.area(s, "E0.0")["occ"]
    assert not any(m["type"] == "fight" for m in listed(s, 0))  # the following turn
    s = end_turn(s)
    s = end_turn(s)
    before = len(s["p"][0]["hand"])
    assert s["p"][0]["must"] and not any(m["type"] == "move" for m in listed(s, 0))
    galahad = s["p"][0]["knights"][2]
    grail_deck(s, 0, [3])
    grail_deck(s, 1, [3])
    s, events = _events_of(s, 0, {"type": "fight", "foe": bors, "method": "combat", "lead": galahad}, "dispute")
    assert (events[-1].data["lead_total"], events[-1].data["foe_total"]) == (7, 7)  # no assist, no castle
    assert before >= 8  # 7 after balancing, +1 draw, +1 for Tintagel


def test_the_table_is_not_read_again_after_an_assault():
    s, _ = _at_tintagel()
    arthur = s["p"][0]["knights"][0]
    grail_deck(s, 0, [4, 2])
    s, _ = _events_of(s, 0, {"type": "parley", "lead": arthur}, "castle")
    grail_deck(s, 0, [0])
    grail_deck(s, 1, [0])
    s, _ = _events_of(s, 0, {"type": "assault", "lead": arthur}, "castle")  # 7+0 < 8+0: Arthur falls
    s = end_turn(s)
    s = end_turn(s)
    assert not any(m["type"] == "parley" for m in listed(s, 0))


def test_an_occupant_with_no_combat_must_be_met_inside():
    s = new_game()
    tower = dict(T.SWAMP_CASTLE, code="tims-tower", castle_occupant={"type": "persona", "code": "tim-the-enchanter"})
    set_area(s, "E0.0", [tower], face="down")
    stack_deck(s, 1, ["tim-the-enchanter"])
    s = play(s, 0, {"type": "move", "to": "E0.0"})
    kinds = {m["type"] for m in listed(s, 0)}
    assert "parley" not in kinds and "move" not in kinds and "enter_castle" in kinds
    s = play(s, 0, {"type": "enter_castle"})
    tim = S.area(s, "E0.0")["occ"]
    assert any(m["type"] == "fight" and m["foe"] == tim for m in listed(s, 0))


def test_staying_outside_an_empty_castle_forgoes_its_bonus():
    s = new_game()
    set_area(s, "E0.0", ["swamp-castle"])
    place_rt(s, 0, "E0.0")
    from games.rules.ccg import turns
    assert turns.draw_bonus(s, 0) == 0
    s = play(s, 0, {"type": "enter_castle"})
    assert turns.draw_bonus(s, 0) == 2


def test_the_opponent_chooses_an_occupant_when_the_castle_names_only_a_kind():
    s = new_game()
    keep = dict(T.SWAMP_CASTLE, code="keep", castle_occupant={"type": "knight", "code": None})
    set_area(s, "E0.0", [keep], face="down")
    stack_deck(s, 1, ["gawain", "bors"])
    s = play(s, 0, {"type": "move", "to": "E0.0"})
    pend = GAME.pending(s)[0]
    assert (pend.seat, pend.kind) == (1, "choice")
    options = s["steps"][-1]["options"]
    # 8.1: only knights with the castle icon (Bors here) may hold a castle.
    assert {s["inst"][o] for o in options if o is not None} == {"bors"}
    pick = options[0]
    s = play(s, 1, {"type": "choose", "option": pick})
    assert S.area(s, "E0.0")["occ"] == pick
    assert GAME.view_for(s, 0)["pending"]["kind"] == "turn"


def test_inside_a_castle_the_knights_have_its_defence_against_foes_outside_it():
    s = new_game()
    set_area(s, "E0.0", ["swamp-castle"])
    place_rt(s, 0, "E0.0")
    s = play(s, 0, {"type": "enter_castle"})
    arthur = s["p"][0]["knights"][0]
    bk = add_card(s, "black-knight", 1)
    S.area(s, "E0.0")["up"].append([bk, 50])
    grail_deck(s, 0, [3])
    grail_deck(s, 1, [3])
    s, events = _events_of(s, 0, {"type": "fight", "foe": bk, "method": "combat", "lead": arthur}, "dispute")
    assert events[-1].data["lead_total"] == 10  # 5 + 3 + Swamp Castle's defence 2


def test_a_song_that_makes_the_round_table_run_mid_assault_ends_the_assault():
    # As with a dispute (7.6): once the Round Table has run, no lead knight is slain.
    s, _ = _at_tintagel()
    arthur = s["p"][0]["knights"][0]
    grail_deck(s, 0, [4, 2])
    s, _ = _events_of(s, 0, {"type": "parley", "lead": arthur}, "castle")
    run_song = dict(T.SONG, code="run-song", primary=[{"op": "run_away", "who": "opponent"}])
    grail_deck(s, 0, [0])
    stack_deck(s, 1, [run_song])  # Bors's number (6) is a song sung at seat 0
    s, events = _events_of(s, 0, {"type": "assault", "lead": arthur}, "castle")
    assert s["p"][0]["pos"] is None and arthur in s["p"][0]["knights"] and not events
