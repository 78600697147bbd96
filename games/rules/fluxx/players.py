"""Monty Python Fluxx computer players (see games/rules/computer.py for how they are called).

Each level gets the seat's view and the legal moves, nothing else: its own hand, every
table, the Goals and rules in play are all it looks at (the card texts are public).

The knight ("Knight") looks one move ahead. It scores a table -- who has which Keepers and
Creepers, which Goals are in play -- by how near each player is to meeting a Goal: a Goal
met by the knight alone is a win, by one opponent alone a loss; otherwise each Goal counts
for the knight by the cards it still lacks (a card it holds in hand counts half), against
the opponent nearest to meeting one. Then every legal move is scored by the table it
leads to: a Keeper placed, a Goal put in play (never one that lets an opponent win), a
Keeper stolen or trashed from the opponent who needs it, a Creeper handed to the leader, a
Keeper flung with The Catapult (where the Goals are looked at as it lands, by that table
first: a win there ends the game before anything is thrown away).
Actions it cannot picture as a table get a fixed worth (drawing cards is good). It never
makes a sing or accent claim (a computer cannot sing).

Quotes: where the other players judge them (every game set up since, ``view["quotes"]``),
no level quotes at all: a computer has no line to offer, and the card's bare name the legal
list holds would only ask the people to judge nothing. In a game stored before, whose quotes
the engine checks for a word of the card's name, the knight still quotes the name. As a
judge, a computer cannot hear: it lets a claim count, unless nothing was said, or a quote is
only words of the card's own name (the bare name, not a line).
"""
from __future__ import annotations

from ..computer import random_move
from ..rng import Rng
from .cards import EFFECT, NAME, TAGS, TYPE
from .current_rules import number_under
from .free_actions import JUDGED, ON_LANDING, normalize
from .goals import _GOALS, STAND_INS

WIN = 10_000.0
HAND_HALF = 0.5          # a card needed and held in hand is half-way to the table
GOAL_SCALE, GOAL_DECAY = 25.0, 0.4   # a Goal lacking m cards is worth 25 * 0.4**m
HAND_GOAL_WEIGHT = 0.6   # a Goal in hand is worth this much of one in play
KEEPER_WORTH, CREEPER_COST = 0.6, 2.5
THREAT_WEIGHT = 1.2      # how much the nearest opponent's chances weigh against ours

# Fixed worths of Actions whose effect the knight does not picture as a table.
ACTION_WORTH = {"draw": 1.0, "draw_use": 2.5, "another_turn": 3.0, "discard_draw": 1.0, "use_what_you_take": 1.0,
                "taxation": 1.2, "do_again": 1.0, "revive_keeper": 1.0, "zap": 1.2, "inquisition": 0.3,
                "empty_trash": 0.2, "everybody_gets_1": 0.3, "scramble_hands": 0.0, "rotate_hands": 0.0,
                "remove_rules": 0.1, "trash_rule": 0.1, "simplify": 0.1, "bring_out_your_dead": 0.5,
                "run_away": 0.0, "not_dead_yet": 1.0}


def random_level(view: dict, legal: list[dict], rng: Rng) -> dict:
    if view.get("quotes") == JUDGED:  # no line to offer the judges (the plain play is listed too)
        legal = [m for m in legal if "quote" not in m] or legal
    return random_move(legal, rng)


def judge_verdict(prompt: str) -> str:
    """A computer's answer to a judge decision, from its prompt: "yes" unless the words said
    (the last “…” of "Seat 1 sings from “…”: “…”. Does it count?" or "Seat 1 plays Coconuts,
    quoting “…”. Does the quote count?") are empty, or a quote uses no word beyond the name of
    the card it is played with."""
    said = prompt.rsplit("\u201c", 1)[-1].split("\u201d", 1)[0] if "\u201c" in prompt else ""
    words = set(normalize(said).split())
    if not words:
        return "no"
    if "Does the quote count?" in prompt:
        played = next((c for c, n in NAME.items() if f" plays {n}, quoting \u201c" in prompt), None)
        if played is not None and words <= set(normalize(NAME[played]).split()):
            return "no"
    return "yes"


