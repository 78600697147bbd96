"""The engine executes every op of the shared effect vocabulary."""
import pytest

from games.rules.ccg import disputes, effects as FX
from games.rules.ccg import state as S
from games.rules.ccg.vocabulary import EFFECT_OPS

from . import cards_for_tests as T
from .helpers import add_card, end_turn, join, new_game, place_rt, set_area, listed

COVERED = set()


def run(s, effs, player=0, opp=1, ctx=None, src=None):
    for e in effs:
        COVERED.add(e["op"])
    events = []
    src = src if src is not None else add_card(s, "french-taunt", player)
    keep = FX.run(s, effs, player, opp, ctx or {}, events, src)
    return keep, events


def test_modify_combat_on_own_knight_counts_in_disputes():
    s = new_game()
    arthur = s["p"][0]["knights"][0]
    run(s, [{"op": "modify_combat", "amount": 2, "target": "own_knight", "duration": "turn"}])
    assert disputes.member_total(s, 0, arthur, "combat") == 7
    s = end_turn(s)
    assert disputes.member_total(s, 0, arthur, "combat") == 5  # 'turn' ran out


def test_modify_wits_on_the_adversary():
    s = new_game()
    keeper = set_area(s, "E0.0", ["bridgekeeper"])[0]
    place_rt(s, 0, "E0.0")
    run(s, [{"op": "modify_wits", "amount": -2, "target": "adversary", "duration": "dispute"}], ctx={"foe": keeper})
    assert disputes.foe_total(s, keeper, "wits", "E0.0") == 3


def test_a_permanent_modifier_keeps_its_card_in_play():
    s = new_game()
    keep, _ = run(s, [{"op": "modify_combat", "amount": 1, "target": "self", "duration": "permanent"}])
    assert keep == ("rt", 0)


def test_next_turn_effects_wait_for_the_affected_players_turn():
    s = new_game()
    run(s, [{"op": "modify_grail_number", "amount": -2, "who": "opponent", "duration": "next_turn"}])
    assert FX.grail_bonus(s, 1) == 0
    s = end_turn(s)
    assert FX.grail_bonus(s, 1) == -2
    s = end_turn(s)
    assert FX.grail_bonus(s, 1) == 0


def test_draw_and_discard():
    s = new_game()
    hand0, hand1 = len(s["p"][0]["hand"]), len(s["p"][1]["hand"])
    run(s, [{"op": "draw_cards", "count": 2, "who": "self"},
            {"op": "discard_cards", "count": 1, "who": "opponent", "chooser": "random"}])
    assert len(s["p"][0]["hand"]) == hand0 + 2 and len(s["p"][1]["hand"]) == hand1 - 1


def test_discard_chosen_by_the_owner_is_a_pending_choice():
    s = new_game()
    run(s, [{"op": "discard_cards", "count": 2, "who": "opponent", "chooser": "owner"}])
    assert s["steps"][-1] == {"k": "choice", "what": "discard", "seat": 1, "left": 2}


def test_peek_hand_shows_the_hand_only_to_the_player():
    s = new_game()
    _, events = run(s, [{"op": "peek_hand", "who": "opponent"}])
    private = [e for e in events if e.data.get("hand")]
    assert private and all(e.audience == (0,) for e in private)


def test_end_turn_skip_turns_and_block_movement():
    s = new_game()
    run(s, [{"op": "end_turn", "who": "opponent"}, {"op": "skip_turns", "who": "opponent", "turns": 1},
            {"op": "block_movement", "who": "self", "turns": 1}])
    assert s["p"][1]["fx"]["end_now"] and s["p"][1]["fx"]["skip"] == 1 and s["p"][0]["fx"]["block"] == 1
    s = end_turn(s)
    assert s["turn"] == 0  # seat 2 lost the turn


def test_disable_member_keeps_a_knight_from_leading():
    s = new_game()
    lance = join(s, 1, "lancelot")
    run(s, [{"op": "disable_member", "target": "opponent_knight", "turns": 2}], ctx={"pick": lance})
    assert lance not in disputes.leads(s, 1, "combat")


def test_slay_and_eliminate():
    s = new_game()
    lance = join(s, 1, "lancelot")
    bk = set_area(s, "E0.0", ["black-knight"])[0]
    place_rt(s, 0, "E0.0")
    run(s, [{"op": "slay", "target": "adversary"}], ctx={"foe": bk})
    run(s, [{"op": "eliminate", "target": "opponent_knight"}], ctx={"pick": lance})
    assert bk in s["p"][0]["dead"] and lance in s["elim"]
    arthur = s["p"][0]["knights"][0]
    run(s, [{"op": "slay", "target": "own_knight"}], ctx={"pick": arthur})
    assert arthur in s["p"][0]["dead"]


