"""MPHG CCG computer players (see games/rules/computer.py for how they are called).

Each level gets the seat's view and the legal moves, nothing else: its own hand, every
face-up card with its printed numbers (``view["cards"]``), counts of the rest.

The knight ("Knight") plays by priorities, the way a careful person would:

* Facing a foe, it works out its side's total for every lead and method it may use
  (printed value, the Round Table bonus, carried items, modifiers in play) against the
  foe's, and fights only when its numbers win (a battle of wits preferred at equal odds: a
  lost one slays nobody); when they lose it runs away, or plays a card that slays the foe.
  Castles: it parleys, assaults only when its numbers win, enters an open castle.
* Otherwise it strengthens its Round Table (knights, personas, pages, items, items lying
  in the area, invitations), climbs its England towards the top row and Avalon, avoiding
  areas whose visible foes would beat it, and searches for the Grail in Avalon.
* It lays adversaries and perils face down in the areas an opponent will walk into next,
  keeps three cards in hand (ending a turn with fewer draws from the deck, and an empty
  deck loses), and spends no card on a bare "draw a card".
* In response windows it passes, except to add a modifier to its own close dispute or
  search. It turns up others' face-down cards against them when it chooses, sends a
  runner back as far down as it may, and fills castles with the strongest occupant.
* Doubling the ante: it offers a double when ahead (further up its England, more members,
  deeper deck) and its deck can pay, and accepts one unless clearly behind or short of cards.
* Alone at the table it searches if it can and otherwise gives up the search (which wins).
"""
from __future__ import annotations

from ..computer import random_move
from ..rng import Rng
from . import layout
from .game import with_words

# Weights of the knight's sums (in "grail number" units where they are totals).
FIGHT_MARGIN = 1          # fight when its total beats the foe's by at least this
WITS_PREFERENCE = 0.5     # a lost battle of wits costs less than a lost combat
KEEP_IN_HAND = 3          # ending a turn with 2 or fewer cards draws from the deck
AHEAD_BY = 1.5            # how far ahead (progress units) before doubling the ante
BEHIND_BY = -3.0          # how far behind before conceding a double
STRENGTH_OPS = {"combat": "modify_combat", "wits": "modify_wits"}
RECRUITS = ("knight", "persona", "page", "item")
BLOCKERS = ("adversary", "peril")


def random_level(view: dict, legal: list[dict], rng: Rng) -> dict:
    return random_move(legal, rng)


def postable(state: dict, move: dict) -> dict:
    """The move as a person's client posts it: with the card's quote or the run-away shout."""
    return with_words(state, move)


