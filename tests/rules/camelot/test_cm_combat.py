"""Combat: declare first, strike declared targets only, values add, a kill needs more than
the shields, one strike per unit (but the sweep), failed attacks cost the nearest unit,
teamwork, guardians, and what dying does."""
import pytest

from .helpers import BOARD, GAME, moves_of, play, put, refused, table


def _attack(state, seat, targets, strikes, **end):
    state = play(state, seat, {"type": "declare", "targets": targets})
    for s in strikes:
        state = play(state, seat, {"type": "strike", **s})
    return play(state, seat, {"type": "end_turn", **end})


def test_values_add_and_a_kill_needs_more_than_the_shields():
    state = table(3)
    a1, a2 = put(state, 0, "arthur", "0,1"), put(state, 0, "arthur", "1,1")
    target = put(state, 1, "arthur", "1,0")
    one = _attack(state, 0, [target], [{"unit": a1, "target": target, "mode": "melee"}])
    assert target in one["units"] and one["last_combat"][0]["outcome"] == "held"
    two = _attack(state, 0, [target], [{"unit": a1, "target": target, "mode": "melee"},
                                       {"unit": a2, "target": target, "mode": "melee"}])
    assert target not in two["units"] and two["last_combat"][0] == {
        "target": target, "total": 2, "shields": 1, "outcome": "killed"}
    assert two["pool"][1]["arthur"] == 5  # Arthurs go back to the pile


def test_others_die_for_good_and_an_item_stays_where_its_carrier_fell():
    state = table(3)
    knight = put(state, 0, "lancelot", "0,1")
    archer = put(state, 1, "galahad", "1,0", carry="crown")
    after = _attack(state, 0, [archer], [{"unit": knight, "target": archer, "mode": "melee"}])
    assert archer not in after["units"] and after["lost"][1]["galahad"] == 1
    assert after["items"] == {"1,0": ["crown"]}


def test_strikes_only_at_declared_targets_and_each_unit_once():
    state = table(3)
    knight = put(state, 0, "lancelot", "0,1")
    t1, t2 = put(state, 1, "arthur", "1,0"), put(state, 1, "arthur", "-1,1")
    assert not moves_of(state, 0, "strike")
    state = play(state, 0, {"type": "declare", "targets": [t1]})
    assert "declared" in refused(state, 0, {"type": "strike", "unit": knight, "target": t2, "mode": "melee"})
    state = play(state, 0, {"type": "strike", "unit": knight, "target": t1, "mode": "melee"})
    assert "already struck" in refused(state, 0, {"type": "strike", "unit": knight, "target": t1, "mode": "melee"})
    assert "no more movement" in refused(state, 0, {"type": "enter", "piece": "arthur", "to": state["entries"][0]})


def test_the_sweep_hits_every_adjacent_declared_target_once():
    state = table(3)
    knight = put(state, 0, "lancelot", "0,0")
    t1, t2 = put(state, 1, "arthur", "1,0"), put(state, 2, "arthur", "-1,0")
    helper = put(state, 0, "galahad", "0,2")
    state = play(state, 0, {"type": "declare", "targets": [t1, t2]})
    state = play(state, 0, {"type": "strike", "unit": knight, "mode": "sweep"})
    assert sorted(s["target"] for s in state["turns"]["0"]["strikes"]) == sorted([t1, t2])
    state = play(state, 0, {"type": "strike", "unit": helper, "target": t2, "mode": "bow"})
    state = play(state, 0, {"type": "end_turn"})
    assert t2 not in state["units"]           # 1 + 1 > 1
    assert t1 not in state["units"] or state["last_combat"][0]["outcome"] == "held"


def test_a_failed_attack_costs_the_nearest_own_unit_cheapest_first_and_the_option_turns_it_off():
    state = table(3)
    arthur = put(state, 0, "arthur", "0,1")
    near_g = put(state, 0, "galahad", "1,1")    # as near as the Arthur: the Arthur goes (cheaper)
    far = put(state, 0, "lancelot", "-3,5")
    target = put(state, 1, "lancelot", "1,0")
    after = _attack(state, 0, [target], [{"unit": arthur, "target": target, "mode": "melee"}])
    assert target in after["units"] and arthur not in after["units"]
    assert near_g in after["units"] and far in after["units"]
    assert after["last_combat"][0]["penalty"] == arthur
    off = table(3, options={"failed_attack_penalty": False})
    off["units"] = dict(state["units"])
    off["pool"] = [dict(p) for p in state["pool"]]
    after = _attack(off, 0, [target], [{"unit": arthur, "target": target, "mode": "melee"}])
    assert arthur in after["units"]


