"""The knight level presses home, so that games end: it attacks what it can kill by
moving up as well as what stands in reach, does not plan on the Teleport it never uses,
and sends every piece to the fight instead of leaving it by its Entry hex."""
from .helpers import BOARD, GAME, knight_turn, put, table


def test_it_declares_a_kill_that_needs_a_unit_to_walk_up_then_walks_it_up_and_kills():
    state = table(3)
    state["spells"][0]["teleport"] = False
    state["pool"][0] = {k: 0 for k in state["pool"][0]}
    target = put(state, 1, "arthur", "1,0")              # 1 shield: two blows kill it
    put(state, 0, "arthur", "0,1")                        # in reach now
    runner = put(state, 0, "arthur", "-1,2")              # two steps away: in reach after a walk
    made, after = knight_turn(state, 0)
    assert made[0] == {"type": "declare", "targets": [target]}
    assert any(m["type"] == "move" and m["unit"] == runner for m in made)
    assert target not in after["units"] and after["last_combat"][0]["outcome"] == "killed"


def test_it_does_not_plan_an_attack_on_merlins_teleport_it_will_not_use():
    state = table(3)
    state["pool"][0] = {k: 0 for k in state["pool"][0]}
    state["pool"][0]["merlin"] = 1                        # enter, teleport, Fireball: 2
    target = put(state, 1, "arthur", "0,0")
    plan = GAME.view_for(state, 0)["attack"][target]
    assert plan["reach"] == 2 > plan["shields"]           # the engine's preview counts the Teleport
    made, after = knight_turn(state, 0)
    assert not any(m["type"] == "declare" and m["targets"] for m in made)
    assert not any(entry.get("penalty") for entry in after["last_combat"])


def test_a_piece_that_cannot_carry_the_sword_heads_for_the_fight():
    state = table(3)
    state["items"] = {BOARD.excalibur: ["excalibur"]}
    state["pool"][0] = {k: 0 for k in state["pool"][0]}
    home = state["entries"][0]
    step = next(k for k in BOARD.steps[home])
    knight_ = put(state, 0, "lancelot", step)
    made, _ = knight_turn(state, 0)
    moved = [m for m in made if m["type"] == "move" and m["unit"] == knight_]
    assert moved and BOARD.distance(moved[0]["to"], BOARD.excalibur) < BOARD.distance(step, BOARD.excalibur)
