"""How Camelot names hexes and spells in its log: as the board's edge labels read ("h8"),
never in the rules' axial coordinates ("0,0"); spells by name; and the opening rolls."""
from __future__ import annotations

import re

from games.rules.camelot import board_public
from games.rules.camelot.squares import square_name

from .helpers import BOARD, GAME, play, put, table

AXIAL = re.compile(r"-?\d+,-?\d+")


def test_squares_are_named_by_file_letter_and_rank_number_from_the_south_west():
    assert BOARD.hex_name("0,0") == "h8"        # Excalibur's space, in the middle
    assert BOARD.hex_name("-7,7") == "a1"       # the south-west corner
    assert BOARD.hex_name("0,7") == "h1"        # the south-east corner: the bottom row is a1..h1
    assert BOARD.hex_name("7,-7") == "o15"      # the north-east corner
    assert BOARD.hex_name("0,-7") == "h15"      # the north-west corner: the top row is h15..o15
    assert len(set(BOARD.names.values())) == len(BOARD.terrain) == 169
    assert square_name("2,-1", 3) == "f5"       # any radius: files from "a", ranks from 1


def test_each_row_reads_in_alphabetical_order_from_left_to_right():
    rows: dict[str, list[tuple[int, str]]] = {}
    for key, name in BOARD.names.items():
        q, r = (int(p) for p in key.split(","))
        rows.setdefault(name[1:], []).append((2 * q + r, name[0]))  # 2q + r: left to right in a row
    for rank, hexes in rows.items():
        letters = [letter for _, letter in sorted(hexes)]
        assert letters == sorted(letters), rank


def test_every_rank_and_file_has_a_label_off_the_board_and_no_two_labels_share_a_place():
    data = board_public("standard")
    assert data["names"] == BOARD.names
    places = [label["at"] for label in data["labels"]]
    assert len(places) == len(set(places)) and not set(places) & set(BOARD.terrain)
    ranks = {label["text"] for label in data["labels"] if label["kind"] == "rank"}
    files = {label["text"] for label in data["labels"] if label["kind"] == "file"}
    assert ranks == {str(n) for n in range(1, 16)} and files == set("abcdefghijklmno")
    # Each label stands one step beyond the end of the row (east or west) or the file (north-
    # west or south-east) it names.
    for label in data["labels"]:
        q, r = (int(p) for p in label["at"].split(","))
        steps = ((1, 0), (-1, 0)) if label["kind"] == "rank" else ((0, 1), (0, -1))
        (inside,) = [BOARD.names[k] for k in (f"{q + dq},{r + dr}" for dq, dr in steps) if k in BOARD.names]
        assert (inside[1:] if label["kind"] == "rank" else inside[0]) == label["text"], label


def _texts(events):
    return [e.text for e in events]


def test_moves_entries_and_takebacks_name_hexes_as_the_board_labels_them():
    state = GAME.setup(3, {}, 5)
    chooser = state["order"][0]
    hex_ = state["entries"][chooser] or GAME.legal_moves(state, chooser)[0]["hex"]
    _, events = GAME.apply(state, chooser, {"type": "entry", "hex": hex_})
    assert _texts(events) == [f"Seat {chooser + 1} takes the Entry hex {BOARD.hex_name(hex_)}."]

    state = table(3)
    unit = put(state, 0, "galahad", "-5,0")
    _, events = GAME.apply(state, 0, {"type": "move", "unit": unit, "to": "-5,-1"})
    assert _texts(events) == ["Seat 1's Galahad 1 moves to c9."]
    assert events[0].data == {"unit": unit, "seat": 0, "from": "-5,0", "to": "-5,-1"}
    enter = next(m for m in GAME.legal_moves(state, 0) if m["type"] == "enter" and not m.get("teleport"))
    _, events = GAME.apply(state, 0, enter)
    assert _texts(events) == [f"Seat 1 brings {enter['piece'].capitalize()} on to {BOARD.hex_name(enter['to'])}."]
    for move in GAME.legal_moves(state, 0):
        if move["type"] in ("entry", "enter", "move"):
            assert not AXIAL.search(GAME.describe_move(move, state)), move


