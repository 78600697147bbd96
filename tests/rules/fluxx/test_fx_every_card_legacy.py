"""Every card of the deck, played at least once, with its effect checked.

One parametrised test per card: Goals are met, Keepers land (and their powers work),
Creepers block, each New Rule changes the number or the move it is about, and each Action
does what its text says. Finer points of each are in the other files.
"""
import pytest

from games.rules.fluxx.cards import LEGACY
from games.rules.fluxx.cards import DECKS, EFFECT, TAGS, TYPE
from games.rules.fluxx.current_rules import (ALL, draw_count, goal_limit, hand_limit, keeper_limit, number,
                                             play_target)

from .helpers import (GAME, act, decide, discard, give, goals, open_decision, play, put, rules, stack,
                      table_for)

# Written for the reconstructed deck, which games stored on it still play (conftest.py).
DECK = LEGACY

FILLER = ("shrubbery", "trojan-rabbit", "nude-organist")  # keepers no check below relies on


def _keep_turn(state):
    """Play 4 and three filler cards: the turn goes on after the card under test."""
    rules(state, "play-4")
    give(state, 0, *FILLER)
    return state


def _cards_of(kind):
    return [c for c in DECKS[LEGACY] if TYPE[c] == kind]


# --- Goals ---------------------------------------------------------------------------

@pytest.mark.parametrize("goal", _cards_of("goal"))
def test_every_goal_is_met_by_its_cards_and_wins(goal):
    state = table_for()
    e = EFFECT[goal]
    put(state, 0, *e.get("have", ()))
    put(state, 1, *e.get("others_have", ()))
    if "tagged" in e:
        knights = [c for c in DECKS[LEGACY] if e["tagged"]["tag"] in TAGS[c] and c not in e.get("have", ())]
        put(state, 0, *knights[:number(state, e["tagged"]["count"])])
    give(state, 0, goal)
    state, events = play(state, 0, goal)
    assert GAME.outcome(state).winners == (0,), goal
    assert state["result"]["goal"] == goal


@pytest.mark.parametrize("goal", _cards_of("goal"))
def test_every_goal_is_not_met_with_one_card_short(goal):
    state = table_for()
    e = EFFECT[goal]
    needed = list(e.get("have", ()))
    put(state, 0, *needed[:-1])
    if "tagged" in e:
        knights = [c for c in DECKS[LEGACY] if e["tagged"]["tag"] in TAGS[c] and c not in needed]
        put(state, 0, *knights[:e["tagged"]["count"] - 1])
        put(state, 0, *needed[-1:])
    give(state, 0, goal)
    state, _ = play(state, 0, goal)
    assert GAME.outcome(state) is None


# --- Keepers and Creepers -------------------------------------------------------------

@pytest.mark.parametrize("keeper", _cards_of("keeper"))
def test_every_keeper_goes_on_the_players_table(keeper):
    state = table_for()
    give(state, 0, keeper)
    state, _ = play(state, 0, keeper)
    assert state["tables"][0] == [keeper]


POWER_USES = {
    "excalibur": ({"type": "power", "card": "excalibur", "target": "death", "to": 2}, ("tables", 2, "death")),
    "finger-of-god": ({"type": "power", "card": "finger-of-god", "target": "death"}, ("discard", None, "death")),
    "animator": ({"type": "power", "card": "animator", "target": "death"}, ("discard", None, "death")),
    "holy-hand-grenade": ({"type": "power", "card": "holy-hand-grenade", "target": "death"},
                          ("discard", None, "holy-hand-grenade")),
}


@pytest.mark.parametrize("keeper", sorted(POWER_USES))
def test_every_keeper_power_does_what_it_says(keeper):
    state = table_for()
    put(state, 0, keeper, "death")
    give(state, 0, "cow")
    move, (zone, seat, card) = POWER_USES[keeper]
    assert move in GAME.legal_moves(state, 0)
    state, _ = act(state, 0, move)
    where = state[zone] if seat is None else state[zone][seat]
    assert card in where and "death" not in state["tables"][0]


