"""Rules 13.x: response windows before grail numbers, tag-backs, no retractions,
precedence of the last card played."""
import pytest

from games.rules.base import IllegalMove

from .helpers import GAME, grail_deck, new_game, pass_window, place_rt, play, play_ev, set_area, to_hand


def _dispute():
    s = new_game()
    arthur = s["p"][0]["knights"][0]
    bk = set_area(s, "E0.0", ["black-knight"])[0]
    place_rt(s, 0, "E0.0")
    s = play(s, 0, {"type": "fight", "foe": bk, "method": "combat", "lead": arthur})
    return s, arthur, bk


def test_before_the_grail_numbers_every_opponent_then_the_player_may_respond():
    s, *_ = _dispute()
    pend = GAME.pending(s)
    assert [(p.seat, p.kind) for p in pend] == [(1, "response")]
    v = GAME.view_for(s, 0)["pending"]
    assert v["kind"] == "response" and v["order"] == [1, 0] and v["before"] == "dispute"


def test_the_window_closes_when_everyone_has_passed_in_a_row():
    s, arthur, bk = _dispute()
    grail_deck(s, 0, [7])
    grail_deck(s, 1, [0])
    s = play(s, 1, {"type": "pass"})
    assert GAME.pending(s)[0].seat == 0
    s = play(s, 0, {"type": "pass"})
    assert bk in s["p"][0]["dead"]


def test_tag_backs_a_play_reopens_the_window_for_everyone():
    s, arthur, bk = _dispute()
    trap = to_hand(s, 1, "rabbit-trap")
    s = play(s, 1, {"type": "play", "card": trap, "use": "primary"})
    assert GAME.pending(s)[0].seat == 1  # may play more
    s = play(s, 1, {"type": "pass"})
    counter = to_hand(s, 0, "rabbit-trap")
    s = play(s, 0, {"type": "play", "card": counter, "use": "secondary"})
    s = play(s, 0, {"type": "pass"})
    assert GAME.pending(s)[0].seat == 1  # seat 2 gets another chance after the tag-back
    assert sum(m["amt"] for m in s["mods"] if m["stat"] == "combat") == -2


def test_a_penalty_played_in_the_window_counts_in_the_dispute():
    s, arthur, bk = _dispute()
    trap = to_hand(s, 1, "rabbit-trap")
    s = play(s, 1, {"type": "play", "card": trap, "use": "primary"})
    grail_deck(s, 0, [4])
    grail_deck(s, 1, [3])
    s = play(s, 1, {"type": "pass"})
    s, events = play_ev(s, 0, {"type": "pass"})
    d = next(e for e in events if e.kind == "dispute")
    assert d.data["lead_total"] == 6 and d.data["foe_total"] == 9  # 5 + 4 - 3 against 6 + 3
    assert s["mods"] == []  # the dispute's effects end with it


def test_no_retractions_a_played_card_cannot_be_taken_back():
    s, *_ = _dispute()
    trap = to_hand(s, 1, "rabbit-trap")
    s = play(s, 1, {"type": "play", "card": trap, "use": "primary"})
    assert trap in s["p"][1]["dead"]
    with pytest.raises(IllegalMove):
        GAME.apply(s, 1, {"type": "retract", "card": trap})


def test_precedence_the_later_of_auto_join_and_no_join_wins():
    s = new_game()
    gawain = set_area(s, "E0.0", ["gawain"])[0]
    place_rt(s, 0, "E0.0")
    from .helpers import add_card
    s["p"][0]["pages"].append({"c": add_card(s, "page-generic", 0), "k": [], "i": []})
    auto = to_hand(s, 0, "we-want-a-shrubbery")
    s = play(s, 0, {"type": "play", "card": auto, "use": "secondary"})  # the next knight joins
    s = play(s, 0, {"type": "invite", "card": gawain, "rep": s["p"][0]["knights"][0]})
    block = to_hand(s, 1, "we-want-a-shrubbery")
    s = play(s, 1, {"type": "play", "card": block, "use": "primary"})  # ... but no one may join
    s = pass_window(s)
    assert gawain not in s["p"][0]["knights"]


def test_precedence_a_cancel_card_undoes_the_last_card():
    s, arthur, bk = _dispute()
    trap = to_hand(s, 1, "rabbit-trap")
    s = play(s, 1, {"type": "play", "card": trap, "use": "primary"})
    s = play(s, 1, {"type": "pass"})
    cancel = to_hand(s, 0, "not-dead-yet")
    s = play(s, 0, {"type": "play", "card": cancel, "use": "primary"})
    assert s["mods"] == []


def test_response_windows_can_be_switched_off():
    s = new_game(rules_off=["response_windows"])
    arthur = s["p"][0]["knights"][0]
    bk = set_area(s, "E0.0", ["black-knight"])[0]
    place_rt(s, 0, "E0.0")
    s = play(s, 0, {"type": "fight", "foe": bk, "method": "combat", "lead": arthur})
    assert GAME.pending(s)[0].kind == "turn"


def test_a_card_that_ends_the_turn_in_the_window_calls_the_dispute_off():
    from . import cards_for_tests as T
    from .helpers import add_card
    s, arthur, bk = _dispute()
    stop = add_card(s, dict(T.PLAGUE, code="stop", primary=[{"op": "end_turn", "who": "opponent"}]), 1)
    s["p"][1]["hand"].append(stop)
    s = play(s, 1, {"type": "play", "card": stop, "use": "primary"})
    s = pass_window(s)
    while GAME.pending(s)[0].kind == "balance":
        s = play(s, 0, GAME.timeout_move(s, 0))
    assert s["turn"] == 1 and bk not in s["p"][0]["dead"] and arthur in s["p"][0]["knights"]
