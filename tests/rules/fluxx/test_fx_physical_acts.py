"""The rules that reward singing, a silly accent or a quote, in their digital form
(docs/rules/fluxx.md, "Physical acts")."""
import pytest

from games.rules.fluxx.cards import LEGACY
from games.rules.base import IllegalMove

from .helpers import GAME, act, decide, give, names, play, rules, table_for

# Written for the reconstructed deck, which games stored on it still play (conftest.py).
DECK = LEGACY


def _sing(state, seat, song, words="Spam spam spam spam"):
    return act(state, seat, {"type": "sing", "song": song, "words": words})


def _judge(state, verdicts):
    for seat, verdict in verdicts.items():
        state, _ = decide(state, seat, verdict)
    return state


def _singing_table():
    state = table_for(players=4)
    rules(state, "sing-bonus")
    give(state, 0, "cow")
    return state


def test_a_song_is_sung_before_the_first_play_and_judged_by_everyone_else_at_once():
    state = _singing_table()
    state, events = _sing(state, 0, "The Spam Song")
    assert "Seat 1 sings from “The Spam Song”: “Spam spam spam spam”" in names(events)
    assert sorted(p.seat for p in GAME.pending(state)) == [1, 2, 3]
    assert {p.kind for p in GAME.pending(state)} == {"judge"}
    state = _judge(state, {1: "yes", 3: "yes", 2: "no"})
    assert len(state["hands"][0]) == 1 + 2  # a song nobody had sung: two cards
    assert state["songs"] == ["the spam song"]


def test_the_same_song_again_earns_one_card():
    state = _singing_table()
    state["songs"] = ["the spam song"]
    state, _ = _sing(state, 0, "the SPAM song!")
    state = _judge(state, {1: "yes", 2: "yes", 3: "yes"})
    assert len(state["hands"][0]) == 1 + 1


def test_a_strict_majority_of_no_refuses_the_song_and_a_tie_accepts_it():
    state = _singing_table()
    state, _ = _sing(state, 0, "Lumberjack Song")
    state = _judge(state, {1: "no", 2: "no", 3: "yes"})
    assert len(state["hands"][0]) == 1 and state["songs"] == []
    state = table_for(players=3)
    rules(state, "sing-bonus")
    give(state, 0, "cow")
    state, _ = _sing(state, 0, "Lumberjack Song")
    state = _judge(state, {1: "no", 2: "yes"})
    assert len(state["hands"][0]) == 1 + 2


def test_singing_is_once_a_turn_and_only_before_the_first_play():
    state = _singing_table()
    rules(state, "play-2")
    give(state, 0, "coconuts")
    state, _ = _sing(state, 0, "Galaxy Song")
    state = _judge(state, {1: "yes", 2: "yes", 3: "yes"})
    with pytest.raises(IllegalMove, match="once a turn"):
        _sing(state, 0, "Another Song")
    state = _singing_table()
    rules(state, "play-2")
    give(state, 0, "coconuts")
    state, _ = play(state, 0, "cow")
    assert not any(m["type"] == "sing" for m in GAME.legal_moves(state, 0))


def test_song_words_are_bounded_text():
    state = _singing_table()
    with pytest.raises(IllegalMove, match="at most 200"):
        _sing(state, 0, "x", "la " * 100)
    with pytest.raises(IllegalMove):
        act(state, 0, {"type": "sing", "song": ["not", "text"], "words": ""})


def test_an_accent_kept_up_from_the_previous_turn_earns_a_second_card():
    state = table_for(players=2)
    rules(state, "accent-bonus", "play-2")
    give(state, 0, "cow", "coconuts", "swallow")
    state, _ = act(state, 0, {"type": "accent", "accent": "French", "words": "Your mother was a hamster"})
    state, _ = decide(state, 1, "yes")
    assert len(state["hands"][0]) == 3 + 1
    state["turns_taken"][0] += 1  # as if a turn had passed: same accent on the very next turn
    state["turn"]["accent"] = False
    state, _ = act(state, 0, {"type": "accent", "accent": "french", "words": "I blow my nose at you"})
    state, _ = decide(state, 1, "yes")
    assert len(state["hands"][0]) == 4 + 2


def test_a_different_accent_or_a_gap_earns_only_one_card():
    state = table_for(players=2)
    rules(state, "accent-bonus", "play-2")
    give(state, 0, "cow", "coconuts")
    state["accents"][0] = {"turn": state["turns_taken"][0] - 1, "accent": "french"}
    state, _ = act(state, 0, {"type": "accent", "accent": "Scottish", "words": "Och"})
    state, _ = decide(state, 1, "yes")
    assert len(state["hands"][0]) == 2 + 1
    state = table_for(players=2)
    rules(state, "accent-bonus", "play-2")
    give(state, 0, "cow", "coconuts")
    state["accents"][0] = {"turn": state["turns_taken"][0] - 2, "accent": "french"}
    state, _ = act(state, 0, {"type": "accent", "accent": "French", "words": "Ni"})
    state, _ = decide(state, 1, "yes")
    assert len(state["hands"][0]) == 2 + 1


def test_a_quote_naming_the_card_played_earns_a_card_once_a_turn():
    state = table_for()
    rules(state, "what-is-your-quote", "play-3")
    give(state, 0, "shrubbery", "coconuts", "cow")
    assert {"type": "play", "card": "shrubbery", "quote": "The Shrubbery"} in GAME.legal_moves(state, 0)
    state, events = play(state, 0, "shrubbery", quote="Bring us... a SHRUBBERY!")
    assert "quoting “Bring us... a SHRUBBERY!”" in names(events)
    assert len(state["hands"][0]) == 2 + 1
    assert not any("quote" in m for m in GAME.legal_moves(state, 0))
    with pytest.raises(IllegalMove, match="once a turn"):
        play(state, 0, "coconuts", quote="You've got two empty halves of coconut")


def test_a_quote_that_does_not_mention_the_card_is_refused_and_an_empty_one_is_no_quote():
    state = table_for()
    rules(state, "what-is-your-quote")
    give(state, 0, "shrubbery")
    with pytest.raises(IllegalMove, match="must mention The Shrubbery"):
        play(state, 0, "shrubbery", quote="It's just a flesh wound")
    state, _ = play(state, 0, "shrubbery", quote="")
    assert state["tables"][0] == ["shrubbery"]


def test_a_quote_without_the_rule_in_play_is_refused():
    state = table_for()
    give(state, 0, "shrubbery")
    with pytest.raises(IllegalMove, match="What Is Your Quote"):
        play(state, 0, "shrubbery", quote="a shrubbery")