class _Sight:
    """What the knight reads off its view."""

    def __init__(self, view: dict) -> None:
        self.v = view
        self.me = view["my_seat"]
        self.cards = view["cards"]
        self.size = view["england_size"]
        self.players = view["players"]
        self.mine = self.players[self.me]
        self.hand = {c["id"]: c["code"] for c in view["my_hand"] or []}
        self.codes: dict[int, str] = {}
        self.areas: dict[str, dict] = {}
        for p in self.players:
            for group in ("knights", "personas", "dead_cart", "attached"):
                for c in p[group]:
                    if c:
                        self.codes[c["id"]] = c["code"]
            for pg in p["pages"]:
                self.codes[pg["page"]["id"]] = pg["page"]["code"]
                for it in pg["items"]:
                    self.codes[it["id"]] = it["code"]
            for a in p["england"]:
                self._area(a)
        for a in view["avalon"]:
            self._area(a)
        self.codes.update(self.hand)
        for c in view.get("pending", {}).get("option_cards", []) if view.get("pending") else []:
            if c:
                self.codes[c["id"]] = c["code"]

    def _area(self, a: dict) -> None:
        self.areas[a["ref"]] = a
        for c in a["cards"] + a["attached"] + ([a["occupant"]] if a["occupant"] else []):
            if c:
                self.codes[c["id"]] = c["code"]

    def card(self, iid) -> dict:
        return self.cards.get(self.codes.get(iid), {})

    def ctype(self, iid) -> str:
        return self.card(iid).get("type", "")

    # --- position -----------------------------------------------------------------

    def progress(self, ref) -> float:
        """0 in the Round Table Area, 1-4 up the rows of England, 5 in Avalon."""
        if ref is None:
            return 0.0
        if layout.is_avalon(ref):
            return 5.0
        return 1.0 + layout.geometry(self.size)["row_of"][layout.parse(ref)[1]]

    def strength(self, seat: int) -> float:
        p = self.players[seat]
        if p["out"]:
            return -99.0
        members = len(p["knights"]) + len(p["personas"])
        return self.progress(p["position"]) + 0.7 * members + 0.1 * p["deck_count"]

    def lead_ahead(self) -> float:
        others = [self.strength(s) for s, p in enumerate(self.players) if s != self.me and not p["out"]]
        return self.strength(self.me) - max(others, default=0.0)

    # --- numbers of a dispute ------------------------------------------------------

    def _mods(self, stat: str):
        return [m for m in self.v["modifiers"] if m.get("stat") == stat and m.get("active", True)]

    def side_total(self, iid, stat: str) -> float:
        c = self.card(iid)
        total = (c.get(stat) or 0) + _own_bonus(c, stat)
        for m in self._mods(stat):
            if m.get("card") is not None:
                total += m["amt"] if m["card"] == iid else 0
            elif m.get("area") is None and m.get("seat") == self.me:
                total += m["amt"]
        op = STRENGTH_OPS[stat]
        rep = self.card(self.mine["representative"]) if self.mine["representative"] is not None else {}
        for e in rep.get("round_table_bonus") or []:
            if e["op"] == op and e.get("target", "self") in ("self", "lead_knight") and e.get("who", "self") == "self":
                total += e["amount"]
        for pg in self.mine["pages"]:
            for it in pg["items"]:
                for e in self.card(it["id"]).get("primary") or []:
                    if e["op"] == op and e.get("duration") == "permanent" and e.get("who", "self") == "self" \
                            and e.get("target", "self") in ("self", "lead_knight", "own_knight"):
                        total += e["amount"]
        return total + self.grail_bonus()

    def grail_bonus(self) -> float:
        total = sum(m["amt"] for m in self._mods("grail") if m.get("seat") == self.me)
        rep = self.card(self.mine["representative"]) if self.mine["representative"] is not None else {}
        for e in rep.get("round_table_bonus") or []:
            if e["op"] == "modify_grail_number" and e.get("who", "self") == "self":
                total += e["amount"]
        return total

    def foe_total(self, foe, stat: str, area_ref) -> float:
        c = self.card(foe)
        if c.get("type") == "page":
            side = c.get("secondary_adversary") or {}
            base = side.get(stat) or 0
        else:
            base = c.get(stat) or 0
        total = base + _own_bonus(c, stat)
        for m in self._mods(stat):
            if m.get("card") is not None:
                total += m["amt"] if m["card"] == foe else 0
            elif m.get("area") is not None and m["area"] == area_ref:
                total += m["amt"]
        return total

    def margin(self, move: dict) -> float:
        """How far the knight's total beats the foe's in a ``fight`` move (grail numbers aside)."""
        stat, foe = move["method"], move["foe"]
        mine = self.side_total(move["lead"], stat)
        if stat == "combat" and self.ctype(foe) == "peril":
            mine += len(self.mine["knights"]) - 1  # the other knights assist (7.3)
        return mine - self.foe_total(foe, stat, self.mine["position"])

    def area_danger(self, ref) -> float:
        """A rough cost of walking into ``ref``: visible foes that would win, unknown cards."""
        a = self.areas.get(ref)
        if a is None:
            return 0.0
        danger = 0.6 * a["face_down"]
        best_lead = self._best_stats()
        for c in a["cards"]:
            iid = c["id"]
            if self.ctype(iid) in BLOCKERS or iid in a["hostile"] or (
                    self.ctype(iid) == "page" and layout.parse(ref)[0] == self.me):
                if iid in [e[0] for e in a["outwitted"] if e[1] == self.me]:
                    continue
                best = max(best_lead.get(s, -99) - self.foe_total(iid, s, ref)
                           for s in ("combat", "wits") if self.card(iid).get(s) is not None) \
                    if any(self.card(iid).get(s) is not None for s in ("combat", "wits")) else 0
                danger += 1.0 if best >= FIGHT_MARGIN else 4.0
        return danger

    def _best_stats(self) -> dict:
        out: dict = {}
        for c in self.mine["knights"] + self.mine["personas"]:
            for stat in ("combat", "wits"):
                if self.card(c["id"]).get(stat) is not None:
                    out[stat] = max(out.get(stat, -99), self.side_total(c["id"], stat))
        return out


