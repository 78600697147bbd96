"""New Rules are data read afresh: they replace only their own slot, act at once mid-turn,
and stop acting the moment they leave."""
from games.rules.fluxx.cards import LEGACY
from games.rules.fluxx.current_rules import draw_count, explain, hand_limit, number, play_target

from .helpers import GAME, decide, give, open_decision, play, put, rules, stack, table_for

# Written for the reconstructed deck, which games stored on it still play (conftest.py).
DECK = LEGACY


def test_rules_of_different_slots_coexist_and_a_same_slot_rule_replaces():
    state = table_for()
    rules(state, "play-2")
    give(state, 0, "hand-limit-2", "keeper-limit-3", "play-3")
    state, _ = play(state, 0, "hand-limit-2")
    assert state["rules"] == ["play-2", "hand-limit-2"]
    state, _ = play(state, 0, "play-3")  # replaces Play 2 only, and allows a third play
    assert state["rules"] == ["hand-limit-2", "play-3"] and state["turn"]["seat"] == 0
    state, _ = play(state, 0, "keeper-limit-3")
    assert state["rules"] == ["hand-limit-2", "play-3", "keeper-limit-3"]


def test_draw_raised_inside_an_action_draws_the_difference_before_the_action_goes_on():
    state = table_for()
    give(state, 0, "draw-2-and-use-em")
    stack(state, "draw-3", "trade-hands", "cow", "coconuts")
    state, _ = play(state, 0, "draw-2-and-use-em")
    state, _ = decide(state, 0, "draw-3")  # now Draw 3: two more cards, at once
    assert state["turn"]["drawn"] == 3 and sorted(state["hands"][0]) == ["coconuts", "cow"]
    state, _ = decide(state, 0, 2)  # ...so they are traded away with the rest of the hand
    assert sorted(state["hands"][2]) == ["coconuts", "cow"]


def test_play_lowered_below_the_plays_made_ends_the_turn():
    state = table_for()
    rules(state, "play-4")
    give(state, 0, "cow", "coconuts", "rules-reset", "swallow")
    state, _ = play(state, 0, "cow")
    state, _ = play(state, 0, "rules-reset")  # back to the Basic Rules' Play 1, two already played
    assert state["turn"]["seat"] == 1 and "swallow" in state["hands"][0]


def test_a_hand_limit_imposed_mid_turn_makes_the_others_discard_at_once_but_not_the_player():
    state = table_for()
    rules(state, "play-2")
    give(state, 0, "hand-limit-1", "cow", "coconuts", "swallow")
    give(state, 1, "catapult", "shrubbery")
    give(state, 2, "holy-grail", "excalibur", "trojan-rabbit")
    state, _ = play(state, 0, "hand-limit-1")
    assert sorted(p.seat for p in GAME.pending(state)) == [1, 2]
    state, _ = decide(state, 2, ["excalibur", "trojan-rabbit"])
    state, _ = decide(state, 1, "shrubbery")
    assert state["hands"][1] == ["catapult"] and state["hands"][2] == ["holy-grail"]
    assert len(state["hands"][0]) == 3 and state["turn"]["seat"] == 0  # the turn player waits for the end
    state, _ = play(state, 0, "cow")
    state, _ = decide(state, 0, "coconuts")
    assert state["hands"][0] == ["swallow"]


def test_a_keeper_limit_imposed_mid_turn_binds_the_others_at_once():
    state = table_for()
    rules(state, "play-2")
    put(state, 2, "cow", "coconuts", "swallow", "death")
    give(state, 0, "keeper-limit-2", "catapult")
    state, _ = play(state, 0, "keeper-limit-2")
    d = open_decision(state, 2)
    assert d["kind"] == "discard_keepers" and [o["value"] for o in d["options"]] == ["cow", "coconuts", "swallow"]
    state, _ = decide(state, 2, "coconuts")
    assert state["tables"][2] == ["cow", "swallow", "death"]


def test_a_limit_removed_mid_turn_stops_binding_at_once():
    state = table_for()
    rules(state, "keeper-limit-2", "play-3")
    put(state, 0, "cow", "coconuts")
    give(state, 0, "swallow", "rules-reset", "catapult")
    state, _ = play(state, 0, "swallow")
    state, _ = play(state, 0, "rules-reset")  # now Play 1: two played, turn over, no Keeper Limit to meet
    assert sorted(state["tables"][0]) == ["coconuts", "cow", "swallow"]
    assert state["turn"]["seat"] == 1


def test_one_two_five_turns_every_printed_three_into_five_on_rules_and_actions():
    state = table_for()
    rules(state, "one-two-five", "play-3")
    assert play_target(state, 0) == 5 and number(state, 3) == 5 and number(state, 2) == 2
    assert explain(state, 0)["play"]["text"] == "Play 3 (One, Two, Five! (Three, Sir!) makes it 5)"
    give(state, 0, "draw-3-play-2", "cow")
    state, _ = play(state, 0, "draw-3-play-2")
    assert len(open_decision(state, 0)["options"]) == 5  # "draw 3" drew five


