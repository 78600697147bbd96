"""Every answer of the rulebook's FAQ (and the worked examples around it) as a named test."""
import pytest

from games.rules.fluxx.cards import LEGACY
from games.rules.base import IllegalMove
from games.rules.fluxx.current_rules import draw_count, hand_limit, play_target

from .helpers import (GAME, act, decide, discard, give, goals, new_game, open_decision, play, put, rules, stack,
                      table_for)

# Written for the reconstructed deck, which games stored on it still play (conftest.py).
DECK = LEGACY


def test_faq_a_new_rule_replaces_only_the_rule_about_the_same_thing():
    state = table_for()
    rules(state, "draw-2", "hand-limit-2")
    give(state, 0, "draw-4", "keeper-limit-3")
    state, events = play(state, 0, "draw-4")
    assert state["rules"] == ["hand-limit-2", "draw-4"]  # Draw 4 replaced Draw 2; the Hand Limit stays
    assert "draw-2" in state["discard"]
    assert "replaces Draw 2" in " ".join(e.text for e in events)


def test_faq_a_new_rule_supersedes_the_basic_rules_which_stay_on_the_table():
    state = table_for()
    give(state, 0, "play-3", "cow", "coconuts", "swallow")
    state, _ = play(state, 0, "play-3")
    assert play_target(state, 0) == 3
    view = GAME.view_for(state, 0)
    assert view["basic_rules"] == "basic-rules" and view["effective"]["play"]["value"] == 3
    assert "basic-rules" not in state["discard"]


def test_faq_play_4_with_only_two_cards_ends_the_turn_when_the_hand_is_empty():
    state = table_for()
    rules(state, "play-4")
    give(state, 0, "cow", "coconuts")
    state, _ = play(state, 0, "cow")
    assert state["turn"]["seat"] == 0
    state, _ = play(state, 0, "coconuts")
    assert state["turn"]["seat"] == 1  # two cards short of four: the turn is over anyway


def test_faq_play_2_changed_to_play_3_on_the_second_play_means_one_more_play():
    state = table_for()
    rules(state, "play-2")
    give(state, 0, "cow", "play-3", "coconuts", "swallow")
    state, _ = play(state, 0, "cow")
    state, _ = play(state, 0, "play-3")
    assert state["turn"]["seat"] == 0 and state["turn"]["played"] == 2
    state, _ = play(state, 0, "coconuts")
    assert state["turn"]["seat"] == 1 and "swallow" in state["hands"][0]


def test_faq_play_all_includes_cards_picked_up_while_playing():
    state = table_for()
    rules(state, "play-all")
    give(state, 0, "jackpot")
    stack(state, "cow", "coconuts", "swallow")
    state, _ = play(state, 0, "jackpot")
    assert state["turn"]["seat"] == 0 and sorted(state["hands"][0]) == ["coconuts", "cow", "swallow"]
    for card in ("cow", "coconuts", "swallow"):
        state, _ = play(state, 0, card)
    assert state["turn"]["seat"] == 1 and state["hands"][0] == []


def test_faq_you_cannot_grab_another_players_keeper_without_steal_a_keeper():
    state = table_for()
    goals(state, "the-quest")
    put(state, 0, "king-arthur")
    put(state, 1, "holy-grail")
    give(state, 0, "steal-a-keeper", "cow")
    assert not any(m.get("target") == "holy-grail" for m in GAME.legal_moves(state, 0))
    state, _ = play(state, 0, "steal-a-keeper")
    state, events = decide(state, 0, "holy-grail")
    assert GAME.outcome(state).winners == (0,)


def test_faq_no_keeper_limit_unless_a_rule_says_so_and_the_limit_is_met_at_the_end_of_the_turn():
    state = table_for()
    put(state, 0, "cow", "coconuts")
    rules(state, "keeper-limit-2", "play-2")
    give(state, 0, "swallow", "catapult")
    state, _ = play(state, 0, "swallow")
    assert len(state["tables"][0]) == 3 and "decisions" not in state  # over the limit mid-turn: fine
    state, _ = play(state, 0, "catapult")
    d = open_decision(state, 0)
    assert d["kind"] == "discard_keepers" and d["pick"] == [2, 2]
    state, _ = decide(state, 0, ["cow", "swallow"])
    assert sorted(state["tables"][0]) == ["catapult", "coconuts"] and state["turn"]["seat"] == 1


