"""Rule 10.1: a page holds a single item and serves a single knight; it never moves alone."""
from games.rules.ccg import round_table

from . import cards_for_tests as T
from .helpers import GAME, add_card, new_game, play, to_hand, listed


def test_a_page_supports_one_knight_only():
    s = new_game()
    k = to_hand(s, 0, "lancelot")
    # Patsy already carries Arthur's coconuts: no page is free.
    assert not any(m.get("to") == "rt" for m in listed(s, 0) if m.get("card") == k)


def test_a_page_carries_one_item_only():
    s = new_game()
    a, b = to_hand(s, 0, "excalibur"), to_hand(s, 0, "coconuts")
    s = play(s, 0, {"type": "play", "card": a, "use": "primary", "to": "rt", "page": s["p"][0]["pages"][0]["c"]})
    assert not any(m.get("to") == "rt" for m in listed(s, 0) if m.get("card") == b)


def test_a_page_whose_card_says_more_carries_more():
    s = new_game()
    big = dict(T.PAGE, code="strong-page", page={"items": 2, "knights": 2})
    iid = add_card(s, big, 0)
    round_table.add_page(s, 0, iid, [])
    assert round_table.page_with_room(s, s["p"][0], iid, "k")
    lance = to_hand(s, 0, "lancelot")
    s = play(s, 0, {"type": "play", "card": lance, "use": "primary", "to": "rt"})
    gaw = to_hand(s, 0, "gawain")
    s = play(s, 0, {"type": "play", "card": gaw, "use": "primary", "to": "rt"})
    pg = next(p for p in s["p"][0]["pages"] if p["c"] == iid)
    assert pg["k"] == [lance, gaw]


def test_a_page_turned_up_in_its_owners_england_is_an_adversary():
    from .helpers import set_area
    from games.rules.ccg import disputes, places
    s = new_game()
    page = set_area(s, "E0.0", ["page-generic"], face="down")[0]
    s = play(s, 0, {"type": "move", "to": "E0.0"})
    assert places.blocking_foes(s, 0) == [page]
    assert disputes.foe_stats(s, page) == (2, None)


def test_a_page_keeps_serving_until_his_knight_dies_and_may_then_serve_another():
    from games.rules.ccg import state as S
    s = new_game()
    p = s["p"][0]
    arthur = p["knights"][0]
    S.slay_member(s, 0, arthur)
    assert p["pages"][0]["k"] == []
    lance = to_hand(s, 0, "lancelot")
    s = play(s, 0, {"type": "play", "card": lance, "use": "primary", "to": "rt"})
    assert s["p"][0]["pages"][0]["k"] == [lance]