def _own_bonus(c: dict, stat: str) -> float:
    if c.get("type") not in ("knight", "persona", "adversary", "peril"):
        return 0
    op = STRENGTH_OPS[stat]
    return sum(e["amount"] for e in c.get("primary") or [] if e["op"] == op
               and e.get("target") in ("self", "lead_knight", "own_knight") and e.get("duration") == "permanent")


def _effects(card: dict, use: str) -> list[dict]:
    return card.get(use) or []


def knight(view: dict, legal: list[dict], rng: Rng) -> dict:
    if len(legal) == 1:
        return legal[0]
    sight = _Sight(view)
    by_type: dict[str, list[dict]] = {}
    for m in legal:
        by_type.setdefault(m["type"], []).append(m)
    pend = view.get("pending") or {}
    kind = pend.get("kind")
    if "cut" in by_type:
        moves = by_type["cut"]
        return moves[len(moves) // 2]
    if "concede" in by_type and _stakes_nothing(sight):
        return by_type["concede"][0]  # the rules offer no accepting either; the policy says so too
    if "accept" in by_type:
        return _answer_double(sight, by_type)
    if "discard" in by_type:  # balancing a hand, or a card that makes it discard
        return min(by_type["discard"], key=lambda m: (_keep_value(sight, m["card"]), m["card"]))
    if kind == "choice":
        return _choice(sight, pend, legal, by_type)
    if kind == "response" and "pass" in by_type:
        return _respond(sight, pend, by_type)
    if view["turn"] != sight.me:
        return by_type["pass"][0] if "pass" in by_type else legal[0] if len(by_type) == 1 else _quiet(by_type, legal)
    return _turn(sight, by_type, legal, rng)


def _quiet(by_type: dict, legal: list[dict]) -> dict:
    """Out of turn with no step waiting: the knight keeps its cards (a face-up play now
    would only help in a dispute, and it answers those in the window)."""
    return legal[0]


def _answer_double(sight: _Sight, by_type: dict) -> dict:
    """Conceding loses at once, so the knight accepts whenever its deck can pay, unless it
    is clearly behind and paying would leave it the shorter deck (an empty deck loses)."""
    def left_after_paying(seat: int) -> int:
        stake = sum(1 for a in sight.v["ante"] if a["owner"] == seat)
        return sight.players[seat]["deck_count"] - stake

    mine = left_after_paying(sight.me)
    theirs = max((left_after_paying(s) for s, p in enumerate(sight.players) if s != sight.me and not p["out"]),
                 default=0)
    if mine <= 0 or (sight.lead_ahead() < BEHIND_BY and mine < theirs):
        return by_type["concede"][0]
    return by_type["accept"][0]


def _choice(sight: _Sight, pend: dict, legal: list[dict], by_type: dict) -> dict:
    what = pend.get("what")
    moves = by_type.get("choose", legal)
    if what in ("reveal", "reveal_place"):
        mover = sight.v["turn"]
        if mover == sight.me:
            ignore = [m for m in moves if m["option"] == "ignore"]
            return ignore[0] if ignore else moves[0]
        applied = [m for m in moves if isinstance(m["option"], str) and m["option"].startswith("apply")]
        if not applied:
            return moves[0]
        # Aimed at a knight: the strongest one the mover has.
        return max(applied, key=lambda m: _knight_weight(sight, m["option"]))
    if what == "run_away":
        runner = sight.v["turn"]
        if runner == sight.me:
            return max(moves, key=lambda m: (sight.progress(m["option"]), -sight.area_danger(m["option"])))
        return min(moves, key=lambda m: sight.progress(m["option"]))
    if what == "occupant":
        return max(moves, key=lambda m: (-1 if m["option"] is None else
                                          (sight.card(m["option"]).get("combat") or 0)
                                          + (sight.card(m["option"]).get("wits") or 0)))
    return moves[0]


def _knight_weight(sight: _Sight, option: str) -> float:
    _, _, iid = option.partition(":")
    if not iid.isdigit():
        return 0.0
    c = sight.card(int(iid))
    return (c.get("combat") or 0) + (c.get("wits") or 0)


def _keep_value(sight: _Sight, iid) -> float:
    """How much the knight wants to keep a hand card (it discards the lowest)."""
    c = sight.card(iid)
    t = c.get("type")
    if t in ("knight", "persona"):
        return 6 + (c.get("combat") or 0) / 2
    if t in ("page", "item"):
        return 5
    if any(e["op"] in ("slay", "modify_combat", "modify_wits", "search_bonus") for e in _effects(c, "primary")):
        return 4
    if t in BLOCKERS:
        return 3
    return 1 + (c.get("grail") or 0) / 10


# --- response windows ----------------------------------------------------------------

def _respond(sight: _Sight, pend: dict, by_type: dict) -> dict:
    passing = by_type["pass"][0]
    if pend.get("for") != sight.me:
        return passing
    before = pend.get("before")
    boosts = []
    for m in by_type.get("play", []):
        if m.get("to") is not None or m.get("face"):
            continue
        effects = _effects(sight.card(m["card"]), m.get("use", "primary"))
        ops = {e["op"] for e in effects}
        if before == "search" and "search_bonus" in ops:
            boosts.append(m)
        elif before in ("dispute", "assault", "castle") and (
                "slay" in ops or any(e["op"] in STRENGTH_OPS.values() and e.get("target") in ("lead_knight", "own_knight")
                                     and e.get("amount", 0) > 0 for e in effects)):
            boosts.append(m)
    # One boost a window: more would empty the hand for a single number.
    played_here = sight.v["in_play"]
    if boosts and not played_here:
        return boosts[0]
    return passing


# --- the knight's own turn -----------------------------------------------------------

def _turn(sight: _Sight, by_type: dict, legal: list[dict], rng: Rng) -> dict:
    if sight.v["solo"] == sight.me:
        if "search" in by_type:
            return by_type["search"][0]
        if "give_up" in by_type:
            return by_type["give_up"][0]  # alone, giving up the search wins the game (15.3)
    fights = by_type.get("fight", [])
    runs = by_type.get("run_away", [])
    if fights or runs:
        choice = _face_foe(sight, fights, runs, by_type, rng)
        if choice is not None:
            return choice
    if "search" in by_type:
        return by_type["search"][0]
    castle = _castle(sight, by_type)
    if castle is not None:
        return castle
    for key in ("take_item",):
        if key in by_type:
            return by_type[key][0]
    recruit = _recruit(sight, by_type.get("play", []))
    if recruit is not None:
        return recruit
    if "invite" in by_type:
        return max(by_type["invite"], key=lambda m: sight.card(m["card"]).get("combat") or 0)
    if "represent" in by_type:
        rep = _better_representative(sight, by_type["represent"])
        if rep is not None:
            return rep
    move = _walk(sight, by_type.get("move", []))
    if move is not None:
        return move
    block = _block(sight, by_type.get("play", []))
    if block is not None:
        return block
    ends = by_type.get("end_turn")
    if ends:
        return _end(sight, ends)
    if fights:
        return max(fights, key=lambda m: sight.margin(m))
    if "give_up" in by_type:
        return by_type["give_up"][0]
    return legal[rng.below(len(legal))]


def _face_foe(sight: _Sight, fights: list[dict], runs: list[dict], by_type: dict, rng: Rng) -> dict | None:
    best = None
    if fights:
        best = max(fights, key=lambda m: (sight.margin(m) + (WITS_PREFERENCE if m["method"] == "wits" else 0),
                                          -m["lead"]))
        if sight.margin(best) >= FIGHT_MARGIN:
            return best
    slay = [m for m in by_type.get("play", []) if m.get("to") is None and not m.get("face")
            and any(e["op"] == "slay" and e.get("target") in ("adversary", None)
                    for e in _effects(sight.card(m["card"]), m.get("use", "primary")))]
    if slay and fights:
        return slay[0]
    # Running away is unlimited (7.6): two foes could send a stateless runner back and forth
    # for ever. So it does not run back from where it came if a foe there beat it too, and
    # otherwise runs three times in four (a run that repeats ends with certainty).
    came_from = sight.mine["came_from"]
    trapped = came_from != sight.mine["position"] and sight.area_danger(came_from) >= 4.0
    if runs and not trapped and rng.below(4) != 0:
        return max(runs, key=lambda m: _run_worth(sight, m.get("to"))) if len(runs) > 1 else runs[0]
    if best is not None and (sight.margin(best) >= 0 or "end_turn" not in by_type or runs):
        return best
    return None


def _run_worth(sight: _Sight, ref) -> float:
    """Where a runner who chooses would go: up, unsearched, away from foes."""
    searched = bool((sight.areas.get(ref) or {}).get("searched"))
    return sight.progress(ref) - 2.0 * searched - 0.5 * sight.area_danger(ref)


def _castle(sight: _Sight, by_type: dict) -> dict | None:
    if "enter_castle" in by_type:
        return by_type["enter_castle"][0]
    if "parley" in by_type:
        return max(by_type["parley"], key=lambda m: sight.side_total(m["lead"], "wits"))
    if "assault" in by_type:
        ref = sight.mine["position"]
        area = sight.areas.get(ref) or {}
        occ = (area.get("occupant") or {}).get("id")
        castle = next((c["id"] for c in area.get("cards", []) if sight.ctype(c["id"]) == "castle"), None)
        defence = (sight.card(castle).get("castle_defense") or 0) if castle is not None else 0
        theirs = (sight.card(occ).get("combat") or 0) + defence if occ is not None else 0
        best = max(by_type["assault"], key=lambda m: sight.side_total(m["lead"], "combat"))
        mine = sight.side_total(best["lead"], "combat") + len(sight.mine["knights"]) - 1
        if mine - theirs >= FIGHT_MARGIN:
            return best
    return None


def _recruit(sight: _Sight, plays: list[dict]) -> dict | None:
    """A knight, persona, page or item joining the Round Table (strongest first)."""
    joins = [m for m in plays if m.get("to") == "rt" and m.get("use") == "primary"
             and sight.ctype(m["card"]) in RECRUITS]
    if not joins:
        return None
    order = {"page": 0, "knight": 1, "persona": 2, "item": 3}  # a page first makes room for knights
    return min(joins, key=lambda m: (order[sight.ctype(m["card"])], -(sight.card(m["card"]).get("combat") or 0),
                                     m["card"], m.get("page") or 0))


def _better_representative(sight: _Sight, moves: list[dict]) -> dict | None:
    def worth(iid) -> float:
        bonus = sight.card(iid).get("round_table_bonus") or []
        return sum(e.get("amount", 0) for e in bonus if e["op"] == "modify_grail_number")
    current = sight.mine["representative"]
    best = max(moves, key=lambda m: worth(m["card"]))
    return best if current is None or worth(best["card"]) > worth(current) else None


def _walk(sight: _Sight, moves: list[dict]) -> dict | None:
    if not moves:
        return None
    here = sight.mine["position"]

    def worth(ref) -> float:
        value = 10 * sight.progress(ref) - 3 * sight.area_danger(ref)
        if layout.is_avalon(ref) and (sight.areas.get(ref) or {}).get("searched"):
            value -= 8  # a searched Avalon area holds no Grail
        return value

    best = max(moves, key=lambda m: (worth(m["to"]), str(m["to"])))
    return best if worth(best["to"]) > worth(here) else None


def _block(sight: _Sight, plays: list[dict]) -> dict | None:
    """An adversary or peril laid face down where an opponent is about to walk."""
    if len(sight.hand) <= KEEP_IN_HAND:
        return None
    targets = set()
    for s, p in enumerate(sight.players):
        if s == sight.me or p["out"]:
            continue
        for ref in layout.neighbours(sight.size, p["position"], s) if not layout.is_avalon(p["position"]) else []:
            if ref is not None and sight.progress(ref) > sight.progress(p["position"]):
                targets.add(ref)
    options = [m for m in plays if m.get("face") == "down" and m.get("to") in targets
               and sight.ctype(m["card"]) in BLOCKERS]
    if not options:
        return None
    return max(options, key=lambda m: ((sight.card(m["card"]).get("combat") or 0)
                                      + (sight.card(m["card"]).get("wits") or 0), -m["card"], m["to"]))


def _stakes_nothing(sight: _Sight) -> bool:
    """A seat the computer took over from a person who left: the person's cards are theirs
    to risk, so it never doubles nor accepts a double (the rules do not offer it either)."""
    return bool(sight.v["players"][sight.me].get("stakes_nothing"))


def _end(sight: _Sight, ends: list[dict]) -> dict:
    double = [m for m in ends if m.get("double")]
    if double and not _stakes_nothing(sight):
        stake = sum(1 for a in sight.v["ante"] if a["owner"] == sight.me)
        if sight.lead_ahead() >= AHEAD_BY and sight.mine["deck_count"] >= 2 * stake + 8:
            return double[0]
    return next(m for m in ends if not m.get("double"))


LEVELS = {"random": random_level, "knight": knight}
