"""Rule 12.1: Write Yer Own cards — the blank plays its secondary side; a written card
runs like any other card of its type, within the power budget."""
import pytest

from . import cards_for_tests as T
from .helpers import GAME, grail_deck, new_game, place_rt, play, play_ev, set_area, to_hand, listed


def test_the_blank_may_only_be_played_for_its_secondary_effect():
    s = new_game()
    iid = to_hand(s, 0, "write-yer-own")
    plays = [m for m in listed(s, 0) if m.get("card") == iid and m.get("face") != "down"]
    assert plays == [{"type": "play", "card": iid, "use": "secondary"}]
    hand = len(s["p"][0]["hand"])
    s = play(s, 0, plays[0])
    assert len(s["p"][0]["hand"]) == hand  # played one, drew one


def test_a_written_card_runs_like_a_printed_one():
    deck = T.test_deck(extra=[T.written_card()])
    s = new_game(decks=[deck, T.test_deck()])
    iid = to_hand(s, 0, T.written_card())
    arthur = s["p"][0]["knights"][0]
    bk = set_area(s, "E0.0", ["black-knight"])[0]
    place_rt(s, 0, "E0.0")
    grail_deck(s, 0, [3])
    grail_deck(s, 1, [3])
    s = play(s, 0, {"type": "fight", "foe": bk, "method": "combat", "lead": arthur})
    s = play(s, 1, {"type": "pass"})
    s = play(s, 0, {"type": "play", "card": iid, "use": "primary"})  # +1 for the dispute
    s = play(s, 0, {"type": "pass"})
    s, events = play_ev(s, 1, {"type": "pass"})  # everyone has passed since the play
    result = next(e for e in events if e.kind == "dispute")
    assert result.data["lead_total"] == 9  # 5 + 3 + 1


def test_a_written_card_over_the_power_budget_is_refused_at_set_up():
    strong = dict(T.written_card(), primary=[
        {"op": "modify_combat", "amount": 10, "target": "self", "duration": "permanent"},
        {"op": "draw_cards", "count": 7, "who": "self"},
        {"op": "slay", "target": "opponent_knight"},
        {"op": "skip_turns", "who": "opponent", "turns": 5}])
    with pytest.raises(ValueError, match="Write Yer Own"):
        GAME.setup(2, {"decks": [T.test_deck(extra=[strong]), T.test_deck()]}, 1)


def test_a_written_card_with_a_grail_number_over_seven_is_refused():
    bad = dict(T.written_card(), grail=9)
    with pytest.raises(ValueError):
        GAME.setup(2, {"decks": [T.test_deck(extra=[bad]), T.test_deck()]}, 1)