def missing(tables: list, seat: int, goal: str, rules: tuple, hand: tuple = (), hand_counts=None) -> float:
    """How many cards ``seat`` still lacks to meet ``goal`` (0: it meets it now, Creepers
    in the way counting one each). Cards in ``hand`` count half. A Keeper standing in for
    a card while that card is on no table counts as it (The Animator); "either" asks one
    card of its set; "nothing" counts every card ``seat`` still has (``hand_counts``: the
    hand sizes, when known) and is not met while another player also has nothing."""
    have, others_have, tag, count, either, nothing = _GOALS[goal]
    table = tables[seat]
    if nothing:
        held = len(table) + (hand_counts[seat] if hand_counts is not None else len(hand))
        if held:
            return float(held)
        alone = all(tables[s] or (hand_counts is not None and hand_counts[s]) for s in range(len(tables)) if s != seat)
        return 0.0 if alone else 1.0
    m = 0.0
    standing_in = ()
    for card in have:
        if card in table:
            continue
        stand_in = next((s for s in STAND_INS.get(card, ()) if s in table and s not in have), None)
        if stand_in is not None and not any(card in t for t in tables):
            standing_in += (stand_in,)
            continue
        m += HAND_HALF if card in hand else 1
    for card in others_have:
        if not any(card in t for s, t in enumerate(tables) if s != seat):
            m += 1
    if either is not None and not any(c in either for c in table if c not in have and c not in standing_in):
        m += HAND_HALF if any(c in either for c in hand) else 1
    if tag is not None:
        found = sum(1 for c in table if tag in TAGS[c] and c not in have)
        short = number_under(rules, count) - found
        if short > 0:
            held = sum(1 for c in hand if tag in TAGS[c] and c not in have)
            m += short - HAND_HALF * min(short, held)
    for card in table:
        if TYPE[card] == "creeper" and card not in have:
            m += 1
    return m


