"""Carrying and banking, and every way a game ends."""


import copy

from games.rules.camelot import turns

from .helpers import BOARD, GAME, play, put, refused, table


def _next_to_home(state, seat):
    home = state["entries"][seat]
    return next(h for h in BOARD.adjacent[home] if h in BOARD.enterable and h not in
                {u["hex"] for u in state["units"].values()})


def _bring_home(state, seat, carry, kind="arthur"):
    """Stand a carrier next to ``seat``'s Entry hex (on a copy) and walk it home; if the
    game goes on, the carrier then leaves the board and ``seat`` starts a fresh turn, so
    calls chain."""
    state = copy.deepcopy(state)
    unit = put(state, seat, kind, _next_to_home(state, seat), carry=carry)
    state = play(state, seat, {"type": "move", "unit": unit, "to": state["entries"][seat]})
    if state["result"] is None:
        del state["units"][unit]
        turns.start(state, seat)
    return state


def _holders(state, *seats):
    state["turns"] = {}
    state["tokens"] = list(seats)
    for s in seats:
        turns.start(state, s)


def test_an_arthur_picks_up_excalibur_by_stopping_on_it_and_others_cannot():
    state = table(3, keep_items=True)
    arthur = put(state, 0, "arthur", "0,2")
    moved = play(state, 0, {"type": "move", "unit": arthur, "to": "0,0"})
    assert moved["units"][arthur]["carry"] == "excalibur" and "0,0" not in moved["items"]
    state = table(3, keep_items=True)
    for kind in ("galahad", "merlin"):
        u = put(state, 0, kind, "0,1" if kind == "galahad" else "1,-1")
        state = play(state, 0, {"type": "move", "unit": u, "to": "0,0" if kind == "galahad" else "1,0"})
    assert state["items"] == {"0,0": ["excalibur"]}


def test_passing_over_an_item_does_not_pick_it_up():
    state = table(3, keep_items=True)
    arthur = put(state, 0, "arthur", "0,1")
    state = play(state, 0, {"type": "move", "unit": arthur, "to": "0,-1"})
    assert state["units"][arthur]["carry"] is None and state["items"] == {"0,0": ["excalibur"]}


def test_excalibur_home_wins_the_basic_game():
    state = _bring_home(table(3), 0, "excalibur")
    assert GAME.outcome(state).winners == (0,) and state["phase"] == "over"
    assert "over" in refused(state, 1, {"type": "end_turn"})


def test_two_accoutrements_home_win():
    state = table(3, options={"accoutrements": True}, keep_items=True)
    state["items"].pop(BOARD.item_spaces["crown"])
    state["items"].pop(BOARD.item_spaces["robe"])
    state = _bring_home(state, 0, "crown", "galahad")
    assert GAME.outcome(state) is None and state["banked"][0]["items"] == ["crown"]
    state = _bring_home(state, 0, "robe", "morgan")
    assert GAME.outcome(state).winners == (0,)


def test_every_item_home_with_nobody_holding_two_is_a_draw():
    state = table(4, options={"accoutrements": True})
    state["banked"][1]["items"] = ["robe"]
    state["banked"][2]["items"] = ["scepter"]
    state["items"] = {"0,0": ["throne"]}
    state = _bring_home(state, 0, "crown", "galahad")
    assert GAME.outcome(state) is None  # the Throne is still out
    state["items"] = {}
    _holders(state, 3, 1)
    outcome = GAME.outcome(_bring_home(state, 3, "throne", "lancelot"))
    assert outcome.draw and not outcome.winners


def test_at_five_players_excalibur_is_one_more_accoutrement():
    state = table(5, options={"accoutrements": True}, keep_items=True)
    state["items"].pop("0,0")
    state = _bring_home(state, 0, "excalibur")
    assert GAME.outcome(state) is None and state["banked"][0]["items"] == ["excalibur"]
    state["items"].pop(BOARD.item_spaces["throne"])
    state = _bring_home(state, 0, "throne", "lancelot")
    assert GAME.outcome(state).winners == (0,)


def _gold_table(values, lying):
    state = table(3, options={"gold": True})
    state["item_values"] = dict(values)
    state["items"] = {"0,0": list(lying)} if lying else {}
    return state


def test_fifteen_gold_home_wins():
    state = _gold_table({"gold-1": 5, "gold-2": 10, "gold-3": 5}, ["gold-3"])
    state["banked"][0]["coins"] = ["gold-2"]
    won = _bring_home(state, 0, "gold-1")
    assert GAME.outcome(won).winners == (0,) and "15 gold" in GAME.outcome(won).reason


def test_when_all_the_gold_is_gathered_most_gold_wins_and_ties_are_shared():
    state = _gold_table({"gold-1": 5, "gold-2": 10, "gold-3": 5}, [])
    state["banked"][1]["coins"] = ["gold-2"]
    state["banked"][2]["coins"] = ["gold-3"]
    assert GAME.outcome(_bring_home(state, 0, "gold-1")).winners == (1,)
    state["item_values"]["gold-2"] = 5
    tie = GAME.outcome(_bring_home(state, 0, "gold-1"))
    assert tie.winners == (0, 1, 2) and not tie.draw


def test_items_and_gold_together_either_goal_wins():
    state = table(3, options={"accoutrements": True, "gold": True})
    state["item_values"] = {"gold-1": 15}
    state["items"] = {"0,0": ["crown"]}
    assert GAME.outcome(_bring_home(state, 0, "gold-1")).winners == (0,)
    state["item_values"] = {"gold-1": 3}
    state["items"] = {"0,0": ["gold-1"]}
    state["banked"][0]["items"] = ["robe"]
    assert GAME.outcome(_bring_home(state, 0, "crown")).winners == (0,)


def test_the_turn_cap_ends_in_a_draw():
    state = table(3, options={"turn_cap": 20})
    for _ in range(20):
        state = play(state, state["tokens"][0], {"type": "end_turn"})
    assert GAME.outcome(state).draw and state["turn_count"] == 20 and GAME.pending(state) == []
