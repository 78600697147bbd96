"""Rule 11.1: items are carried by a page and usable only from the following turn."""
from games.rules.ccg import disputes, turns

from .helpers import GAME, end_turn, new_game, play, to_hand


def _carry(s, code="excalibur"):
    iid = to_hand(s, 0, code)
    page = s["p"][0]["pages"][0]["c"]
    s = play(s, 0, {"type": "play", "card": iid, "use": "primary", "to": "rt", "page": page})
    return s, iid


def test_an_item_is_not_usable_the_turn_it_is_assigned():
    s, iid = _carry(new_game())
    arthur = s["p"][0]["knights"][0]
    assert turns.usable_items(s, 0) == []
    assert disputes.member_total(s, 0, arthur, "combat") == 5


def test_an_item_is_usable_from_the_following_turn():
    s, iid = _carry(new_game())
    s = end_turn(s)
    arthur = s["p"][0]["knights"][0]
    assert turns.usable_items(s, 0) == [iid]
    assert disputes.member_total(s, 0, arthur, "combat") == 7


def test_the_item_delay_can_be_switched_off():
    s, iid = _carry(new_game(rules_off=["item_delay"]))
    assert turns.usable_items(s, 0) == [iid]


def test_items_need_a_page_to_carry_them():
    s = new_game()
    s["p"][0]["pages"][0]["i"].append(to_hand(s, 0, "coconuts"))
    s["p"][0]["hand"].pop()
    iid = to_hand(s, 0, "excalibur")
    assert not any(m.get("to") == "rt" for m in GAME.legal_moves(s, 0) if m.get("card") == iid)
