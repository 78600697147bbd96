"""Rules 5.x: joining the Round Table, personas, 'til death do us part."""
from games.rules.ccg import casualties, round_table
from games.rules.ccg import state as S

from .helpers import GAME, grail_deck, join, new_game, pass_window, place_rt, play, set_area, to_hand, listed


def _invite_setup(code="gawain"):
    s = new_game()
    foe = set_area(s, "E0.0", [code])[0]
    place_rt(s, 0, "E0.0")
    return s, foe


def _with_free_page(s, seat=0):
    from .helpers import add_card
    s["p"][seat]["pages"].append({"c": add_card(s, "page-generic", seat), "k": [], "i": []})


def test_a_knight_played_from_hand_joins_only_with_a_page_for_his_coconuts():
    s = new_game()
    k = to_hand(s, 0, "lancelot")
    assert not any(m.get("to") == "rt" for m in listed(s, 0) if m.get("card") == k)
    _with_free_page(s)
    s = play(s, 0, {"type": "play", "card": k, "use": "primary", "to": "rt"})
    assert k in s["p"][0]["knights"] and any(k in pg["k"] for pg in s["p"][0]["pages"])


def _invite(s, foe, ours, theirs):
    grail_deck(s, 0, [ours])
    grail_deck(s, 1, [theirs])
    s = play(s, 0, {"type": "invite", "card": foe, "rep": s["p"][0]["knights"][0]})
    return pass_window(s)


def test_a_lower_number_than_the_representatives_joins():
    s, foe = _invite_setup()
    _with_free_page(s)
    s = _invite(s, foe, 5, 2)
    assert foe in s["p"][0]["knights"]


def test_a_higher_number_refuses_and_becomes_an_adversary():
    s, foe = _invite_setup()
    _with_free_page(s)
    s = _invite(s, foe, 2, 5)
    assert foe in S.area(s, "E0.0")["hostile"] and s["p"][0]["must"]
    assert not any(m["type"] == "invite" for m in listed(s, 0))


def test_equal_numbers_do_not_join_but_he_may_be_asked_again_next_turn_only():
    s, foe = _invite_setup()
    _with_free_page(s)
    s = _invite(s, foe, 4, 4)
    assert foe not in s["p"][0]["knights"] and foe not in S.area(s, "E0.0")["hostile"]
    assert not any(m["type"] == "invite" for m in listed(s, 0))  # once per turn
    from .helpers import end_turn
    s = end_turn(s)
    s = end_turn(s)
    assert any(m["type"] == "invite" for m in listed(s, 0))


def test_a_knight_with_no_free_page_cannot_be_invited():
    s, foe = _invite_setup()
    assert not any(m["type"] == "invite" for m in listed(s, 0))


def test_a_challenged_knight_will_never_join():
    s, foe = _invite_setup()
    _with_free_page(s)
    grail_deck(s, 0, [3])  # Arthur 5 + 3 ties Gawain 4 + 4
    grail_deck(s, 1, [4])
    s = play(s, 0, {"type": "fight", "foe": foe, "method": "combat", "lead": s["p"][0]["knights"][0]})
    s = pass_window(s)
    assert foe in S.area(s, "E0.0")["hostile"]
    assert not round_table.can_invite(s, 0, foe, s["p"][0]["knights"][0])


def test_personas_need_no_page_and_get_no_round_table_bonus():
    s = new_game()
    bed = join(s, 0, "bedevere")
    s["p"][0]["rep"] = bed  # Bedevere's bonus: +1 to his side's grail numbers
    foe = set_area(s, "E0.0", ["tim-the-enchanter"])[0]
    place_rt(s, 0, "E0.0")
    grail_deck(s, 0, [3])
    grail_deck(s, 1, [3])
    s = play(s, 0, {"type": "invite", "card": foe, "rep": bed})
    s = pass_window(s)
    assert foe not in s["p"][0]["personas"]  # 3 against 3: the bonus did not count


