"""The knight's carrier of Excalibur (so that games end): what it does with the
sword and how its other units keep it alive."""
from .helpers import BOARD, knight_turn, put, table


def test_the_carrier_steps_home_before_the_turns_strikes_end_all_movement():
    # A strike ends the turn's movement: an attack elsewhere that walked a unit up and
    # struck at once left the carrier where it stood, turn after turn.
    state = table(3)
    state["spells"][0]["teleport"] = False
    state["pool"][0] = {k: 0 for k in state["pool"][0]}
    home = state["entries"][0]
    carrier = put(state, 0, "arthur", "-4,4", carry="excalibur")
    target = put(state, 1, "arthur", "1,0")               # 1 shield: two blows kill it
    put(state, 0, "arthur", "0,1")                        # in reach now
    put(state, 0, "arthur", "-1,2")                       # in reach after a walk
    made, after = knight_turn(state, 0)
    assert made[0] == {"type": "declare", "targets": [target]}
    assert BOARD.distance(after["units"][carrier]["hex"], home) == 2
    assert target not in after["units"] and after["last_combat"][0]["outcome"] == "killed"


def test_an_attack_that_needs_both_moves_waits_while_the_carrier_walks():
    # Only one move is left beside the carrier's step: a kill that needs two units to walk
    # up is not declared (a failed attack costs a unit), and the carrier still walks.
    state = table(3)
    state["spells"][0]["teleport"] = False
    state["pool"][0] = {k: 0 for k in state["pool"][0]}
    home = state["entries"][0]
    carrier = put(state, 0, "arthur", "-4,4", carry="excalibur")
    put(state, 1, "arthur", "1,0")
    put(state, 0, "arthur", "-1,2")                       # two walkers needed, one move to spare
    put(state, 0, "arthur", "2,-2")
    made, after = knight_turn(state, 0)
    assert not any(m["type"] == "declare" and m["targets"] for m in made)
    assert BOARD.distance(after["units"][carrier]["hex"], home) == 2
    assert not any(entry.get("penalty") for entry in after["last_combat"])


def test_the_carrier_stays_rather_than_step_where_an_enemy_could_kill_it():
    # One step home (the only one) brings it within a Lancelot's walk and blow (2 beats
    # its one shield); where it stands, nobody can reach it: it waits.
    state = table(3)
    state["pool"][0] = {k: 0 for k in state["pool"][0]}
    home = state["entries"][0]
    carrier = put(state, 0, "arthur", "-4,4", carry="excalibur")
    put(state, 1, "lancelot", "-6,7")
    assert BOARD.distance("-6,7", "-4,4") == 3 and BOARD.distance("-6,7", "-5,5") == 2
    made, after = knight_turn(state, 0)
    assert after["units"][carrier]["hex"] == "-4,4"
    assert not any(m["type"] == "move" and m["unit"] == carrier for m in made)
    # Without the Lancelot, the same step home is taken.
    del state["units"]["s1-lancelot-1"]
    _, after = knight_turn(state, 0)
    assert after["units"][carrier]["hex"] == "-5,5" and BOARD.distance("-5,5", home) == 2
