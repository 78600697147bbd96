"""Rules 2.x: set-up."""
import pytest

from games.rules.ccg import layout

from . import cards_for_tests as T
from .helpers import GAME, new_game, play, listed


def test_arthur_and_patsy_are_set_aside_as_the_starting_cast():
    s = new_game()
    for p in s["p"]:
        assert [s["inst"][k] for k in p["knights"]] == ["arthur"]
        assert [s["inst"][pg["c"]] for pg in p["pages"]] == ["patsy"]
        assert p["pages"][0]["k"] == p["knights"]  # Patsy carries Arthur's coconuts
        assert "arthur" not in [s["inst"][i] for i in p["deck"] + p["hand"]]


def test_cuts_wait_for_each_player_then_the_cut_card_goes_to_the_ante():
    s = new_game(cut=False)
    assert GAME.pending(s)[0].kind == "cut" and GAME.pending(s)[0].seat == 0
    victim_deck = list(s["p"][1]["deck"])
    s = play(s, 0, {"type": "cut", "at": 3})
    # The cutter lifts three cards off the top; the next card is turned up for the ante.
    assert s["ante"] == [victim_deck[-4]]
    assert GAME.pending(s)[0].seat == 1 and GAME.pending(s)[0].kind == "cut"
    s = play(s, 1, {"type": "cut", "at": 10})
    assert len(s["ante"]) == 2 and {s["own"][i] for i in s["ante"]} == {0, 1}
    assert GAME.pending(s)[0].kind == "turn"


def test_the_cut_position_must_lie_inside_the_deck():
    s = new_game(cut=False)
    moves = listed(s, 0)
    assert {m["at"] for m in moves} == set(range(1, len(s["p"][1]["deck"])))


def test_england_and_avalon_are_laid_face_down_two_players():
    s = new_game()
    for p in s["p"]:
        assert len(p["england"]) == 12 and all(len(a["down"]) == 1 and not a["up"] for a in p["england"])
    assert len(s["avalon"]) == 4
    # each England is laid from its own player's deck
    for seat, p in enumerate(s["p"]):
        assert all(s["own"][a["down"][0][0]] == seat for a in p["england"])


def test_three_players_lay_thirteen_and_one_each_plus_the_first_players_extra():
    s = new_game(players=3, collection_sizes=[5, 9, 7])
    assert s["first"] == 1
    assert all(len(p["england"]) == 13 for p in s["p"])
    owners = [s["own"][a["down"][0][0]] for a in s["avalon"]]
    assert sorted(owners) == [0, 1, 1, 2]


def test_seven_card_hands_and_the_biggest_collection_goes_first():
    s = new_game(collection_sizes=[10, 300])
    assert s["turn"] == 1
    assert len(s["p"][0]["hand"]) == 7
    assert len(s["p"][1]["hand"]) == 8  # seven, then the first draw phase


def test_a_tie_in_collection_size_is_broken_by_the_seeded_generator():
    firsts = {new_game(seed=seed, collection_sizes=[5, 5])["first"] for seed in range(12)}
    assert firsts == {0, 1}


@pytest.mark.parametrize("bad, reason", [
    ({"decks": [T.test_deck()]}, "one deck per seat"),
    ({"decks": [T.test_deck(), T.test_deck()[:20]]}, "at least"),
    ({"decks": [T.test_deck(), [c for c in T.test_deck() if c["code"] != "arthur"] + [T.LANCELOT]]}, "Arthur"),
    ({"decks": [T.test_deck(), T.test_deck()], "rules_off": ["bogus"]}, "Unknown rule"),
    ({"decks": [T.test_deck(), T.test_deck()], "colour": "red"}, "Unknown option"),
    ({"decks": [T.test_deck(), T.test_deck()], "collection_sizes": [1]}, "collection_sizes"),
])
def test_bad_options_are_refused(bad, reason):
    with pytest.raises(ValueError, match=reason):
        GAME.setup(2, bad, 1)


def test_card_definitions_are_copied_in_and_duplicates_are_distinct_instances():
    s = new_game()
    assert s["cards"]["lancelot"]["combat"] == 8
    pages = [i for i, code in enumerate(s["inst"]) if code == "page-generic"]
    assert len(pages) == len(set(pages)) > 2


def test_layout_top_two_areas_and_adjacency_are_symmetric():
    for size in (12, 13):
        g = layout.geometry(size)
        assert len(g["top"]) == 2
        for a in range(size):
            for b in g["adj"][a]:
                assert a in g["adj"][b]


def test_resigning_during_the_cut_ends_the_game_before_it_begins():
    s = new_game(cut=False)
    s, _ = GAME.apply(s, 1, {"type": "resign"})
    out = GAME.outcome(s)
    assert out.winners == (0,)
    from games.rules.ccg.game import ante_result
    assert ante_result(s)["status"] == "returned"


@pytest.mark.parametrize("carried", [
    [{"owner": 0, "card": {"code": "half-a-card"}}], [{"owner": 5, "card": T.BY_CODE["moor"]}],
    ["not an entry"], [{"owner": 0, "card": "moor"}],
])
def test_a_carried_ante_entry_needs_an_owner_seat_and_a_valid_card(carried):
    with pytest.raises(ValueError, match="carried_ante"):
        GAME.setup(2, {"decks": [T.test_deck(), T.test_deck()], "carried_ante": carried}, 1)
