"""Rule 11.1: items are carried by a page and usable only from the following turn."""
from games.rules.ccg import disputes, turns

from .helpers import GAME, end_turn, new_game, play, to_hand, listed


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
    assert not any(m.get("to") == "rt" for m in listed(s, 0) if m.get("card") == iid)


def test_an_items_own_ability_is_used_once_a_turn_from_the_following_turn():
    from . import cards_for_tests as T
    s = new_game()
    lamp = dict(T.SWORD, code="lamp", primary=[{"op": "draw_cards", "count": 1, "who": "self"}])
    from .helpers import add_card
    iid = add_card(s, lamp, 0)
    s["p"][0]["hand"].append(iid)
    page = s["p"][0]["pages"][0]["c"]
    s = play(s, 0, {"type": "play", "card": iid, "use": "primary", "to": "rt", "page": page})
    assert {"type": "use", "card": iid} not in listed(s, 0)
    s = end_turn(s)
    s = end_turn(s)
    hand = len(s["p"][0]["hand"])
    s = play(s, 0, {"type": "use", "card": iid})
    assert len(s["p"][0]["hand"]) == hand + 1
    assert {"type": "use", "card": iid} not in listed(s, 0)  # once a turn
    assert any(iid in pg["i"] for pg in s["p"][0]["pages"])  # the item stays with its page