class _Table:
    """The public position and the knight's hand, scored for the knight."""

    def __init__(self, view: dict) -> None:
        self.me = view["my_seat"]
        self.active = view["active"]
        self.seats = [s for s, on in enumerate(self.active) if on]
        self.tables = [list(k) + list(c) if self.active[s] else []
                       for s, (k, c) in enumerate(zip(view["keepers"], view["creepers"]))]
        self.goals = list(view["goals"])
        self.rules = tuple(view["rules"])
        self.hand = tuple(view["my_hand"] or ())
        self.hand_counts = view["hand_counts"]
        eff = view["effective"]
        self.goal_limit = (eff.get("goal_limit") or {}).get("value") or 1
        self.keeper_limit = (eff.get("keeper_limit") or {}).get("value") if eff.get("keeper_limit") else None
        self.resolving = list(view["resolving"])
        self.judged_quotes = view.get("quotes") == JUDGED
        self.lands_first = view.get("fling") == ON_LANDING  # a fling's landing can win at once
        self.now = self.score(self.tables, self.goals, self.hand)
        self._played: dict[str, float] = {}  # play_value per card, asked again and again by discards

    # --- scoring a position ---------------------------------------------------------

    def counts(self, hand) -> list:
        """Hand sizes, the knight's own as it would be (``hand``)."""
        counts = list(self.hand_counts)
        counts[self.me] = len(hand)
        return counts

    def meets(self, tables, goals, hand=None) -> list[int]:
        counts = self.counts(self.hand if hand is None else hand)
        return [s for s in self.seats if any(missing(tables, s, g, self.rules, (), counts) == 0 for g in goals)]

    def score(self, tables, goals, hand) -> float:
        winners = self.meets(tables, goals, hand)
        if len(winners) == 1:
            return WIN if winners[0] == self.me else -WIN
        others = [s for s in self.seats if s != self.me]
        counts = self.counts(hand)
        mine = sum(_closeness(missing(tables, self.me, g, self.rules, hand, counts)) for g in goals)
        mine += HAND_GOAL_WEIGHT * sum(_closeness(missing(tables, self.me, g, self.rules, hand, counts))
                                       for g in hand if TYPE[g] == "goal" and g not in goals)
        threat = max((sum(_closeness(missing(tables, s, g, self.rules, (), counts)) for g in goals) for s in others),
                     default=0.0)
        keepers = sum(1 for c in tables[self.me] if TYPE[c] == "keeper")
        creepers = sum(1 for c in tables[self.me] if TYPE[c] == "creeper")
        return mine - THREAT_WEIGHT * threat + KEEPER_WORTH * keepers - CREEPER_COST * creepers

    def leader(self) -> int | None:
        """The opponent nearest to meeting a Goal in play (by the same measure)."""
        others = [s for s in self.seats if s != self.me]
        if not others:
            return None
        counts = self.counts(self.hand)
        return max(others, key=lambda s: (sum(_closeness(missing(self.tables, s, g, self.rules, (), counts))
                                              for g in self.goals),
                                          sum(1 for c in self.tables[s] if TYPE[c] == "keeper"), -s))

    # --- positions after a change --------------------------------------------------

    def moved(self, card: str, to: int | None) -> list:
        """The tables with ``card`` taken from wherever it is and put before ``to`` (None: discarded)."""
        tables = [[c for c in t if c != card] for t in self.tables]
        if to is not None:
            tables[to].append(card)
        return tables

    def owner(self, card: str) -> int | None:
        return next((s for s, t in enumerate(self.tables) if card in t), None)

    def without(self, card: str) -> tuple:
        hand = list(self.hand)
        if card in hand:
            hand.remove(card)
        return tuple(hand)

    def with_goal(self, goal: str, hand: tuple) -> float:
        """The best table the knight can make by putting ``goal`` in play."""
        if self.goal_limit == "all" or len(self.goals) < self.goal_limit:
            return self.score(self.tables, self.goals + [goal], hand)
        if self.goal_limit == 1 or not self.goals:
            return self.score(self.tables, [goal], hand)
        # Double Agenda: the knight chooses which Goal the new one replaces.
        return max(self.score(self.tables, [g for g in self.goals if g != old] + [goal], hand) for old in self.goals)

    def play_value(self, card: str) -> float:
        """The score after playing ``card`` from hand (or from a pool drawn to use)."""
        got = self._played.get(card)
        if got is None:
            got = self._played[card] = self._play_value(card)
        return got

    def _play_value(self, card: str) -> float:
        hand = self.without(card)
        kind = TYPE[card]
        if kind in ("keeper", "creeper"):
            tables = [list(t) for t in self.tables]
            tables[self.me].append(card)
            value = self.score(tables, self.goals, hand)
            if kind == "keeper" and self.keeper_limit is not None and self._keepers(tables) > self.keeper_limit:
                value -= 1.0  # one will have to go at once
            return value
        if kind == "goal":
            return self.with_goal(card, hand)
        base = self.score(self.tables, self.goals, hand)
        if kind == "rule":
            return base + self._rule_worth(card)
        return base + self._action_worth(card, hand, base)

    def _creeper_moved(self, card: str, hand: tuple) -> float:
        """The score with ``card`` moved to the leader (or, the leader's own, to the next player)."""
        owner, to = self.owner(card), self.leader()
        if to is None or to == owner:
            to = next((s for s in self.seats if s != owner), None)
        return self.score(self.moved(card, to), self.goals, hand) if to is not None else self.now

    def _passed_on(self) -> list:
        """The tables after And Now for Something Completely Different: Keepers to the
        player before in turn order, Creepers to the one after."""
        seats = self.seats
        tables = [[] for _ in self.tables]
        for i, s in enumerate(seats):
            for c in self.tables[s]:
                tables[seats[i - 1] if TYPE[c] == "keeper" else seats[(i + 1) % len(seats)]].append(c)
        return tables

    def _keepers(self, tables) -> int:
        return sum(1 for c in tables[self.me] if TYPE[c] == "keeper")

    def _rule_worth(self, rule: str) -> float:
        e = EFFECT[rule]
        if e.get("slot") == "keeper_limit" and isinstance(e.get("value"), int):
            mine = self._keepers(self.tables)
            theirs = max((sum(1 for c in self.tables[s] if TYPE[c] == "keeper") for s in self.seats if s != self.me),
                         default=0)
            return 0.8 * (max(0, theirs - e["value"]) - max(0, mine - e["value"]))
        return 0.1

    def _action_worth(self, card: str, hand: tuple, base: float) -> float:
        op = EFFECT[card].get("op")
        if op == "trash":
            what = EFFECT[card].get("what", ["keeper"])
            options = [c for t in self.tables for c in t if TYPE[c] in what]
            return max((self.score(self.moved(c, None), self.goals, hand) - base for c in options), default=0.0)
        if op == "steal_keeper":
            options = [c for s in self.seats if s != self.me for c in self.tables[s] if TYPE[c] == "keeper"]
            return max((self.score(self.moved(c, self.me), self.goals, hand) - base for c in options), default=0.0)
        if op == "exchange_keepers":
            mine = [c for c in self.tables[self.me] if TYPE[c] == "keeper"]
            theirs = [(c, s) for s in self.seats if s != self.me for c in self.tables[s] if TYPE[c] == "keeper"]
            best = 0.0
            for m in mine:
                for c, s in theirs:
                    tables = self.moved(c, self.me)
                    tables[self.me].remove(m)
                    tables[s].append(m)
                    best = max(best, self.score(tables, self.goals, hand) - base)
            return best
        if op == "sweep_creepers":
            tables = [[c for c in t if TYPE[c] != "creeper"] for t in self.tables]
            return self.score(tables, self.goals, hand) - base
        if op == "move_creeper":
            mine = [c for c in self.tables[self.me] if TYPE[c] == "creeper"]
            to = self.leader()
            if not mine or to is None:
                return 0.0
            return max(self.score(self.moved(c, to), self.goals, hand) - base for c in mine)
        if op == "move_any_creeper":
            return max((self._creeper_moved(c, hand) - base for t in self.tables for c in t if TYPE[c] == "creeper"),
                       default=0.0)
        if op == "something_different":
            return self.score(self._passed_on(), self.goals, ()) - base + 1.0  # and a new hand of three
        if op == "trash_goal":
            return max((self.score(self.tables, [g for g in self.goals if g != old], hand) - base
                        for old in self.goals), default=0.0)
        if op == "trade_hands":
            others = [self.hand_counts[s] for s in self.seats if s != self.me]
            return 0.4 * (max(others, default=0) - len(hand))
        if op == "share_wealth":
            # Every Keeper in play is dealt out anew: good for whoever is behind.
            return -0.2 * (base - self.score([[] for _ in self.tables], self.goals, hand))
        if op == "draw":
            return ACTION_WORTH["draw"] * EFFECT[card].get("draw", 1)
        return ACTION_WORTH.get(op, 0.3)

    # --- decisions -------------------------------------------------------------------

    def resolving_op(self) -> str | None:
        for card in reversed(self.resolving):
            if TYPE.get(card) == "action":
                return EFFECT[card].get("op")
        return None

    def decision_value(self, decision: dict, choice) -> float:
        kind = decision["kind"]
        chosen = choice if isinstance(choice, list) else [choice]
        if kind == "judge":
            return 1.0 if choice == judge_verdict(decision["prompt"]) else 0.0
        if kind in ("discard", "give_card"):
            # Part with the cards worth least to play.
            return -sum(self.play_value(c) - self.now for c in chosen if c in self.hand)
        if kind == "discard_keepers":
            tables = [list(t) for t in self.tables]
            tables[self.me] = [c for c in tables[self.me] if c not in chosen]
            return self.score(tables, self.goals, self.hand)
        if kind == "replace_goal":
            new = self._new_goal()
            goals = [g for g in self.goals if g not in chosen] + ([new] if new else [])
            return self.score(self.tables, goals, self.hand)
        if kind == "keep_goal":
            return self.score(self.tables, list(chosen), self.hand)
        if kind == "use_card":
            return self.play_value(choice)
        if kind == "choose_player":
            return self._player_value(choice, decision)
        if kind == "choose_card":
            return self._card_choice_value(decision, choice)
        if kind == "choose_rules":
            return -len(chosen)  # keep the rules: nothing in them is weighed against us
        if kind == "discard_any":
            # Bring Out Your Dead!: the table and hand without the cards thrown away
            tables = [list(t) for t in self.tables]
            tables[self.me] = [c for c in tables[self.me] if c not in chosen]
            return self.score(tables, self.goals, tuple(c for c in self.hand if c not in chosen))
        return 0.0

    def _new_goal(self) -> str | None:
        return next((c for c in reversed(self.resolving) if TYPE.get(c) == "goal"), None)

    def _player_value(self, seat: int, decision: dict | None = None) -> float:
        op = self.resolving_op()
        if op in ("trade_hands", "use_what_you_take"):
            return self.hand_counts[seat]
        if op == "run_away":  # my Knights go to ``seat``: to whoever they help least
            knights = [c for c in self.tables[self.me] if "knight" in TAGS[c]]
            tables = [list(t) for t in self.tables]
            tables[self.me] = [c for c in tables[self.me] if c not in knights]
            tables[seat] += knights
            return self.score(tables, self.goals, self.hand)
        if op == "not_dead_yet" and decision is not None:
            card = _named_in(decision.get("prompt", ""))
            if card is not None:
                tables = [list(t) for t in self.tables]
                tables[seat].append(card)
                return self.score(tables, self.goals, self.hand)
        leader = self.leader()
        return 1.0 if seat == leader else 0.0

    def _card_choice_value(self, decision: dict, card: str) -> float:
        op = self.resolving_op()
        prompt = decision.get("prompt", "")
        if op == "steal_keeper":
            return self.score(self.moved(card, self.me), self.goals, self.hand)
        if op == "exchange_keepers":
            if card in self.tables[self.me]:
                tables = self.moved(card, None)  # given away: where it goes is the other choice
                return self.score(tables, self.goals, self.hand)
            return self.score(self.moved(card, self.me), self.goals, self.hand)
        if op == "trash_goal" or (TYPE.get(card) == "goal" and "Goal" in prompt):
            return self.score(self.tables, [g for g in self.goals if g != card], self.hand)
        if op in ("do_again", "revive_keeper"):
            return self.play_value(card)
        if op == "move_creeper":
            return 0.0
        if op == "move_any_creeper":  # the Creeper whose move helps most
            return self._creeper_moved(card, self.hand)
        owner = self.owner(card)
        if owner is not None:  # trash, trash something, zap: it leaves that table
            bonus = 0.5 if op == "zap" and TYPE[card] == "keeper" else 0.0
            return self.score(self.moved(card, None), self.goals, self.hand) + bonus
        if card in self.goals:
            return self.score(self.tables, [g for g in self.goals if g != card], self.hand)
        return 0.0


