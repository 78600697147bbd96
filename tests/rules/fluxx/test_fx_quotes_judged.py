"""What Is Your Quote? in the printed deck's games: the other players judge the quote, as
they judge songs and accents (docs/rules/fluxx.md, "Physical acts"); a game stored before
that still checks the quote for a word of the card's name (test_fx_physical_acts.py)."""
import pytest

from games.rules import decisions
from games.rules.base import IllegalMove
from games.rules.fluxx import free_actions

from .helpers import GAME, act, decide, give, names, play, rules, table_for


def _quoting_table(players=3, **options):
    state = table_for(players=players, **options)
    rules(state, "what-is-your-quote", "play-2")
    give(state, 0, "airborne-cow", "coconuts")
    return state


def test_a_new_game_has_its_quotes_judged_and_a_legacy_one_checked():
    assert GAME.setup(3, {}, 1)["quotes"] == free_actions.JUDGED
    assert "quotes" not in GAME.setup(3, {"deck": "reconstructed-2026-11"}, 1)
    assert "quotes" not in GAME.setup(3, {"quotes": "checked"}, 1)
    with pytest.raises(ValueError, match="judged or checked"):
        GAME.setup(3, {"quotes": "loudly"}, 1)


def test_a_real_line_naming_no_word_of_the_card_goes_to_the_table_and_a_yes_earns_a_card():
    state = _quoting_table()
    state, events = play(state, 0, "airborne-cow", quote="Fetchez la vache!")
    assert "Seat 1 plays Airborne Cow, quoting “Fetchez la vache!”." in names(events)
    assert sorted(p.seat for p in GAME.pending(state)) == [1, 2]
    assert {p.kind for p in GAME.pending(state)} == {"judge"}
    prompt = decisions.open_for(state, 1)[0]["prompt"]
    assert "Fetchez la vache!" in prompt and "Does the quote count?" in prompt
    assert state["tables"][0] == [] and len(state["hands"][0]) == 1  # the card waits for the verdict
    state, _ = decide(state, 1, "yes")
    state, events = decide(state, 2, "no")  # a tie accepts, as for songs
    assert state["tables"][0] == ["airborne-cow"]
    assert len(state["hands"][0]) == 1 + 1
    assert "What Is Your Quote?" in names(events)


def test_a_strict_majority_of_no_refuses_the_quote_and_it_is_still_once_a_turn():
    state = _quoting_table(players=4)
    state, _ = play(state, 0, "coconuts", quote="It's just a flesh wound, said the hand.")
    for seat, verdict in ((1, "no"), (2, "no"), (3, "yes")):
        state, events = decide(state, seat, verdict)
    assert "The table refuses Seat 1's quote: no bonus." in names(events)
    assert state["tables"][0] == ["coconuts"] and state["hands"][0] == ["airborne-cow"]
    assert not any(f["op"] == "bonus_draw" for f in state["effects"])
    assert not any("quote" in m for m in GAME.legal_moves(state, 0))
    with pytest.raises(IllegalMove, match="once a turn"):
        play(state, 0, "airborne-cow", quote="Fetchez la vache!")


def test_a_judge_who_runs_out_of_time_lets_the_quote_count():
    state = _quoting_table()
    state, _ = play(state, 0, "coconuts", quote="You've got two empty halves of coconut")
    for seat in (1, 2):
        move = GAME.timeout_move(state, seat)
        assert move["type"] == "decide" and move["choice"] == "yes"
        state, _ = act(state, seat, move)
    assert len(state["hands"][0]) == 1 + 1 and state["tables"][0] == ["coconuts"]


def test_a_game_stored_before_judging_still_checks_the_quote_itself():
    state = _quoting_table(quotes="checked")
    with pytest.raises(IllegalMove, match="must mention Airborne Cow"):
        play(state, 0, "airborne-cow", quote="Fetchez la vache!")
    state, _ = play(state, 0, "airborne-cow", quote="A cow! Airborne!")
    assert GAME.pending(state)[0].kind == "turn" and len(state["hands"][0]) == 1 + 1


def test_the_error_for_a_second_quote_or_no_rule_does_not_ask_to_mention_the_card():
    state = table_for()
    give(state, 0, "coconuts")
    with pytest.raises(IllegalMove, match=r"in play, once a turn\.$"):
        play(state, 0, "coconuts", quote="Where did you get the coconuts?")
