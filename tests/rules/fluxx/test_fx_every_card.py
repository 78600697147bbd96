"""Every card of the printed deck with an effect, checked on positions built from plain data.

One test per card (the parameter is the card's id): every Goal is met by the position that
should meet it and not by each position that falls short; every Keeper lands, and each
power does what its card says, as often as it says; every Creeper lands when drawn and
blocks a win; each New Rule changes the number or the move it is about; each Action does
what its text says. The ``test_*_is_covered`` tests fail when a card of the deck has no
check here. (The legacy deck's cards: test_fx_every_card_legacy.py.)
"""
import pytest

from games.rules.base import IllegalMove
from games.rules.fluxx import goals as goal_rules
from games.rules.fluxx.cards import DECKS, EFFECT, PRINTED, TYPE
from games.rules.fluxx.current_rules import (ALL, draw_count, goal_limit, hand_limit, keeper_limit, play_target)

from .helpers import (GAME, act, decide, discard, give, goals, open_decision, play, put, rules, stack, table_for)

DECK = PRINTED
FILLER = ("coconuts", "trojan-rabbit", "nude-organist")  # Keepers no check below relies on


def _keep_turn(state):
    """Play 4 and three filler cards: the turn goes on after the card under test."""
    rules(state, "play-4")
    give(state, 0, *FILLER)
    return state


def _cards_of(kind):
    return [c for c in DECKS[PRINTED] if TYPE[c] == kind]


def _arrange(state, position):
    """``position``: seat -> the cards on its table; ``"hand 1"``: the cards in seat 1's hand."""
    for where, cards in position.items():
        if isinstance(where, int):
            put(state, where, *cards)
        else:
            give(state, int(where.split()[1]), *cards)
    return state


# --- Goals ---------------------------------------------------------------------------
# Each Goal: (a position where seat 0 meets it, [positions where nobody does]). Seat 0
# plays the Goal from its hand; seats 1 and 2 are the others.

