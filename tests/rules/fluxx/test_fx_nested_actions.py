"""Actions inside Actions, to any depth, are all part of one play."""
from games.rules.fluxx.cards import LEGACY
from games.rules.fluxx.cards import EFFECT

from .helpers import GAME, decide, discard, give, open_decision, play, put, rules, stack, table_for

# Written for the reconstructed deck, which games stored on it still play (conftest.py).
DECK = LEGACY


def _depth(state):
    """How many Actions are being carried out, one inside the other."""
    return sum(1 for f in state["effects"] if f["op"] == EFFECT.get(f.get("card"), {}).get("op"))


def test_actions_nested_three_deep_and_more_count_as_one_play():
    state = table_for()
    rules(state, "play-2")
    discard(state, "jackpot")
    give(state, 0, "draw-2-and-use-em", "cow")
    stack(state, "draw-3-play-2", "coconuts",                 # drawn by Draw 2 and Use 'Em
          "lets-do-that-again", "swallow", "catapult",        # drawn by Draw 3, Play 2 of Them
          "shrubbery", "holy-grail", "excalibur")             # drawn by Jackpot, played again
    state, _ = play(state, 0, "draw-2-and-use-em")
    state, _ = decide(state, 0, "draw-3-play-2")             # depth 2
    assert _depth(state) == 2
    state, _ = decide(state, 0, "lets-do-that-again")        # depth 3: choose from the discards
    assert _depth(state) == 3 and open_decision(state, 0)["kind"] == "choose_card"
    state, _ = decide(state, 0, "jackpot")                   # depth 4: Jackpot draws 3 into the hand
    assert {"shrubbery", "holy-grail", "excalibur"} <= set(state["hands"][0])
    state, _ = decide(state, 0, "swallow")                   # Draw 3's second play
    assert state["effects"] == []                            # Draw 3 done; Draw 2 played its second: coconuts
    assert "catapult" in state["discard"]
    assert {"swallow", "coconuts"} <= set(state["tables"][0])
    assert state["turn"]["played"] == 1 and state["turn"]["seat"] == 0
    assert {"draw-2-and-use-em", "draw-3-play-2", "lets-do-that-again", "jackpot"} <= set(state["discard"])
    state, _ = play(state, 0, "cow")
    assert state["turn"]["seat"] == 1


def test_a_nested_action_that_ends_in_a_goal_can_win_mid_stack():
    state = table_for()
    put(state, 0, "king-arthur", "holy-grail")
    give(state, 0, "draw-2-and-use-em")
    stack(state, "draw-3-play-2", "cow", "the-quest", "coconuts", "swallow")
    state, _ = play(state, 0, "draw-2-and-use-em")
    state, _ = decide(state, 0, "draw-3-play-2")
    state, _ = decide(state, 0, "the-quest")
    assert GAME.outcome(state).winners == (0,)
    assert state["effects"] == [] and state["limbo"] == []  # cards in mid-air went to the discards


def test_use_what_you_take_plays_an_action_taken_from_another_hand_inside_the_play():
    state = table_for()
    rules(state, "play-2")
    give(state, 2, "draw-2-and-use-em")
    give(state, 0, "use-what-you-take", "shrubbery")
    stack(state, "cow", "coconuts")
    state, _ = play(state, 0, "use-what-you-take")
    state, _ = decide(state, 0, 2)
    state, _ = decide(state, 0, "cow")
    assert sorted(state["tables"][0]) == ["coconuts", "cow"] and state["turn"]["played"] == 1


def test_a_rule_played_inside_an_action_takes_effect_before_the_next_card_of_the_action():
    state = table_for()
    put(state, 0, "cow", "coconuts", "swallow")
    give(state, 0, "draw-2-and-use-em")
    stack(state, "keeper-limit-2", "catapult")
    state, _ = play(state, 0, "draw-2-and-use-em")
    state, _ = decide(state, 0, "keeper-limit-2")
    # The turn player is over the new limit but only complies when the turn ends.
    assert "decisions" in state and open_decision(state, 0)["kind"] == "discard_keepers"
    assert "catapult" in state["tables"][0]
