"""The engine's shortcuts answer exactly what the plain definitions answer.

bench/fluxx_engine.py drove a few shortcuts into the loop that runs after every step
(docs/rules/fluxx.md, Performance): ``plays_done`` and ``draw_shortfall`` decide without
counting Keepers when the Rich or Poor Bonus cannot change the answer; the bonuses ask
"does this seat alone have the fewest / most Keepers" by counting only until someone ties;
the Goal check's first look asks whether one table holds every card a Goal names. A later
pass added: ``legal_moves`` tests "is there any power, free action or claim?" before building
those lists; the settle loop skips a limit's look for a hand or table no longer than the
limit, and asks ``has_optional_moves`` rather than building the optional moves; ``pending``
hands out one Pending per turn; the state copy shares the keys it knows hold numbers;
``draw_cards`` takes the top cards at once when none is a Creeper; ``reading`` remembers
the last rules read; the playout player scores moves in one loop and draws from a faster
copy of the generator. A third pass (2026-11-25, evening) added: events made as base.Event's
tuple directly; the limits' quick look; the settle loop going on without its looks after
a step that only takes up or discards an Action; the Goals' first look remembered for the
last Goals and tables; the player's Creeper tests without a list.
Here each is compared with its plain definition on every state of seeded games in which
the bonus (and, in a second set, the free-action and claim) rules are in play from the
start, and on hand-made ties.
"""
from games.rules.fluxx.cards import LEGACY
from games.rules import decisions
from games.rules.base import Event, Pending
from games.rules.fluxx import current_rules, free_actions, goals, limits
from games.rules.fluxx.cards import NAME, TYPE
from games.rules.fluxx.current_rules import ALL, poor_bonus, reading, rich_bonus
from games.rules.fluxx.state_copy import _SCALARS, copy_state
from games.rules.fluxx.turn import plays_done
from games.rules.fluxx.zones import draw_cards, draw_one_at_a_time
from games.rules.rng import Rng

from . import playout
from .helpers import GAME, clear, give, new_game, put, rules, table_for
from .helpers import goals as set_goals
from .playout import goal_seeking, uniform

# Written for the reconstructed deck, which games stored on it still play (conftest.py).
DECK = LEGACY


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


def _plain_legal_moves(state, seat):
    """``legal_moves`` as it read before its shortcuts: the free_actions lists, built."""
    if state["result"] is not None or not (0 <= seat < len(state["active"]) and state["active"][seat]):
        return []
    if decisions.waiting(state):
        return decisions.moves(state, seat)
    if seat != state["turn"]["seat"]:
        return []
    moves = []
    done = plays_done(state)
    if not done:
        quote = free_actions.QUOTE in state["rules"] and not state["turn"]["quoted"]
        for card in state["hands"][seat]:
            moves.append({"type": "play", "card": card})
            if quote:
                moves.append({"type": "play", "card": card, "quote": NAME[card]})
    moves += _plain_power_moves(state, seat)
    if not done:
        moves += free_actions.rule_moves(state, seat)
    moves += free_actions.claim_moves(state, seat)
    if done:
        moves.append({"type": "end_turn"})
    return moves


def _plain_power_moves(state, seat):
    """``free_actions.power_moves`` as first written: the deck's effects read per Keeper,
    the cards in play listed through active_seats."""
    from games.rules.fluxx.cards import EFFECT
    from games.rules.fluxx.current_rules import active_seats
    from games.rules.fluxx.zones import in_play_anywhere

    table = state["tables"][seat]
    out = []
    used = state["turn"]["used"]
    everywhere = None
    for keeper in table:
        e = EFFECT[keeper]
        power = e.get("power")
        if power is None or (e.get("per_turn") and keeper in used):
            continue
        if e.get("unless_in_play") and in_play_anywhere(state, e["unless_in_play"]):
            continue
        if power == "move_creeper":
            others = [s for s in active_seats(state) if s != seat]
            out += [{"type": "power", "card": keeper, "target": c, "to": s}
                    for c in table if TYPE[c] == "creeper" for s in others]
        elif everywhere is None:
            everywhere = [c for s in active_seats(state) for c in state["tables"][s]]
        if power == "smite":
            out += [{"type": "power", "card": keeper, "target": c} for c in everywhere if TYPE[c] == "creeper"]
        elif power == "sacrifice":
            out += [{"type": "power", "card": keeper, "target": c} for c in everywhere if c != keeper]
    return out