FINGER, ANIMATOR = "the-finger-of-god", "the-animator"
GOALS = {
    "course-its-a-good-idea": ({0: ["important-message", FINGER]},
                               [{0: ["important-message"]}, {0: ["important-message", FINGER, "grim-reaper"]}]),
    "bird-in-the-bush": ({0: ["a-shrubbery", "resting-parrot"]},
                         [{0: ["a-shrubbery"]}, {0: ["a-shrubbery", "coconuts"]},
                          {0: ["resting-parrot", "unladen-swallow"]}]),
    "book-of-armaments": ({0: ["holy-hand-grenade-of-antioch", "important-message"]},
                          [{0: ["important-message"], 1: ["holy-hand-grenade-of-antioch"]}]),
    "i-have-a-plan-2008": ({0: ["sir-bedevere", "trojan-rabbit"]}, [{0: ["sir-bedevere"]}]),
    "strange-women-2008": ({0: ["king-arthur", "excalibur"]}, [{0: ["king-arthur"], 1: ["excalibur"]}]),
    "grail-shaped-beacon": ({0: ["sir-galahad"], 1: ["holy-grail"]},
                            [{0: ["sir-galahad", "holy-grail"]}, {0: ["sir-galahad"]}]),
    "bring-forth-the-grenade-2008": ({0: ["killer-rabbit", "holy-hand-grenade-of-antioch"]},
                                     [{0: ["holy-hand-grenade-of-antioch"]},
                                      {0: ["killer-rabbit", "holy-hand-grenade-of-antioch", "grim-reaper"]}]),
    "coconut-laden-swallow": ({0: ["coconuts", "unladen-swallow"]},
                              [{0: ["coconuts", "resting-parrot"]}, {0: ["unladen-swallow"]}]),
    "he-is-brave-sir-robin": ({0: ["sir-robin", "robins-minstrels-2008"]}, [{0: ["robins-minstrels-2008"]}]),
    "rabbits-of-doom": ({0: ["trojan-rabbit", "killer-rabbit"]}, [{0: ["trojan-rabbit"]}]),
    "things-no-one-expects": ({0: ["spanish-inquisition", "airborne-cow"]},
                              [{0: ["spanish-inquisition"]}, {0: ["spanish-inquisition", "coconuts"]},
                               {0: ["airborne-cow", "nude-organist"]}]),
    "the-cheese-shop": ({1: ["coconuts"], "hand 2": ["a-shrubbery"]},
                        [{"hand 1": ["coconuts"]}, {0: ["grim-reaper"], 1: ["coconuts"], 2: ["a-shrubbery"]},
                         {"hand 0": ["the-foot"], 1: ["coconuts"], 2: ["a-shrubbery"]}]),
    "bring-us-a-shrubbery": ({0: ["knights-who-say-ni-2008", "a-shrubbery"]}, [{0: ["a-shrubbery"]}]),
    "he-bravely-ran-away": ({0: ["robins-minstrels-2008", "three-headed-giant"]},
                            [{0: ["robins-minstrels-2008", "three-headed-giant", "killer-rabbit"]}]),
    "who-leaps-out": ({0: ["the-catapult", "trojan-rabbit"]}, [{0: ["the-catapult"]}]),
    "fetchez-la-vache-2008": ({0: ["airborne-cow", "the-catapult"]}, [{0: ["airborne-cow"], 2: ["the-catapult"]}]),
    "squashed-from-above": ({0: [FINGER, "the-foot"]}, [{0: ["the-foot"]}, {0: ["the-foot", ANIMATOR], 1: [FINGER]}]),
    "cave-of-caerbannog-2008": ({0: ["killer-rabbit", "legendary-black-beast"]},
                                [{0: ["killer-rabbit", "legendary-black-beast", "grim-reaper"]}]),
    "much-rejoicing-2008": ({0: ["robins-minstrels-2008", "sir-robin", "sir-galahad"]},
                            [{0: ["robins-minstrels-2008", "sir-robin"]}, {0: ["sir-robin", "sir-galahad"]}]),
    "temperate-zone": ({0: ["coconuts", "resting-parrot"]}, [{0: ["coconuts", "unladen-swallow"]}]),
    "holy-relics-2008": ({0: ["holy-hand-grenade-of-antioch", "holy-grail"]}, [{0: ["holy-grail"]}]),
    "opening-credits": ({0: ["the-foot", "nude-organist"]}, [{0: ["the-foot"]}]),
    "quest-accomplished": ({0: ["holy-grail", "sir-lancelot"]}, [{0: ["holy-grail", "coconuts"]}]),
    "using-coconuts": ({0: ["coconuts", "king-arthur"]}, [{0: ["coconuts"], 1: ["king-arthur"]}]),
    "gone-to-meet-his-maker": ({0: [FINGER, "grim-reaper"]}, [{0: ["grim-reaper"]}]),
    "flying-creatures": ({0: ["airborne-cow", "unladen-swallow"]}, [{0: ["airborne-cow", "resting-parrot"]}]),
    "knights-of-the-round-table": ({0: ["king-arthur", "sir-robin", "sir-bedevere"]},
                                   [{0: ["king-arthur", "sir-robin"]},
                                    {0: ["king-arthur", "sir-robin", "sir-bedevere", "grim-reaper"]}]),
    "ex-parrot": ({0: ["resting-parrot", "grim-reaper"]}, [{0: ["resting-parrot"]}]),
    "cartoon-peril": ({0: ["legendary-black-beast", ANIMATOR]}, [{0: ["legendary-black-beast", FINGER]}]),
    "meaning-of-life": ({0: [FINGER, ANIMATOR]}, [{0: [ANIMATOR]}, {0: [ANIMATOR], 1: [FINGER]}]),
    "message-for-you-sir": ({0: ["important-message", "sir-lancelot"]}, [{0: ["sir-lancelot"]}]),
}


def _goal_played(goal, position):
    state = _arrange(table_for(), position)
    give(state, 0, goal)
    state, _ = play(state, 0, goal)
    return state


