"""The standard map as data: what the board file promises, and what a bad file is refused for."""
import copy
import json
from importlib import resources

import pytest

from games.rules import hexgrid
from games.rules.cupquest.board import Board, load_board, validate

from .helpers import BOARD


def _raw():
    return json.loads(resources.files("games.rules.cupquest").joinpath("boards", "standard.json").read_text())


def test_every_walkable_cell_is_reachable_from_every_alcove():
    for players in ("2", "3", "4"):
        for alcove in BOARD.alcoves[players]:
            for cell in BOARD.grid.cells:
                assert BOARD.grid.walk_distance(hexgrid.parse(alcove), cell) is not None


def test_the_map_gives_real_choices_between_alcoves_and_grail():
    grail = hexgrid.parse(BOARD.grail)
    for alcove in BOARD.alcoves["3"]:
        # Around a hundred cells, and more than one way through the broken wall.
        start = hexgrid.parse(alcove)
        path = BOARD.grid.shortest_path(start, grail)
        assert path is not None and 13 <= len(path) <= 17
        detour = BOARD.grid.shortest_path(start, grail, blocked=path[4:-4])
        assert detour is not None
    assert 90 <= len(BOARD.cells) <= 120


def test_big_bob_and_big_bill_stand_far_enough_apart_to_fight_one_at_a_time():
    bob, bill = (hexgrid.parse(m["at"]) for m in BOARD.monsters.values())
    assert hexgrid.distance(bob, bill) >= 3
    assert {m["name"] for m in BOARD.monsters.values()} == {"Big Bob", "Big Bill"}


def test_court_card_spaces_come_in_bands_kings_nearest_the_grail():
    grail = hexgrid.parse(BOARD.grail)
    rows = {rank: [hexgrid.parse(h)[1] for card, h in BOARD.teleports.items() if card[0] == rank] for rank in "JQK"}
    assert max(rows["K"]) < min(rows["Q"]) and max(rows["Q"]) < min(rows["J"])
    assert all(hexgrid.parse(h) != grail for h in BOARD.teleports.values())


@pytest.mark.parametrize("breakage,reason", [
    (lambda b: b["teleports"].pop("JH"), "teleport"),
    (lambda b: b.__setitem__("grail", b["monsters"]["bob"]["at"]), "Grail"),
    (lambda b: b["alcoves"].__setitem__("3", b["alcoves"]["3"][:2]), "alcoves"),
    (lambda b: b["cells"].append(b["cells"][0]), "twice"),
    (lambda b: b["monsters"]["bill"].__setitem__("at", "40,40"), "monster"),
])
def test_a_broken_board_file_is_refused(breakage, reason):
    data = copy.deepcopy(_raw())
    breakage(data)
    with pytest.raises(ValueError, match=reason):
        validate(data)


def test_boards_are_loaded_by_name_and_unknown_names_refused():
    assert load_board("standard") is BOARD
    assert isinstance(Board("copy", _raw()), Board)
    with pytest.raises(ValueError):
        load_board("../../secrets")