def _plain_goal_seeking(game, state, seat, moves, rng, greed=8):
    """The playout player as first written: score every move with ``_score``."""
    if rng.below(10) < greed:
        scored = [(playout._score(state, seat, m), i) for i, m in enumerate(moves)]
        best = max(scored)[0]
        if best > 0:
            top = [i for s, i in scored if s == best]
            return moves[top[rng.below(len(top))]]
    return moves[rng.below(len(moves))]


def _check_draws(state):
    """Drawing 1 to 4 cards for the turn player (on copies) gives the same cards, state and
    events as drawing them one at a time."""
    seat = state["turn"]["seat"]
    for count in (1, 2, 3, 4):
        fast, plain = copy_state(state), copy_state(state)
        fast_events, plain_events = [], []
        assert draw_cards(fast, seat, count, fast_events) == draw_one_at_a_time(plain, seat, count, plain_events)
        assert fast == plain and [e.as_dict() for e in fast_events] == [e.as_dict() for e in plain_events]


def _check_settle_and_listing(state, rng_state):
    _check_draws(state)
    r = reading(state)
    assert r == current_rules._reading.__wrapped__(tuple(state["rules"]))  # the remembered reading is today's
    for seat, on in enumerate(state["active"]):
        assert GAME.legal_moves(state, seat) == _plain_legal_moves(state, seat)
        if not on:
            continue
        assert free_actions.power_moves(state, seat) == _plain_power_moves(state, seat)
        optional = bool(free_actions.optional_moves(state, seat))
        assert free_actions.has_optional_moves(state, seat) == optional
        assert free_actions.has_optional_moves(state, seat, r.cards) == optional
        # The settle loop skips a limit's look when the hand or table is within the limit.
        if r.hand_limit is not None and len(state["hands"][seat]) <= r.hand_limit:
            assert limits._excess(state, seat, "hand")[1] == 0
        if r.keeper_limit is not None and len(state["tables"][seat]) <= r.keeper_limit:
            assert limits._excess(state, seat, "keepers")[1] == 0
    if state["result"] is None and not decisions.waiting(state):
        t = state["turn"]
        assert GAME.pending(state) == [Pending(t["seat"], "turn", str(t["number"]))]
    for key in _SCALARS & state.keys():
        assert type(state[key]) is int, key  # shared by the copy: must never be a container
    for seat in {p.seat for p in GAME.pending(state)}:
        moves = GAME.legal_moves(state, seat)
        fast, plain = dict(rng_state), dict(rng_state)
        assert goal_seeking(GAME, state, seat, moves, Rng(fast)) == \
            _plain_goal_seeking(GAME, state, seat, moves, Rng(plain))
        assert fast == plain


def _check(state):
    r = reading(state)
    for seat in range(len(state["active"])):
        assert poor_bonus(state, seat) == (r.poor if _holder(state, True) == seat else 0)
        assert rich_bonus(state, seat) == (r.rich if _holder(state, False) == seat else 0)
    if state["result"] is None:
        assert plays_done(state) == (_plays_left(state) == 0)
    met = goals.meeting(state) if state["goals"] else []
    if met:
        assert goals.may_be_met(state, state["goals"])
    # the remembered answer is the one worked out afresh
    assert goals.may_be_met(state, state["goals"]) == goals._may_be_met(state["tables"], state["goals"])


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