def test_one_two_five_reaches_the_keeper_limit_and_goal_counts():
    state = table_for()
    rules(state, "keeper-limit-3")
    assert GAME.view_for(state, 0)["effective"]["keeper_limit"]["value"] == 3
    rules(state, "one-two-five")
    assert GAME.view_for(state, 0)["effective"]["keeper_limit"]["value"] == 5
    put(state, 0, "king-arthur", "sir-lancelot", "sir-galahad")
    give(state, 0, "knights-of-the-round-table")
    state, _ = play(state, 0, "knights-of-the-round-table")
    assert GAME.outcome(state) is None  # three knights are not "3" any more: five are needed


def test_poor_bonus_follows_the_keeper_counts_as_they_change():
    state = table_for()
    rules(state, "poor-bonus", "play-2")
    put(state, 1, "cow")
    put(state, 2, "coconuts")
    assert draw_count(state, 0) == 2
    give(state, 0, "swallow", "catapult", "shrubbery")
    state, _ = play(state, 0, "swallow")  # the bonus card came at once; now level: no longer poorest
    assert draw_count(state, 0) == 1 and state["turn"]["drawn"] == 2


def test_rich_bonus_gives_the_single_richest_player_one_more_play():
    state = table_for()
    rules(state, "rich-bonus")
    put(state, 0, "cow")
    assert play_target(state, 0) == 2 and play_target(state, 1) == 1
    put(state, 1, "coconuts")
    assert play_target(state, 0) == 1  # a tie for most: nobody is the richest


def test_hand_limit_zero_empties_the_others_hands_without_asking():
    state = table_for()
    give(state, 2, "cow", "coconuts")
    give(state, 0, "hand-limit-0")
    state, _ = play(state, 0, "hand-limit-0")
    assert hand_limit(state) == 0 and state["hands"][2] == [] and "decisions" not in state


def test_cards_received_out_of_turn_beyond_the_limit_are_discarded_before_the_action_goes_on():
    state = table_for(players=4)
    rules(state, "hand-limit-1")
    give(state, 1, "shrubbery")
    give(state, 0, "everybody-gets-1")
    stack(state, "coconuts", "swallow", "catapult", "cow")
    state, _ = play(state, 0, "everybody-gets-1")
    state, _ = decide(state, 0, "coconuts")  # seat 2 now holds two cards, one over the limit
    assert [(p.seat, p.kind) for p in GAME.pending(state)] == [(1, "discard")]
    state, _ = decide(state, 1, "shrubbery")
    assert state["hands"][1] == ["coconuts"]
    assert [(p.seat, p.kind) for p in GAME.pending(state)] == [(0, "give_card")]  # the action resumes


def test_view_explains_each_number_with_the_rules_behind_it():
    state = table_for()
    rules(state, "draw-3", "one-two-five", "hand-limit-2", "double-agenda")
    eff = GAME.view_for(state, 1)["effective"]
    assert eff["draw"] == {"value": 5, "text": "Draw 3 (One, Two, Five! (Three, Sir!) makes it 5)",
                           "label": "Draw 5", "why": "Draw 3 (One, Two, Five! (Three, Sir!) makes it 5)"}
    assert eff["play"] == {"value": 1, "text": "Basic Rules: play 1", "label": "Play 1", "why": "Basic Rules"}
    assert eff["hand_limit"] == {"value": 2, "text": "Hand Limit 2", "label": "Hand limit 2", "why": None}
    assert eff["keeper_limit"] is None
    assert eff["goal_limit"] == {"value": 2, "text": "Double Agenda", "label": "Goals at once: 2", "why": "Double Agenda"}


def test_each_number_is_said_once_never_its_label_again():
    # "Keeper limit 2 — Keeper Limit 2" read the same thing twice: the card's name is left out
    # when it only says the number again; a card that changes it, or another source, stays.
    state = table_for()
    rules(state, "keeper-limit-3", "hand-limit-2", "play-all")
    eff = GAME.view_for(state, 0)["effective"]
    assert (eff["keeper_limit"]["label"], eff["keeper_limit"]["why"]) == ("Keeper limit 3", None)
    assert (eff["hand_limit"]["label"], eff["hand_limit"]["why"]) == ("Hand limit 2", None)
    assert (eff["play"]["label"], eff["play"]["why"]) == ("Play all", "every card in hand")
    assert (eff["draw"]["label"], eff["draw"]["why"]) == ("Draw 1", "Basic Rules")
    assert (eff["goal_limit"]["label"], eff["goal_limit"]["why"]) == ("Goals at once: 1", "Basic Rules")
    rules(state, "one-two-five")
    eff = GAME.view_for(state, 0)["effective"]
    assert (eff["keeper_limit"]["label"], eff["keeper_limit"]["why"]) == \
        ("Keeper limit 5", "Keeper Limit 3 (One, Two, Five! (Three, Sir!) makes it 5)")
    for entry in eff.values():  # no line says its label twice, in any case
        if entry and entry["why"]:
            assert not entry["why"].casefold().startswith(entry["label"].casefold()), entry
