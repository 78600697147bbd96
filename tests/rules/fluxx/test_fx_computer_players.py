"""The knight (games/rules/fluxx/players.py) knows the printed deck's Goals and powers: it
sees a win through "either" a Swallow or a Parrot, through The Animator standing in for The
Finger of God, through having nothing at all, and uses the new powers when they help."""
from games.rules.fluxx.cards import PRINTED
from games.rules.fluxx.players import WIN, _power_value, _Table, knight, missing
from games.rules.rng import Rng

from .helpers import GAME, give, goals, put, rules, table_for

DECK = PRINTED


def _choice(state, seat=0):
    return knight(GAME.view_for(state, seat), GAME.legal_moves(state, seat), Rng({"seed": 1, "n": 0}))


def _playing(state, *cards):
    rules(state, "play-2")
    give(state, 0, *cards)
    return state


def test_the_knight_plays_the_goal_it_meets_with_either_a_swallow_or_a_parrot():
    state = _playing(table_for(), "coconuts", "bird-in-the-bush", "the-foot")
    put(state, 0, "a-shrubbery", "resting-parrot")
    assert _choice(state) == {"type": "play", "card": "bird-in-the-bush"}


def test_the_knight_counts_the_animator_as_the_finger_of_god_while_the_finger_is_away():
    state = _playing(table_for(), "coconuts", "course-its-a-good-idea", "the-foot")
    put(state, 0, "important-message", "the-animator")
    assert _choice(state) == {"type": "play", "card": "course-its-a-good-idea"}
    put(state, 1, "the-finger-of-god")  # now the Animator is only itself: the Goal would not win
    assert _choice(state) != {"type": "play", "card": "course-its-a-good-idea"}


def test_the_knight_plays_the_cheese_shop_as_its_last_card_when_only_it_would_have_nothing():
    state = table_for()
    give(state, 0, "the-cheese-shop")
    put(state, 1, "coconuts")
    put(state, 2, "the-foot")
    assert _choice(state) == {"type": "play", "card": "the-cheese-shop"}


def test_the_knight_does_not_play_a_goal_an_opponent_meets():
    state = _playing(table_for(), "coconuts", "temperate-zone", "the-foot")
    put(state, 1, "resting-parrot")
    state["hands"][0].remove("coconuts")
    state["draw"].append("coconuts")
    put(state, 1, "coconuts")
    assert _choice(state) != {"type": "play", "card": "temperate-zone"}


def test_the_knight_throws_the_grenade_with_the_creeper_that_stops_its_win():
    state = _playing(table_for(), "the-foot", "a-shrubbery")
    goals(state, "rabbits-of-doom")
    put(state, 0, "trojan-rabbit", "killer-rabbit", "holy-hand-grenade-of-antioch", "grim-reaper")
    assert _choice(state) == {"type": "power", "card": "holy-hand-grenade-of-antioch", "target": "grim-reaper"}


def test_the_knight_flings_with_the_catapult_to_break_an_opponents_goal():
    state = _playing(table_for(), "the-foot", "important-message")
    goals(state, "he-is-brave-sir-robin")
    put(state, 0, "the-catapult", "coconuts")
    put(state, 1, "sir-robin")  # seat 1 lacks only Robin's Minstrels, which it holds
    give(state, 1, "robins-minstrels-2008")
    move = _choice(state)
    assert move["type"] == "power" and move["to"] == 1 and move["discard"] == "sir-robin"


def test_the_knight_scores_a_fling_by_where_the_keeper_lands_before_what_is_thrown_away():
    # The Goals are looked at as the Keeper lands: flinging the Airborne Cow to the holder of
    # the Unladen Swallow hands them the win, whatever is to be thrown away after.
    state = table_for()
    goals(state, "flying-creatures")
    put(state, 0, "the-catapult", "airborne-cow")
    put(state, 2, "unladen-swallow", "sir-robin")
    table = _Table(GAME.view_for(state, 0))
    for hit in ("airborne-cow", "unladen-swallow"):
        fling = {"type": "power", "card": "the-catapult", "target": "airborne-cow", "to": 2, "discard": hit}
        assert fling in GAME.legal_moves(state, 0)
        assert GAME.outcome(GAME.apply(state, 0, fling)[0]).winners == (2,)
        assert _power_value(table, fling) == -WIN
    # A game stored before looks only after the discard: there the same fling breaks the Goal.
    state = table_for(fling="after_discard")
    goals(state, "flying-creatures")
    put(state, 0, "the-catapult", "airborne-cow")
    put(state, 2, "unladen-swallow", "sir-robin")
    fling = {"type": "power", "card": "the-catapult", "target": "airborne-cow", "to": 2, "discard": "unladen-swallow"}
    assert GAME.outcome(GAME.apply(state, 0, fling)[0]) is None
    assert _power_value(_Table(GAME.view_for(state, 0)), fling) > -WIN


