"""Camelot computer players (see games/rules/computer.py for how they are called).

Camelot hides nothing, but the levels still get only the seat's view and the legal moves;
the board is public and loaded by the name the view gives (distances, sight, terrain).

The knight ("Knight"), on each of its turns:

* declares an attack only on a target its units can kill from where they stand (strike
  values within reach and sight above the target's shields: a failed attack costs a unit),
  the enemy carrying Excalibur (or any item) first, then enemies beside its own carrier --
  but it leaves a carrier of Excalibur far from its home in the middle of the board alone
  (see ``_Field.contested``: when every knight killed it there, the sword changed hands
  where it lay until the turn limit);
* moves its carrier home, its Arthurs to a loose Excalibur (or towards the enemy who holds
  it), its other units beside its carrier as escorts or towards the fight for the sword,
  and brings pieces on when it has moves to spare; units that will strike stay put; the
  carrier steps home before any strike (a strike ends the turn's movement), and an attack
  is planned with the moves its step leaves; it steps only where no more players could
  kill it than where it stands (``_Field.killers``), else it waits;
* strikes a declared target until the strikes made are enough to kill it, plain strikes
  before the once-a-game spells; then ends the turn;
* lends units to an ally's attack only on a carrier, lets others disengage unless they
  carry something, revives its own units when asked, never pauses the table.
"""
from __future__ import annotations

from functools import lru_cache

from ..computer import random_move
from ..rng import Rng
from .board import load
from .pieces import MODES, MOVE, SHIELDS, can_carry
from .sight import can_reach

TYPE_WORTH = {"arthur": 5, "galahad": 4, "lancelot": 7, "merlin": 6, "morgan": 6}
SPELL_COST = 3      # a once-a-game spell is kept for when plain strikes fall short
HOME = 100.0
NEAR_HOME = 3       # an enemy carrier this near its Entry hex is about to win: everyone goes for it
RISK = 3.0          # a step home is not worth one more player able to kill the carrier


def random_level(view: dict, legal: list[dict], rng: Rng) -> dict:
    calm = [m for m in legal if m["type"] != "pause"] or legal  # a pause needs a question only people ask
    return random_move(calm, rng)


@lru_cache(maxsize=4)
def _walks(board_name: str) -> dict:
    """Walking distance between enterable hexes (rocks and water go round)."""
    board = load(board_name)
    keys = sorted(board.enterable)
    out = {}
    for a in keys:
        for b in keys:
            d = board.grid.walk_distance(board.hexes[a], board.hexes[b])
            out[a, b] = 99 if d is None else d
    return out