@pytest.mark.parametrize("goal", sorted(GOALS))
def test_every_goal_is_met_by_its_position_and_wins(goal):
    state = _goal_played(goal, GOALS[goal][0])
    assert GAME.outcome(state).winners == (0,), goal
    assert state["result"]["goal"] == goal


@pytest.mark.parametrize("goal", sorted(GOALS))
def test_every_goal_is_not_met_by_the_positions_that_fall_short(goal):
    for position in GOALS[goal][1]:
        state = _goal_played(goal, position)
        assert GAME.outcome(state) is None, (goal, position)
        # the full definition too, without the engine's cheap first look in front of it
        assert not any(goal_rules.meets(state, s, goal) for s in range(3)), (goal, position)


def test_every_goal_is_covered():
    assert set(GOALS) == set(_cards_of("goal"))


def test_the_animator_stands_in_for_the_finger_of_god_only_while_the_finger_is_on_no_table():
    state = _goal_played("course-its-a-good-idea", {0: ["important-message", ANIMATOR]})
    assert GAME.outcome(state).winners == (0,)
    state = _goal_played("course-its-a-good-idea", {0: ["important-message", ANIMATOR], 1: [FINGER]})
    assert GAME.outcome(state) is None
    state = _goal_played("gone-to-meet-his-maker", {0: [ANIMATOR, "grim-reaper"], "hand 0": [FINGER]})
    assert GAME.outcome(state).winners == (0,)  # the Finger in a hand is on no table


def test_the_cheese_shop_is_won_by_nobody_while_two_players_have_nothing():
    state = _goal_played("the-cheese-shop", {1: ["coconuts"]})  # seats 0 and 2 both have nothing
    assert GAME.outcome(state) is None and goal_rules.meeting(state) == [] and state["tie"] == []
    state = put(state, 2, "a-shrubbery")  # seat 2 takes a card: seat 0 alone has nothing
    assert goal_rules.meeting(state) == [0]


# --- Keepers and Creepers -------------------------------------------------------------

@pytest.mark.parametrize("keeper", _cards_of("keeper"))
def test_every_keeper_goes_on_the_players_table(keeper):
    state = table_for()
    give(state, 0, keeper)
    state, _ = play(state, 0, keeper)
    assert state["tables"][0] == [keeper]


def _powers(state, seat=0):
    return [m for m in GAME.legal_moves(state, seat) if m["type"] == "power"]


def _the_finger_of_god(state):
    put(state, 0, FINGER)
    put(state, 2, "grim-reaper")
    move = {"type": "power", "card": FINGER, "target": "grim-reaper"}
    assert _powers(state) == [move]
    state, _ = act(state, 0, move)
    assert "grim-reaper" in state["discard"] and FINGER in state["hands"][0] and FINGER not in state["tables"][0]
    put(state, 1, "killer-rabbit")
    state, _ = play(state, 0, FINGER)  # back on the table the same turn: smitten once already
    assert _powers(state) == []


def _the_animator(state):
    put(state, 0, ANIMATOR)
    put(state, 1, FINGER, "grim-reaper")
    assert _powers(state) == []  # the real Finger of God is on a table
    state["tables"][1].remove(FINGER)
    state["discard"].append(FINGER)
    move = {"type": "power", "card": ANIMATOR, "target": "grim-reaper"}
    assert _powers(state) == [move]
    state, _ = act(state, 0, move)
    assert "grim-reaper" in state["discard"] and ANIMATOR in state["hands"][0]
    put(state, 1, "killer-rabbit")
    state, _ = play(state, 0, ANIMATOR)
    assert _powers(state) == []  # once a turn


def _holy_hand_grenade_of_antioch(state):
    grenade = "holy-hand-grenade-of-antioch"
    put(state, 0, grenade)
    put(state, 1, "airborne-cow")
    assert _powers(state) == []  # a Keeper is no target
    put(state, 2, "grim-reaper")
    move = {"type": "power", "card": grenade, "target": "grim-reaper"}
    assert _powers(state) == [move]
    state, _ = act(state, 0, move)
    assert {grenade, "grim-reaper"} <= set(state["discard"]) and state["tables"][0] == []