def test_every_keeper_with_a_power_is_covered():
    assert sorted(POWER_USES) == sorted(c for c in _cards_of("keeper") if "power" in EFFECT[c])


@pytest.mark.parametrize("creeper", _cards_of("creeper"))
def test_every_creeper_lands_when_drawn_and_blocks_a_win(creeper):
    state = table_for()
    put(state, 0, "king-arthur", "holy-grail")
    give(state, 0, "jackpot")
    stack(state, creeper, "cow", "coconuts", "swallow")
    _keep_turn(state)
    state, _ = play(state, 0, "jackpot")
    assert creeper in state["tables"][0] and creeper not in state["hands"][0]
    give(state, 0, "the-quest")
    state, _ = play(state, 0, "the-quest")
    assert GAME.outcome(state) is None


@pytest.mark.parametrize("creeper", _cards_of("creeper"))
def test_every_creeper_played_from_a_hand_goes_on_the_players_table(creeper):
    state = table_for()
    give(state, 0, creeper)  # e.g. after Zap a Card took it into a hand
    state, _ = play(state, 0, creeper)
    assert state["tables"][0] == [creeper]


# --- New Rules ------------------------------------------------------------------------

VALUE_READERS = {"draw": lambda s: draw_count(s, 0), "play": lambda s: play_target(s, 0),
                 "hand_limit": hand_limit, "keeper_limit": keeper_limit, "goal_limit": goal_limit}


@pytest.mark.parametrize("rule", [c for c in _cards_of("rule") if EFFECT[c]["slot"] in VALUE_READERS])
def test_every_number_rule_sets_its_number(rule):
    state = _keep_turn(table_for())
    if EFFECT[rule]["slot"] == "play":
        state["rules"].remove("play-4")
        state["draw"].append("play-4")
    give(state, 0, rule)
    state, _ = play(state, 0, rule)
    slot, value = EFFECT[rule]["slot"], EFFECT[rule]["value"]
    assert VALUE_READERS[slot](state) == (ALL if value == ALL else value)
    if slot == "draw":
        assert state["turn"]["drawn"] == value  # the difference was drawn at once


def _special_rule_checks():
    def one_two_five(state):
        rules(state, "draw-3", "keeper-limit-3")
        state, _ = play(state, 0, "one-two-five")
        assert draw_count(state, 0) == 5 and keeper_limit(state) == 5 and state["turn"]["drawn"] == 5

    def no_hand_bonus(state):
        state["rules"].remove("play-4")
        state["draw"].append("play-4")
        state, _ = play(state, 0, "no-hand-bonus")
        assert state["turn"]["seat"] == 1 and len(state["hands"][1]) == 4

    def poor_bonus(state):
        put(state, 1, "cow")
        put(state, 2, "coconuts")
        state, _ = play(state, 0, "poor-bonus")
        assert draw_count(state, 0) == 2 and state["turn"]["drawn"] == 2

    def rich_bonus(state):
        put(state, 0, "cow")
        state, _ = play(state, 0, "rich-bonus")
        assert play_target(state, 0) == 5

    def get_on_with_it(state):
        state, _ = play(state, 0, "get-on-with-it")
        state, _ = act(state, 0, {"type": "get_on_with_it"})
        assert state["turn"]["seat"] == 1 and len(state["hands"][0]) == 3
        assert set(FILLER).isdisjoint(state["hands"][0])

    def swap_plays(state):
        state, _ = play(state, 0, "swap-plays-for-draws")
        state, _ = act(state, 0, {"type": "swap_plays"})
        assert state["turn"]["seat"] == 1 and len(state["hands"][0]) == 3 + 3  # three plays were owed

    def sing(state):
        state["turn"]["played"] = 0
        state, _ = play(state, 0, "sing-bonus")
        assert not any(m["type"] == "sing" for m in GAME.legal_moves(state, 0))  # after the first play: too late
        state["turn"]["played"] = 0
        assert {"type": "sing", "song": "", "words": ""} in GAME.legal_moves(state, 0)

    def accent(state):
        state, _ = play(state, 0, "accent-bonus")
        state, _ = act(state, 0, {"type": "accent", "accent": "French", "words": "I fart in your direction"})
        state, _ = decide(state, 1, "yes")
        state, _ = decide(state, 2, "yes")
        assert len(state["hands"][0]) == 3 + 1

    def quote(state):
        state, _ = play(state, 0, "what-is-your-quote")
        state, _ = play(state, 0, "shrubbery", quote="We want... a shrubbery!")
        assert len(state["hands"][0]) == 2 + 1

    return {"one-two-five": one_two_five, "no-hand-bonus": no_hand_bonus, "poor-bonus": poor_bonus,
            "rich-bonus": rich_bonus, "get-on-with-it": get_on_with_it, "swap-plays-for-draws": swap_plays,
            "sing-bonus": sing, "accent-bonus": accent, "what-is-your-quote": quote}