def test_a_target_gone_before_the_end_costs_nothing():
    state = table(3, tokens=(0, 1))
    mine = put(state, 0, "arthur", "0,1")
    target = put(state, 2, "arthur", "1,0")
    killer = put(state, 1, "lancelot", "2,-1")
    state = play(state, 0, {"type": "declare", "targets": [target]})
    state = play(state, 1, {"type": "declare", "targets": [target]})
    state = play(state, 1, {"type": "strike", "unit": killer, "target": target, "mode": "melee"})
    state = play(state, 1, {"type": "end_turn"})
    assert target not in state["units"]
    state = play(state, 0, {"type": "end_turn"})
    assert mine in state["units"] and state["last_combat"] == [{"target": target, "outcome": "gone"}]


# RESOLVING COMBAT: a declared attack too weak to kill its target costs the attacker the unit
# of his own nearest the target, so that nobody declares an attack only to hold an enemy unit
# still for the turn. The text
# knows no exception for a turn whose time ran out, so from edition 4 on the clock's end of
# a turn costs what the player's own end of it costs.

def _frozen_by_a_declaration(edition=None):
    state = table(3, options={} if edition is None else {"edition": edition})
    mine = put(state, 0, "arthur", "0,1")
    struck = put(state, 1, "lancelot", "1,0")      # struck for 1 against 2 shields
    unstruck = put(state, 1, "arthur", "-1,0")     # declared, never struck
    put(state, 0, "galahad", "-3,5")
    state = play(state, 0, {"type": "declare", "targets": [struck, unstruck]})
    state = play(state, 0, {"type": "strike", "unit": mine, "target": struck, "mode": "melee"})
    return state, mine, struck, unstruck


def test_a_timed_out_turn_costs_what_ending_it_costs():
    state, mine, struck, unstruck = _frozen_by_a_declaration()
    ended = play(state, 0, {"type": "end_turn"})
    timed_out = play(state, 0, GAME.timeout_move(state, 0))
    assert [c["outcome"] for c in timed_out["last_combat"]] == ["held", "held"]
    assert mine not in timed_out["units"] and sum(1 for u in timed_out["units"].values() if u["seat"] == 0) == 0
    for key in ("units", "pool", "lost", "last_combat"):
        assert timed_out[key] == ended[key], key
    # Nor can a player spare themselves the cost by saying their time ran out.
    said = play(state, 0, {"type": "end_turn", "timed_out": True})
    assert said["last_combat"] == ended["last_combat"]


def test_editions_before_the_fourth_let_unstruck_targets_lapse_when_the_clock_ends_the_turn():
    state, mine, struck, unstruck = _frozen_by_a_declaration(edition=3)
    state = play(state, 0, GAME.timeout_move(state, 0))
    outcomes = {c["target"]: c["outcome"] for c in state["last_combat"]}
    assert outcomes == {struck: "held", unstruck: "lapsed"}
    assert mine not in state["units"] and "s0-galahad-1" in state["units"]  # the struck one alone cost a unit


@pytest.mark.parametrize("kind,mode,here,there,ok", [
    ("galahad", "bow", "0,0", "0,3", True), ("galahad", "bow", "0,0", "0,4", False),
    ("merlin", "zot", "0,0", "-3,3", True), ("morgan", "curse", "0,0", "0,2", True),
    ("morgan", "curse", "0,0", "0,3", False), ("morgan", "death_touch", "0,0", "0,1", True),
    ("morgan", "death_touch", "0,0", "0,2", False), ("arthur", "melee", "0,0", "0,2", False),
    ("lancelot", "melee", "0,0", "1,0", True), ("arthur", "bow", "0,0", "1,0", False),
])
def test_modes_and_ranges(kind, mode, here, there, ok):
    state = table(3)
    unit = put(state, 0, kind, here)
    target = put(state, 1, "arthur", there)
    state = play(state, 0, {"type": "declare", "targets": [target]})
    move = {"type": "strike", "unit": unit, "target": target, "mode": mode}
    assert (move in moves_of(state, 0, "strike")) == ok
    if ok:
        play(state, 0, move)
    else:
        refused(state, 0, move)