def test_listing_settling_and_the_player_agree_with_the_plain_definitions():
    """Seeded games, half with the free-action and claim rules in play from the start (and
    One, Two, Five! or a limit), every state checked by ``_check_settle_and_listing``."""
    seen_free = seen_claims = seen_powers = 0
    for seed in range(16):
        state = new_game(players=2 + seed % 4, seed=100 + seed)
        if seed % 2:
            rules(state, "get-on-with-it", "swap-plays-for-draws", "sing-bonus", "accent-bonus",
                  "what-is-your-quote", ("hand-limit-2", "keeper-limit-2", "one-two-five", "play-all")[seed % 8 // 2])
        rng = Rng({"seed": seed, "n": 0})
        chooser = goal_seeking if seed % 3 else uniform
        while GAME.outcome(state) is None and state["turn"]["number"] < 60:
            _check_settle_and_listing(state, {"seed": seed * 31, "n": state["turn"]["number"]})
            pending = GAME.pending(state)
            seat = pending[rng.below(len(pending))].seat
            moves = GAME.legal_moves(state, seat)
            kinds = {m["type"] for m in moves}
            seen_free += bool(kinds & {"get_on_with_it", "swap_plays"})
            seen_claims += bool(kinds & {"sing", "accent"}) or any("quote" in m for m in moves)
            seen_powers += "power" in kinds
            move = chooser(GAME, state, seat, moves, rng)
            if move["type"] in ("sing", "accent"):
                move = dict(move, words="We are the knights who say Ni")
            state, _ = GAME.apply(state, seat, move)
        _check_settle_and_listing(state, {"seed": seed, "n": 0})
    assert seen_free > 100 and seen_claims > 100 and seen_powers > 20, (seen_free, seen_claims, seen_powers)


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
    assert not goals.may_be_met(state, state["goals"])  # one card of two: nobody can meet it
    put(state, 2, "catapult")
    assert not goals.may_be_met(state, state["goals"])  # both out, but on different tables
    put(state, 1, "catapult")
    assert goals.may_be_met(state, state["goals"]) and goals.meeting(state) == [1]
    state["tables"][1].remove("catapult")  # changed in place: the remembered answer is not given again
    assert not goals.may_be_met(state, state["goals"])


def test_the_copy_counts_its_known_keys_and_still_copies_an_unknown_one():
    # copy_state tells "every key is known" by the state's length: a state that lacks an
    # optional known key but holds an unknown one has the same length as one holding every
    # optional key; the unknown one must still be copied, not shared.
    state = GAME.setup(4, {}, 3)
    optional = ["decision_seq", "first", "extra_turns"]
    for missing in optional:
        for unknown in ({}, {"zz": {"nested": [1, [2]]}}):
            s = {k: v for k, v in state.items() if k != missing}
            s.update({k: 0 for k in optional if k != missing and k not in s})
            s.update(unknown)
            copy = copy_state(s)
            assert copy == s and list(copy) == list(s)
            if unknown:
                assert copy["zz"] is not s["zz"] and copy["zz"]["nested"][1] is not s["zz"]["nested"][1]


def test_events_made_without_the_constructor_are_the_constructors_events():
    """zones.new_event builds base.Event's tuple directly: the same class, fields, equality,
    repr and as_dict as Event(...), for everyone, for one seat, and hidden from one."""
    from games.rules.fluxx.zones import new_event

    data = {"seat": 1, "cards": ["cow"]}
    for fast, plain in [
        (new_event(Event, ("draw", "Seat 2 draws 1 card.", None, data, ())), Event("draw", "Seat 2 draws 1 card.", data=data)),
        (new_event(Event, ("draw", "You draw Cow.", (1,), data, ())), Event("draw", "You draw Cow.", audience=(1,), data=data)),
        (new_event(Event, ("give", "x", None, data, (2,))), Event("give", "x", hidden_from=(2,), data=data)),
    ]:
        assert type(fast) is Event and fast == plain and repr(fast) == repr(plain)
        assert fast.as_dict() == plain.as_dict() and fast.data is data
        assert [fast.visible_to(s) for s in (None, 0, 1, 2)] == [plain.visible_to(s) for s in (None, 0, 1, 2)]


def _plain_settle(state, events):
    """``engine.settle`` as it read before the quiet steps were followed without looking
    again: every step, whatever it changed, starts a new pass of all the looks."""
    from games.rules.fluxx import engine, turn
    from games.rules.fluxx.current_rules import reading as read

    while state["result"] is None:
        in_play = state["goals"]
        if in_play and goals.may_be_met(state, in_play):
            goals.declare(state, events)
            if state["result"] is not None:
                break
        elif state["tie"]:
            state["tie"] = []
        if state.get("decisions"):
            if engine._answer_for_absent(state, events):
                continue
            return
        r = read(state)
        if (r.hand_limit is not None or r.keeper_limit is not None) and limits.ask_others(state, events, r):
            continue
        t = state["turn"]
        phase = t["phase"]
        if phase == turn.PLAY and t["drawn"] < r.draw + r.poor and turn.draw_shortfall(state, events):
            continue
        if state["effects"]:
            engine.effects.step(state, events)
            continue
        if not engine._advance_turn(state, events, t, phase, r):
            return
    engine._clear_for_the_end(state)


def _over_a_limit(state):
    """The plain definition of what ``limits.ask_others`` looks for: a player still in, not
    the turn player, holding more cards than the hand limit or more Keepers than the
    Keeper limit."""
    r = reading(state)
    for s, on in enumerate(state["active"]):
        if not on or s == state["turn"]["seat"]:
            continue
        if r.hand_limit is not None and len(state["hands"][s]) > r.hand_limit:
            return True
        if r.keeper_limit is not None and sum(1 for c in state["tables"][s] if TYPE[c] == "keeper") > r.keeper_limit:
            return True
    return False


def test_settling_and_the_limits_look_agree_with_the_plain_definitions(monkeypatch):
    """Every move of seeded games (rules that act on the loop in play from the start) is
    applied twice: by the engine, and with the settle loop that looks again after every
    step; the states and events must be the same. Before each move, the limits' quick look
    must say "nobody else to ask" exactly when nobody else is over a limit."""
    from games.rules.fluxx import engine

    fast_settle = engine.settle
    sets = [("keeper-limit-2", "hand-limit-1", "poor-bonus"), ("double-agenda", "rich-bonus", "play-3"),
            ("hand-limit-0", "draw-3"), ()]
    asked = 0
    for seed in range(12):
        state = new_game(players=2 + seed % 5, seed=700 + seed)
        rules(state, *sets[seed % len(sets)])
        rng = Rng({"seed": seed, "n": 0})
        chooser = goal_seeking if seed % 3 else uniform
        while GAME.outcome(state) is None and state["turn"]["number"] < 50:
            if state["result"] is None and not decisions.waiting(state):
                r = reading(state)
                if r.hand_limit is not None or r.keeper_limit is not None:
                    probe = copy_state(state)
                    events = []
                    assert limits.ask_others(probe, events, r) == _over_a_limit(state)
                    asked += 1
            pending = GAME.pending(state)
            seat = pending[rng.below(len(pending))].seat
            move = chooser(GAME, state, seat, GAME.legal_moves(state, seat), rng)
            monkeypatch.setattr(engine, "settle", _plain_settle)
            plain, plain_events = GAME.apply(state, seat, move)
            monkeypatch.setattr(engine, "settle", fast_settle)
            state, events = GAME.apply(state, seat, move)
            assert state == plain and [e.as_dict() for e in events] == [e.as_dict() for e in plain_events]
    assert asked > 300, asked


def test_the_limits_quick_look_sees_every_player_over_a_limit():
    state = clear(new_game(players=4))
    rules(state, "keeper-limit-2", "hand-limit-1")
    turn_seat = state["turn"]["seat"]
    other = (turn_seat + 1) % 4
    put(state, other, "cow", "coconuts", "black-knight")  # three cards, two Keepers: within
    r = reading(state)
    assert not _over_a_limit(state) and not limits.ask_others(copy_state(state), [], r)
    put(state, other, "catapult")  # three Keepers now
    assert _over_a_limit(state) and limits.ask_others(copy_state(state), [], r)
    state = clear(new_game(players=3))
    rules(state, "hand-limit-1")
    give(state, (state["turn"]["seat"] + 2) % 3, "cow", "coconuts")
    assert _over_a_limit(state) and limits.ask_others(copy_state(state), [], reading(state))
    give(state, state["turn"]["seat"], "catapult", "shrubbery", "swallow")
    state["hands"][(state["turn"]["seat"] + 2) % 3] = ["cow"]
    assert not _over_a_limit(state) and not limits.ask_others(copy_state(state), [], reading(state))


def _anyone_meets(state):
    """The full definition, without the first look: does any seat meet a Goal in play?"""
    return bool(state["goals"]) and bool(goals._meeting.__wrapped__(goals._position(state, state["goals"]), tuple(state["goals"])))


def test_the_first_look_at_the_goals_says_no_only_when_nobody_meets_one():
    """The first look also leaves out a table with a Creeper the Goal does not name, and a
    tagged Goal's table with fewer tagged cards than the Goal can ask for: on every state
    of seeded games (the knights' Goal and One, Two, Five! among them, Goals blocked by
    Creepers), a "no" is given only when nobody meets a Goal; and it does say "no" on
    states the plain first look (every named card on one table) sent to the full look."""
    plain_yes_now_no = 0
    for seed in range(20):
        state = new_game(players=2 + seed % 5, seed=900 + seed)
        rules(state, *(("double-agenda", "one-two-five") if seed % 2 else ("double-agenda",)))
        set_goals(state, *(("knights-of-the-round-table", "much-rejoicing") if seed % 3 else ("run-away", "tis-but-a-scratch")))
        rng = Rng({"seed": seed, "n": 0})
        while GAME.outcome(state) is None and state["turn"]["number"] < 60:
            look = goals._may_be_met(state["tables"], state["goals"])
            if _anyone_meets(state):
                assert look, (state["goals"], state["tables"])
            plain = any(all(c in t for c in goals._HAVE[g]) for g in state["goals"] for t in state["tables"])
            plain_yes_now_no += plain and not look
            pending = GAME.pending(state)
            seat = pending[rng.below(len(pending))].seat
            state, _ = GAME.apply(state, seat, goal_seeking(GAME, state, seat, GAME.legal_moves(state, seat), rng))
    assert plain_yes_now_no > 100, plain_yes_now_no


def test_the_first_look_counts_creepers_and_knights_as_the_goals_do():
    state = set_goals(clear(new_game(players=3)), "knights-of-the-round-table")
    put(state, 1, "king-arthur", "sir-lancelot")
    assert not goals._may_be_met(state["tables"], state["goals"]) and not _anyone_meets(state)
    put(state, 1, "sir-robin")  # three knights
    assert goals._may_be_met(state["tables"], state["goals"]) and _anyone_meets(state)
    rules(state, "one-two-five")  # now five are asked: the first look still says yes, the full look no
    assert goals._may_be_met(state["tables"], state["goals"]) and not _anyone_meets(state)
    put(state, 1, "sir-galahad", "sir-bedevere", "death")  # five knights, but a Creeper
    assert not goals._may_be_met(state["tables"], state["goals"]) and not _anyone_meets(state)
    state = set_goals(clear(new_game(players=3)), "tis-but-a-scratch")  # names the Black Knight, a Creeper
    put(state, 2, "king-arthur", "black-knight")
    assert goals._may_be_met(state["tables"], state["goals"]) and _anyone_meets(state)
    put(state, 2, "killer-rabbit")
    assert not goals._may_be_met(state["tables"], state["goals"]) and not _anyone_meets(state)


def test_the_next_seat_is_the_first_one_playing_round_the_table():
    from itertools import product

    from games.rules.fluxx.turn import next_seat

    for n in range(2, 7):
        for active in product((True, False), repeat=n):
            if not any(active):
                continue
            for seat in range(n):
                state = {"turn": {"seat": seat}, "active": list(active), "extra_turns": 0}
                plain = next((seat + i) % n for i in range(1, n + 1) if active[(seat + i) % n])
                assert next_seat(state) == plain


def test_the_reading_knows_which_rules_are_in_play():
    for rules_in_play in [(), ("draw-3",), ("draw-3", "play-2", "hand-limit-1"), ("sing-bonus", "what-is-your-quote"),
                          ("poor-bonus", "draw-2", "keeper-limit-3"), ("poor-bonus", "one-two-five", "draw-2")]:
        r = current_rules._reading.__wrapped__(rules_in_play)
        assert r.cards == frozenset(rules_in_play)
        assert r.limited == (r.hand_limit is not None or r.keeper_limit is not None)
        assert r.most_drawn == r.draw + r.poor


def test_the_effect_stack_is_copied_as_clone_copies_it():
    """state_copy._clone_frames (each frame copied whole, then its lists and dicts cloned)
    gives what the generic deep copy gives, and shares no list or dict with the original."""
    from games.rules.fluxx.state_copy import _clone_frames, clone

    seen = 0
    for seed in range(30):
        def step(before, state, seat, move, moves, events):
            nonlocal seen
            frames = state["effects"]
            if frames:
                seen += 1
                copied = _clone_frames(frames)
                assert copied == clone(frames) and [list(f) for f in copied] == [list(f) for f in frames]
                originals = {id(c) for f in frames for c in (f, *f.values()) if isinstance(c, (list, dict))}
                assert not any(id(c) in originals for f in copied for c in (f, *f.values()) if isinstance(c, (list, dict)))

        playout.play(GAME, 4000 + seed, players=2 + seed % 5, on_step=step)
    assert seen > 100, seen


def test_a_keeper_placed_on_another_players_table_is_held_to_the_limit_at_once():
    """The settle loop skips the limits' look after a Goal, or a Keeper or Creeper put on
    the turn player's own table (they change nothing that look reads). A Keeper resolved
    for another seat (no card does this; a frame arranged by hand can) still sends that
    seat over the Keeper limit, as the loop that looks after every step finds."""
    from games.rules.fluxx import engine
    from games.rules.fluxx.frames import play_card

    for settle in (engine.settle, _plain_settle):
        state = table_for(players=3, seat=0)
        rules(state, "keeper-limit-2")
        put(state, 1, "cow", "coconuts")
        give(state, 0, "shrubbery")
        state["hands"][0].remove("shrubbery")
        state["limbo"].append("shrubbery")
        play_card(state, 1, "shrubbery")  # resolved as seat 1's, though seat 0 is to play
        assert state["turn"]["seat"] == 0
        events = []
        settle(state, events)
        asked = [(d["seat"], d["kind"]) for d in decisions.top(state)]
        assert asked == [(1, "discard_keepers")], (settle.__name__, asked)
