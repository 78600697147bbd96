import json

import pytest

from games.rules.base import IllegalMove
from games.rules.duel import GrailDuel

game = GrailDuel()


def play_out(seed, rounds=4):
    state = game.setup(2, {"rounds": rounds}, seed)
    moves = []
    while game.outcome(state) is None:
        seat = game.pending(state)[0].seat
        move = game.legal_moves(state, seat)[0]
        moves.append((seat, move))
        state, _ = game.apply(state, seat, move)
    return state, moves


def test_setup_deals_three_each_from_sixteen():
    state = game.setup(2, {}, 5)
    assert [len(h) for h in state["hands"]] == [3, 3]
    assert sorted(state["deck"] + state["hands"][0] + state["hands"][1]) == sorted(list(range(8)) * 2)


def test_out_of_turn_and_unknown_cards_are_refused_without_change():
    state = game.setup(2, {}, 5)
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalMove, match="not your turn"):
        game.apply(state, 1, {"type": "play", "card": state["hands"][1][0]})
    with pytest.raises(IllegalMove, match="do not hold"):
        game.apply(state, 0, {"type": "play", "card": 99})
    assert json.dumps(state, sort_keys=True) == before


def test_game_ends_with_higher_total_winning_and_replays_exactly():
    final, moves = play_out(11)
    result = game.outcome(final)
    totals = [sum(p) for p in final["played"]]
    if totals[0] == totals[1]:
        assert result.draw
    else:
        assert result.winners == (totals.index(max(totals)),)
    replay = game.setup(2, {"rounds": 4}, 11)
    for seat, move in moves:
        replay, _ = game.apply(replay, seat, move)
    assert replay == final


def test_view_hides_the_other_hand_and_the_deck():
    state = game.setup(2, {}, 5)
    view = game.view_for(state, 0)
    assert view["my_hand"] == sorted(state["hands"][0])
    assert "hands" not in view and "deck" not in view and "rng" not in view
    assert game.view_for(state, None)["my_hand"] is None


def test_timeout_lays_the_lowest_card():
    state = game.setup(2, {}, 5)
    assert game.timeout_move(state, 0) == {"type": "play", "card": min(state["hands"][0])}


def test_options_are_validated():
    with pytest.raises(ValueError):
        game.setup(2, {"rounds": 9}, 1)
    with pytest.raises(ValueError):
        game.setup(2, {"bogus": 1}, 1)


def test_draw_events_name_the_card_only_to_the_drawer_and_tell_everyone_else():
    from games.rules.base import Event

    state = game.setup(2, {}, 5)
    _, events = game.apply(state, 0, {"type": "play", "card": state["hands"][0][0]})
    seen = {viewer: [e.text for e in events if e.visible_to(viewer)] for viewer in (0, 1, None)}
    assert any(t.startswith("You draw") for t in seen[0]) and "Seat 1 draws a card." not in seen[0]
    assert "Seat 1 draws a card." in seen[1] and "Seat 1 draws a card." in seen[None]
    assert not any(t.startswith("You draw") for t in seen[1] + seen[None])
    # Stored and read back, the audience is the same.
    assert [Event.from_dict(e.as_dict()) for e in events] == events
