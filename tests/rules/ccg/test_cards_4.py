"""Rules 4.x: playing cards, quotes, two cards in one, grail numbers, the dead cart,
unique and generic cards."""
import pytest

from games.rules.base import IllegalMove
from games.rules.ccg import state as S

from .helpers import (GAME, clear_hand, grail_deck, join, new_game, pass_window, place_rt, play, set_area,
                      stack_deck, to_hand, listed)


def _plays(s, seat, iid):
    return [m for m in listed(s, seat) if m["type"] == "play" and m["card"] == iid]


def test_face_down_plays_only_in_your_own_turn_and_only_on_an_opponents_england_or_avalon():
    s = new_game()
    iid = to_hand(s, 0, "black-knight")
    downs = {m["to"] for m in _plays(s, 0, iid) if m.get("face") == "down"}
    assert downs and all(r.startswith("E1.") or r.startswith("A.") for r in downs)
    other = to_hand(s, 1, "black-knight")
    assert not any(m.get("face") == "down" for m in listed(s, 1))
    with pytest.raises(IllegalMove, match="face up"):
        play(s, 1, {"type": "play", "card": other, "use": "primary", "to": "E0.3", "face": "down"})


def test_face_up_plays_are_open_at_any_time_between_the_active_players_moves():
    """4.1: any player may play face up at any time; seat 1 lays an adversary in seat 0's
    England and taunts during seat 0's turn, and seat 0's turn goes on."""
    s = new_game()
    clear_hand(s, 1)
    foe = to_hand(s, 1, "black-knight")
    taunt = to_hand(s, 1, "french-taunt")
    moves = listed(s, 1)
    ups = {m["to"] for m in moves if m["type"] == "play" and m["card"] == foe}
    assert ups and all(r.startswith("E0.") or r.startswith("A.") for r in ups)
    assert {"type": "play", "card": taunt, "use": "primary"} in moves
    assert not any(m["type"] in ("move", "end_turn", "fight", "invite") for m in moves)
    s = play(s, 1, {"type": "play", "card": foe, "use": "primary", "to": "E0.3", "face": "up"})
    assert foe in S.up_iids(S.area(s, "E0.3"))
    assert [(p.seat, p.kind) for p in GAME.pending(s)] == [(0, "turn")]
    assert any(m["type"] == "end_turn" for m in listed(s, 0))


def test_nobody_interjects_while_the_rules_wait_on_a_step():
    s = new_game()
    set_area(s, "E0.0", ["black-knight"])
    place_rt(s, 0, "E0.0")
    to_hand(s, 1, "french-taunt")
    lead = s["p"][0]["knights"][0]
    foe = S.up_iids(S.area(s, "E0.0"))[0]
    s = play(s, 0, {"type": "fight", "foe": foe, "method": "combat", "lead": lead})
    assert GAME.pending(s)[0].kind == "response" and GAME.pending(s)[0].seat == 1
    assert listed(s, 0) == []  # seat 0 waits for seat 1's answer


def test_face_up_plays_are_open_in_a_response_window_but_face_down_ones_are_not():
    s = new_game()
    set_area(s, "E0.0", ["black-knight"])
    place_rt(s, 0, "E0.0")
    trap = to_hand(s, 1, "rabbit-trap")
    page = to_hand(s, 1, "page-generic")
    lead = s["p"][0]["knights"][0]
    foe = S.up_iids(S.area(s, "E0.0"))[0]
    s = play(s, 0, {"type": "fight", "foe": foe, "method": "combat", "lead": lead})
    moves = listed(s, 1)
    assert {"type": "play", "card": trap, "use": "primary"} in moves
    assert {"type": "play", "card": page, "use": "primary", "to": "rt"} in moves  # 4.1: any face-up play
    assert not any(m.get("face") == "down" for m in moves)
    assert len(moves) == len({tuple(sorted(map(str, m.items()))) for m in moves})  # no move twice


def test_a_card_whose_quote_is_not_read_goes_to_the_dead_cart_with_no_effect():
    s = new_game()
    iid = to_hand(s, 0, "french-taunt")
    new, events = GAME.apply(s, 0, {"type": "play", "card": iid, "use": "primary", "quote": "something else"})
    assert iid in new["p"][0]["dead"] and new["mods"] == []
    assert any(e.kind == "quote" for e in events)


def test_the_quote_read_out_is_shown_to_everyone_and_the_card_takes_effect():
    s = new_game()
    iid = to_hand(s, 0, "french-taunt")
    quote = s["cards"]["french-taunt"]["quote"]
    new, events = GAME.apply(s, 0, {"type": "play", "card": iid, "use": "primary", "quote": quote.upper()})
    assert new["mods"] and new["mods"][0]["stat"] == "wits"
    assert any(quote in e.text and e.audience is None for e in events)


def test_sick_of_the_quotes_switches_the_quote_rule_off():
    s = new_game(rules_off=["quotes"])
    iid = to_hand(s, 0, "french-taunt")
    new, _ = GAME.apply(s, 0, {"type": "play", "card": iid, "use": "primary"})
    assert new["mods"]


def test_a_card_may_use_its_secondary_effect_instead_of_its_primary():
    s = new_game()
    iid = to_hand(s, 0, "french-taunt")
    before = len(s["p"][0]["hand"])
    s = play(s, 0, {"type": "play", "card": iid, "use": "secondary"})
    assert len(s["p"][0]["hand"]) == before  # played one, drew one
    assert s["mods"] == []


