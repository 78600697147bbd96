"""Scenario builder and random-playout helpers for the CCG engine's tests."""
from __future__ import annotations

import json

from games.rules.ccg import moves_check
from games.rules.ccg import state as S
from games.rules.ccg.game import MPHGGame, with_words
from games.rules.rng import Rng

from . import cards_for_tests as T

GAME = MPHGGame()


def new_game(players=2, seed=1, decks=None, cut=True, **options):
    decks = decks or [T.test_deck() for _ in range(players)]
    opts = {"decks": decks, "collection_sizes": options.pop("collection_sizes", [100 - i for i in range(players)])}
    opts.update(options)
    state = GAME.setup(players, opts, seed)
    if cut:
        for seat in range(players):
            state = play(state, seat, {"type": "cut", "at": 5})
    return state


def listed(state, seat):
    """The seat's legal moves without the words the listing adds (a play's quote, the
    run-away shout), so scenario tests compare the rules' choices, not their wording.
    The random playout checks the words: every listed move applies exactly as listed."""
    return [moves_check.canonical(m) for m in GAME.legal_moves(state, seat)]


def play(state, seat, move):
    new, _ = GAME.apply(state, seat, with_words(state, move))
    return new


def play_ev(state, seat, move):
    return GAME.apply(state, seat, with_words(state, move))


# ------------------------------------------------------------------ arranging
def iid_of(state, code, where=None):
    """The first instance of a card code (optionally among a list of iids)."""
    pool = where if where is not None else range(len(state["inst"]))
    for i in pool:
        if state["inst"][i] == code:
            return i
    raise LookupError(code)


def add_card(state, code, owner):
    """Create a fresh instance of a test card owned by ``owner`` (not yet anywhere)."""
    cdef = dict(T.BY_CODE[code]) if isinstance(code, str) else code
    from games.rules.ccg.cards import normalize_card
    cdef = normalize_card(cdef)
    state["cards"].setdefault(cdef["code"], cdef)
    state["inst"].append(cdef["code"])
    state["own"].append(owner)
    return len(state["inst"]) - 1


def stack_deck(state, seat, codes):
    """Put new cards on top of a seat's deck so they are drawn in the order given."""
    for code in reversed(codes):
        state["p"][seat]["deck"].append(add_card(state, code, seat))


def grail_deck(state, seat, numbers):
    """Arrange the top of a deck so its next grail numbers come out as ``numbers``."""
    by_number = {}
    for c in T.ALL:
        if c["type"] not in ("song",) and c["grail"] not in by_number:
            by_number[c["grail"]] = c["code"]
    stack_deck(state, seat, [by_number[n] for n in numbers])


def to_hand(state, seat, code):
    iid = add_card(state, code, seat)
    state["p"][seat]["hand"].append(iid)
    return iid


def join(state, seat, code, with_page=True):
    """Put a knight (and a page for him) straight into a Round Table."""
    p = state["p"][seat]
    if with_page:
        p["pages"].append({"c": add_card(state, "page-generic", seat), "k": [], "i": []})
    iid = add_card(state, code, seat)
    from games.rules.ccg import round_table
    round_table.add_member(state, seat, iid, [])
    return iid


def set_area(state, ref, codes, owner=None, face="up"):
    """Replace an area's cards with the given ones (face up unless told)."""
    a = S.area(state, ref)
    for i, *_ in a["up"] + a["down"]:
        state["elim"].append(i)  # keep every card somewhere
    a["up"], a["down"] = [], []
    seat = owner if owner is not None else (S.layout.parse(ref)[0] or 0)
    out = []
    for code in codes:
        iid = add_card(state, code, seat)
        (a["up"] if face == "up" else a["down"]).append([iid, 0] if face == "up" else [iid, 0, None])
        out.append(iid)
    return out


def place_rt(state, seat, ref, came_from=None):
    p = state["p"][seat]
    p["pos"], p["from"] = ref, came_from
    from games.rules.ccg import places
    p["must"] = bool(places.blocking_foes(state, seat))


def pass_window(state):
    """Everyone passes the open response window."""
    while state["steps"] and state["steps"][-1]["k"] == "response":
        step = state["steps"][-1]
        state = play(state, step["order"][step["i"]], {"type": "pass"})
    return state


def clear_hand(state, seat):
    p = state["p"][seat]
    for i in p["hand"]:
        p["dead"].append(i)
    p["hand"] = []


# ------------------------------------------------------------------ invariants
def card_places(state):
    """Every place a card can be; each iid must appear exactly once."""
    seen = []
    for p in state["p"]:
        seen += p["deck"] + p["hand"] + p["dead"] + p["knights"] + p["personas"] + p["attached"]
        for pg in p["pages"]:
            seen.append(pg["c"])
            seen += pg["i"]
        for a in p["england"]:
            seen += _area_cards(a)
    for a in state["avalon"]:
        seen += _area_cards(a)
    seen += state["ante"] + state["elim"] + state["limbo"]
    return seen


def _area_cards(a):
    out = [e[0] for e in a["down"]] + [e[0] for e in a["up"]] + list(a["att"])
    if a["occ"] is not None:
        out.append(a["occ"])
    return out


def assert_every_card_once(state):
    places = card_places(state)
    assert sorted(places) == list(range(len(state["inst"]))), "a card is lost or in two places"


def random_game(players, seed, decks=None, check=None, max_moves=20000, double=False):
    """Play random legal moves to the end; returns (final state, moves, states)."""
    decks = decks or [T.test_deck() for _ in range(players)]
    opts = {"decks": decks, "collection_sizes": [50] * players, "double_the_ante": double}
    state = GAME.setup(players, opts, seed)
    rng = Rng({"seed": seed * 7919 + 1, "n": 0})
    log = []
    while GAME.outcome(state) is None and len(log) < max_moves:
        pend = GAME.pending(state)
        seat = pend[rng.below(len(pend))].seat
        moves = GAME.legal_moves(state, seat)
        assert moves, f"seat {seat} must act but has no legal move"
        move = with_words(state, moves[rng.below(len(moves))])
        state, _ = GAME.apply(state, seat, move)
        log.append((seat, move))
        if check:
            check(state)
    return state, log


def roundtrip(state):
    return json.loads(json.dumps(state))




def starter_decks():
    """The two starter decks as lists of card dicts (None until the data files exist)."""
    import pathlib
    data = pathlib.Path(__file__).resolve().parents[3] / "games" / "rules" / "ccg" / "data"
    try:
        cards = {c["code"]: c for c in json.loads((data / "starter_set.json").read_text())}
        decks = json.loads((data / "starter_decks.json").read_text())
    except FileNotFoundError:
        return None
    return [[cards[code] for code, n in d["cards"].items() for _ in range(n)] for d in decks]


def settle(state, skip=("turn",)):
    """Answer every pending step (balance, choices, windows) with its timeout move."""
    while GAME.outcome(state) is None:
        pend = GAME.pending(state)
        if not pend or pend[0].kind in skip:
            return state
        state = play(state, pend[0].seat, GAME.timeout_move(state, pend[0].seat))
    return state


def end_turn(state, seat=None):
    seat = state["turn"] if seat is None else seat
    state = play(state, seat, {"type": "end_turn"})
    return settle(state)