def _excalibur(state):
    put(state, 0, "excalibur", "grim-reaper", "killer-rabbit")
    move = {"type": "power", "card": "excalibur", "target": "grim-reaper", "to": 2}
    assert move in _powers(state)
    state, _ = act(state, 0, move)
    assert state["tables"][2] == ["grim-reaper"] and "grim-reaper" not in state["tables"][0]
    assert _powers(state) == []  # once a turn, though the Killer Rabbit is still there


def _the_catapult(state):
    put(state, 0, "the-catapult")
    put(state, 2, "sir-robin", "legendary-black-beast")
    assert _powers(state) == []  # nothing of its owner's to fling
    put(state, 0, "airborne-cow")
    moves = _powers(state)
    assert {m["target"] for m in moves} == {"airborne-cow"} and {m["to"] for m in moves} == {1, 2}
    assert {m["discard"] for m in moves if m["to"] == 2} == {"sir-robin", "airborne-cow"}  # Keepers only
    move = {"type": "power", "card": "the-catapult", "target": "airborne-cow", "to": 2, "discard": "sir-robin"}
    state, _ = act(state, 0, move)
    assert state["tables"][0] == ["the-catapult"] and "sir-robin" in state["discard"]
    assert sorted(state["tables"][2]) == ["airborne-cow", "legendary-black-beast"]
    put(state, 0, "coconuts")
    assert _powers(state) == []  # once a turn


POWERS = {FINGER: _the_finger_of_god, ANIMATOR: _the_animator, "holy-hand-grenade-of-antioch":
          _holy_hand_grenade_of_antioch, "excalibur": _excalibur, "the-catapult": _the_catapult}


@pytest.mark.parametrize("keeper", sorted(POWERS))
def test_every_keeper_power_does_what_it_says_as_often_as_it_says(keeper):
    state = _keep_turn(table_for())
    POWERS[keeper](state)


def test_every_keeper_with_a_power_is_covered():
    assert sorted(POWERS) == sorted(c for c in _cards_of("keeper") if "power" in EFFECT[c])


def test_a_keeper_power_is_only_for_its_owner_on_their_own_turn():
    state = table_for()
    put(state, 1, FINGER)
    put(state, 0, "grim-reaper")
    assert _powers(state, 1) == []
    with pytest.raises(IllegalMove):
        GAME.apply(state, 1, {"type": "power", "card": FINGER, "target": "grim-reaper"})


def test_the_finger_of_god_and_the_animator_each_smite_once_in_the_same_turn():
    # Looney Labs' FAQ: both can smite in one turn, the Animator while the Finger is away.
    state = _keep_turn(table_for())
    put(state, 0, FINGER, ANIMATOR)
    put(state, 1, "grim-reaper", "killer-rabbit")
    assert {m["card"] for m in _powers(state)} == {FINGER}
    state, _ = act(state, 0, {"type": "power", "card": FINGER, "target": "grim-reaper"})
    state, _ = act(state, 0, {"type": "power", "card": ANIMATOR, "target": "killer-rabbit"})
    assert state["tables"][1] == [] and {FINGER, ANIMATOR} <= set(state["hands"][0])


@pytest.mark.parametrize("creeper", _cards_of("creeper"))
def test_every_creeper_lands_when_drawn_and_blocks_a_win(creeper):
    state = table_for()
    put(state, 0, "holy-grail", "sir-galahad")
    give(state, 0, "jackpot")
    stack(state, creeper, "airborne-cow", "coconuts", "the-foot")
    _keep_turn(state)
    state, _ = play(state, 0, "jackpot")
    assert creeper in state["tables"][0] and creeper not in state["hands"][0]
    give(state, 0, "quest-accomplished")
    state, _ = play(state, 0, "quest-accomplished")
    assert GAME.outcome(state) is None


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


