"""Hidden information: other hands, the draw pile order and the generator never show."""
import json

from .helpers import GAME, give, new_game, on_turn, place
from .playout import play


def _quoted(card):
    return f'"{card}"'


def _text(view):
    """The view as JSON, less the static map (its teleport spaces are named by card)."""
    return json.dumps({k: v for k, v in view.items() if k != "board"})


def test_a_player_sees_their_own_hand_and_nobody_elses():
    state = new_game()
    for seat in range(3):
        view = GAME.view_for(state, seat)
        text = _text(view)
        assert view["my_hand"] == state["hands"][seat]
        for other in range(3):
            if other != seat:
                assert not any(_quoted(c) in text for c in state["hands"][other])
        assert view["hand_counts"] == [3, 3, 3]


def test_the_draw_pile_and_the_generator_are_never_shown():
    state = new_game()
    for seat in (0, 1, 2, None):
        text = _text(GAME.view_for(state, seat))
        assert not any(_quoted(c) in text for c in state["draw"])
        assert "rng" not in text and str(state["rng"]["seed"]) not in text
        assert GAME.view_for(state, seat)["draw_count"] == len(state["draw"])


def test_only_the_top_of_the_discard_pile_is_face_up():
    state = on_turn(new_game(), 0)
    give(state, 0, ["5H", "9C", "2D"])
    state, _ = GAME.apply(state, 0, {"type": "discard", "card": "9C"})
    state = on_turn(state, 0)
    state, _ = GAME.apply(state, 0, {"type": "discard", "card": "5H"})
    view = GAME.view_for(state, 2)
    assert view["discard_top"] == "5H" and view["discard_count"] == 2
    assert _quoted("9C") not in _text(view)


def test_a_spectator_sees_the_board_and_no_hand():
    state = new_game()
    view = GAME.view_for(state, None)
    assert view["my_hand"] is None and view["my_seat"] is None
    assert view["positions"] == state["alcoves"] and view["board"]["grail"] == "4,0"
    assert view["grail"] == {"at": "4,0", "carrier": None}
    assert len(view["board"]["teleports"]) == 12 and set(view["board"]["monsters"]) == {"bob", "bill"}


def test_drawn_cards_are_told_only_to_the_drawer():
    state = on_turn(new_game(), 0)
    give(state, 0, ["5H", "9C", "2D"])
    drawn = state["draw"][-1]
    _, events = GAME.apply(state, 0, {"type": "discard", "card": "9C"})
    for event in events:
        if drawn in event.text or event.data.get("card") == drawn:
            assert event.audience == (0,)
    told = [e for e in events if e.kind == "draw" and e.hidden_from == (0,)]
    assert len(told) == 1 and told[0].audience is None  # the others and spectators hear of it
    assert all(told[0].visible_to(v) for v in (1, 2, None)) and not told[0].visible_to(0)


def test_views_leak_nothing_over_whole_games():
    def check(state, *_):
        hidden_draw = [_quoted(c) for c in state["draw"]]
        for seat in (0, 1, 2, None):
            text = _text(GAME.view_for(state, seat))
            assert '"rng"' not in text
            assert not any(c in text for c in hidden_draw)
            for other in range(3):
                if other != seat:
                    assert not any(_quoted(c) in text for c in state["hands"][other])

    for seed in range(15):
        play(GAME, seed, on_step=check)


def test_the_view_is_a_copy_not_the_state_itself():
    state = new_game()
    place(state, s1="0,8")
    view = GAME.view_for(state, 0)
    view["positions"][1] = "4,0"
    view["my_hand"].clear()
    assert state["positions"][1] == "0,8" and len(state["hands"][0]) == 3


def test_every_kind_of_move_is_described_in_words():
    described = {GAME.describe_move(m) for m in (
        {"type": "move", "card": "7H", "to": "1,2"}, {"type": "teleport", "card": "QS"},
        {"type": "freeze", "card": "AD", "target": 1}, {"type": "discard", "card": "2C"},
        {"type": "snipe", "target": 2, "angle": 0, "strength": 50}, {"type": "attack", "target": 0},
        {"type": "fight", "monster": "bob"}, {"type": "decline"}, {"type": "pass"})}
    assert "moves with the 7 of Hearts to 1,2" in described
    assert "tries to teleport with the Queen of Spades" in described
    assert "freezes seat 2 with the Ace of Diamonds" in described
    assert len(described) == 9


def test_every_event_of_a_game_has_words_and_a_proper_audience():
    def check(state, seat, move, legal, events):
        assert events
        for event in events:
            assert event.text and event.text[0].isupper()
            assert event.audience is None or all(0 <= s < 3 for s in event.audience)

    for seed in range(10):
        play(GAME, seed, on_step=check)