def test_the_round_table_bonus_counts_when_inviting_a_knight():
    s, foe = _invite_setup()
    bed = join(s, 0, "bedevere")
    s["p"][0]["rep"] = bed
    _with_free_page(s)
    grail_deck(s, 0, [3])
    grail_deck(s, 1, [3])
    s = play(s, 0, {"type": "invite", "card": foe, "rep": bed})
    s = pass_window(s)
    assert foe in s["p"][0]["knights"]  # 3 + 1 beats 3


def test_a_knight_whose_page_dies_leaves_unless_another_page_is_free():
    s = new_game()
    p = s["p"][0]
    arthur = p["knights"][0]
    patsy = p["pages"][0]["c"]
    casualties.page_dies(s, 0, patsy, [])
    assert arthur not in p["knights"] and arthur in p["dead"]


def test_a_free_page_takes_over_the_knight_of_a_dead_page():
    s = new_game()
    _with_free_page(s)
    p = s["p"][0]
    arthur = p["knights"][0]
    casualties.page_dies(s, 0, p["pages"][0]["c"], [])
    assert arthur in p["knights"] and p["pages"][0]["k"] == [arthur]


def test_a_page_is_never_taken_from_another_knight():
    s = new_game()
    lance = join(s, 0, "lancelot")
    p = s["p"][0]
    arthur = p["knights"][0]
    casualties.page_dies(s, 0, p["pages"][0]["c"], [])
    assert lance in p["knights"] and arthur not in p["knights"]


def test_members_cannot_be_dismissed():
    s = new_game()
    assert not any(m["type"] in ("dismiss", "discard_member") for m in listed(s, 0))


def test_a_members_ability_is_used_once_a_turn():
    s = new_game()
    robin = join(s, 0, "robin")
    s["cards"]["robin"] = dict(s["cards"]["robin"], primary=[{"op": "run_away", "who": "self"}])
    assert {"type": "use", "card": robin} not in listed(s, 0)  # nothing to run from
    set_area(s, "E0.0", ["black-knight"])
    place_rt(s, 0, "E0.0")
    assert {"type": "use", "card": robin} in listed(s, 0)
    s = play(s, 0, {"type": "use", "card": robin})
    assert s["p"][0]["pos"] is None
    assert {"type": "use", "card": robin} not in listed(s, 0)


def test_a_persona_members_ability_helps_in_a_dispute_window():
    from .helpers import add_card
    from games.rules.ccg import round_table as RT
    s = new_game()
    tim = add_card(s, "tim-the-enchanter", 0)
    s["cards"]["tim-the-enchanter"] = dict(s["cards"]["tim-the-enchanter"], primary=[
        {"op": "modify_wits", "amount": 2, "target": "lead_knight", "duration": "dispute"}])
    RT.add_member(s, 0, tim, [])
    keeper = set_area(s, "E0.0", ["bridgekeeper"])[0]
    place_rt(s, 0, "E0.0")
    arthur = s["p"][0]["knights"][0]
    s = play(s, 0, {"type": "fight", "foe": keeper, "method": "wits", "lead": arthur})
    s = play(s, 1, {"type": "pass"})
    s = play(s, 0, {"type": "use", "card": tim})
    from games.rules.ccg import disputes
    assert disputes.member_total(s, 0, arthur, "wits") == 7


def test_another_knight_may_stand_for_the_round_table_once_a_turn():
    s = new_game()
    bed = join(s, 0, "bedevere")
    assert {"type": "represent", "card": bed} in listed(s, 0)
    s = play(s, 0, {"type": "represent", "card": bed})
    assert s["p"][0]["rep"] == bed
    assert not any(m["type"] == "represent" for m in listed(s, 0))
    from games.rules.ccg import turns
    assert turns.side_bonus(s, 0, "grail") == 1  # Bedevere's Round Table bonus now counts


def test_only_one_invitation_a_turn():
    s = new_game()
    gawain, tim = set_area(s, "E0.0", ["gawain", "tim-the-enchanter"])
    place_rt(s, 0, "E0.0")
    _with_free_page(s)
    assert {m["card"] for m in listed(s, 0) if m["type"] == "invite"} == {gawain, tim}
    s = _invite(s, tim, 4, 4)
    assert not any(m["type"] == "invite" for m in listed(s, 0))
