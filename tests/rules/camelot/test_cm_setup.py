"""Setting up: gold before the roll, guardians, items, the order roll, tokens, Entry hexes."""
import functools
import json

import pytest

from games.rules.camelot import editions
from games.rules.camelot.board import load
from games.rules.camelot.setup import GOLD_PER_PLAYER, GOLD_RUNGS, entry_choices

from .helpers import BOARD, EDGE, GAME, play, refused


def test_three_to_six_players_and_options_are_checked():
    for players in (3, 4, 5, 6):
        GAME.setup(players, {}, 1)
    for players in (2, 7):
        with pytest.raises(ValueError):
            GAME.setup(players, {}, 1)
    for bad in ({"gold": "yes"}, {"turn_cap": 5}, {"pauses": 9}, {"colour": "red"}):
        with pytest.raises(ValueError):
            GAME.setup(3, bad, 1)


def test_same_seed_same_table_and_plain_json():
    a, b = GAME.setup(5, {"gold": True, "guardians": True}, 42), GAME.setup(5, {"gold": True, "guardians": True}, 42)
    assert a == b and json.loads(json.dumps(a)) == a
    assert GAME.setup(5, {"gold": True}, 43) != GAME.setup(5, {"gold": True}, 42)


@pytest.mark.parametrize("seed", range(30))
def test_the_roll_has_no_ties_and_the_two_highest_hold_the_tokens(seed):
    players = 3 + seed % 4
    state = GAME.setup(players, {"turn_based": seed % 5 == 0}, seed)
    rolls = state["rolls"]
    assert len(set(rolls)) == players and all(1 <= r <= 6 for r in rolls)
    assert state["order"] == sorted(range(players), key=lambda s: -rolls[s])
    assert state["tokens"] == state["order"][:1 if seed % 5 == 0 else 2]


