"""view_for never reveals another hand, a face-down card, deck order or the generator."""
import json

from .helpers import GAME, new_game, play, set_area, to_hand, listed


def _text(v):
    return json.dumps(v)


def test_a_player_sees_their_own_hand_and_only_counts_of_the_others():
    s = new_game()
    v = GAME.view_for(s, 0)
    assert [c["id"] for c in v["my_hand"]] == s["p"][0]["hand"]
    assert v["players"][1]["hand_count"] == len(s["p"][1]["hand"])
    assert "hand" not in v["players"][1]
    ids = {c["id"] for c in v["my_hand"]}
    assert not ids & set(s["p"][1]["hand"])


def _hidden_ids(s, seat):
    hidden = set()
    for q, p in enumerate(s["p"]):
        hidden |= set(p["deck"])
        if q != seat:
            hidden |= set(p["hand"])
        for a in p["england"]:
            hidden |= {e[0] for e in a["down"]}
    for a in s["avalon"]:
        hidden |= {e[0] for e in a["down"]}
    for step in s["steps"]:
        if step.get("what") == "occupant" and step["seat"] == seat:
            hidden -= set(step["options"])  # the chooser picks among cards of his own deck (8.1)
    return hidden


def _shown_ids(v):
    found = set()

    def walk(x):
        if isinstance(x, dict):
            if "id" in x and "code" in x:
                found.add(x["id"])
            for y in x.values():
                walk(y)
        elif isinstance(x, list):
            for y in x:
                walk(y)
    walk(v)
    return found


def test_no_hidden_card_appears_in_any_view():
    s = new_game()
    for seat in (0, 1, None):
        v = GAME.view_for(s, seat)
        assert not _shown_ids(v) & _hidden_ids(s, seat)
        assert "rng" not in _text(v) and "seed" not in _text(v)


def test_face_down_stacks_are_counts_even_for_the_player_who_laid_them():
    s = new_game()
    iid = to_hand(s, 0, "black-knight")
    s = play(s, 0, {"type": "play", "card": iid, "use": "primary", "to": "E1.0", "face": "down"})
    v = GAME.view_for(s, 0)
    assert v["players"][1]["england"][0]["face_down"] == 2
    assert iid not in _shown_ids(v)


def test_card_definitions_are_sent_only_for_cards_the_viewer_can_see():
    s = new_game()
    v = GAME.view_for(s, 1)
    visible = {s["inst"][i] for i in _shown_ids(v)}
    assert set(v["cards"]) == visible


def test_the_spectator_sees_no_hand():
    s = new_game()
    v = GAME.view_for(s, None)
    assert "my_hand" not in v


def test_public_zones_are_public():
    s = new_game()
    set_area(s, "E0.0", ["black-knight"])
    v = GAME.view_for(s, 1)
    assert v["players"][0]["england"][0]["cards"][0]["code"] == "black-knight"
    assert len(v["ante"]) == 2 and all("owner" in c for c in v["ante"])


def test_the_deck_order_is_not_in_the_view():
    s = new_game()
    v = GAME.view_for(s, 0)
    assert v["players"][0]["deck_count"] == len(s["p"][0]["deck"])
    assert "deck" not in v["players"][0]


def test_events_about_hidden_cards_go_only_to_their_seat():
    s = new_game()
    iid = to_hand(s, 0, "black-knight")
    s, events = GAME.apply(s, 0, {"type": "play", "card": iid, "use": "primary", "to": "E1.0", "face": "down"})
    for e in events:
        if e.data.get("card") == iid or "Black Knight" in e.text:
            assert e.audience == (0,)
    s2, events = GAME.apply(s, 0, {"type": "end_turn"})
    while GAME.pending(s2)[0].kind == "balance":
        s2, more = GAME.apply(s2, 0, GAME.timeout_move(s2, 0))
        events += more
    drawn = [e for e in events if e.kind == "draw" and "code" in e.data]
    assert drawn and all(e.audience == (1,) for e in drawn)


def _occupant_choice():
    """Seat 1 must choose who holds a castle seat 0 turned up (8.1): only knights with the
    castle icon of seat 1's own deck qualify."""
    from . import cards_for_tests as T
    from .helpers import stack_deck
    s = new_game()
    keep = dict(T.SWAMP_CASTLE, code="keep", castle_occupant={"type": "knight", "code": None})
    set_area(s, "E0.0", [keep], face="down")
    stack_deck(s, 1, ["gawain", "bors", "bors"])
    s = play(s, 0, {"type": "move", "to": "E0.0"})
    assert s["steps"][-1]["what"] == "occupant"
    return s


def test_the_occupant_chooser_sees_which_cards_of_his_deck_he_chooses_from():
    s = _occupant_choice()
    step_options = s["steps"][-1]["options"]
    pend = GAME.view_for(s, 1)["pending"]
    v = GAME.view_for(s, 1)
    # The options stay what the moves carry; option_cards names every card among them.
    assert pend["options"] == step_options == [m["option"] for m in listed(s, 1)]
    assert pend["options"][-1] is None
    assert pend["option_cards"] == [{"id": i, "code": s["inst"][i]} for i in step_options if i is not None]
    assert {c["code"] for c in pend["option_cards"]} == {"bors"}
    assert all(c["code"] in v["cards"] for c in pend["option_cards"])


def test_nobody_else_learns_the_occupant_options():
    s = _occupant_choice()
    options = {i for i in s["steps"][-1]["options"] if i is not None}
    for seat in (0, None):
        v = GAME.view_for(s, seat)
        assert "options" not in v["pending"] and "option_cards" not in v["pending"]
        assert not _shown_ids(v) & options
        assert "bors" not in v["cards"]


def test_views_built_together_are_each_seats_own_and_share_nothing_private():
    """``views_for`` (what the shell asks for, every viewer's at once) gives each viewer the
    view ``view_for`` gives it alone: the chooser's options and their cards, and nobody
    else's, though the views share the parts everyone sees."""
    s = _occupant_choice()
    together = GAME.views_for(s, [0, 1, None])
    for seat in (0, 1, None):
        assert json.dumps(together[seat]) == json.dumps(GAME.view_for(s, seat))
    assert "option_cards" in together[1]["pending"] and "bors" in together[1]["cards"]
    for seat in (0, None):
        assert "option_cards" not in together[seat]["pending"] and "bors" not in together[seat]["cards"]
    assert "my_hand" not in together[None] and together[0]["my_hand"] != together[1]["my_hand"]