def test_fireball_twice_never_at_a_merlin_and_death_touch_once():
    state = table(3)
    merlin = put(state, 0, "merlin", "0,0")
    morgan = put(state, 0, "morgan", "-1,1")
    foe_merlin = put(state, 1, "merlin", "0,2")
    foe = put(state, 1, "lancelot", "-1,2")
    state = play(state, 0, {"type": "declare", "targets": [foe_merlin, foe]})
    refused(state, 0, {"type": "strike", "unit": merlin, "target": foe_merlin, "mode": "fireball"})
    state = play(state, 0, {"type": "strike", "unit": merlin, "target": foe, "mode": "fireball"})
    state = play(state, 0, {"type": "strike", "unit": morgan, "target": foe, "mode": "death_touch"})
    assert state["spells"][0] == {"teleport": True, "fireball": False, "death_touch": False}
    state = play(state, 0, {"type": "end_turn"})
    assert foe not in state["units"]
    while 0 not in state["tokens"]:
        state = play(state, state["tokens"][0], {"type": "end_turn"})
    state = play(state, 0, {"type": "declare", "targets": [foe_merlin]})
    modes = {m["mode"] for m in moves_of(state, 0, "strike")}
    assert "fireball" not in modes and "death_touch" not in modes and "zot" in modes


def test_teamwork_an_ally_lends_units_out_of_turn_and_values_add():
    state = table(3, tokens=(0, 1))
    mine = put(state, 0, "arthur", "0,1")
    target = put(state, 1, "arthur", "1,0")
    put(state, 2, "galahad", "3,-1")
    state = play(state, 0, {"type": "declare", "targets": [target]})
    assert moves_of(state, 0, "ask_ally") == [{"type": "ask_ally", "target": target, "seat": 2}]
    assert "third" in refused(state, 0, {"type": "ask_ally", "target": target, "seat": 1})
    state = play(state, 0, {"type": "ask_ally", "target": target, "seat": 2})
    ask = next(d for d in GAME.view_for(state, 2)["decisions"] if d["mine"])
    assert ask["kind"] == "ally" and ask["options"] == [{"value": "s2-galahad-1", "label": "Seat 3's Galahad 1 at 3,-1"}]
    state = play(state, 0, {"type": "strike", "unit": mine, "target": target, "mode": "melee"})
    state = play(state, 2, {"type": "decide", "id": ask["id"], "choice": ["s2-galahad-1"]})
    state = play(state, 0, {"type": "end_turn"})
    assert target not in state["units"] and state["last_combat"][0]["total"] == 2


def test_guardians_serve_any_holder_once_per_turn_each_use_a_move():
    state = table(3, tokens=(0, 1), options={"guardians": True})
    state["units"] = {}
    guard = put(state, None, "lancelot", "0,0")
    t0, t1 = put(state, 1, "arthur", "1,0"), put(state, 0, "arthur", "-1,0")
    state = play(state, 0, {"type": "declare", "targets": [t0]})
    state = play(state, 1, {"type": "declare", "targets": [t1]})
    state = play(state, 0, {"type": "strike", "unit": guard, "target": t0, "mode": "melee"})
    assert state["turns"]["0"]["moves_left"] == 1
    assert "already struck" in refused(state, 0, {"type": "strike", "unit": guard, "target": t0, "mode": "melee"})
    state = play(state, 1, {"type": "strike", "unit": guard, "target": t1, "mode": "melee"})  # the other holder too
    state = play(state, 0, {"type": "end_turn"})
    state = play(state, 1, {"type": "end_turn"})
    assert t0 not in state["units"] and t1 not in state["units"]


def test_a_guardian_that_moved_strikes_without_another_move_and_none_when_moves_are_spent():
    state = table(3, options={"guardians": True})
    state["units"] = {}
    guard = put(state, None, "lancelot", "0,0")
    target = put(state, 1, "arthur", "2,-1")
    a = put(state, 0, "arthur", "-3,6")
    state = play(state, 0, {"type": "declare", "targets": [target]})
    state = play(state, 0, {"type": "move", "unit": guard, "to": "1,-1"})
    state = play(state, 0, {"type": "move", "unit": a, "to": "-3,5"})
    assert state["turns"]["0"]["moves_left"] == 0
    state = play(state, 0, {"type": "strike", "unit": guard, "target": target, "mode": "melee"})
    assert state["turns"]["0"]["moves_left"] == 0


# --- what may be declared ------------------------------------------------------------------
# SIMULTANEOUS COMBAT: before moving, a player may declare as many attacks as he likes,
# provided he is able to carry each of them out: a target none of your units could reach this
# turn cannot be declared, so a declaration never freezes a unit at no cost.

