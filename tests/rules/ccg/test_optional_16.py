"""Rules 16.x: rules switched off by agreement, doubling the ante, three or more players."""
from games.rules.ccg import state as S

from .helpers import GAME, end_turn, grail_deck, new_game, pass_window, place_rt, play, set_area, listed


def test_every_switchable_rule_is_a_known_id():
    s = new_game(rules_off=list(S.RULE_IDS))
    assert set(GAME.view_for(s, 0)["options"]["rules_off"]) == set(S.RULE_IDS)


def test_run_away_without_the_shout_when_that_rule_is_off():
    s = new_game(rules_off=["run_away_shout"])
    set_area(s, "E0.0", ["black-knight"])
    place_rt(s, 0, "E0.0")
    s, _ = GAME.apply(s, 0, {"type": "run_away"})
    assert s["p"][0]["pos"] is None


def test_unique_rule_off_lets_duplicates_stand():
    s = new_game(rules_off=["unique"])
    from .helpers import to_hand, join
    join(s, 0, "lancelot")
    lance = to_hand(s, 0, "lancelot")
    from .helpers import add_card
    s["p"][0]["pages"].append({"c": add_card(s, "page-generic", 0), "k": [], "i": []})
    assert any(m.get("to") == "rt" for m in listed(s, 0) if m.get("card") == lance)


def _double(s):
    s = play(s, s["turn"], {"type": "end_turn", "double": True})
    while GAME.pending(s)[0].kind == "balance":
        seat = GAME.pending(s)[0].seat
        s = play(s, seat, GAME.timeout_move(s, seat))
    return s


def test_doubling_is_offered_only_when_the_option_is_on():
    assert {"type": "end_turn", "double": True} not in listed(new_game(), 0)
    assert {"type": "end_turn", "double": True} in listed(new_game(double_the_ante=True), 0)


def test_doubling_asks_the_opponent_to_accept_or_concede():
    s = _double(new_game(double_the_ante=True))
    assert [(p.seat, p.kind) for p in GAME.pending(s)] == [(1, "offer")]
    assert listed(s, 1) == [{"type": "accept"}, {"type": "concede"}]
    assert GAME.timeout_move(s, 1) == {"type": "concede"}


def test_accepting_doubles_each_stake_from_the_tops_of_the_decks():
    s = _double(new_game(double_the_ante=True))
    tops = [s["p"][0]["deck"][-1], s["p"][1]["deck"][-1]]
    s = play(s, 1, {"type": "accept"})
    assert len(s["ante"]) == 4 and set(tops) <= set(s["ante"])
    assert s["turn"] == 1
    # Seat 1 may not double again until seat 2 has.
    s = end_turn(s)
    s = end_turn(s)
    assert {"type": "end_turn", "double": True} not in listed(s, 0)


def test_the_second_doubling_by_the_other_player_makes_four_each():
    s = _double(new_game(double_the_ante=True))
    s = play(s, 1, {"type": "accept"})
    s = _double(s)  # seat 2 doubles back
    s = play(s, 0, {"type": "accept"})
    assert sorted(s["own"][i] for i in s["ante"]) == [0] * 4 + [1] * 4
    assert {"type": "end_turn", "double": True} in listed(s, 0)


def test_conceding_the_double_loses_and_the_other_searches_on_alone():
    s = _double(new_game(double_the_ante=True))
    s = play(s, 1, {"type": "concede"})
    assert s["p"][1]["out"] and s["solo"] == 0


def test_three_players_the_player_on_the_left_draws_for_adversaries():
    s = new_game(players=3, collection_sizes=[9, 1, 1])
    arthur = s["p"][0]["knights"][0]
    bk = set_area(s, "E0.0", ["black-knight"])[0]
    place_rt(s, 0, "E0.0")
    grail_deck(s, 0, [5])
    grail_deck(s, 1, [3])
    grail_deck(s, 2, [7])
    top2 = s["p"][2]["deck"][-1]
    s = play(s, 0, {"type": "fight", "foe": bk, "method": "combat", "lead": arthur})
    s = pass_window(s)
    assert s["p"][2]["deck"][-1] == top2  # seat 3 drew nothing
    assert bk in s["p"][0]["dead"]  # 5 + 5 against 6 + 3 (seat 2's draw)
