"""Setting up: gold (before the order roll), guardians, items, the roll, the tokens, and
the Entry hexes chosen in roll order."""
from __future__ import annotations

from ..rng import Rng, new_rng_state
from . import editions
from .board import load
from .pieces import COUNT, SPELLS, TYPES

GOLD_PER_PLAYER = (5, 3, 2)  # ten gold a player in mixed coins
# Edition 1: gold goes inside this radius and at least this far from other coins; the first
# rung where one of 25 random tries fits is used.
GOLD_LADDER = ((4, 3), (5, 3), (5, 2), (6, 2), (6, 1))
GOLD_TRIES = 25
# Edition 2: (rings in from the edge, spacing). The rules keep every coin more than 2
# spaces from the board's edge and from the other coins: that is the first rung: at least 3 rings in, at least 3 apart. Only
# when the board cannot hold that many coins so (the search below proves it) does the next
# rung apply: first a ring nearer the edge, keeping the coins apart, then closer together.
GOLD_RUNGS = ((3, 3), (2, 3), (1, 3), (1, 2), (0, 2), (0, 1))
# Edition 4: the first rung always; the coins are made fewer instead (``larger_coins``).
AS_WRITTEN = GOLD_RUNGS[0]


def excalibur_in_play(options: dict, players: int) -> bool:
    """The basic game's goal; with the Accoutrements it is one more item at 5-6 players."""
    if options["accoutrements"]:
        return players >= 5
    return not options["gold"]


def new_state(players: int, options: dict, seed: int, edition: int = editions.CURRENT) -> dict:
    board = load("standard", edition)
    state = {
        "board": board.name, "options": options, "rng": new_rng_state(seed), "players": players,
        "phase": "entry", "rolls": [], "order": [], "entry_next": 0,
        "entries": [None] * players, "active": [True] * players,
        "pool": [dict(COUNT) for _ in range(players)],
        "lost": [{t: 0 for t in TYPES} for _ in range(players)],
        "spells": [{s: True for s in SPELLS} for _ in range(players)],
        "banked": [{"items": [], "coins": []} for _ in range(players)],
        "pauses_left": [options["pauses"]] * players,
        "tokens": [], "turns": {}, "units": {}, "items": {}, "item_values": {},
        "paused": None, "turn_count": 0, "turn_seq": 0, "last_combat": [], "result": None,
    }
    if edition != editions.FIRST:
        state["edition"] = edition  # an edition-1 state keeps exactly the keys it always had
    rng = Rng(state["rng"])
    taken = {board.excalibur, *board.item_spaces.values()}
    if options["gold"]:
        if editions.gold_keeps_spacing(edition):
            _place_gold_in_larger_coins(state, board, rng, taken)
        elif editions.gold_as_written(edition):
            _place_gold_as_written(state, board, rng, taken)
        else:
            _place_gold(state, board, rng, taken)
    if excalibur_in_play(options, players):
        state["items"][board.excalibur] = ["excalibur"]
    if options["accoutrements"]:
        for item, hex_ in board.item_spaces.items():
            state["items"].setdefault(hex_, []).append(item)
    if options["guardians"]:
        spots = [k for k in board.enterable if 1 <= board.distance(k, board.excalibur) <= 2
                 and k not in taken and k not in state["items"]]
        spots.sort()
        for n in (1, 2):
            spot = spots.pop(rng.below(len(spots)))
            state["units"][f"guardian-{n}"] = {"seat": None, "type": "lancelot", "hex": spot,
                                               "carry": None, "guardian": True}
    _roll_for_order(state, rng, players)
    return state


def _place_gold(state: dict, board, rng: Rng, taken: set) -> None:
    coins = [v for _ in range(state["players"]) for v in GOLD_PER_PLAYER]
    for radius, spacing in GOLD_LADDER:
        candidates = sorted(k for k in board.enterable if k not in taken and board.from_edge(k) >= board.radius - radius)
        for _ in range(GOLD_TRIES):
            rng.shuffle(candidates)
            chosen: list[str] = []
            for k in candidates:
                if all(board.distance(k, c) >= spacing for c in chosen):
                    chosen.append(k)
                    if len(chosen) == len(coins):
                        break
            if len(chosen) == len(coins):
                for n, (value, k) in enumerate(zip(coins, chosen), 1):
                    state["items"][k] = [f"gold-{n}"]
                    state["item_values"][f"gold-{n}"] = value
                state["gold_rule"] = {"radius": radius, "spacing": spacing}
                return
    raise AssertionError("gold could not be placed")  # the last rung always fits


def _place_gold_as_written(state: dict, board, rng: Rng, taken: set) -> None:
    """Each coin on its own random hex, on the first rung of ``GOLD_RUNGS`` where the board
    can hold every coin at all; ``state["gold_rule"]`` says which rung was used."""
    coins = [v for _ in range(state["players"]) for v in GOLD_PER_PLAYER]
    for from_edge, spacing in GOLD_RUNGS:
        candidates = sorted(k for k in board.enterable if k not in taken and board.from_edge(k) >= from_edge)
        rng.shuffle(candidates)
        chosen = spread(board, candidates, len(coins), spacing)
        if chosen is not None:
            for n, (value, k) in enumerate(zip(coins, chosen), 1):
                state["items"][k] = [f"gold-{n}"]
                state["item_values"][f"gold-{n}"] = value
            state["gold_rule"] = {"from_edge": from_edge, "spacing": spacing}
            return
    raise ValueError("This board has no room for the gold.")