class _Field:
    def __init__(self, view: dict, legal: list[dict] | None = None) -> None:
        self.legal = legal or []
        self.v = view
        self.me = view["me"]
        self.board = load(view["board"], view.get("edition", 1))
        self.walk = _walks(self.board.name)
        self.units = view["units"]
        self.turn = view["turns"].get(str(self.me)) or {}
        self.home = view["players"][self.me]["entry"]
        self.frozen = set(view["frozen"])
        self.spells = view["players"][self.me]["spells"]
        self.mine = {u: x for u, x in self.units.items() if x["seat"] == self.me and not x["guardian"]}
        self.enemies = {u: x for u, x in self.units.items() if x["guardian"] or x["seat"] != self.me}
        self.my_carriers = [x["hex"] for x in self.mine.values() if x["carry"]]
        self.sword = self.excalibur_at() or next(
            (x["hex"] for x in self.units.values() if x["carry"] == "excalibur"), None)
        self.declared = [t for t in self.turn.get("declared", []) if t in self.units]
        self._uncovered: list[str] | None = None
        self._cache: dict = {}
        self.walker = self._carrier_walking()

    def _carrier_walking(self) -> str | None:
        """Our carrier, when it will step this turn (its step comes first: a strike ends the
        turn's movement, and an attack planned with both moves left it standing). It steps
        home, or aside, where no more players could kill it than where it stands (one step
        home is not worth one more: ``RISK``); it stays when every step is worse."""
        steps: dict[str, list[str]] = {}
        for m in self.legal:
            if m["type"] == "move" and m["unit"] in self.mine and self.units[m["unit"]]["carry"]:
                steps.setdefault(m["unit"], []).append(m["to"])
        # Excalibur's carrier first, then the variations' items and gold.
        self.staying: set[str] = set()
        for uid in sorted(steps, key=lambda u: (self.units[u]["carry"] != "excalibur", u)):
            unit = self.units[uid]
            shields = SHIELDS[unit["type"]]
            stay = -RISK * self.killers(unit["hex"], shields)
            best = {}
            for to in steps[uid]:
                gain = self.d(unit["hex"], self.home) - self.d(to, self.home)
                if gain < 0:
                    continue
                score = (HOME if to == self.home else gain) - RISK * self.killers(to, shields, {unit["hex"]: to})
                if score > stay:
                    best[to] = score
            if best:
                self.carrier_steps = best
                return uid
            self.staying.add(uid)
        self.carrier_steps = {}
        return None

    # --- the carrier's danger ----------------------------------------------------------

    def killers(self, where: str, shields: int = 1, moved: dict | None = None) -> int:
        """How many other players could kill a unit of ``shields`` standing on ``where`` in
        their next turn, as the board stands (``moved``: own units' hexes changed by the move
        being weighed, old hex -> new). Each player adds the strikes of its units in reach
        now and the best two of those one walk brings into reach (a turn moves two pieces;
        pieces still to enter are not counted): a melee unit needs a free hex beside
        ``where``, so units standing there block it. Sight is judged from where units stand."""
        moved = moved or {}
        taken = {x["hex"] for x in self.units.values()}
        taken.difference_update(moved)
        taken.update(moved.values())
        free = {n for n in self.board.steps[where] if n not in taken}
        return self._count(self._threats(where), free, shields)

    def _threats(self, where: str) -> dict:
        """Per other player: [strikes in reach of ``where`` now, [(the ranged strike one walk
        brings into reach, the melee strike, the hexes beside ``where`` it could walk to)]]."""
        key = ("threats", where)
        if key in self._cache:
            return self._cache[key]
        dist = self.board.dist[where]
        out: dict[int, list] = {}
        for x in self.enemies.values():
            seat = x["seat"]
            if seat is None or dist[x["hex"]] > 4:
                continue
            spells = self.v["players"][seat]["spells"]
            steps = 1 if x["carry"] else MOVE[x["type"]]
            now = ranged = melee = 0
            posts: tuple = ()
            for mode, (value, reach, sight, spell) in MODES[x["type"]].items():
                if mode == "sweep" or (spell and not spells.get(spell)):
                    continue
                if can_reach(self.board, x["hex"], where, reach, sight):
                    now = max(now, value)
                elif reach == 1:
                    posts = tuple(n for n in self.board.steps[where] if self.d(x["hex"], n) <= steps)
                    if posts:
                        melee = max(melee, value)
                elif dist[x["hex"]] <= reach + steps:
                    ranged = max(ranged, value)
            entry = out.setdefault(seat, [0, []])
            if now:
                entry[0] += now
            elif ranged or melee:
                entry[1].append((ranged, melee, posts))
        self._cache[key] = out
        return out

    @staticmethod
    def _count(threats: dict, free: set, shields: int) -> int:
        count = 0
        for ready, later in threats.values():
            coming = sorted((max(r, m if any(p in free for p in posts) else 0) for r, m, posts in later), reverse=True)
            if ready + sum(coming[:2]) > shields:
                count += 1
        return count

    def d(self, a: str | None, b: str | None) -> int:
        if a is None or b is None:
            return 99
        return 0 if a == b else self.walk.get((a, b), self.board.distance(a, b) + 2)

    # --- targets -----------------------------------------------------------------

    def excalibur_at(self) -> str | None:
        return next((h for h, things in self.v["items"].items() if "excalibur" in things), None)

    def goal_for(self, unit: dict) -> str | None:
        """Where an empty-handed unit should head: a thing it may carry, else the sword's fight."""
        best, best_d = None, 99
        for h, things in self.v["items"].items():
            if any(can_carry(unit["type"], t) for t in things):
                dist = self.d(unit["hex"], h) - (3 if "excalibur" in things else 0)
                if dist < best_d:
                    best, best_d = h, dist
        if best is not None:
            return best
        carrier = next((x["hex"] for x in self.enemies.values() if x["carry"] == "excalibur" and self.contested(x)), None)
        if carrier is None and unit["type"] != "arthur" and not self.my_carriers:
            return self.sword  # the fight is where the sword is: pieces that cannot carry it go there too
        return carrier

    def contested(self, x: dict) -> bool:
        """Whether the knight goes for an enemy unit carrying Excalibur: when it is about to
        win (within ``NEAR_HOME`` of its Entry hex), when it stands nearer our Entry hex than
        its own (the sword would drop on our side), or when our units hold it fast (engaged
        units cannot step away: left alone, both would stand until the turn limit). A carrier
        far from home in the middle of the board is left to walk: when every knight killed it
        there, the sword changed hands where it lay until the turn limit (docs/rules/camelot.md,
        "How long games last")."""
        if x["seat"] is None:
            return False
        theirs = self.d(x["hex"], self.v["players"][x["seat"]]["entry"])
        if theirs <= NEAR_HOME or self.d(x["hex"], self.home) < theirs:
            return True
        return any(self.board.distance(x["hex"], y["hex"]) == 1 for y in self.mine.values())

    def priority(self, uid: str) -> float:
        target = self.units[uid]
        worth = TYPE_WORTH[target["type"]]
        if target["carry"] == "excalibur":
            worth += 50
        elif target["carry"]:
            worth += 20
        near = min((self.board.distance(target["hex"], h) for h in self.my_carriers), default=9)
        if near == 1:
            worth += 30   # it holds our carrier fast (engaged units may not step away)
        elif near == 2:
            worth += 15
        if target["guardian"]:
            worth -= 3
        return worth

    def strike_options(self, uid: str, target: str) -> list[tuple[int, bool]]:
        """(value, spends a spell) of each way ``uid`` can strike ``target`` now."""
        unit, tgt = self.units[uid], self.units[target]
        out = []
        for mode, (value, reach, sight, spell) in MODES[unit["type"]].items():
            if mode == "sweep":
                continue
            if spell and (unit["guardian"] or not self.spells.get(spell)):
                continue
            if mode == "fireball" and tgt["type"] == "merlin":
                continue
            if can_reach(self.board, unit["hex"], tgt["hex"], reach, sight):
                out.append((value, bool(spell)))
        return out

    def strikers(self) -> list[str]:
        struck = {s["unit"] for s in self.turn.get("strikes", [])}
        return [u for u in self.mine if u not in self.frozen and u not in struck and u != self.walker]

    def killable(self, target: str) -> bool:
        total = 0
        for uid in self.strikers():
            options = self.strike_options(uid, target)
            if options:
                total += max(v for v, _ in options)
        return total > SHIELDS[self.units[target]["type"]]

    def killable_after_moving(self, target: str) -> bool:
        """Strikes of units in reach now, plus the best of those one legal walk or entry (not
        a teleport) puts in reach, as many as the turn's moves, beat the target's shields."""
        tgt = self.units[target]
        ready, best_by_mover = 0, {}
        strikers = set(self.strikers())
        for uid in strikers:
            now = max((v for v, _ in self.strike_options(uid, target)), default=0)
            if now:
                ready += now
                best_by_mover[uid] = None  # strikes where it stands
        for m in self.legal:
            if m["type"] not in ("move", "enter") or m.get("teleport"):
                continue
            who = m.get("unit") or ("pool", m["piece"])
            if who in best_by_mover and best_by_mover[who] is None:
                continue
            kind = self.units[m["unit"]]["type"] if m["type"] == "move" else m["piece"]
            if m["type"] == "move" and (m["unit"] not in strikers or self.units[m["unit"]]["guardian"]):
                continue
            value = _strike_from(self.board, kind, m["to"], tgt, self.spells)
            if value > (best_by_mover.get(who) or 0):
                best_by_mover[who] = value
        coming = sorted((v for v in best_by_mover.values() if v), reverse=True)
        return ready + sum(coming[:self.turn.get("moves_left", 2) - (1 if self.walker else 0)]) > SHIELDS[tgt["type"]]

    def uncovered(self) -> list[str]:
        """Declared targets the strikes made and the units already in reach do not yet kill."""
        if self._uncovered is None:
            out = []
            for t in self.declared:
                have = self.struck_on(t) + sum(max((v for v, _ in self.strike_options(u, t)), default=0)
                                               for u in self.strikers())
                if have <= SHIELDS[self.units[t]["type"]]:
                    out.append(t)
            self._uncovered = out
        return self._uncovered

    def reaches_from(self, kind: str, where: str, guardian: bool = False) -> bool:
        """A ``kind`` standing on ``where`` could strike an uncovered declared target."""
        for t in self.uncovered():
            tgt = self.units[t]
            for mode, (value, reach, sight, spell) in MODES[kind].items():
                if mode == "sweep" or (spell and (guardian or not self.spells.get(spell))):
                    continue
                if mode == "fireball" and tgt["type"] == "merlin":
                    continue
                if can_reach(self.board, where, tgt["hex"], reach, sight):
                    return True
        return False

    def struck_on(self, target: str) -> int:
        return sum(s.get("value", 0) for s in self.turn.get("strikes", []) if s.get("target") == target)

    def attackers(self) -> set:
        """Own units that can reach a target this turn declared (they stay to strike)."""
        out = set()
        for target in self.turn.get("declared", []):
            if target in self.units:
                out.update(u for u in self.strikers() if self.strike_options(u, target))
        return out

    # --- moves --------------------------------------------------------------------

    def step_value(self, unit: dict, here: str | None, to: str) -> float:
        if unit["carry"]:
            if to == self.home:
                return HOME
            return 10.0 * (self.d(here, self.home) - self.d(to, self.home))
        return self._walk_value(unit, here, to) + self._out_of_the_way(here) - self._in_the_way(to)

    def _in_the_way(self, to: str) -> float:
        """Standing on the home hex, or on a shortest way home of an own carrier, blocks it."""
        if to == self.home:
            return 30.0
        for h in self.my_carriers:
            if self.d(h, to) + self.d(to, self.home) == self.d(h, self.home):
                return 8.0
        return 0.0

    def _loiter(self, unit: dict, to: str) -> float:
        """Standing next to the own Entry hex blocks the pieces still to come in."""
        if unit["carry"] or self.home is None:
            return 0.0
        return 3.0 if self.board.distance(to, self.home) == 1 else 0.0

    def _out_of_the_way(self, here: str | None) -> float:
        return self._in_the_way(here) if here is not None else 0.0

    def _walk_value(self, unit: dict, here: str | None, to: str) -> float:
        gain = 0.0
        goal = self.goal_for(unit)
        if goal is not None and (unit["type"] == "arthur" or not self.my_carriers):
            lands = goal == to and any(can_carry(unit["type"], t) for t in self.v["items"].get(to, []))
            gain = (40.0 if lands else 0.0) + 4.0 * (self.d(here, goal) - self.d(to, goal))
            if unit["type"] != "arthur" and self.d(to, goal) < 2 and not lands:
                gain -= 3  # escorts close in, they need not stand on it
        elif self.my_carriers:
            near = min(self.my_carriers, key=lambda h: self.d(here, h))
            gain = 2.0 * (min(self.d(here, near), 6) - min(self.d(to, near), 6))
            if self.d(to, near) == 0:
                gain -= 5
        return gain

    def value(self, move: dict) -> float:
        kind = move["type"]
        if kind == "move":
            unit = self.units[move["unit"]]
            if unit["guardian"] or move.get("teleport"):
                return -1.0
            if move["unit"] in self.attackers() and not unit["carry"]:
                return -5.0
            if move["unit"] in self.staying:
                return -2.0  # every step is back, or where more players could kill it
            if move["unit"] == self.walker:
                if move["to"] not in self.carrier_steps:
                    return -2.0
                # After the declaration (a first move ends it: attacks worth making come
                # first), before any strike.
                base = 15.0 if self.turn.get("stage") == "declare" else 30.0
                return base + self.carrier_steps[move["to"]]
            if not unit["carry"] and self.uncovered() and self.reaches_from(unit["type"], move["to"]):
                return 25.0  # into reach of a declared target that still needs the blow
            return self.step_value(unit, unit["hex"], move["to"]) - self._loiter(unit, move["to"])
        if kind == "enter":
            if move.get("teleport"):
                return -1.0
            unit = {"type": move["piece"], "carry": None, "hex": None}
            if self.uncovered() and self.reaches_from(move["piece"], move["to"]):
                return 24.0
            base = {"arthur": 6.0, "lancelot": 4.0, "galahad": 3.5, "morgan": 3.0, "merlin": 3.0}[move["piece"]]
            goal = self.goal_for(unit) if move["piece"] == "arthur" or not self.my_carriers else (
                self.my_carriers[0] if self.my_carriers else None)
            base -= self._in_the_way(move["to"])
            # Nearer the goal is better, but every piece counts the same distance, so the
            # order of entry (Arthurs first) does not depend on the board's size.
            return base - 0.1 * min(self.d(move["to"], goal), 20) if goal else base - 2.0
        if kind == "strike":
            return self._strike_value(move)
        if kind == "declare":
            targets = move["targets"]
            if len(targets) != 1 or self.turn.get("declared"):
                return -10.0
            t = self.units[targets[0]]
            if t["carry"] == "excalibur" and not self.contested(t):
                return -10.0
            if self.killable(targets[0]):
                return 22.0 + self.priority(targets[0])
            # Not in reach now, but enough could walk (or enter) into reach this turn, by the
            # moves it would make itself (it keeps Merlin's Teleport, which the engine's
            # preview, view["attack"], counts: a plan built on that would fail and cost a unit).
            if self.killable_after_moving(targets[0]):
                return 18.0 + self.priority(targets[0])
            return -10.0
        if kind == "end_turn":
            return 0.5
        return -10.0  # drop, asks for help, pause: not part of the knight's plan

    def _strike_value(self, move: dict) -> float:
        if move["mode"] == "sweep":
            declared = [t for t in self.turn.get("declared", []) if t in self.units]
            need = [t for t in declared if self.struck_on(t) <= SHIELDS[self.units[t]["type"]]
                    and self.board.distance(self.units[t]["hex"], self.units[move["unit"]]["hex"]) == 1]
            return 12.0 + 2 * len(need) if need else -1.0
        target = move["target"]
        need = SHIELDS[self.units[target]["type"]] + 1 - self.struck_on(target)
        if need <= 0:
            return -1.0  # already enough to kill it
        spec = MODES[self.units[move["unit"]]["type"]][move["mode"]]
        value, spell = spec[0], spec[3]
        return 12.0 + min(value, need) + 0.1 * self.priority(target) - (SPELL_COST if spell else 0)


