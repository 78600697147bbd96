"""The piece table and Morgan's revivals."""
from games.rules.camelot.pieces import COUNT, MODES, MOVE, SHIELDS, can_carry

from .helpers import GAME, play, put, table


def test_the_piece_table():
    assert COUNT == {"arthur": 5, "galahad": 4, "lancelot": 4, "merlin": 1, "morgan": 1}
    assert MOVE == {"arthur": 2, "galahad": 1, "lancelot": 1, "merlin": 1, "morgan": 1}
    assert SHIELDS == {"arthur": 1, "galahad": 1, "lancelot": 2, "merlin": 1, "morgan": 2}
    assert MODES["galahad"]["bow"][:3] == (1, 3, True) and MODES["merlin"]["zot"][:3] == (1, 3, True)
    assert MODES["merlin"]["fireball"] == (2, 3, True, "fireball")
    assert MODES["morgan"]["curse"][:3] == (1, 2, True) and MODES["morgan"]["death_touch"] == (3, 1, False, "death_touch")
    assert MODES["lancelot"]["melee"][0] == 2 and MODES["arthur"]["melee"][0] == 1
    assert not can_carry("merlin", "crown") and not can_carry("galahad", "excalibur")
    assert can_carry("arthur", "excalibur") and can_carry("morgan", "gold-1")


def _kill(state, killer_seat, killer, target):
    state = play(state, killer_seat, {"type": "declare", "targets": [target]})
    state = play(state, killer_seat, {"type": "strike", "unit": killer, "target": target, "mode": "melee"})
    return play(state, killer_seat, {"type": "end_turn"})


def test_morgan_brings_back_her_own_side_when_she_sees_the_death():
    state = table(3)
    knight = put(state, 0, "lancelot", "0,1")
    victim = put(state, 1, "galahad", "1,0")
    put(state, 1, "morgan", "3,-1")  # sees (1,0) along the rocks' edge
    after = _kill(state, 0, knight, victim)
    assert victim not in after["units"]
    assert after["lost"][1]["galahad"] == 0 and after["pool"][1]["galahad"] == 4


def test_morgan_behind_rocks_sees_nothing():
    state = table(3)
    knight = put(state, 0, "lancelot", "0,1")
    victim = put(state, 1, "galahad", "1,0")
    put(state, 1, "morgan", "3,0")  # the rocks at (2,0) are in the way
    after = _kill(state, 0, knight, victim)
    assert after["lost"][1]["galahad"] == 1


def test_another_players_dead_are_offered_to_the_watching_morgans_owner():
    state = table(3, tokens=(0, 1))
    knight = put(state, 0, "lancelot", "0,1")
    victim = put(state, 1, "merlin", "1,0")
    put(state, 2, "morgan", "-1,0")
    state["spells"][1]["fireball"] = False
    after = _kill(state, 0, knight, victim)
    ask = next(p for p in GAME.pending(after) if p.kind == "revive")
    assert ask.seat == 2 and after["lost"][1]["merlin"] == 1
    yes = play(after, 2, {"type": "decide", "id": int(ask.key), "choice": "yes"})
    assert yes["pool"][1]["merlin"] == 1 and yes["lost"][1]["merlin"] == 0
    # Merlin comes back with only what was left of his spells.
    assert yes["spells"][1] == {"teleport": True, "fireball": False, "death_touch": True}
    no = play(after, 2, GAME.timeout_move(after, 2))
    assert no["lost"][1]["merlin"] == 1


def test_arthurs_need_no_revival_and_guardians_get_none():
    state = table(3, options={"guardians": True})
    state["units"] = {}
    knight = put(state, 0, "lancelot", "0,1")
    guard = put(state, None, "lancelot", "1,0")
    put(state, 2, "morgan", "-1,0")
    helper = put(state, 0, "lancelot", "1,1")
    state = play(state, 0, {"type": "declare", "targets": [guard]})
    state = play(state, 0, {"type": "strike", "unit": knight, "target": guard, "mode": "melee"})
    state = play(state, 0, {"type": "strike", "unit": helper, "target": guard, "mode": "melee"})
    state = play(state, 0, {"type": "end_turn"})
    assert guard not in state["units"] and not [p for p in GAME.pending(state) if p.kind == "revive"]