SPECIAL_RULES = _special_rule_checks()


@pytest.mark.parametrize("rule", sorted(SPECIAL_RULES))
def test_every_other_rule_does_what_it_says(rule):
    state = _keep_turn(table_for())
    give(state, 0, rule)
    SPECIAL_RULES[rule](state)


def test_every_rule_is_covered():
    covered = {c for c in _cards_of("rule") if EFFECT[c]["slot"] in VALUE_READERS} | set(SPECIAL_RULES)
    assert covered == set(_cards_of("rule"))


# --- Actions --------------------------------------------------------------------------

def _draw_2_and_use_em(state):
    stack(state, "cow", "coconuts")
    state, _ = play(state, 0, "draw-2-and-use-em")
    state, _ = decide(state, 0, "coconuts")
    assert state["tables"][0] == ["coconuts", "cow"] and state["turn"]["played"] == 1


def _draw_3_play_2(state):
    stack(state, "cow", "coconuts", "swallow")
    state, _ = play(state, 0, "draw-3-play-2")
    state, _ = decide(state, 0, "cow")
    state, _ = decide(state, 0, "swallow")
    assert state["tables"][0] == ["cow", "swallow"] and "coconuts" in state["discard"]


def _trade_hands(state):
    give(state, 2, "cow")
    mine = [c for c in state["hands"][0] if c != "trade-hands"]
    state, _ = play(state, 0, "trade-hands")
    state, _ = decide(state, 0, 2)
    assert state["hands"][0] == ["cow"] and sorted(state["hands"][2]) == sorted(mine)


def _trash_a_keeper(state):
    put(state, 2, "cow")
    state, _ = play(state, 0, "trash-a-keeper")
    state, _ = decide(state, 0, "cow")
    assert "cow" in state["discard"]


def _steal_a_keeper(state):
    put(state, 2, "cow")
    state, _ = play(state, 0, "steal-a-keeper")
    state, _ = decide(state, 0, "cow")
    assert state["tables"][0] == ["cow"] and state["tables"][2] == []


def _my_hovercraft(state):
    give(state, 1, "cow", "coconuts")
    give(state, 2, "swallow")
    cards = sorted(state["hands"][0] + state["hands"][1] + state["hands"][2])
    sizes = [len(state["hands"][0]) - 1, 2, 1]
    state, _ = play(state, 0, "my-hovercraft")
    assert [len(h) for h in state["hands"]] == sizes
    after = sorted(state["hands"][0] + state["hands"][1] + state["hands"][2])
    assert after == [c for c in cards if c != "my-hovercraft"]


def _jackpot(state):
    state, _ = play(state, 0, "jackpot")
    assert len(state["hands"][0]) == 3 + 3


def _rotate_hands(state):
    give(state, 1, "cow")
    give(state, 2, "coconuts")
    mine = [c for c in state["hands"][0] if c != "rotate-hands"]
    state, _ = play(state, 0, "rotate-hands")
    state, _ = decide(state, 0, "next")
    assert state["hands"][1] == mine and state["hands"][2] == ["cow"] and state["hands"][0] == ["coconuts"]