def _one_two_five(state):
    rules(state, "draw-3", "keeper-limit-3")
    state, _ = play(state, 0, "one-two-five")
    assert draw_count(state, 0) == 5 and keeper_limit(state) == 5 and state["turn"]["drawn"] == 5


def _no_hand_bonus(state):
    state["rules"].remove("play-4")
    state["draw"].append("play-4")
    state, _ = play(state, 0, "no-hand-bonus")
    assert state["turn"]["seat"] == 1 and len(state["hands"][1]) == 4


def _bright_side(state):
    put(state, 1, "airborne-cow")
    put(state, 2, "the-foot")
    state, _ = play(state, 0, "bright-side")  # seat 0 alone has no Keeper: one more card, drawn at once
    assert draw_count(state, 0) == 2 and state["turn"]["drawn"] == 2
    assert GAME.view_for(state, 1)["effective"]["draw"]["text"].endswith(
        "+1 from Always Look on the Bright Side of Life")


def _get_on_with_it(state):
    state, _ = play(state, 0, "get-on-with-it")
    state, _ = act(state, 0, {"type": "get_on_with_it"})
    assert state["turn"]["seat"] == 1 and len(state["hands"][0]) == 3
    assert set(FILLER).isdisjoint(state["hands"][0])


def _swap_plays(state):
    state, _ = play(state, 0, "swap-plays-for-draws")
    state, _ = act(state, 0, {"type": "swap_plays"})
    assert state["turn"]["seat"] == 1 and len(state["hands"][0]) == 3 + 3  # three plays were owed


def _sing(state):
    state["turn"]["played"] = 0
    state, _ = play(state, 0, "sing-bonus")
    assert not any(m["type"] == "sing" for m in GAME.legal_moves(state, 0))  # after the first play: too late
    state["turn"]["played"] = 0
    assert {"type": "sing", "song": "", "words": ""} in GAME.legal_moves(state, 0)


def _accent(state):
    state, _ = play(state, 0, "accent-bonus")
    state, _ = act(state, 0, {"type": "accent", "accent": "French", "words": "I fart in your direction"})
    state, _ = decide(state, 1, "yes")
    state, _ = decide(state, 2, "yes")
    assert len(state["hands"][0]) == 3 + 1


def _quote(state):
    state, _ = play(state, 0, "what-is-your-quote")
    state, _ = play(state, 0, "coconuts", quote="You're using coconuts!")
    state, _ = decide(state, 1, "yes")  # the other players judge it (test_fx_quotes_judged.py)
    state, _ = decide(state, 2, "yes")
    assert len(state["hands"][0]) == 2 + 1


SPECIAL_RULES = {"one-two-five": _one_two_five, "no-hand-bonus": _no_hand_bonus, "bright-side": _bright_side,
                 "get-on-with-it": _get_on_with_it, "swap-plays-for-draws": _swap_plays, "sing-bonus": _sing,
                 "accent-bonus": _accent, "what-is-your-quote": _quote}


@pytest.mark.parametrize("rule", sorted(SPECIAL_RULES))
def test_every_other_rule_does_what_it_says(rule):
    state = _keep_turn(table_for())
    give(state, 0, rule)
    SPECIAL_RULES[rule](state)


def test_every_rule_is_covered():
    covered = {c for c in _cards_of("rule") if EFFECT[c]["slot"] in VALUE_READERS} | set(SPECIAL_RULES)
    assert covered == set(_cards_of("rule"))


# --- Actions --------------------------------------------------------------------------

def _rules_reset(state):
    rules(state, "draw-2", "hand-limit-2")
    state, _ = play(state, 0, "rules-reset")
    assert state["rules"] == [] and {"draw-2", "hand-limit-2", "play-4"} <= set(state["discard"])
    assert state["goals"] == []  # Goals are not rules