def test_faq_a_limit_removed_during_your_turn_no_longer_needs_meeting():
    state = table_for()
    rules(state, "hand-limit-0", "play-2")
    give(state, 0, "no-limits", "cow", "coconuts", "swallow")
    state, _ = play(state, 0, "no-limits")
    state, _ = play(state, 0, "cow")
    assert state["turn"]["seat"] == 1
    assert sorted(state["hands"][0]) == ["coconuts", "swallow"]  # nothing discarded


def test_faq_limits_ignore_creepers_and_a_creeper_is_no_keeper():
    state = table_for()
    rules(state, "keeper-limit-2")
    put(state, 1, "cow", "coconuts", "death", "black-knight", "killer-rabbit")
    give(state, 0, "swallow")
    state, _ = play(state, 0, "swallow")
    assert "decisions" not in state and len(state["tables"][1]) == 5


def test_faq_creepers_can_be_removed_by_actions_rules_and_keeper_powers():
    state = table_for()
    put(state, 0, "death", "excalibur")
    put(state, 1, "black-knight")
    give(state, 0, "creeper-sweeper", "cow")
    state, _ = act(state, 0, {"type": "power", "card": "excalibur", "target": "death", "to": 1})
    assert "death" in state["tables"][1]
    state, _ = play(state, 0, "creeper-sweeper")
    assert state["tables"][1] == [] and {"death", "black-knight"} <= set(state["discard"])


def test_faq_an_unnamed_creeper_blocks_a_goal_that_names_another_creeper():
    state = table_for()
    put(state, 0, "holy-hand-grenade", "killer-rabbit", "death")
    give(state, 0, "bring-forth-the-grenade")
    state, _ = play(state, 0, "bring-forth-the-grenade")
    assert GAME.outcome(state) is None
    state = table_for()
    put(state, 0, "holy-hand-grenade", "killer-rabbit")
    give(state, 0, "bring-forth-the-grenade")
    state, _ = play(state, 0, "bring-forth-the-grenade")
    assert GAME.outcome(state).winners == (0,)


def test_faq_a_hand_limit_is_a_cap_not_a_quota():
    state = table_for()
    give(state, 2, "cow")
    give(state, 0, "hand-limit-2")
    state, _ = play(state, 0, "hand-limit-2")
    assert hand_limit(state) == 2 and state["hands"][2] == ["cow"] and "decisions" not in state


def test_faq_you_choose_what_to_discard_for_a_limit():
    state = table_for()
    give(state, 2, "cow", "coconuts", "swallow", "catapult")
    give(state, 0, "hand-limit-2")
    state, _ = play(state, 0, "hand-limit-2")
    d = open_decision(state, 2)
    assert {o["value"] for o in d["options"]} == {"cow", "coconuts", "swallow", "catapult"}
    state, _ = decide(state, 2, ["cow", "swallow"])
    assert state["hands"][2] == ["coconuts", "catapult"]


def test_faq_trash_a_keeper_may_take_your_own():
    state = table_for()
    put(state, 0, "cow")
    give(state, 0, "trash-a-keeper")
    state, _ = play(state, 0, "trash-a-keeper")
    assert [o["value"] for o in open_decision(state, 0)["options"]] == ["cow"]
    state, _ = decide(state, 0, "cow")
    assert "cow" in state["discard"] and state["tables"][0] == []


def test_faq_double_agenda_does_not_force_the_next_card_to_be_a_goal():
    state = table_for()
    rules(state, "play-2")
    goals(state, "the-quest")
    give(state, 0, "double-agenda", "cow", "brave-sir-robin")
    state, _ = play(state, 0, "double-agenda")
    assert {"type": "play", "card": "cow"} in GAME.legal_moves(state, 0)
    state, _ = play(state, 0, "cow")
    assert state["goals"] == ["the-quest"] and state["turn"]["seat"] == 1


def test_faq_removing_double_agenda_lets_the_remover_choose_the_goal_that_stays():
    state = table_for()
    rules(state, "double-agenda")
    goals(state, "the-quest", "brave-sir-robin")
    give(state, 0, "trash-a-new-rule")
    state, _ = play(state, 0, "trash-a-new-rule")
    state, _ = decide(state, 0, "double-agenda")
    d = open_decision(state, 0)
    assert d["kind"] == "keep_goal"
    state, _ = decide(state, 0, "brave-sir-robin")
    assert state["goals"] == ["brave-sir-robin"] and "the-quest" in state["discard"]