def _strike_from(board, kind: str, where: str, tgt: dict, spells: dict) -> int:
    """The best strike a ``kind`` of this player's on ``where`` could make at ``tgt``."""
    best = 0
    for mode, (value, reach, sight, spell) in MODES[kind].items():
        if mode == "sweep" or value <= best or (spell and not spells.get(spell)):
            continue
        if mode == "fireball" and tgt["type"] == "merlin":
            continue
        if can_reach(board, where, tgt["hex"], reach, sight):
            best = value
    return best


def knight(view: dict, legal: list[dict], rng: Rng) -> dict:
    if len(legal) == 1:
        return legal[0]
    decides = [m for m in legal if m["type"] == "decide"]
    if decides:
        return _answer(view, decides)
    entries = [m for m in legal if m["type"] == "entry"]
    if entries:
        board = load(view["board"])
        walk = _walks(board.name)
        return min(entries, key=lambda m: (walk.get((m["hex"], board.excalibur), 99), m["hex"]))
    resume = [m for m in legal if m["type"] == "resume"]
    if resume:
        return resume[0]
    field = _Field(view, legal)
    scored = [(field.value(m), i) for i, m in enumerate(legal)]
    top = max(v for v, _ in scored)
    best = [i for v, i in scored if v >= top - 1e-9]
    return legal[best[0] if len(best) == 1 else best[rng.below(len(best))]]


def _answer(view: dict, decides: list[dict]) -> dict:
    """Asks: help only against a carrier, let go unless carrying, revive own units."""
    mine = {d["id"]: d for d in view["decisions"] if d.get("mine")}
    decision = mine.get(decides[0]["id"])
    same = [m for m in decides if m["id"] == decides[0]["id"]]
    kind = decision["kind"] if decision else None
    if kind == "ally":
        carriers = {u for u, x in view["units"].items() if x["carry"]}
        declared = {t for turn in view["turns"].values() for t in turn["declared"]}
        helping = bool(carriers & declared - {u for u, x in view["units"].items() if x["seat"] == view["me"]})
        return max(same, key=lambda m: len(m["choice"]) if helping else -len(m["choice"]))
    if kind == "disengage":
        asker_carries = any(x["carry"] for x in view["units"].values()
                            if x["seat"] is not None and x["seat"] != view["me"])
        want = "no" if asker_carries else "yes"
        return next((m for m in same if m["choice"] == want), same[0])
    if kind == "revive":
        return next((m for m in same if m["choice"] == "yes"), same[0])
    return next((m for m in same if decision and m["choice"] == decision.get("default")), same[0])


LEVELS = {"random": random_level, "knight": knight}