def test_what_the_knight_counts_as_missing_follows_the_new_words():
    bird = [["a-shrubbery"], [], []]
    assert missing(bird, 0, "bird-in-the-bush", ()) == 1
    assert missing(bird, 0, "bird-in-the-bush", (), hand=("resting-parrot",)) == 0.5
    assert missing([["a-shrubbery", "resting-parrot"], [], []], 0, "bird-in-the-bush", ()) == 0
    animator = [["important-message", "the-animator"], [], []]
    assert missing(animator, 0, "course-its-a-good-idea", ()) == 0
    animator[1].append("the-finger-of-god")
    assert missing(animator, 0, "course-its-a-good-idea", ()) == 1
    assert missing([["the-animator"], [], []], 0, "meaning-of-life", ()) == 1  # one card fills one need
    shop = [[], ["coconuts"], []]
    assert missing(shop, 0, "the-cheese-shop", (), hand_counts=[0, 0, 2]) == 0
    assert missing(shop, 0, "the-cheese-shop", (), hand_counts=[0, 0, 0]) == 1  # seat 2 has nothing too
    assert missing(shop, 1, "the-cheese-shop", (), hand_counts=[0, 3, 0]) == 4


# --- What Is Your Quote? with computers at the table ------------------------------------------

def _quote_table(quotes):
    state = table_for(players=3)
    if quotes == "judged":
        state["quotes"] = "judged"
    else:
        state.pop("quotes", None)
    rules(state, "what-is-your-quote", "play-2")
    give(state, 0, "coconuts", "the-foot")
    return state


def test_no_computer_quotes_where_people_judge_quotes_and_the_knight_still_quotes_where_the_engine_checks():
    from games.rules.fluxx.players import random_level

    judged = _quote_table("judged")
    legal = GAME.legal_moves(judged, 0)
    assert any("quote" in m for m in legal)  # the rule offers it...
    assert "quote" not in _choice(judged)  # ...but a bare card name is no line for the judges
    view = GAME.view_for(judged, 0)
    assert view["quotes"] == "judged"
    assert not any("quote" in random_level(view, legal, Rng({"seed": s, "n": 0})) for s in range(40))
    checked = _quote_table("checked")
    assert GAME.view_for(checked, 0)["quotes"] == "checked"
    assert "quote" in _choice(checked)  # the name passes the engine's check: a card for free


def test_a_computer_judge_lets_a_line_count_and_refuses_a_bare_card_name_or_nothing():
    for quote, verdict in (("You've got two empty halves of coconut", "yes"), ("Coconuts", "no"), ("coconuts!", "no")):
        state = _quote_table("judged")
        state, _ = GAME.apply(state, 0, {"type": "play", "card": "coconuts", "quote": quote})
        for judge in (1, 2):
            move = _choice(state, judge)
            assert move["type"] == "decide" and move["choice"] == verdict, (quote, judge)
            state, _ = GAME.apply(state, judge, move)
        assert not GAME.pending(state)[0].kind == "judge"
        assert len(state["hands"][0]) == 1 + (verdict == "yes")  # The Foot, and the bonus card if it counted
    state = table_for(players=3)
    state["quotes"] = "judged"
    rules(state, "sing-bonus")
    for words, verdict in (("He bravely turned his tail and fled", "yes"), ("", "no")):
        sung, _ = GAME.apply(state, 0, {"type": "sing", "song": "Brave Sir Robin", "words": words})
        assert _choice(sung, 1)["choice"] == verdict