def _declarable(state, seat=0):
    return {t for m in moves_of(state, seat, "declare") for t in m["targets"]}


def test_with_no_units_on_the_board_a_far_target_cannot_be_declared():
    state = table(3)
    state["spells"][0]["teleport"] = False
    far = put(state, 1, "arthur", "0,0")   # 7 from seat 0's Entry hex, out of every reach
    assert _declarable(state) == set()
    assert "could still attack" in refused(state, 0, {"type": "declare", "targets": [far]})


def test_a_piece_entering_and_walking_up_counts():
    state = table(3)
    state["spells"][0]["teleport"] = False
    entry = state["entries"][0]
    assert entry == "-7,7" and BOARD.distance(entry, "-4,4") == 3 and BOARD.distance(entry, "-2,3") == 5
    # An Arthur enters on the Entry hex and walks 2: a target 3 steps away is within his
    # sword; one 5 steps away is beyond every piece (a Galahad entering reaches 1 + 3).
    near = put(state, 1, "lancelot", "-4,4")
    far = put(state, 1, "lancelot", "-2,3")
    assert _declarable(state) == {near}
    # With the Entry hex taken nothing can enter, so nothing is in reach.
    put(state, 2, "galahad", entry)
    assert _declarable(state) == set()


def test_a_unit_that_can_walk_and_shoot_counts_and_a_wood_in_the_way_does_not():
    state = table(3)
    state["spells"][0]["teleport"] = False
    state["pool"][0] = {k: 0 for k in state["pool"][0]}
    put(state, 0, "galahad", "-1,-1")
    # (-1,-4) is 3 away, but the wood at (-1,-3) stands between it and the Galahad's hex and
    # every hex he could step to.
    assert BOARD.terrain["-1,-3"] == "trees"
    hidden = put(state, 1, "arthur", "-1,-4")
    # (0,2) is 4 away: one step south and the Bow reaches it.
    seen = put(state, 1, "arthur", "0,2")
    assert BOARD.distance("-1,-1", "0,2") == 4
    assert _declarable(state) == {seen}
    assert "could still attack" in refused(state, 0, {"type": "declare", "targets": [seen, hidden]})
    state = play(state, 0, {"type": "declare", "targets": [seen]})
    assert state["turns"]["0"]["declared"] == [seen]


def test_merlins_unused_teleport_reaches_far_and_a_frozen_unit_does_not_count():
    state = table(3)
    state["pool"][0] = {k: 0 for k in state["pool"][0]}
    state["pool"][0]["merlin"] = 1
    far = put(state, 1, "arthur", "0,0")
    assert far in _declarable(state)           # enter, teleport, Zot
    state["spells"][0]["teleport"] = False
    assert far not in _declarable(state)
    # A unit frozen by the other holder's declaration cannot strike, so it makes nothing declarable.
    state = table(3, tokens=(0, 1))
    state["spells"][0]["teleport"] = False
    state["pool"][0] = {k: 0 for k in state["pool"][0]}
    mine = put(state, 0, "lancelot", "0,1")
    enemy = put(state, 1, "arthur", "1,0")
    assert enemy in _declarable(state)
    state = play(state, 1, {"type": "declare", "targets": [mine]})
    assert enemy not in _declarable(state)


def test_the_first_edition_let_any_enemy_be_declared():
    state = table(3, options={"edition": 1})
    state["spells"][0]["teleport"] = False
    far = put(state, 1, "arthur", "0,0")
    assert _declarable(state) == {far}


# --- the attack preview (what the page shows before declaring and before ending the turn) ---
# RESOLVING COMBAT: a declared attack too weak to kill its target costs the attacker the unit
# of his own nearest the target.