def test_force_dispute_limits_the_method():
    s = new_game()
    bk = set_area(s, "E0.0", ["black-knight"])[0]
    place_rt(s, 0, "E0.0")
    run(s, [{"op": "force_dispute", "method": "wits"}])
    assert disputes.methods_for(s, 0, bk) == ["wits"]


def test_extra_movement():
    s = new_game()
    run(s, [{"op": "extra_movement", "spaces": 2}])
    assert s["p"][0]["fx"]["extra_move"] == 2


def test_run_away_effect_sends_the_round_table_back():
    s = new_game()
    set_area(s, "E1.0", ["black-knight"], owner=1)
    place_rt(s, 1, "E1.0")
    run(s, [{"op": "run_away", "who": "opponent"}])
    assert s["p"][1]["pos"] is None


def test_auto_join_and_prevent_join():
    from games.rules.ccg import round_table
    s = new_game()
    run(s, [{"op": "auto_join"}])
    assert round_table.join_blocked(s, 0) == "auto"
    run(s, [{"op": "prevent_join", "turns": 1}])
    assert round_table.join_blocked(s, 0) == "blocked"


def test_cancel_last_card():
    s = new_game()
    trap = add_card(s, "rabbit-trap", 1)
    s["played"].append([trap, S.next_seq(s)])
    run(s, [{"op": "modify_combat", "amount": -3, "target": "opponent", "duration": "turn"}], player=1, opp=0, src=trap)
    run(s, [{"op": "cancel_last_card"}])
    assert s["mods"] == []


def test_return_from_dead_cart():
    s = new_game()
    dead = add_card(s, "moor", 0)
    s["p"][0]["dead"].append(dead)
    run(s, [{"op": "return_from_dead_cart", "count": 1}])
    assert dead in s["p"][0]["hand"]


def test_extra_draws_in_area_attach_to_the_area():
    from games.rules.ccg import turns
    s = new_game()
    set_area(s, "E0.0", ["moor"])
    place_rt(s, 0, "E0.0")
    card = add_card(s, dict(T.PLAGUE, code="fertile", primary=[
        {"op": "extra_draws_in_area", "count": 2}]), 0)
    keep, _ = run(s, [{"op": "extra_draws_in_area", "count": 2}], src=card)
    assert keep == ("area", "E0.0")
    S.area(s, "E0.0")["att"].append(card)
    assert turns.draw_bonus(s, 0) == 2


def test_search_bonus():
    s = new_game()
    run(s, [{"op": "search_bonus", "amount": 2}])
    assert s["p"][0]["fx"]["search_bonus"] == 2


def test_end_game_draw_and_opponent_loses():
    s = new_game()
    run(s, [{"op": "end_game", "result": "opponent_loses"}])
    assert s["p"][1]["out"] and s["solo"] == 0
    s2 = new_game()
    run(s2, [{"op": "end_game", "result": "draw"}])
    assert s2["result"]["draw"] and s2["result"]["ante"] == "carried"


def test_zz_every_vocabulary_op_is_exercised_here():
    # Runs last in this module (pytest keeps file order).
    assert COVERED == set(EFFECT_OPS)


@pytest.mark.parametrize("op", sorted(EFFECT_OPS))
def test_every_op_has_a_handler(op):
    assert op in FX._HANDLERS


def test_slaying_the_adversary_outside_a_dispute_aims_at_the_players_own_foe():
    s = new_game()
    mine = set_area(s, "E0.0", ["black-knight"])[0]
    theirs = set_area(s, "E1.0", ["vicious-chicken-of-bristol"], owner=1)[0]
    place_rt(s, 0, "E0.0")
    place_rt(s, 1, "E1.0")
    run(s, [{"op": "slay", "target": "adversary"}])
    assert mine in s["p"][0]["dead"] and theirs not in s["p"][1]["dead"]


def test_outside_a_dispute_the_player_names_which_adversary_to_slay():
    from .helpers import GAME, play, to_hand
    s = new_game()
    mine = set_area(s, "E0.0", ["black-knight"])[0]
    theirs = set_area(s, "E1.0", ["vicious-chicken-of-bristol"], owner=1)[0]
    place_rt(s, 0, "E0.0")
    place_rt(s, 1, "E1.0")
    iid = to_hand(s, 0, "rabbit-trap")
    s["cards"]["rabbit-trap"] = dict(s["cards"]["rabbit-trap"], secondary=[{"op": "slay", "target": "adversary"}])
    moves = [m for m in listed(s, 0) if m.get("card") == iid and m.get("use") == "secondary"]
    assert {m["foe"] for m in moves} == {mine, theirs}
    s = play(s, 0, {"type": "play", "card": iid, "use": "secondary", "foe": theirs})
    assert theirs in s["p"][1]["dead"] and mine not in s["p"][0]["dead"]
