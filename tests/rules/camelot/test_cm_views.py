"""What each seat and spectators see: the spec's shape, and never the generator."""
import json

from .helpers import GAME, play, put, table

KEYS = {"attack", "board", "edition", "me", "phase", "options", "order", "rolls", "entry_turn", "entry_choices", "players", "tokens",
        "turns", "units", "items", "item_values", "frozen", "decisions", "paused", "turn_count", "turn_cap",
        "last_combat", "result", "takeback"}


def check_views(state):
    seats = list(range(state["players"])) + [None]
    for seat in seats:
        view = GAME.view_for(state, seat)
        assert set(view) == KEYS and view["me"] == seat
        text = json.dumps(view)
        assert '"rng"' not in text and '"seed"' not in text  # the generator never shows
        for d in view["decisions"]:
            if d["seat"] == seat and not d["done"]:
                assert d["mine"] and {"prompt", "options", "pick", "default"} <= set(d)
            else:
                assert not d.get("mine") and "options" not in d and "data" not in d
    return True


def test_the_entry_phase_view():
    state = GAME.setup(4, {"gold": True}, 3)
    view = GAME.view_for(state, None)
    assert view["phase"] == "entry" and view["entry_turn"] == state["order"][0]
    assert len(view["entry_choices"]) == 42 and view["tokens"] == state["order"][:2]
    assert sum(view["item_values"].values()) == 40
    assert view["players"][0] == {"seat": 0, "entry": None, "active": True,
                                  "pool": {"arthur": 5, "galahad": 4, "lancelot": 4, "merlin": 1, "morgan": 1},
                                  "lost": {"arthur": 0, "galahad": 0, "lancelot": 0, "merlin": 0, "morgan": 0},
                                  "spells": {"teleport": True, "fireball": True, "death_touch": True},
                                  "banked": {"items": [], "gold": 0, "coins": []}, "pauses_left": 2}
    check_views(state)


def test_the_play_view_shows_turns_frozen_units_and_asks_to_the_right_seat():
    state = table(3, tokens=(0, 1))
    mine = put(state, 0, "arthur", "0,1")
    target = put(state, 1, "arthur", "1,0")
    put(state, 2, "galahad", "3,-1")
    state = play(state, 0, {"type": "declare", "targets": [target]})
    state = play(state, 0, {"type": "ask_ally", "target": target, "seat": 2})
    state = play(state, 0, {"type": "strike", "unit": mine, "target": target, "mode": "melee"})
    view = GAME.view_for(state, 2)
    assert view["frozen"] == [target] and view["turns"]["0"]["stage"] == "attack"
    assert view["turns"]["0"]["strikes"] == [{"unit": mine, "target": target, "mode": "melee", "value": 1}]
    assert set(view["turns"]["0"]) >= {"number", "stage", "declared", "moved", "moves_left", "strikes", "permissions"}
    assert view["units"][mine] == {"seat": 0, "type": "arthur", "hex": "0,1", "carry": None, "guardian": False}
    assert view["decisions"][0]["mine"] and view["decisions"][0]["kind"] == "ally"
    assert not GAME.view_for(state, 0)["decisions"][0]["mine"]
    assert "prompt" not in GAME.view_for(state, None)["decisions"][0]
    check_views(state)


def test_views_do_not_change_the_state():
    state = table(3)
    before = json.dumps(state, sort_keys=True)
    view = GAME.view_for(state, 0)
    view["units"]["x"] = {}
    view["players"][0]["pool"]["arthur"] = 99
    assert json.dumps(state, sort_keys=True) == before


def test_what_others_moved_since_a_seats_last_turn_is_read_back_to_its_end_of_turn():
    """Newest first, back to the seat's own end of turn: each piece others moved, with where
    it stood first; not its own pieces (even in old events that do not say who moved), not a
    piece back where it stood, not a dead one, nothing from before that end of turn."""
    state = table(3)
    mine = put(state, 0, "galahad", "-5,0")
    theirs = put(state, 1, "galahad", "0,1")
    back = put(state, 2, "arthur", "2,2")
    dead = put(state, 1, "arthur", "3,3")
    state["units"][mine]["hex"], state["units"][theirs]["hex"] = "-5,-1", "0,-1"
    events_oldest_first = [
        {"kind": "move", "data": {"unit": theirs, "seat": 1, "from": "9,9", "to": "0,1"}},  # before my end of turn
        {"kind": "end_turn", "data": {"seat": 0}},
        {"kind": "move", "data": {"unit": theirs, "seat": 1, "from": "0,1", "to": "0,0"}},
        {"kind": "move", "data": {"unit": theirs, "seat": 1, "from": "0,0", "to": "0,-1"}},
        {"kind": "move", "data": {"unit": mine, "to": "-5,-1"}},  # stored before moves said who
        {"kind": "move", "data": {"unit": back, "seat": 2, "from": "2,2", "to": "2,1"}},
        {"kind": "takeback", "data": {"seat": 2}},
        {"kind": "move", "data": {"unit": dead, "seat": 1, "from": "3,3", "to": "3,2"}},
        {"kind": "end_turn", "data": {"seat": 1}},
    ]
    del state["units"][dead]
    newest_first = iter(reversed(events_oldest_first))
    assert GAME.moved_since_turn(state, 0, newest_first) == {theirs: "0,1"}
    # Read no further than the end of turn: the shell reads the store only as far as this.
    assert next(newest_first) is events_oldest_first[0]
    assert GAME.moved_since_turn(state, 1, reversed(events_oldest_first)) == {}  # its turn just ended