def _rules_reset(state):
    rules(state, "draw-2", "hand-limit-2")
    state, _ = play(state, 0, "rules-reset")
    assert state["rules"] == [] and {"draw-2", "hand-limit-2", "play-4"} <= set(state["discard"])


def _trash_a_new_rule(state):
    rules(state, "draw-2")
    state, _ = play(state, 0, "trash-a-new-rule")
    state, _ = decide(state, 0, "draw-2")
    assert state["rules"] == ["play-4"] and "draw-2" in state["discard"]


def _exchange_keepers(state):
    put(state, 0, "cow")
    put(state, 2, "coconuts")
    state, _ = play(state, 0, "exchange-keepers")
    state, _ = decide(state, 0, "cow")
    state, _ = decide(state, 0, "coconuts")
    assert state["tables"][0] == ["coconuts"] and state["tables"][2] == ["cow"]


def _empty_the_trash(state):
    discard(state, "cow", "coconuts")
    before = len(state["draw"])
    state, _ = play(state, 0, "empty-the-trash")
    assert state["discard"] == ["empty-the-trash"] and len(state["draw"]) == before + 2


def _completely_different(state):
    old = [c for c in state["hands"][0] if c != "completely-different"]
    state, _ = play(state, 0, "completely-different")
    assert set(old) <= set(state["discard"]) and len(state["hands"][0]) == len(old)


def _take_another_turn(state):
    state["rules"].remove("play-4")
    state["draw"].append("play-4")
    state, _ = play(state, 0, "take-another-turn")
    assert state["turn"]["seat"] == 0 and state["turn"]["number"] == 2


def _lets_do_that_again(state):
    discard(state, "jackpot", "cow")
    state, _ = play(state, 0, "lets-do-that-again")
    assert [o["value"] for o in open_decision(state, 0)["options"]] == ["jackpot"]
    state, _ = decide(state, 0, "jackpot")
    assert len(state["hands"][0]) == 3 + 3


def _lets_simplify(state):
    rules(state, "draw-2", "hand-limit-2", "keeper-limit-4")
    state, _ = play(state, 0, "lets-simplify")
    assert open_decision(state, 0)["pick"] == [0, 2]
    state, _ = decide(state, 0, ["draw-2", "keeper-limit-4"])
    assert state["rules"] == ["play-4", "hand-limit-2"]


def _no_limits(state):
    rules(state, "hand-limit-1", "keeper-limit-2", "draw-2")
    state, _ = play(state, 0, "no-limits")
    assert state["rules"] == ["play-4", "draw-2"]


def _everybody_gets_1(state):
    stack(state, "cow", "coconuts", "swallow")
    state, _ = play(state, 0, "everybody-gets-1")
    state, _ = decide(state, 0, "swallow")
    state, _ = decide(state, 0, "cow")
    assert state["hands"][1] == ["swallow"] and state["hands"][2] == ["cow"] and "coconuts" in state["hands"][0]


def _share_the_wealth(state):
    put(state, 1, "cow", "coconuts", "death")
    put(state, 2, "swallow")
    state, _ = play(state, 0, "share-the-wealth")
    keepers = sorted(c for t in state["tables"] for c in t if TYPE[c] == "keeper")
    assert keepers == ["coconuts", "cow", "swallow"] and "death" in state["tables"][1]
    assert sorted(len([c for c in t if TYPE[c] == "keeper"]) for t in state["tables"]) == [1, 1, 1]


def _use_what_you_take(state):
    give(state, 2, "cow")
    state, _ = play(state, 0, "use-what-you-take")
    state, _ = decide(state, 0, 2)
    assert state["tables"][0] == ["cow"] and state["hands"][2] == []