def _draw_2_and_use_em(state):
    stack(state, "airborne-cow", "coconuts")
    state, _ = play(state, 0, "draw-2-and-use-em")
    state, _ = decide(state, 0, "coconuts")
    assert state["tables"][0] == ["coconuts", "airborne-cow"] and state["turn"]["played"] == 1


def _steal_a_keeper(state):
    put(state, 2, "airborne-cow")
    state, _ = play(state, 0, "steal-a-keeper")
    state, _ = decide(state, 0, "airborne-cow")
    assert state["tables"][0] == ["airborne-cow"] and state["tables"][2] == []


def _move_a_creeper(state):
    put(state, 1, "grim-reaper")  # anyone's Creeper, not only the player's own
    put(state, 0, "killer-rabbit")
    state, _ = play(state, 0, "move-a-creeper-2008")
    assert [o["value"] for o in open_decision(state, 0)["options"]] == ["killer-rabbit", "grim-reaper"]
    state, _ = decide(state, 0, "grim-reaper")
    assert [o["value"] for o in open_decision(state, 0)["options"]] == [2, 0]  # anyone but its owner
    state, _ = decide(state, 0, 2)
    assert state["tables"][2] == ["grim-reaper"] and state["tables"][1] == []


def _my_brain_hurts(state):
    rules(state, "draw-2", "hand-limit-2", "keeper-limit-3")
    state, _ = play(state, 0, "my-brain-hurts")
    assert open_decision(state, 0)["pick"] == [0, 4]  # as many as you like: all four
    state, _ = decide(state, 0, ["draw-2", "keeper-limit-3", "hand-limit-2"])
    assert state["rules"] == ["play-4"]


def _trade_hands(state):
    give(state, 2, "airborne-cow")
    mine = [c for c in state["hands"][0] if c != "trade-hands"]
    state, _ = play(state, 0, "trade-hands")
    state, _ = decide(state, 0, 2)
    assert state["hands"][0] == ["airborne-cow"] and sorted(state["hands"][2]) == sorted(mine)


def _exchange_keepers(state):
    put(state, 0, "airborne-cow")
    put(state, 2, "the-foot")
    state, _ = play(state, 0, "exchange-keepers")
    state, _ = decide(state, 0, "airborne-cow")
    state, _ = decide(state, 0, "the-foot")
    assert state["tables"][0] == ["the-foot"] and state["tables"][2] == ["airborne-cow"]


def _something_completely_different(state):
    put(state, 0, "airborne-cow", "grim-reaper")
    put(state, 1, "the-foot", "killer-rabbit")
    put(state, 2, "a-shrubbery")
    give(state, 1, "sir-robin")
    stack(state, *("draw-2", "draw-3", "draw-4", "play-2", "play-3", "hand-limit-1", "hand-limit-2", "hand-limit-3",
                   "hand-limit-4"))
    old = [c for c in state["hands"][0] if c != "something-completely-different"] + ["sir-robin"]
    state, _ = play(state, 0, "something-completely-different")
    # Keepers to the right (the player before in turn order), Creepers to the left (the one after).
    assert state["tables"][2] == ["airborne-cow", "killer-rabbit"]  # 0's Keeper and 1's Creeper
    assert state["tables"][0] == ["the-foot"] and state["tables"][1] == ["grim-reaper", "a-shrubbery"]
    assert set(old) <= set(state["discard"])
    assert state["hands"] == [["draw-2", "draw-3", "draw-4"], ["play-2", "play-3", "hand-limit-1"],
                              ["hand-limit-2", "hand-limit-3", "hand-limit-4"]]


