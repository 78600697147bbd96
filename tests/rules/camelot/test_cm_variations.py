"""Table options and how they combine."""
import itertools

import pytest

from games.rules.camelot.items import all_items

from .helpers import GAME, play

VARIATIONS = ("accoutrements", "gold", "guardians", "turn_based")


def test_option_defaults():
    assert GAME.options_with_defaults({}) == {
        "accoutrements": False, "gold": False, "guardians": False, "turn_based": False,
        "failed_attack_penalty": True, "turn_cap": 400, "pauses": 2}


@pytest.mark.parametrize("flags", list(itertools.product((False, True), repeat=4)))
def test_every_combination_sets_up_and_plays_a_few_turns(flags):
    options = dict(zip(VARIATIONS, flags))
    for players in (3, 6):
        state = GAME.setup(players, options, players * 11)
        expected = sorted(all_items(state))
        lying = sorted(t for v in state["items"].values() for t in v)
        assert lying == expected
        assert len(state["tokens"]) == (1 if options["turn_based"] else 2)
        assert sum(u["guardian"] for u in state["units"].values()) == (2 if options["guardians"] else 0)
        while state["phase"] == "entry":
            seat = GAME.pending(state)[0].seat
            state = play(state, seat, GAME.legal_moves(state, seat)[0])
        for _ in range(6):
            seat = state["tokens"][0]
            entering = [m for m in GAME.legal_moves(state, seat) if m["type"] == "enter"]
            if entering:
                state = play(state, seat, entering[-1])
            state = play(state, seat, {"type": "end_turn"})
        assert state["turn_count"] == 6


def test_which_goals_each_combination_uses():
    def goods(options, players=4):
        return set(all_items(GAME.setup(players, options, 1)))
    assert goods({}) == {"excalibur"}
    assert goods({"accoutrements": True}) == {"crown", "scepter", "robe", "throne"}
    assert "excalibur" in goods({"accoutrements": True}, players=6)
    gold = goods({"gold": True})
    assert gold and all(g.startswith("gold-") for g in gold)
    both = goods({"gold": True, "accoutrements": True})
    assert {"crown", "throne"} <= both and "excalibur" not in both