def test_faq_nothing_is_played_out_of_turn_but_limit_decisions_are_made():
    state = table_for()
    give(state, 1, "cow", "coconuts", "swallow")
    give(state, 0, "hand-limit-1")
    assert GAME.legal_moves(state, 1) == []
    with pytest.raises(IllegalMove):
        GAME.apply(state, 1, {"type": "play", "card": "cow"})
    state, _ = play(state, 0, "hand-limit-1")
    assert [p.seat for p in GAME.pending(state)] == [1]
    assert all(m["type"] == "decide" for m in GAME.legal_moves(state, 1))


def test_faq_no_hand_bonus_only_counts_at_the_start_of_a_turn():
    state = table_for()
    give(state, 0, "no-hand-bonus")
    state, _ = play(state, 0, "no-hand-bonus")
    assert state["hands"][0] == []  # the player who laid it down waits
    # Seat 2 now starts a turn with an empty hand: 3 bonus cards, then the normal draw of 1
    assert len(state["hands"][1]) == 4


def test_faq_trade_hands_with_empty_handed_players_still_trades():
    state = table_for()
    give(state, 0, "trade-hands", "cow", "coconuts")
    state, _ = play(state, 0, "trade-hands")
    state, _ = decide(state, 0, 2)
    assert state["hands"][0] == [] and sorted(state["hands"][2]) == ["coconuts", "cow"]


def test_faq_two_goals_played_in_quick_succession_each_get_their_instant():
    state = table_for()
    put(state, 1, "king-arthur", "holy-grail")  # seat 2 meets The Quest
    give(state, 0, "draw-2-and-use-em")
    stack(state, "the-quest", "brave-sir-robin")
    state, _ = play(state, 0, "draw-2-and-use-em")
    state, _ = decide(state, 0, "the-quest")  # hoping to bury it under the other goal: too late
    assert GAME.outcome(state).winners == (1,)


def test_faq_keeper_powers_are_free_actions_not_plays():
    state = table_for()
    put(state, 0, "excalibur", "death")
    give(state, 0, "cow", "coconuts")
    state, _ = act(state, 0, {"type": "power", "card": "excalibur", "target": "death", "to": 2})
    assert state["turn"]["played"] == 0 and state["turn"]["seat"] == 0
    assert "death" in state["tables"][2]
    with pytest.raises(IllegalMove, match="already been used"):
        GAME.apply(state, 0, {"type": "power", "card": "excalibur", "target": "death", "to": 1})


# --- the worked examples of the rulebook ---------------------------------------------

def test_example_draw_4_after_drawing_1_draws_3_more_and_the_next_player_draws_4():
    state = table_for()
    rules(state, "play-2")
    give(state, 0, "draw-4", "cow")
    before = len(state["draw"])
    state, _ = play(state, 0, "draw-4")
    assert before - len(state["draw"]) == 3 and state["turn"]["drawn"] == 4
    assert len(state["hands"][0]) == 4
    state, _ = play(state, 0, "cow")
    assert state["turn"]["seat"] == 1 and len(state["hands"][1]) == 4  # the next player draws 4


def test_example_draw_2_after_drawing_4_draws_no_more_and_discards_draw_4():
    state = table_for(seat=1)
    rules(state, "draw-4")
    state["turn"]["drawn"] = 4
    give(state, 1, "draw-2")
    before = len(state["draw"])
    state, _ = play(state, 1, "draw-2")
    assert before == len(state["draw"]) + draw_count(state, 2)  # only seat 3's new turn drew
    assert "draw-4" in state["discard"] and state["rules"] == ["draw-2"]


def test_example_draw_2_and_use_em_with_draw_3_play_2_inside_is_one_play():
    state = table_for()
    rules(state, "play-2")
    give(state, 0, "draw-2-and-use-em", "cow")
    stack(state, "draw-3-play-2", "coconuts", "swallow", "catapult", "shrubbery")
    state, _ = play(state, 0, "draw-2-and-use-em")
    state, _ = decide(state, 0, "draw-3-play-2")
    state, _ = decide(state, 0, "swallow")
    state, _ = decide(state, 0, "catapult")  # and the third, The Shrubbery, is thrown away
    assert state["turn"]["played"] == 1 and state["turn"]["seat"] == 0
    assert {"swallow", "catapult", "coconuts"} <= set(state["tables"][0])
    assert "shrubbery" in state["discard"]


def test_example_creepers_drawn_by_an_action_go_down_and_are_replaced():
    state = table_for()
    give(state, 0, "draw-3-play-2")
    stack(state, "death", "cow", "black-knight", "coconuts", "swallow")
    state, _ = play(state, 0, "draw-3-play-2")
    assert {"death", "black-knight"} <= set(state["tables"][0])
    assert sorted(o["value"] for o in open_decision(state, 0)["options"]) == ["coconuts", "cow", "swallow"]