def test_a_page_may_only_be_played_as_a_page_in_your_own_round_table():
    s = new_game()
    iid = to_hand(s, 0, "page-generic")
    plays = _plays(s, 0, iid)
    assert plays == [{"type": "play", "card": iid, "use": "primary", "to": "rt"}]


def test_a_grail_number_comes_from_the_top_of_the_drawers_own_deck_and_is_discarded():
    from games.rules.ccg import timing
    s = new_game()
    grail_deck(s, 0, [6])
    top = s["p"][0]["deck"][-1]
    n = timing.draw_grail(s, 0, [])
    assert n == 6 and s["p"][0]["dead"][-1] == top


def test_a_song_drawn_for_a_grail_number_is_played_on_the_drawers_opponent():
    from games.rules.ccg import timing
    s = new_game()
    stack_deck(s, 0, ["brave-sir-robin-song"])
    n = timing.draw_grail(s, 0, [])
    assert n == 6
    assert s["mods"][0]["stat"] == "grail" and s["mods"][0]["seat"] == 1 and s["mods"][0]["amt"] == -1


def test_eliminated_cards_leave_the_game_rather_than_the_dead_cart():
    s = new_game()
    k = join(s, 1, "gawain")
    iid = to_hand(s, 0, "black-knight")
    s["cards"]["black-knight"] = dict(s["cards"]["black-knight"], secondary=[{"op": "eliminate", "target": "opponent_knight"}])
    s = play(s, 0, {"type": "play", "card": iid, "use": "secondary", "pick": k})
    assert k in s["elim"] and k not in s["p"][1]["dead"]


def test_a_unique_duplicate_turned_up_is_discarded_and_the_space_filled():
    s = new_game()
    set_area(s, "E0.0", ["arthur"], face="down")
    stack_deck(s, 0, ["moor"])
    s = play(s, 0, {"type": "move", "to": "E0.0"})
    s = pass_window(s)  # nobody fills the space from hand: the deck does
    a = S.area(s, "E0.0")
    assert [s["inst"][i] for i in S.up_iids(a)] == ["moor"]
    assert s["inst"][s["p"][0]["dead"][-1]] == "arthur"


def test_a_unique_card_cannot_join_a_round_table_that_shows_one_but_generic_cards_can():
    s = new_game()
    lance = to_hand(s, 0, "lancelot")
    join(s, 0, "lancelot")
    assert not [m for m in _plays(s, 0, lance) if m.get("to") == "rt"]
    page = to_hand(s, 0, "page-generic")
    assert _plays(s, 0, page)


def test_a_card_in_avalon_may_not_be_played_in_any_england():
    s = new_game()
    set_area(s, "A.0", ["black-knight"])
    iid = to_hand(s, 0, "black-knight")
    assert not [m for m in _plays(s, 0, iid) if m.get("face") == "up"]


FOG = {"code": "test-fog", "title": "Thick Fog", "type": "event", "grail": 3, "quote": "",
       "primary": [{"op": "modify_combat", "amount": -3, "target": "area", "duration": "turn"}]}


def test_an_effect_aimed_at_an_area_names_one_where_it_can_matter():
    from games.rules.ccg import disputes
    s = new_game()
    near = set_area(s, "E0.0", ["black-knight"])[0]
    far = set_area(s, "E0.5", ["black-knight"], owner=0)[0]
    place_rt(s, 0, "E0.0")
    fog = to_hand(s, 0, FOG)
    areas = [m["area"] for m in _plays(s, 0, fog) if m.get("face") != "down"]
    assert areas == ["E0.0", "E0.5"]  # a Round Table or a face-up foe in each; no other area
    s = play(s, 0, {"type": "play", "card": fog, "use": "primary", "area": "E0.5"})
    assert disputes.foe_total(s, far, "combat", "E0.5") == 3
    assert disputes.foe_total(s, near, "combat", "E0.0") == 6


def test_in_a_dispute_the_disputed_area_is_offered_first():
    s = new_game()
    set_area(s, "E1.2", ["black-knight"], owner=1)
    foe = set_area(s, "E0.0", ["black-knight"])[0]
    place_rt(s, 0, "E0.0")
    fog = to_hand(s, 1, FOG)
    s = play(s, 0, {"type": "fight", "foe": foe, "method": "combat", "lead": s["p"][0]["knights"][0]})
    areas = [m["area"] for m in _plays(s, 1, fog) if m.get("face") != "down"]
    assert areas[0] == "E0.0" and set(areas) == {"E0.0", "E1.2"}


def test_a_grail_numbers_modifiers_are_each_named_with_where_they_come_from():
    # "grail number: 2 (+1)" left the reader to guess what the +1 was.
    from games.rules.ccg import timing
    s = new_game()
    bedevere = join(s, 0, "bedevere")
    s["p"][0]["rep"] = bedevere                       # his Round Table bonus: +1 to grail numbers
    stack_deck(s, 1, ["brave-sir-robin-song"])
    timing.draw_grail(s, 1, [])                       # sung at seat 1: -1 to its grail numbers this turn
    grail_deck(s, 0, [4])
    events = []
    assert timing.draw_grail(s, 0, events, "castle table") == 4
    drawn = s["cards"][s["inst"][s["p"][0]["dead"][-1]]]["title"]
    assert events[0].text == (f"Seat 1 draws {drawn} for a grail number: 4, -1 from Brave Sir Robin's Song, "
                              "+1 from Sir Bedevere's Round Table bonus = 4 — castle table.")
    # Nothing to add: the number alone, as before.
    grail_deck(s, 1, [3])
    events = []
    timing.draw_grail(s, 1, events)
    assert events[0].text.endswith("for a grail number: 3.")