def _place_gold_in_larger_coins(state: dict, board, rng: Rng, taken: set) -> None:
    """Every coin on its own random hex as the rules text has it (``AS_WRITTEN``), as many
    coins as the board holds so, up to three a player: when it holds fewer, the same gold
    comes in fewer, larger coins (``larger_coins``). The text lets the table pick "any
    denominations"; its spacing it does not let go."""
    coins = [v for _ in range(state["players"]) for v in GOLD_PER_PLAYER]
    from_edge, spacing = AS_WRITTEN
    candidates = sorted(k for k in board.enterable if k not in taken and board.from_edge(k) >= from_edge)
    rng.shuffle(candidates)
    for count in range(len(coins), 0, -1):
        chosen = spread(board, candidates, count, spacing)
        if chosen is not None:
            for n, (value, k) in enumerate(zip(larger_coins(coins, count), chosen), 1):
                state["items"][k] = [f"gold-{n}"]
                state["item_values"][f"gold-{n}"] = value
            state["gold_rule"] = {"from_edge": from_edge, "spacing": spacing}
            return
    raise ValueError("This board has no room for the gold.")


def larger_coins(coins: list[int], count: int) -> list[int]:
    """``coins`` changed into ``count`` coins of the same total, largest first: the two
    smallest made one, again and again, like small change traded for a larger coin. Four
    players' 5, 5, 5, 5, 3, 3, 3, 3, 2, 2, 2, 2 in nine coins: two 2s make a 4, two more
    another 4, two 3s a 6."""
    out = sorted(coins)
    while len(out) > count:
        merged = out.pop(0) + out.pop(0)
        out.append(merged)
        out.sort()
    return out[::-1]


def spread(board, candidates: list[str], count: int, spacing: int) -> list[str] | None:
    """``count`` of ``candidates`` at least ``spacing`` apart, preferring earlier ones (the
    caller shuffles them), or None when no such choice exists at all.

    An exhaustive search, kept quick by a bound: the hexes still open are covered greedily
    by groups that are all within ``spacing`` of one another (at most one coin per group),
    and a branch that cannot reach ``count`` even so is dropped. Otherwise it branches on
    the smallest group: each of its hexes in turn, and "none of them" only while the bound
    has room to spare (when it has none, every group must take a coin). The boards' worst
    case (tests/rules/camelot/test_cm_setup.py, 3-6 players) stays within milliseconds."""
    n = len(candidates)
    clash = [0] * n
    for i, a in enumerate(candidates):
        row = board.dist[a]
        for j, b in enumerate(candidates):
            if i != j and row[b] < spacing:
                clash[i] |= 1 << j

    def groups(open_: int) -> list[int]:
        """Mutually clashing groups (bit masks) covering ``open_``: one coin each at most."""
        out = []
        while open_:
            low = open_ & -open_
            group, maybe = low, open_ & clash[low.bit_length() - 1]
            while maybe:
                bit = maybe & -maybe
                group |= bit
                maybe &= clash[bit.bit_length() - 1]
            open_ &= ~group
            out.append(group)
        return out

    chosen: list[int] = []

    def search(open_: int) -> bool:
        if len(chosen) == count:
            return True
        cover = groups(open_)
        spare = len(chosen) + len(cover) - count
        if spare < 0:
            return False
        group = min(cover, key=lambda g: bin(g).count("1"))
        members = group
        while members:
            bit = members & -members
            members &= ~bit
            i = bit.bit_length() - 1
            chosen.append(i)
            if search(open_ & ~clash[i] & ~bit):
                return True
            chosen.pop()
        return spare > 0 and search(open_ & ~group)

    if not search((1 << n) - 1):
        return None
    return [candidates[i] for i in chosen]


def _roll_for_order(state: dict, rng: Rng, players: int) -> None:
    """One die each; tied seats roll again until every die differs (each seat keeps its last)."""
    rolls = [rng.die() for _ in range(players)]
    while True:
        tied = [s for s in range(players) if rolls.count(rolls[s]) > 1]
        if not tied:
            break
        for s in tied:
            rolls[s] = rng.die()
    state["rolls"] = rolls
    state["order"] = sorted(range(players), key=lambda s: -rolls[s])
    holders = 1 if state["options"]["turn_based"] else 2
    state["tokens"] = state["order"][:holders]


def entry_choices(state: dict) -> list[str]:
    """Edge spaces the current chooser may take: more than 5 edge spaces from every chosen
    Entry hex; else more than 4; else (our fallback) those farthest from the nearest one."""
    board = load(state["board"])
    chosen = [h for h in state["entries"] if h is not None]
    free = [k for k in board.edge if k not in chosen]
    if not chosen:
        return free
    nearest = {k: min(board.edge_distance(k, c) for c in chosen) for k in free}
    for gap in (5, 4):
        allowed = [k for k in free if nearest[k] > gap]
        if allowed:
            return allowed
    best = max(nearest.values())
    return [k for k in free if nearest[k] == best]


def entry_chooser(state: dict) -> int | None:
    """The seat choosing an Entry hex now (resigned seats are skipped)."""
    order = state["order"]
    i = state["entry_next"]
    while i < len(order) and not state["active"][order[i]]:
        i += 1
    return order[i] if i < len(order) else None