def _zap_a_card(state):
    rules(state, "draw-2")
    state, _ = play(state, 0, "zap-a-card")
    state, _ = decide(state, 0, "draw-2")
    assert "draw-2" in state["hands"][0] and "draw-2" not in state["rules"]


def _taxation(state):
    give(state, 1, "cow", "coconuts")
    give(state, 2, "swallow")
    state, _ = play(state, 0, "taxation")
    assert {d["seat"] for d in state["decisions"][-1]} == {1, 2}
    state, _ = decide(state, 2, "swallow")
    state, _ = decide(state, 1, "coconuts")
    assert {"swallow", "coconuts"} <= set(state["hands"][0]) and state["hands"][1] == ["cow"]


def _trash_something(state):
    put(state, 2, "death")
    state, _ = play(state, 0, "trash-something")
    state, _ = decide(state, 0, "death")
    assert "death" in state["discard"]


def _move_a_creeper(state):
    put(state, 0, "death")
    state, _ = play(state, 0, "move-a-creeper")
    state, _ = decide(state, 0, "death")
    state, _ = decide(state, 0, 2)
    assert state["tables"][2] == ["death"] and state["tables"][0] == []


def _creeper_sweeper(state):
    put(state, 0, "death", "cow")
    put(state, 2, "black-knight")
    state, _ = play(state, 0, "creeper-sweeper")
    assert state["tables"][0] == ["cow"] and state["tables"][2] == []


def _nobody_expects(state):
    put(state, 2, "spanish-inquisition")
    state, _ = play(state, 0, "nobody-expects")
    state, _ = decide(state, 0, 1)
    assert state["tables"][1] == ["spanish-inquisition"]


def _its_only_a_model(state):
    goals(state, "the-quest")
    state, _ = play(state, 0, "its-only-a-model")
    state, _ = decide(state, 0, "the-quest")
    assert state["goals"] == [] and "the-quest" in state["discard"]


def _im_not_dead_yet(state):
    discard(state, "cow", "draw-2")
    state, _ = play(state, 0, "im-not-dead-yet")
    state, _ = decide(state, 0, "cow")
    assert "cow" in state["hands"][0]


ACTIONS = {
    "draw-2-and-use-em": _draw_2_and_use_em, "draw-3-play-2": _draw_3_play_2, "trade-hands": _trade_hands,
    "trash-a-keeper": _trash_a_keeper, "steal-a-keeper": _steal_a_keeper, "my-hovercraft": _my_hovercraft,
    "jackpot": _jackpot, "rotate-hands": _rotate_hands, "rules-reset": _rules_reset,
    "trash-a-new-rule": _trash_a_new_rule, "exchange-keepers": _exchange_keepers,
    "empty-the-trash": _empty_the_trash, "completely-different": _completely_different,
    "take-another-turn": _take_another_turn, "lets-do-that-again": _lets_do_that_again,
    "lets-simplify": _lets_simplify, "no-limits": _no_limits, "everybody-gets-1": _everybody_gets_1,
    "share-the-wealth": _share_the_wealth, "use-what-you-take": _use_what_you_take, "zap-a-card": _zap_a_card,
    "taxation": _taxation, "trash-something": _trash_something, "move-a-creeper": _move_a_creeper,
    "creeper-sweeper": _creeper_sweeper, "nobody-expects": _nobody_expects, "its-only-a-model": _its_only_a_model,
    "im-not-dead-yet": _im_not_dead_yet,
}


@pytest.mark.parametrize("action", sorted(ACTIONS))
def test_every_action_does_what_it_says(action):
    state = _keep_turn(table_for())
    give(state, 0, action)
    ACTIONS[action](state)


def test_every_action_is_covered():
    assert set(ACTIONS) == set(_cards_of("action"))


def test_nobody_expects_draws_two_when_the_inquisition_is_not_in_play():
    state = _keep_turn(table_for())
    give(state, 0, "nobody-expects")
    state, _ = play(state, 0, "nobody-expects")
    assert len(state["hands"][0]) == 3 + 2