def test_merlins_teleport_and_the_spells_are_named_in_the_log():
    state = table(3)
    merlin = put(state, 0, "merlin", "0,1")
    to = next(m["to"] for m in GAME.legal_moves(state, 0) if m["type"] == "move" and m.get("teleport"))
    _, events = GAME.apply(state, 0, {"type": "move", "unit": merlin, "to": to, "teleport": True})
    assert _texts(events) == [f"Seat 1 teleports Merlin to {BOARD.hex_name(to)}."]
    assert GAME.describe_move({"type": "move", "unit": merlin, "to": to, "teleport": True}, state) == \
        f"teleports seat 1's Merlin to {BOARD.hex_name(to)}"

    state = table(3)
    teleport = next(m for m in GAME.legal_moves(state, 0) if m["type"] == "enter" and m.get("teleport"))
    _, events = GAME.apply(state, 0, teleport)
    assert _texts(events) == [f"Seat 1 teleports Merlin on to {BOARD.hex_name(teleport['to'])}."]

    state = table(3)
    merlin = put(state, 0, "merlin", "0,0")
    morgan = put(state, 0, "morgan", "-1,1")
    foe = put(state, 1, "lancelot", "-1,2")
    state = play(state, 0, {"type": "declare", "targets": [foe]})
    state, events = GAME.apply(state, 0, {"type": "strike", "unit": merlin, "target": foe, "mode": "fireball"})
    assert _texts(events) == ["Seat 1's Merlin casts Fireball at Seat 2's Lancelot 1 (2)."]
    state, events = GAME.apply(state, 0, {"type": "strike", "unit": morgan, "target": foe, "mode": "death_touch"})
    assert _texts(events) == ["Seat 1's Morgan casts Death Touch at Seat 2's Lancelot 1 (3)."]


def test_the_log_opens_with_the_rolls_that_gave_the_turn_tokens():
    state = GAME.setup(4, {}, 3)
    (event,) = GAME.opening_events(state)
    order, rolls = state["order"], state["rolls"]
    first, second, *rest = order
    assert event.audience is None and event.kind == "rolls"
    assert event.text == (
        f"Opening rolls, highest first: Seat {first + 1} rolled {rolls[first]}, Seat {second + 1} {rolls[second]}, "
        + ", ".join(f"Seat {s + 1} {rolls[s]}" for s in rest)
        + f". Seat {first + 1} and Seat {second + 1} take the two turn tokens; Entry hexes are chosen in that order.")
    assert state["tokens"] == [first, second]
    (single,) = GAME.opening_events(GAME.setup(4, {"turn_based": True}, 3))
    assert f"Seat {first + 1} takes the turn token;" in single.text


def test_lines_stored_before_hexes_had_names_are_shown_with_the_names():
    """Old records said "moves to -5,-1": shown now, every hex of the board is named as its
    edges read; numbers that are not a hex of the board, and lists, are left as they are."""
    assert GAME.log_words("Seat 1's Galahad 1 moves to -5,-1.") == "Seat 1's Galahad 1 moves to c9."
    assert GAME.log_words("Seat 2 takes the Entry hex -7,7.") == f"Seat 2 takes the Entry hex {BOARD.hex_name('-7,7')}."
    assert GAME.log_words("Seat 1 brings Arthur on to 0,0 (from 1,-1)") == "Seat 1 brings Arthur on to h8 (from i9)"
    for untouched in ("Opening rolls, highest first: Seat 1 rolled 6, Seat 2 5.", "Seat 1 moves to 40,2.",
                      "Values 1,2,3 apply.", "A sum of 3,5.5 is none.", "Already at c9."):
        assert GAME.log_words(untouched) == untouched