def test_note_discarding_is_not_playing_there_is_no_discard_move():
    state = table_for()
    give(state, 0, "cow", "holy-grail")
    assert {m["type"] for m in GAME.legal_moves(state, 0)} == {"play"}
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, {"type": "discard", "card": "cow"})


def test_note_a_forced_play_can_make_someone_else_win():
    state = table_for()
    put(state, 2, "sir-robin", "robins-minstrels")
    give(state, 0, "brave-sir-robin")
    state, _ = play(state, 0, "brave-sir-robin")
    assert GAME.outcome(state).winners == (2,)


def test_note_an_exhausted_draw_pile_is_refilled_from_the_shuffled_discards():
    state = table_for()
    discard(state, *state["draw"][:-2])  # two cards left to draw
    give(state, 0, "jackpot")
    state, events = play(state, 0, "jackpot")
    assert any(e.kind == "reshuffle" for e in events)
    assert len(state["hands"][0]) == 3


def test_note_starting_hands_hold_three_non_creepers():
    for seed in range(40):
        state = new_game(4, seed)
        for seat in range(4):
            cards = state["hands"][seat]
            size = len(cards) - (state["turn"]["drawn"] if seat == state["turn"]["seat"] else 0)
            assert size == 3 and not any(c in cards for c in ("death", "black-beast", "killer-rabbit",
                                                                "spanish-inquisition", "black-knight"))


def test_note_with_both_piles_empty_a_draw_simply_does_not_happen():
    state = table_for()
    rules(state, "play-2")
    give(state, 0, "draw-5", "jackpot")
    state["tables"][2].extend(state["draw"] + state["discard"])  # every other card out of reach
    state["draw"], state["discard"] = [], []
    state, events = play(state, 0, "draw-5")
    assert state["turn"]["drawn"] == 5 and state["hands"][0] == ["jackpot"]  # counted, not retried
    assert any(e.kind == "empty" for e in events)
    state, events = play(state, 0, "jackpot")
    assert state["turn"]["seat"] == 1


def test_note_creepers_dealt_at_the_start_go_down_and_are_replaced():
    found = 0
    for seed in range(60):
        state = new_game(5, seed)
        for seat in range(5):
            creepers = list(state["tables"][seat])
            if not creepers:
                continue
            found += 1
            assert GAME.view_for(state, None)["creepers"][seat] == creepers
            dealt = len(state["hands"][seat]) - (state["turn"]["drawn"] if seat == state["turn"]["seat"] else 0)
            assert dealt == 3 and not set(creepers) & set(state["hands"][seat])
    assert found >= 5  # the deal does meet Creepers, and puts them on the table


# --- the publisher's Monty Python Fluxx FAQ (looney-faq in docs/rules/fluxx.md) -------------

def test_mp_faq_the_animator_and_the_finger_of_god_each_smite_once_in_the_same_turn():
    state = table_for()
    rules(state, "play-2")
    put(state, 0, "animator", "death")
    put(state, 1, "black-knight")
    give(state, 0, "finger-of-god", "cow")
    state, _ = act(state, 0, {"type": "power", "card": "animator", "target": "death"})
    state, _ = play(state, 0, "finger-of-god")
    assert not any(m.get("card") == "animator" for m in GAME.legal_moves(state, 0))  # once, and the Finger is in play
    state, _ = act(state, 0, {"type": "power", "card": "finger-of-god", "target": "black-knight"})
    assert {"death", "black-knight"} <= set(state["discard"])


def test_mp_faq_the_animator_does_not_smite_while_the_finger_of_god_is_in_play():
    state = table_for()
    put(state, 0, "animator")
    put(state, 2, "finger-of-god", "death")
    give(state, 0, "cow")
    with pytest.raises(IllegalMove, match="only while The Finger of God is not in play"):
        GAME.apply(state, 0, {"type": "power", "card": "animator", "target": "death"})


def test_mp_faq_get_on_with_it_ends_the_turn_at_once_and_creepers_drawn_stay_put():
    state = table_for()
    rules(state, "get-on-with-it")
    put(state, 0, "finger-of-god")
    give(state, 0, "cow", "coconuts")
    stack(state, "death", "swallow", "catapult", "shrubbery")
    state, _ = act(state, 0, {"type": "get_on_with_it"})
    assert state["turn"]["seat"] == 1 and "death" in state["tables"][0]  # no chance to smite it now
    assert sorted(state["hands"][0]) == ["catapult", "shrubbery", "swallow"]