def _bring_out_your_dead(state):
    put(state, 0, "grim-reaper")
    put(state, 2, "airborne-cow", "killer-rabbit")
    give(state, 1, "the-foot")
    discard(state, "draw-2", "draw-3")
    before = len(state["draw"])
    state, _ = play(state, 0, "bring-out-your-dead-2008")
    frame = state["decisions"][-1]
    assert {d["seat"] for d in frame} == {0, 1, 2} and all(d["default"] == [] for d in frame)
    state, _ = decide(state, 2, ["killer-rabbit"])
    state, _ = decide(state, 1, [])
    state, _ = decide(state, 0, ["grim-reaper", "trojan-rabbit"])
    assert state["tables"] == [[], [], ["airborne-cow"]] and state["hands"][1] == ["the-foot"]
    assert "trojan-rabbit" not in state["hands"][0]
    assert state["discard"] == ["bring-out-your-dead-2008"]  # the rest went into the draw pile
    assert len(state["draw"]) == before + 2 + 3


def _creeper_sweeper(state):
    put(state, 0, "grim-reaper", "airborne-cow")
    put(state, 2, "three-headed-giant")
    state, _ = play(state, 0, "creeper-sweeper")
    assert state["tables"][0] == ["airborne-cow"] and state["tables"][2] == []


def _too_silly(state):
    rules(state, "draw-2", "hand-limit-2", "keeper-limit-3", "double-agenda", "bright-side")
    state, _ = play(state, 0, "too-silly")
    assert state["rules"] == ["play-4", "draw-2"]


def _trash_a_keeper(state):
    put(state, 2, "airborne-cow")
    state, _ = play(state, 0, "trash-a-keeper")
    state, _ = decide(state, 0, "airborne-cow")
    assert "airborne-cow" in state["discard"]


def _draw_3_play_2(state):
    stack(state, "airborne-cow", "coconuts", "the-foot")
    state, _ = play(state, 0, "draw-3-play-2")
    state, _ = decide(state, 0, "airborne-cow")
    state, _ = decide(state, 0, "the-foot")
    assert state["tables"][0] == ["airborne-cow", "the-foot"] and "coconuts" in state["discard"]


def _run_away(state):
    put(state, 0, "sir-robin", "airborne-cow")
    put(state, 1, "sir-lancelot", "king-arthur")
    put(state, 2, "the-foot")
    state, _ = play(state, 0, "run-away-run-away")
    frame = state["decisions"][-1]
    assert {d["seat"] for d in frame} == {0, 1}  # seat 2 has no Knight
    state, _ = decide(state, 1, 0)
    state, _ = decide(state, 0, 1)  # both move at once: Robin to seat 1, Lancelot and Arthur to seat 0
    assert state["tables"][0] == ["airborne-cow", "sir-lancelot", "king-arthur"]
    assert state["tables"][1] == ["sir-robin"]


def _jackpot(state):
    state, _ = play(state, 0, "jackpot")
    assert len(state["hands"][0]) == 3 + 3


def _lets_do_that_again(state):
    discard(state, "jackpot", "airborne-cow")
    state, _ = play(state, 0, "lets-do-that-again")
    assert [o["value"] for o in open_decision(state, 0)["options"]] == ["jackpot"]
    state, _ = decide(state, 0, "jackpot")
    assert len(state["hands"][0]) == 3 + 3


def _im_not_dead_yet(state):
    discard(state, "airborne-cow", "grim-reaper", "draw-2")  # the Grim Reaper is the top one
    state, _ = play(state, 0, "im-not-dead-yet-2008")
    assert open_decision(state, 0)["prompt"] == "Put Grim Reaper in front of whom?"
    state, _ = decide(state, 0, 2)
    assert state["tables"][2] == ["grim-reaper"] and "airborne-cow" in state["discard"]


def _my_hovercraft(state):
    give(state, 1, "airborne-cow", "coconuts")
    give(state, 2, "the-foot")
    cards = sorted(state["hands"][0] + state["hands"][1] + state["hands"][2])
    sizes = [len(state["hands"][0]) - 1, 2, 1]
    state, _ = play(state, 0, "my-hovercraft")
    assert [len(h) for h in state["hands"]] == sizes
    assert sorted(state["hands"][0] + state["hands"][1] + state["hands"][2]) == [c for c in cards if c != "my-hovercraft"]


