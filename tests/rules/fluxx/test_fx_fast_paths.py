"""The engine's shortcuts answer exactly what the plain definitions answer.

bench/fluxx_engine.py drove a few shortcuts into the loop that runs after every step
(docs/rules/fluxx.md, Performance): ``plays_done`` and ``draw_shortfall`` decide without
counting Keepers when the Rich or Poor Bonus cannot change the answer; the bonuses ask
"does this seat alone have the fewest / most Keepers" by counting only until someone ties;
the Goal check's first look asks whether one table holds every card a Goal names. Here each
is compared with its plain definition on every state of seeded games in which the bonus
rules are in play from the start, and on hand-made ties.
"""
from games.rules.fluxx import goals
from games.rules.fluxx.cards import TYPE
from games.rules.fluxx.current_rules import ALL, poor_bonus, reading, rich_bonus
from games.rules.fluxx.turn import plays_done
from games.rules.rng import Rng

from .helpers import GAME, clear, new_game, put, rules
from .helpers import goals as set_goals
from .playout import goal_seeking


def _holder(state, fewest):
    """The plain definition: the one active seat with strictly the fewest (most) Keepers."""
    counts = {s: sum(1 for c in state["tables"][s] if TYPE[c] == "keeper")
              for s, on in enumerate(state["active"]) if on}
    if len(counts) < 2:
        return None
    best = (min if fewest else max)(counts.values())
    holders = [s for s, n in counts.items() if n == best]
    return holders[0] if len(holders) == 1 else None


def _plays_left(state):
    turn = state["turn"]
    hand = state["hands"][turn["seat"]]
    r = reading(state)
    if r.play == ALL:
        return len(hand)
    target = r.play + (r.rich if _holder(state, fewest=False) == turn["seat"] and r.rich else 0)
    return min(len(hand), max(0, target - turn["played"]))


def _check(state):
    r = reading(state)
    for seat in range(len(state["active"])):
        assert poor_bonus(state, seat) == (r.poor if _holder(state, True) == seat else 0)
        assert rich_bonus(state, seat) == (r.rich if _holder(state, False) == seat else 0)
    if state["result"] is None:
        assert plays_done(state) == (_plays_left(state) == 0)
    met = goals.meeting(state) if state["goals"] else []
    if met:
        assert goals._may_be_met(state, state["goals"])


def test_the_shortcuts_agree_with_the_definitions_through_whole_games():
    seen_bonus_states = 0
    for seed in range(12):
        state = new_game(players=3 + seed % 3, seed=seed)
        rules(state, "poor-bonus", "rich-bonus", "play-2")
        rng = Rng({"seed": seed, "n": 0})
        while GAME.outcome(state) is None and state["turn"]["number"] < 80:
            _check(state)
            seen_bonus_states += "poor-bonus" in state["rules"] and "rich-bonus" in state["rules"]
            seat = GAME.pending(state)[0].seat
            moves = GAME.legal_moves(state, seat)
            state, _ = GAME.apply(state, seat, goal_seeking(GAME, state, seat, moves, rng))
        _check(state)
    assert seen_bonus_states > 100


def test_bonus_ties_and_a_lone_player_give_nobody_the_bonus():
    state = clear(new_game(players=3))
    rules(state, "poor-bonus", "rich-bonus")
    put(state, 0, "cow", "coconuts")
    put(state, 1, "catapult")
    put(state, 2, "shrubbery")
    assert [poor_bonus(state, s) for s in range(3)] == [0, 0, 0]  # seats 1 and 2 tie for fewest
    assert rich_bonus(state, 0) == reading(state).rich and rich_bonus(state, 1) == 0
    state["active"][1] = state["active"][2] = False
    assert poor_bonus(state, 0) == 0 and rich_bonus(state, 0) == 0  # one player left: no holder


def test_the_first_look_at_the_goals_never_hides_a_player_who_meets_one():
    state = set_goals(clear(new_game(players=3)), "fetchez-la-vache")
    put(state, 1, "cow")
    assert not goals._may_be_met(state, state["goals"])  # one card of two: nobody can meet it
    put(state, 2, "catapult")
    assert not goals._may_be_met(state, state["goals"])  # both out, but on different tables
    put(state, 1, "catapult")
    assert goals._may_be_met(state, state["goals"]) and goals.meeting(state) == [1]