def test_the_preview_counts_strength_that_can_still_reach_and_names_the_unit_a_failure_costs():
    state = table(3)
    state["spells"][0]["teleport"] = False
    state["pool"][0] = {k: 0 for k in state["pool"][0]}
    knight = put(state, 1, "lancelot", "1,0")            # 2 shields
    near = put(state, 0, "arthur", "0,1")                 # beside it: 1 now
    walker = put(state, 0, "arthur", "-1,2")              # two steps off: 1 if it walks up
    put(state, 0, "galahad", "-3,4")                      # far: out of reach this turn
    view = GAME.view_for(state, 0)
    assert view["attack"][knight] == {
        "shields": 2, "struck": 0, "lent": 0, "ready": 1, "coming": 1, "reach": 2, "moves_left": 2,
        "contributors": [
            {"unit": near, "piece": "arthur", "seat": 0, "mode": "melee", "value": 1, "how": "ready", "count": 1},
            {"unit": walker, "piece": "arthur", "seat": 0, "mode": "melee", "value": 1, "how": "walk", "count": 1}],
        "penalties": [near], "penalty": near}
    assert GAME.view_for(state, 2)["attack"] is None      # only a holder's own attack
    # Declared, one strike made: the striker no longer counts as ready, its blow as struck.
    state = play(state, 0, {"type": "declare", "targets": [knight]})
    state = play(state, 0, {"type": "strike", "unit": near, "target": knight, "mode": "melee"})
    after = GAME.view_for(state, 0)["attack"][knight]
    assert (after["struck"], after["ready"], after["coming"], after["reach"]) == (1, 0, 0, 1)
    assert after["penalty"] == near
    # Without the failed-attack rule nothing is lost.
    state = table(3, options={"failed_attack_penalty": False})
    enemy = put(state, 1, "arthur", "1,0")
    put(state, 0, "lancelot", "0,1")
    assert GAME.view_for(state, 0)["attack"][enemy]["penalty"] is None


def test_the_preview_counts_only_as_many_movers_as_moves_left():
    state = table(3)
    state["spells"][0]["teleport"] = False
    state["pool"][0] = {k: 0 for k in state["pool"][0]}
    target = put(state, 1, "morgan", "1,0")               # 2 shields
    for hex_ in ("-1,2", "0,2", "-1,1"):                  # three Arthurs two steps off
        put(state, 0, "arthur", hex_)
    assert GAME.view_for(state, 0)["attack"][target]["coming"] == 2   # two moves a turn


def _one_unit_nearest_to_two_targets():
    state = table(3)
    state["spells"][0]["teleport"] = False
    state["pool"][0] = {k: 0 for k in state["pool"][0]}
    near = put(state, 0, "arthur", "0,1")                 # beside both targets
    second = put(state, 0, "galahad", "-1,3")             # next nearest to the Arthur target
    put(state, 0, "lancelot", "2,1")                      # next nearest to the Lancelot target
    knight = put(state, 1, "lancelot", "1,0")
    arthur = put(state, 2, "arthur", "-1,1")
    return state, near, knight, arthur


def test_with_two_failed_attacks_the_preview_names_the_two_units_the_turn_loses():
    # Each failed attack costs a unit of its own: the second costs the unit nearest to its
    # target among those the first left (combat.turn_end_losses, as resolve does).
    state, near, knight, arthur = _one_unit_nearest_to_two_targets()
    seconds = set()
    for order in ([knight, arthur], [arthur, knight]):
        declared = play(state, 0, {"type": "declare", "targets": order})
        preview = GAME.view_for(declared, 0)["attack"]
        named = [preview[t]["penalty"] for t in order]
        ended = play(declared, 0, {"type": "end_turn"})
        lost = [c["penalty"] for c in ended["last_combat"]]
        assert named == lost and len(set(lost)) == 2 and lost[0] == near, order
        seconds.add(lost[1])
    assert len(seconds) == 2  # the order of declaring decides which target costs the Arthur


def test_before_declaring_each_target_ranks_the_units_a_failure_would_cost():
    # The page, while targets are marked, names for each the first unit of its ``penalties``
    # not already named for a target marked before it: the units ending the turn would cost
    # if every marked attack failed, whatever the order of marking.
    state, near, knight, arthur = _one_unit_nearest_to_two_targets()
    preview = GAME.view_for(state, 0)["attack"]
    assert preview[knight]["penalty"] == preview[arthur]["penalty"] == near
    for order in ([knight], [arthur], [knight, arthur], [arthur, knight]):
        named: list = []
        for t in order:
            named.append(next(u for u in preview[t]["penalties"] if u not in named))
        ended = play(play(state, 0, {"type": "declare", "targets": order}), 0, {"type": "end_turn"})
        assert named == [c["penalty"] for c in ended["last_combat"]], order


# --- who can still add strength (the preview names them, and the move each needs) ----------

def _contributors(state, target, seat=0):
    return [(c["unit"], c["piece"], c["mode"], c["value"], c["how"], c["count"])
            for c in GAME.view_for(state, seat)["attack"][target]["contributors"]]