def _named_in(prompt: str) -> str | None:
    """The Keeper or Creeper I'm Not Dead Yet! asks about ("Put Grim Reaper in front of whom?")."""
    return next((c for c, n in NAME.items() if TYPE[c] in ("keeper", "creeper") and prompt == f"Put {n} in front of whom?"),
                None)


def _closeness(m: float) -> float:
    return GOAL_SCALE * GOAL_DECAY ** m


def knight(view: dict, legal: list[dict], rng: Rng) -> dict:
    if len(legal) == 1:
        return legal[0]
    table = _Table(view)
    mine = {d["id"]: d for d in view["decisions"] if d.get("mine")}
    scored = []
    for move in legal:
        scored.append((_move_value(table, mine, move), move))
    top = max(v for v, _ in scored)
    best = [m for v, m in scored if v >= top - 1e-9]
    return best[0] if len(best) == 1 else best[rng.below(len(best))]


def _move_value(table: _Table, mine: dict, move: dict) -> float:
    kind = move["type"]
    if kind == "decide":
        decision = mine.get(move["id"])
        return 0.0 if decision is None else table.decision_value(decision, move["choice"])
    if kind == "play":
        if move.get("quote"):  # a checked game's bonus card; never a bare name for judges (above)
            return table.play_value(move["card"]) + (-1.0 if table.judged_quotes else 0.5)
        return table.play_value(move["card"])
    if kind == "power":
        return _power_value(table, move)
    if kind == "end_turn":
        return table.now
    if kind == "swap_plays":
        return table.now - 0.5
    if kind == "get_on_with_it":
        return table.now - 1.0
    return -WIN  # sing / accent claims: a computer cannot sing, so it never claims


def _power_value(table: _Table, move: dict) -> float:
    keeper, target = move["card"], move["target"]
    effect = EFFECT[keeper]
    power = effect.get("power")
    hand = table.hand
    if power == "move_creeper":
        tables = table.moved(target, move["to"])
    elif power == "smite":
        tables = table.moved(target, None)
        if effect.get("returns_to_hand"):
            tables[table.me] = [c for c in tables[table.me] if c != keeper]
            hand = hand + (keeper,)
    elif power == "catapult":
        tables = table.moved(target, move["to"])
        if table.lands_first and len(table.meets(tables, table.goals, hand)) == 1:
            return table.score(tables, table.goals, hand)  # a win as it lands: nothing thrown away
        tables[move["to"]].remove(move["discard"])
    else:  # sacrifice, grenade: the Keeper goes too
        tables = [[c for c in t if c not in (keeper, target)] for t in table.tables]
    # A little under an even trade, so a power is used only when it truly helps.
    return table.score(tables, table.goals, hand) - 0.05


LEVELS = {"random": random_level, "knight": knight}
