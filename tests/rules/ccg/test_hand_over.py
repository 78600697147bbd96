"""A seat handed to a computer player for the rest of the game (its person left it, say by
running out of time on their turns): the person's cards already in the ante stay there, the
seat stakes nothing more (no doubling, no accepting a double), and it wins no cards: its
Grail wins the game only, and a draw carries nothing over (docs/rules/ccg.md, "Time and
results")."""
import pytest

from games.rules.base import IllegalMove
from games.rules.ccg import players
from games.rules.ccg import state as S
from games.rules.ccg.game import HAND_OVER, ante_result
from games.rules.rng import Rng

from .test_state_schema import unlisted_keys
from .helpers import GAME, assert_every_card_once, grail_deck, listed, new_game, pass_window, place_rt, play, set_area

DOUBLE = {"type": "end_turn", "double": True}


def _handed(seat=1, players=3, **options):
    s = new_game(players=players, double_the_ante=True, **options)
    assert GAME.takeover_move(s, seat) == HAND_OVER
    return play(s, seat, GAME.takeover_move(s, seat))


def _schema_gaps(state):
    found: set[str] = set()
    unlisted_keys(state, "state", found)
    return found


def test_a_seat_handed_over_keeps_its_stake_and_stakes_nothing_more():
    before = new_game(players=3, double_the_ante=True)
    s, events = GAME.apply(before, 1, HAND_OVER)
    assert s["ante"] == before["ante"] and S.stakes_nothing(s, 1) and not S.stakes_nothing(s, 0)
    assert "Seat 2 is played by a computer from now on: its 1 card in the ante stays there" in events[0].text
    assert GAME.view_for(s, 0)["players"][1]["stakes_nothing"] is True
    assert GAME.takeover_move(s, 1) is None  # once is enough
    with pytest.raises(IllegalMove):
        GAME.apply(s, 1, HAND_OVER)
    assert_every_card_once(s)
    assert not _schema_gaps(s)


def test_a_person_is_never_offered_the_hand_over():
    s = new_game(players=3, double_the_ante=True)
    assert HAND_OVER not in listed(s, s["turn"])
    assert GAME.offered(s, s["turn"], HAND_OVER) is not None


def test_a_seat_handed_over_may_not_double_on_its_turn():
    s = new_game(players=3, double_the_ante=True)
    seat = s["turn"]
    assert DOUBLE in listed(s, seat)
    s = play(s, seat, HAND_OVER)
    assert DOUBLE not in listed(s, seat) and {"type": "end_turn"} in listed(s, seat)


def test_a_double_offered_to_a_seat_handed_over_can_only_be_conceded():
    s = new_game(players=3, double_the_ante=True)
    offerer = s["turn"]
    handed, other = [(offerer + k) % 3 for k in (1, 2)]
    s = play(s, handed, HAND_OVER)
    stake = sum(1 for i in s["ante"] if s["own"][i] == handed)
    s = play(s, offerer, DOUBLE)
    while GAME.pending(s)[0].kind == "balance":
        s = play(s, GAME.pending(s)[0].seat, GAME.timeout_move(s, GAME.pending(s)[0].seat))
    assert {p.seat for p in GAME.pending(s) if p.kind == "offer"} == {handed, other}
    assert listed(s, handed) == [{"type": "concede"}]
    with pytest.raises(IllegalMove):
        GAME.apply(s, handed, {"type": "accept"})
    # The computer's own policy declines too, whatever it is offered.
    view = GAME.view_for(s, handed)
    assert players.knight(view, [{"type": "accept"}, {"type": "concede"}], Rng(1)) == {"type": "concede"}
    s = play(s, other, {"type": "accept"})
    s = play(s, handed, players.knight(GAME.view_for(s, handed), GAME.legal_moves(s, handed), Rng(1)))
    assert s["p"][handed]["out"] == "conceded the doubled ante"
    assert sum(1 for i in s["ante"] if s["own"][i] == handed) == stake  # nothing more of that deck went in
    assert sum(1 for i in s["ante"] if s["own"][i] == other) == 2
    assert_every_card_once(s)


def _find_the_grail(s, seat):
    set_area(s, "A.0", ["moor"])
    place_rt(s, seat, "A.0")
    s["turn"] = seat
    grail_deck(s, seat, [6])
    s = play(s, seat, {"type": "search"})
    return pass_window(s)


def test_a_seat_handed_over_that_finds_the_grail_wins_the_game_and_the_ante_goes_home():
    s = _find_the_grail(_handed(seat=1), 1)
    out = GAME.outcome(s)
    assert out.winners == (1,) and not out.draw
    assert "a seat played by a computer wins no cards" in out.reason
    res = ante_result(s)
    assert res["status"] == "returned" and res["home"] == "computer_found" and len(res["cards"]) == 3
    (words,) = GAME.ending_notes(s, 0)
    assert words.startswith("Seat 2 found the Holy Grail for the player who left it, but a seat played by a "
                            "computer wins no cards, so the ante goes back to its owners:")
    assert not _schema_gaps(s)


def test_another_seat_that_finds_the_grail_still_wins_the_ante():
    s = _find_the_grail(_handed(seat=1), 0)
    res = ante_result(s)
    assert res["status"] == "won" and res["winner"] == 0 and "home" not in res


def _drawn(s):
    """``s`` played on to a draw: the last unsearched area searched and the Grail not found."""
    for i in range(3):
        S.area(s, f"A.{i}")["searched"] = True
    s["failed_searches"] = 0
    set_area(s, "A.3", ["moor"])
    place_rt(s, 0, "A.3")
    s["turn"] = 0
    grail_deck(s, 0, [0])
    return pass_window(play(s, 0, {"type": "search"}))


def test_a_draw_with_a_seat_handed_over_carries_nothing_over():
    s = _drawn(_handed(seat=2))
    out = GAME.outcome(s)
    assert out.draw and "carried over." not in out.reason and "no rematch starts" in out.reason
    res = ante_result(s)
    assert res["status"] == "returned" and res["home"] == "computer_seat" and "carried_ante" not in res
    (words,) = GAME.ending_notes(s, None)
    assert "no rematch starts and nothing is carried over: the ante goes back to its owners" in words


def test_a_draw_without_a_seat_handed_over_still_carries_the_ante():
    s = _drawn(new_game(players=3))
    assert ante_result(s)["status"] == "carried_over"
