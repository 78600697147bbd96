"""The knight (games/rules/fluxx/players.py) knows the printed deck's Goals and powers: it
sees a win through "either" a Swallow or a Parrot, through The Animator standing in for The
Finger of God, through having nothing at all, and uses the new powers when they help."""
from games.rules.fluxx.cards import PRINTED
from games.rules.fluxx.players import knight, missing
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