def test_entry_hexes_are_chosen_in_roll_order_on_the_edge_then_play_starts():
    state = GAME.setup(4, {}, 7)
    chosen = []
    for i, seat in enumerate(state["order"]):
        pending = GAME.pending(state)
        assert [(p.seat, p.kind) for p in pending] == [(seat, "entry")]
        other = state["order"][(i + 1) % 4]
        assert refused(state, other, {"type": "entry", "hex": EDGE[0]})
        choices = entry_choices(state)
        assert all(BOARD.edge_distance(c, h) > 5 for c in choices for h in chosen)
        pick = choices[len(choices) // 2]
        state = play(state, seat, {"type": "entry", "hex": pick})
        chosen.append(pick)
    assert state["phase"] == "play"
    assert sorted(p.seat for p in GAME.pending(state)) == sorted(state["tokens"])
    assert all(state["turns"][str(s)]["stage"] == "declare" for s in state["tokens"])


def _choices_after(players, taken):
    state = GAME.setup(players, {}, 1)
    state["entries"] = [EDGE[i] for i in taken] + [None] * (players - len(taken))
    return [BOARD.edge_index[c] for c in entry_choices(state)], state


def test_the_distance_relaxes_to_four_and_then_to_the_farthest_free_space():
    # Gaps of 11, 11, 10, 10: nothing is more than 5 away, some spaces are exactly 5.
    choices, state = _choices_after(5, [0, 11, 22, 32])
    nearest = lambda i: min(BOARD.edge_distance(EDGE[i], h) for h in state["entries"] if h)  # noqa: E731
    assert choices and all(nearest(i) == 5 for i in choices)
    # Gaps of 9 and 6: nothing more than 4 away either; the farthest (4) are offered.
    choices, state = _choices_after(6, [0, 9, 18, 27, 36])
    assert choices and all(nearest(i) == 4 for i in choices)
    assert len(choices) == 8


def test_edge_spaces_are_grass_and_the_ring_has_42():
    assert len(EDGE) == 42 and len(set(EDGE)) == 42
    assert all(BOARD.terrain[k] == "grass" and BOARD.from_edge(k) == 0 for k in EDGE)
    assert BOARD.edge_distance(EDGE[0], EDGE[41]) == 1 and BOARD.edge_distance(EDGE[0], EDGE[21]) == 21


# BUYING THE KINGSHIP: no gold coin lies 2 spaces or fewer from the board's edge or from
# another coin: at least 3 rings in from the edge and at least 3 apart, whenever the
# board can hold that many coins so; otherwise the first rung of GOLD_RUNGS that can.
AS_WRITTEN = GOLD_RUNGS[0]
assert AS_WRITTEN == (3, 3)


def _most_coins(board, from_edge, spacing):
    """The most coins that fit on a rung, by a branch-and-bound of the test's own (each hex
    in or out, in board order, bounded by greedy groups of mutually close hexes), independent
    of setup.spread's search."""
    taken = {board.excalibur, *board.item_spaces.values()}
    cells = sorted(k for k in board.enterable if k not in taken and board.from_edge(k) >= from_edge)
    near = [sum(1 << j for j, b in enumerate(cells) if j != i and board.distance(a, b) < spacing)
            for i, a in enumerate(cells)]
    best = 0

    def upper(open_):
        groups = 0
        while open_:
            v = (open_ & -open_).bit_length() - 1
            group, maybe = 1 << v, open_ & near[v]
            while maybe:
                u = (maybe & -maybe).bit_length() - 1
                group |= 1 << u
                maybe &= near[u]
            open_ &= ~group
            groups += 1
        return groups

    def grow(open_, size):
        nonlocal best
        best = max(best, size)
        if open_ and size + upper(open_) > best:
            v = (open_ & -open_).bit_length() - 1
            grow(open_ & ~near[v] & ~(1 << v), size + 1)
            grow(open_ & ~(1 << v), size)

    grow((1 << len(cells)) - 1, 0)
    return best


@functools.lru_cache(maxsize=None)
def _first_rung_that_fits(board_name, coins):
    board = load(board_name, editions.CURRENT)
    return next(r for r in GOLD_RUNGS if _most_coins(board, *r) >= coins)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_gold_is_placed_as_written_in_larger_coins_where_the_board_holds_fewer(players):
    # Edition 4: the spacing is never given up. Where the rules' rung cannot hold three coins
    # a player, the gold comes in fewer coins of larger worth, as many as fit, the same total.
    fits = _most_coins(BOARD, *AS_WRITTEN)
    assert fits == 9  # three players' coins, no more (the test's own search)
    coins = min(3 * players, fits)
    for seed in range(100 if players == 4 else 25):
        state = GAME.setup(players, {"gold": True}, seed)
        values = state["item_values"]
        assert sum(values.values()) == 10 * players
        places = [h for h, things in state["items"].items() for t in things if t.startswith("gold-")]
        assert len(places) == len(values) == len(set(places)) == coins
        assert state["gold_rule"] == {"from_edge": AS_WRITTEN[0], "spacing": AS_WRITTEN[1]}
        for h in places:
            assert h in BOARD.enterable and h != BOARD.excalibur and h not in BOARD.item_spaces.values()
            assert BOARD.from_edge(h) >= AS_WRITTEN[0]
            assert all(BOARD.distance(h, o) >= AS_WRITTEN[1] for o in places if o != h)
        if players == 3:
            assert sorted(values.values()) == sorted(GOLD_PER_PLAYER * 3)
        else:
            assert max(values.values()) > max(GOLD_PER_PLAYER)


def test_four_players_gold_changes_small_coins_for_larger_ones():
    # Twelve coins of 5, 3 and 2 do not fit as written; nine do: the two smallest coins are
    # made one until nine are left (2 + 2, 2 + 2, then 3 + 3).
    state = GAME.setup(4, {"gold": True}, 3)
    assert sorted(state["item_values"].values()) == [3, 3, 4, 4, 5, 5, 5, 5, 6]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_editions_2_and_3_placed_ten_a_player_in_threes_on_the_first_rung_that_held_them(players):
    coins = 3 * players
    rung = _first_rung_that_fits("standard", coins)
    # What the standard board allows (docs/rules/camelot.md, "Setting up"): the rules' rung
    # holds at most 9 coins there, so three players get it as written; four get the coins
    # 2 rings in, five and six 1 ring in; always 3 apart.
    assert rung == {3: (3, 3), 4: (2, 3), 5: (1, 3), 6: (1, 3)}[players]
    for seed in range(100):
        state = GAME.setup(players, {"gold": True, "edition": 3}, seed)
        values = state["item_values"]
        assert sum(values.values()) == 10 * players and len(set(values.values())) == len(set(GOLD_PER_PLAYER))
        places = [h for h, things in state["items"].items() for t in things if t.startswith("gold-")]
        assert len(places) == len(values) == len(set(places)) == coins
        assert state["gold_rule"] == {"from_edge": rung[0], "spacing": rung[1]}
        for h in places:
            assert h in BOARD.enterable and h != BOARD.excalibur and h not in BOARD.item_spaces.values()
            assert BOARD.from_edge(h) >= rung[0]
            assert all(BOARD.distance(h, o) >= rung[1] for o in places if o != h)


def test_gold_placements_differ_from_seed_to_seed():
    seen = {frozenset(GAME.setup(3, {"gold": True}, seed)["items"]) for seed in range(20)}
    assert len(seen) > 10


def test_the_first_edition_kept_its_ladder():
    state = GAME.setup(4, {"gold": True, "edition": 1}, 3)
    assert set(state["gold_rule"]) == {"radius", "spacing"} and "edition" not in state


def test_gold_is_placed_before_the_roll():
    # The gold draws come first: the same seed with and without gold rolls differently,
    # and the gold lies the same whatever the options that are decided later.
    a = GAME.setup(4, {"gold": True}, 5)
    b = GAME.setup(4, {"gold": True, "guardians": True}, 5)
    assert {h: v for h, v in a["items"].items()} == {h: v for h, v in b["items"].items()}


def test_guardians_stand_within_two_of_excalibur():
    for seed in range(20):
        state = GAME.setup(3, {"guardians": True}, seed)
        guards = [u for uid, u in state["units"].items() if u["guardian"]]
        assert len(guards) == 2 and guards[0]["hex"] != guards[1]["hex"]
        assert all(1 <= BOARD.distance(g["hex"], "0,0") <= 2 and g["type"] == "lancelot" and g["seat"] is None
                   for g in guards)


def test_items_by_variation_and_player_count():
    basic = GAME.setup(3, {}, 1)
    assert basic["items"] == {"0,0": ["excalibur"]}
    accs = GAME.setup(4, {"accoutrements": True}, 1)
    assert sorted(t for v in accs["items"].values() for t in v) == ["crown", "robe", "scepter", "throne"]
    assert all(accs["items"][h] == [i] for i, h in BOARD.item_spaces.items())
    big = GAME.setup(5, {"accoutrements": True}, 1)
    assert big["items"]["0,0"] == ["excalibur"]
    gold_only = GAME.setup(4, {"gold": True}, 1)
    assert "excalibur" not in [t for v in gold_only["items"].values() for t in v]


def test_every_piece_starts_in_the_pool_with_unused_spells():
    state = GAME.setup(6, {}, 3)
    assert all(p == {"arthur": 5, "galahad": 4, "lancelot": 4, "merlin": 1, "morgan": 1} for p in state["pool"])
    assert all(all(s.values()) for s in state["spells"]) and state["units"] == {}
