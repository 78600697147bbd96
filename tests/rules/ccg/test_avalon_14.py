"""Rule 14.1: into and within Avalon; no knights in Avalon at the draw phase loses."""
from games.rules.ccg import state as S

from .helpers import GAME, end_turn, new_game, place_rt, play, set_area, listed


def _moves(s, seat=0):
    return {m["to"] for m in listed(s, seat) if m["type"] == "move"}


def test_from_the_top_two_areas_any_area_of_avalon_is_open():
    s = new_game()
    set_area(s, "E0.10", ["moor"])
    place_rt(s, 0, "E0.10")
    assert {"A.0", "A.1", "A.2", "A.3"} <= _moves(s)


def test_lower_areas_do_not_lead_into_avalon():
    s = new_game()
    set_area(s, "E0.7", ["moor"])
    place_rt(s, 0, "E0.7")
    assert not any(r and r.startswith("A.") for r in _moves(s))


def test_within_avalon_any_other_area_is_open_but_not_one_another_round_table_holds():
    s = new_game()
    for i in range(4):
        set_area(s, f"A.{i}", ["moor"])
    place_rt(s, 0, "A.0")
    place_rt(s, 1, "A.2")
    assert _moves(s) == {"A.1", "A.3"}  # FAQ 9: never the same space as the opponent


def test_no_knights_in_avalon_at_the_draw_phase_loses_at_once():
    s = new_game()
    set_area(s, "A.0", ["moor"])
    place_rt(s, 1, "A.0")
    S.slay_member(s, 1, s["p"][1]["knights"][0])
    s = end_turn(s)
    assert s["p"][1]["out"] and s["solo"] == 0
    assert s["turn"] == 0


def test_moving_into_avalon_reveals_the_area_like_england():
    s = new_game()
    set_area(s, "E0.11", ["moor"])
    place_rt(s, 0, "E0.11")
    bk = set_area(s, "A.3", ["black-knight"], face="down")[0]
    s = play(s, 0, {"type": "move", "to": "A.3"})
    assert S.up_iids(S.area(s, "A.3")) == [bk] and s["p"][0]["must"]