def test_the_preview_names_merlins_fireball_reachable_only_by_teleport():
    # The case that misled a player: "1 shield against 2 that can still reach it", all of it
    # Merlin's Fireball, and only if he teleports.
    state = table(3)
    state["pool"][0] = {k: 0 for k in state["pool"][0]}
    merlin = put(state, 0, "merlin", "-6,6")
    target = put(state, 1, "arthur", "3,-2")
    assert BOARD.distance("-6,6", "3,-2") > 4
    preview = GAME.view_for(state, 0)["attack"][target]
    assert (preview["reach"], preview["ready"], preview["coming"]) == (2, 0, 2)
    assert _contributors(state, target) == [(merlin, "merlin", "fireball", 2, "teleport", 1)]
    # Without the spell he brings nothing, and nothing is named.
    state["spells"][0]["teleport"] = False
    assert target not in (GAME.view_for(state, 0)["attack"] or {})


def test_the_preview_names_each_piece_with_the_move_it_needs_strongest_first():
    state = table(3, options={"guardians": True})
    state["units"] = {}
    state["spells"][0]["teleport"] = False
    state["pool"][0] = {k: 0 for k in state["pool"][0]}
    target = put(state, 1, "morgan", "1,0")                 # 2 shields
    bow = put(state, 0, "galahad", "1,2")                    # two away, in sight: bow from where it stands
    knight = put(state, 0, "lancelot", "-1,1")               # two away: sword 2 once it steps up
    guard = put(state, None, "lancelot", "2,-1")             # beside it: 2, but using it is a move
    # Strongest first; of equals, the one that needs the least (a guardian's use, then a walk).
    assert _contributors(state, target) == [(guard, "lancelot", "melee", 2, "use", 1),
                                            (knight, "lancelot", "melee", 2, "walk", 1),
                                            (bow, "galahad", "bow", 1, "ready", 1)]
    preview = GAME.view_for(state, 0)["attack"][target]
    assert (preview["ready"], preview["coming"], preview["moves_left"]) == (1, 4, 2)


def test_the_preview_names_pieces_that_could_enter_and_units_an_ally_lent():
    state = table(3, tokens=(0, 1))
    state["spells"][0]["teleport"] = False
    state["pool"][0] = {k: 0 for k in state["pool"][0]}
    state["pool"][0]["arthur"] = 3
    entry = state["entries"][0]
    two_off = next(h for h in BOARD.enterable_order if BOARD.distance(h, entry) == 2 and BOARD.from_edge(h) > 0)
    target = put(state, 1, "arthur", two_off)              # an Arthur entering walks up beside it
    # Three in the reserve, but a turn has two moves: two of them can come.
    assert _contributors(state, target) == [(None, "arthur", "melee", 1, "enter", 2)]
    # Declared, with an ally asked: the unit lent is named as lent.
    state = table(3, tokens=(0, 1))
    mine = put(state, 0, "arthur", "0,1")
    target = put(state, 1, "arthur", "1,0")
    archer = put(state, 2, "galahad", "3,-1")
    state = play(state, 0, {"type": "declare", "targets": [target]})
    state = play(state, 0, {"type": "ask_ally", "target": target, "seat": 2})
    ask = next(d for d in GAME.legal_moves(state, 2) if d["type"] == "decide" and d["choice"] == [archer])
    state = play(state, 2, ask)
    named = _contributors(state, target)
    assert (mine, "arthur", "melee", 1, "ready", 1) in named
    assert (archer, "galahad", "bow", 1, "lent", 1) in named
    assert GAME.view_for(state, 0)["attack"][target]["lent"] == 1


def test_after_the_first_strike_a_guardian_can_still_be_used_and_is_counted():
    state = table(3, options={"guardians": True})
    state["units"] = {}
    state["spells"][0]["teleport"] = False
    state["pool"][0] = {k: 0 for k in state["pool"][0]}
    target = put(state, 1, "morgan", "1,0")
    mine = put(state, 0, "arthur", "0,1")
    guard = put(state, None, "lancelot", "2,-1")
    state = play(state, 0, {"type": "declare", "targets": [target]})
    state = play(state, 0, {"type": "strike", "unit": mine, "target": target, "mode": "melee"})
    preview = GAME.view_for(state, 0)["attack"][target]
    assert (preview["struck"], preview["coming"], preview["reach"]) == (1, 2, 3)   # no walking, but the guardian
    assert _contributors(state, target) == [(guard, "lancelot", "melee", 2, "use", 1)]
    assert {"type": "strike", "unit": guard, "target": target, "mode": "melee"} in GAME.legal_moves(state, 0)