ACTIONS = {
    "rules-reset": _rules_reset, "draw-2-and-use-em": _draw_2_and_use_em, "steal-a-keeper": _steal_a_keeper,
    "move-a-creeper-2008": _move_a_creeper, "my-brain-hurts": _my_brain_hurts, "trade-hands": _trade_hands,
    "exchange-keepers": _exchange_keepers, "something-completely-different": _something_completely_different,
    "bring-out-your-dead-2008": _bring_out_your_dead, "creeper-sweeper": _creeper_sweeper, "too-silly": _too_silly,
    "trash-a-keeper": _trash_a_keeper, "draw-3-play-2": _draw_3_play_2, "run-away-run-away": _run_away,
    "jackpot": _jackpot, "lets-do-that-again": _lets_do_that_again, "im-not-dead-yet-2008": _im_not_dead_yet,
    "my-hovercraft": _my_hovercraft,
}


@pytest.mark.parametrize("action", sorted(ACTIONS))
def test_every_action_does_what_it_says(action):
    state = _keep_turn(table_for())
    give(state, 0, action)
    ACTIONS[action](state)


def test_every_action_is_covered():
    assert set(ACTIONS) == set(_cards_of("action"))


def test_im_not_dead_yet_turns_over_the_draw_pile_when_the_discards_hold_no_keeper_or_creeper():
    state = _keep_turn(table_for())
    give(state, 0, "im-not-dead-yet-2008")
    discard(state, "draw-2")
    stack(state, "play-2", "hand-limit-3", "the-foot", "draw-3")
    state, events = play(state, 0, "im-not-dead-yet-2008")
    assert state["tables"][0] == ["the-foot"]
    assert state["discard"][-3:] == ["play-2", "hand-limit-3", "im-not-dead-yet-2008"]
    assert [e.data["card"] for e in events if e.kind == "flip"] == ["play-2", "hand-limit-3", "the-foot"]


def test_move_a_creeper_and_run_away_do_nothing_with_nothing_to_act_on():
    state = _keep_turn(table_for())
    give(state, 0, "move-a-creeper-2008", "run-away-run-away")
    state, events = play(state, 0, "move-a-creeper-2008")
    state, more = play(state, 0, "run-away-run-away")
    assert [e.kind for e in events + more].count("fizzle") == 2 and "decisions" not in state


def test_bring_out_your_dead_asks_nobody_without_cards_and_still_reshuffles():
    state = table_for()
    rules(state, "play-2")
    give(state, 0, "bring-out-your-dead-2008")
    discard(state, "draw-2")
    state, _ = play(state, 0, "bring-out-your-dead-2008")
    assert "decisions" not in state and state["discard"] == ["bring-out-your-dead-2008"]


def test_the_engines_first_look_at_the_goals_says_no_only_when_nobody_meets_one():
    """goals.may_be_met (the cheap look the engine takes after every step, with its memo and
    The Cheese Shop asked apart) against the full definition, on every state of seeded
    games with every Goal of the printed deck in play in turn, two at a time."""
    from games.rules.rng import Rng

    from .playout import goal_seeking

    every = sorted(GOALS)
    said_yes = 0
    for seed in range(len(every)):
        state = table_for(players=2 + seed % 5, seed=700 + seed)
        rules(state, "double-agenda")
        goals(state, every[seed], every[(seed * 7 + 3) % len(every)])
        rng = Rng({"seed": seed, "n": 0})
        while GAME.outcome(state) is None and state["turn"]["number"] < 40:
            full = bool(goal_rules._meeting.__wrapped__(goal_rules._position(state, state["goals"]),
                                                        tuple(state["goals"]))) if state["goals"] else False
            look = goal_rules.may_be_met(state, state["goals"])
            assert look or not full, (state["goals"], state["tables"], state["hands"])
            said_yes += look
            pending = GAME.pending(state)
            seat = pending[rng.below(len(pending))].seat
            state, _ = GAME.apply(state, seat, goal_seeking(GAME, state, seat, GAME.legal_moves(state, seat), rng))
    assert said_yes > 0
