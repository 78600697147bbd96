"""The dealer shuffles, deals three each; draw pile, discard pile, reshuffle; hands stay at three."""
import pytest

from games.rules.cupquest.cards import new_deck

from .helpers import GAME, all_cards, give, new_game, on_turn


@pytest.mark.parametrize("players", [2, 3, 4])
def test_everyone_is_dealt_three_and_the_rest_is_the_draw_pile(players):
    state = new_game(players=players)
    assert [len(h) for h in state["hands"]] == [3] * players
    assert len(state["draw"]) == 52 - 3 * players
    assert state["discard"] == []
    assert sorted(all_cards(state)) == sorted(new_deck())


def test_three_players_is_the_default_and_one_or_five_are_refused():
    for players in (1, 5):
        with pytest.raises(ValueError):
            GAME.setup(players, {}, 1)


def test_the_shuffle_depends_on_the_seed_and_only_on_it():
    assert new_game(seed=1)["hands"] == new_game(seed=1)["hands"]
    assert new_game(seed=1)["hands"] != new_game(seed=2)["hands"]


def test_the_deal_goes_round_the_table_from_the_dealers_left():
    state = new_game(seed=11)
    dealer = state["dealer"]
    # Undo the deal: the last card dealt went to the dealer, one card at a time round the table.
    pile = list(state["draw"])
    hands = [list(h) for h in state["hands"]]
    for _ in range(3):
        for i in range(3):
            pile.append(hands[(dealer + 1 + i) % 3].pop(0))
    assert sorted(pile) == sorted(new_deck())
    assert len(pile) == 52


def test_a_played_card_goes_face_up_on_the_discard_and_the_hand_refills():
    state = on_turn(new_game(), 0)
    give(state, 0, ["5H", "9C", "2D"])
    top_of_draw = state["draw"][-1]
    state, _ = GAME.apply(state, 0, {"type": "discard", "card": "9C"})
    assert state["discard"][-1] == "9C"
    assert sorted(state["hands"][0]) == sorted(["5H", "2D", top_of_draw])


def test_an_empty_draw_pile_is_refilled_from_the_shuffled_discard_pile():
    state = on_turn(new_game(), 0)
    give(state, 0, ["5H", "9C", "2D"])
    # Move all but one draw card to the discard pile, so the next discard empties the pile.
    state["discard"] = state["draw"][1:]
    state["draw"] = state["draw"][:1]
    last = state["draw"][0]
    state, events = GAME.apply(state, 0, {"type": "discard", "card": "9C"})
    assert last in state["hands"][0] and state["draw"] == [] and state["discard"][-1] == "9C"
    assert not any(e.kind == "reshuffle" for e in events)
    old_discard = sorted(state["discard"] + ["2D"])
    state = on_turn(state, 0)
    state, events = GAME.apply(state, 0, {"type": "discard", "card": "2D"})
    assert any(e.kind == "reshuffle" for e in events)
    assert state["discard"] == [] and len(state["hands"][0]) == 3
    drawn = [c for c in state["hands"][0] if c not in ("5H", last)]
    assert sorted(state["draw"] + drawn) == old_discard
    assert sorted(all_cards(state)) == sorted(new_deck())


def test_discarding_is_a_whole_turn():
    state = on_turn(new_game(), 0)
    state, _ = GAME.apply(state, 0, {"type": "discard", "card": state["hands"][0][0]})
    assert GAME.pending(state)[0].seat != 0
