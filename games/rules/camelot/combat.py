"""Declarations, strikes and their resolution at the end of a turn.

A strike is recorded when made (a spell token is spent then) and counted when the turn
ends: per declared target, the strikes on it plus the units an ally lent that can still
reach it. A total above the target's shields kills it. A declared target that survives
costs the attacker the own unit nearest to it (option ``failed_attack_penalty``). Deaths
seen by a Morgan may be undone (requests.offer_revivals).
"""
from __future__ import annotations

from ..base import Event
from . import editions, items
from .movement import Mover
from .pieces import BASIC_MODE, CHEAPEST_FIRST, MODE_WORDS, MODES, SHIELDS, unit_name
from .sight import can_reach
from .state import board_of, controls, frozen, is_enemy


def declarable(state: dict, seat: int) -> list[str]:
    """Units ``seat`` may declare a target: enemy units (guardians too) on the board not yet
    declared by this turn that some unit of ``seat``'s could still attack this turn (from
    edition 2, since the rules let a player declare only attacks he is able to carry out;
    edition 1 allowed any)."""
    turn = state["turns"][str(seat)]
    units = state["units"]
    enemies = [uid for uid, u in units.items() if is_enemy(u, seat) and uid not in turn["declared"]]
    if not enemies or not editions.declare_needs_reach(editions.of(state)):
        return enemies
    board = board_of(state)
    posts = strike_posts(state, seat)
    return [uid for uid in enemies if _within_strike(board, posts, units[uid]["hex"])]


def strike_posts(state: dict, seat: int) -> dict[tuple[int, bool], set[str]]:
    """Where ``seat``'s units could strike from this turn, by reach: (range, needs sight) ->
    hexes. A unit strikes from where it stands or from the end of a walk it may still make;
    a piece in the pool from its Entry hex or a walk on (if the Entry hex is free); Merlin
    also from wherever his unused Teleport may take him; a guardian the holder may still use
    likewise. Walks are judged on the board as it stands (units not yet moved stay put)."""
    turn = state["turns"][str(seat)]
    ice = frozen(state)
    can_move = turn["stage"] != "attack" and turn["moves_left"] > 0
    teleport = state["spells"][seat]["teleport"]
    mover = Mover(state, seat) if can_move else None
    posts: dict[tuple[int, bool], set[str]] = {}

    def add(kind: str, hexes) -> None:
        posts.setdefault(_REACH[kind], set()).update(hexes)

    for uid, unit in state["units"].items():
        if not controls(state, unit, seat) or uid in ice or uid in turn["struck"]:
            continue
        if unit["guardian"] and not can_strike_with(state, seat, uid, ice):
            continue
        add(unit["type"], (unit["hex"],))
        if can_move and uid not in turn["moved"]:
            add(unit["type"], mover.unit_ends(uid))
            if unit["type"] == "merlin" and not unit["guardian"] and teleport:
                add("merlin", mover.teleport_ends(unit["hex"]))
    if can_move:
        for kind, left in state["pool"][seat].items():
            if left <= 0:
                continue
            ends = mover.enter_ends(kind)
            add(kind, ends)
            if kind == "merlin" and teleport and ends:
                add("merlin", mover.teleport_ends(None))
    return posts


def _within_strike(board, posts: dict, where: str) -> bool:
    """Some post reaches ``where`` (hexes near it are tried, not every post)."""
    for (reach, sight), hexes in posts.items():
        for k in board.near[where][reach]:
            if k in hexes and can_reach(board, k, where, reach, sight):
                return True
    return False


# The farthest each piece strikes, and whether that strike needs sight (its basic strike
# reaches farthest: the Curse's 2 covers Death Touch's adjacent hex, the Zot's 3 the Fireball's).
_REACH = {kind: MODES[kind][BASIC_MODE[kind]][1:3] for kind in MODES}


def attack_preview(state: dict, seat: int, targets: list[str]) -> dict[str, dict]:
    """For each of ``targets``: what ``seat`` can still bring against it this turn, which
    pieces and moves that is, and what a failed attack on it would cost (the page shows it
    before declaring and before ending the turn; docs/rules/camelot.md "Combat").

    ``struck``: strikes already made on it; ``lent``: what units an ally lent add;
    ``ready``: the best strikes of units that can still strike it from where they stand;
    ``coming``: the best strikes of units that could walk (or enter, or teleport) into reach,
    as many as the turn has moves left (a guardian not yet used takes a move even to strike
    where it stands); ``reach``: the sum, an upper bound since each unit strikes one target.
    ``contributors``: the pieces behind ``ready``, ``coming`` and ``lent``, strongest first,
    each ``{"unit", "piece", "seat", "mode", "value", "how", "count"}``: ``unit`` None for
    pieces in the reserve (``count`` of them alike), ``mode`` its best strike at the target,
    ``how`` what it takes: "ready" (nothing: it strikes from where it stands), "walk" (one of
    the turn's moves, walking up), "enter" (a move: brought on from the reserve), "teleport"
    (a move and Merlin's once-a-game Teleport: nothing else brings him into reach), "use"
    (a guardian striking where it stands, which costs a move), "lent" (an ally's unit, added
    when the turn ends if it still reaches). ``moves_left``: how many of the movers can come.
    ``penalties``: ``seat``'s units in the order a failure here would take them (nearest
    first, see ``turn_end_losses``), as many as there are targets: with several failed
    attacks each costs the first of its list not already lost to an earlier one in the order
    declared (the page names the losses of the targets marked so far that way).
    ``penalty``: the unit a failure here costs. Before declaring, the first of
    ``penalties``; once declared, the unit ending the turn now would cost, the other
    targets that would fail now failing with it (None when the rule is off or nobody is
    left to lose)."""
    turn = state["turns"][str(seat)]
    units = state["units"]
    board = board_of(state)
    ice = frozen(state)
    lent_ice = ice - set(turn["declared"])
    can_move = turn["stage"] != "attack" and turn["moves_left"] > 0
    strikers = _strikers(state, seat, turn, ice, can_move)
    spells = state["spells"][seat]
    penalty_on = state["options"]["failed_attack_penalty"]
    out = {}
    for target in targets:
        tgt = units.get(target)
        if tgt is None:
            continue
        where = tgt["hex"]
        ready = 0
        coming: list[int] = []
        contributors: list[dict] = []
        for s in strikers:
            guardian = s["unit"] is not None and units[s["unit"]]["guardian"]
            here = _best_strike(board, s["piece"], s["hex"], where, tgt["type"], spells, guardian) if s["hex"] else _NONE
            if here[0] and not (guardian and s["unit"] not in turn["moved"]):
                ready += here[0]
                contributors.append(_contributor(s, here, "ready", 1))
                continue
            # The strongest way it could still strike; on a tie the plainer way (no spell spent).
            ways = [(here, "use")] if guardian and here[0] else []
            for how, ends in (("enter" if s["unit"] is None else "walk", s["walk"]), ("teleport", s["teleport"])):
                best = max((_best_strike(board, s["piece"], k, where, tgt["type"], spells, guardian)
                            for k in board.near[where][_REACH[s["piece"]][0]] if k in ends), default=_NONE)
                ways.append((best, how))
            (value, mode), how = max(ways, key=lambda w: w[0][0])
            if value:
                coming.extend([value] * s["count"])
                contributors.append(_contributor(s, (value, mode), how, s["count"]))
        coming.sort(reverse=True)
        # Each needs one of the turn's moves (after the first strike only a guardian's use can
        # still come: walking is over, but using a guardian is a move, not movement).
        bring = sum(coming[:turn["moves_left"]])
        struck = sum(s["value"] for s in turn["strikes"] if s["target"] == target)
        lent = 0
        for a in turn["allies"]:
            if a["target"] != target:
                continue
            value = ally_value(state, a["unit"], target, lent_ice)
            lent += value
            if value:
                ally = units[a["unit"]]
                contributors.append({"unit": a["unit"], "piece": ally["type"], "seat": ally["seat"],
                                     "mode": BASIC_MODE[ally["type"]], "value": value, "how": "lent", "count": 1})
        contributors.sort(key=lambda c: (-c["value"], _HOW_ORDER[c["how"]]))
        ranked = _nearest_first(state, seat, where)[:len(targets)] if penalty_on else []
        out[target] = {"shields": SHIELDS[tgt["type"]], "struck": struck, "lent": lent, "ready": ready,
                       "coming": bring, "reach": struck + lent + ready + bring,
                       "contributors": contributors, "moves_left": turn["moves_left"],
                       "penalties": ranked, "penalty": ranked[0] if ranked else None}
    if penalty_on and turn["declared"]:
        _name_turn_end_losses(state, seat, [t for t in targets if t in out], out)
    return out


_NONE = (0, None)
# Ties among equally strong contributors: those that need nothing first, spells last.
_HOW_ORDER = {"ready": 0, "lent": 1, "use": 2, "walk": 3, "enter": 4, "teleport": 5}


def _strikers(state: dict, seat: int, turn: dict, ice: set, can_move: bool) -> list[dict]:
    """``seat``'s pieces that could still strike this turn: ``unit`` (None: ``count`` pieces
    of the reserve alike, as many as the turn has moves), ``piece``, ``seat``, ``hex`` (where
    it stands; None in the reserve), ``walk`` (hexes a walk or an entry may end on) and
    ``teleport`` (hexes only Merlin's unused Teleport reaches)."""
    units = state["units"]
    mover = Mover(state, seat) if can_move else None
    teleport = state["spells"][seat]["teleport"]
    out = []
    for uid, unit in units.items():
        if not controls(state, unit, seat) or uid in ice or uid in turn["struck"]:
            continue
        if unit["guardian"] and not can_strike_with(state, seat, uid, ice):
            continue
        walk: set[str] = set()
        tele: set[str] = set()
        if can_move and uid not in turn["moved"]:
            walk.update(mover.unit_ends(uid))
            if unit["type"] == "merlin" and not unit["guardian"] and teleport:
                tele.update(mover.teleport_ends(unit["hex"]))
        out.append({"unit": uid, "piece": unit["type"], "seat": unit["seat"], "hex": unit["hex"],
                    "walk": walk, "teleport": tele - walk, "count": 1})
    if can_move:
        for kind, left in state["pool"][seat].items():
            ends = mover.enter_ends(kind) if left > 0 else {}
            if ends:
                tele = set(mover.teleport_ends(None)) if kind == "merlin" and teleport else set()
                out.append({"unit": None, "piece": kind, "seat": seat, "hex": None, "walk": set(ends),
                            "teleport": tele - set(ends), "count": min(left, turn["moves_left"])})
    return out


def _contributor(striker: dict, best: tuple[int, str], how: str, count: int) -> dict:
    return {"unit": striker["unit"], "piece": striker["piece"], "seat": striker["seat"], "mode": best[1],
            "value": best[0], "how": how, "count": count}


def _name_turn_end_losses(state: dict, seat: int, targets: list[str], out: dict) -> None:
    """Once declared: each target's ``penalty`` is what ending the turn now would cost, every
    target short of its shields now failing together; a target that would fall now is
    named the unit it would cost if it failed as well."""
    failing = [t for t in targets if out[t]["struck"] + out[t]["lent"] <= out[t]["shields"]]
    losses = turn_end_losses(state, seat, failing)
    for target in targets:
        if target not in losses:
            losses_with_it = turn_end_losses(state, seat, [t for t in targets if t in failing or t == target])
            out[target]["penalty"] = losses_with_it.get(target)
        else:
            out[target]["penalty"] = losses[target]


def _nearest_first(state: dict, seat: int, where: str) -> list[str]:
    """``seat``'s units by the order a failed attack on ``where`` takes them: nearest first,
    then the cheapest piece, then the lowest id."""
    board = board_of(state)
    own = sorted((board.distance(u["hex"], where), CHEAPEST_FIRST[u["type"]], uid)
                 for uid, u in state["units"].items() if u["seat"] == seat)
    return [uid for _, _, uid in own]


def turn_end_losses(state: dict, seat: int, failed: list[str]) -> dict[str, str]:
    """The unit each of ``seat``'s failed attacks costs, by target (``failed``: targets on the
    board, in the order declared). Each failure costs one unit of its own: the one nearest to
    its target among those the earlier failures left. Used by ``resolve`` and the preview
    alike, so the page names the units the turn will actually lose."""
    units = state["units"]
    lost: dict[str, str] = {}
    for target in failed:
        taken = set(lost.values())
        uid = next((u for u in _nearest_first(state, seat, units[target]["hex"]) if u not in taken), None)
        if uid is not None:
            lost[target] = uid
    return lost


def _best_strike(board, kind: str, here: str, where: str, target_type: str, spells: dict,
                 guardian: bool) -> tuple[int, str | None]:
    """The strongest single strike a ``kind`` standing on ``here`` could make at ``where``:
    (its value, its mode), or (0, None)."""
    best = _NONE
    for mode, (value, reach, sight, spell) in MODES[kind].items():
        if value <= best[0] or mode == "sweep" or (spell and (guardian or not spells[spell])):
            continue
        if mode == "fireball" and target_type == "merlin":
            continue
        if can_reach(board, here, where, reach, sight):
            best = (value, mode)
    return best


def strike_value(state: dict, seat: int, uid: str, target: str, mode: str) -> int | None:
    """The value of ``uid`` striking ``target`` in ``mode`` now, or None if it cannot."""
    unit = state["units"][uid]
    tgt = state["units"].get(target)
    spec = MODES[unit["type"]].get(mode)
    if tgt is None or spec is None or mode == "sweep":
        return None
    value, reach, sight, spell = spec
    if spell and (unit["guardian"] or not state["spells"][unit["seat"]][spell]):
        return None
    if mode == "fireball" and tgt["type"] == "merlin":
        return None  # a Fireball has no effect on any Merlin
    if not can_reach(board_of(state), unit["hex"], tgt["hex"], reach, sight):
        return None
    return value


def can_strike_with(state: dict, seat: int, uid: str, ice: set) -> bool:
    unit = state["units"].get(uid)
    turn = state["turns"][str(seat)]
    if unit is None or not controls(state, unit, seat) or uid in ice or uid in turn["struck"]:
        return False
    if unit["guardian"]:
        # Using a guardian is one of the turn's two moves, unless it already moved this turn.
        return uid in turn["moved"] or turn["moves_left"] > 0
    return True


def sweep_targets(state: dict, seat: int, uid: str) -> list[str]:
    turn = state["turns"][str(seat)]
    board = board_of(state)
    here = state["units"][uid]["hex"]
    units = state["units"]
    return [t for t in turn["declared"] if t in units and board.distance(here, units[t]["hex"]) == 1]


def strikes_available(state: dict, seat: int) -> list[dict]:
    turn = state["turns"][str(seat)]
    if not turn["declared"]:
        return []
    ice = frozen(state)
    out = []
    units = state["units"]
    targets = [t for t in turn["declared"] if t in units]
    dist = board_of(state).dist
    for uid, unit in units.items():
        if (unit["seat"] != seat and not unit["guardian"]) or not can_strike_with(state, seat, uid, ice):
            continue
        row = dist[unit["hex"]]
        if all(row[units[t]["hex"]] > 3 for t in targets):
            continue  # nothing declared within any strike's reach
        for mode in MODES[unit["type"]]:
            if mode == "sweep":
                if sweep_targets(state, seat, uid):
                    out.append({"type": "strike", "unit": uid, "mode": "sweep"})
                continue
            for t in targets:
                if t != uid and strike_value(state, seat, uid, t, mode) is not None:
                    out.append({"type": "strike", "unit": uid, "target": t, "mode": mode})
    return out


def strike(state: dict, seat: int, uid: str, target: str | None, mode: str, events: list) -> None:
    """Record a strike already checked legal."""
    turn = state["turns"][str(seat)]
    unit = state["units"][uid]
    if unit["guardian"] and uid not in turn["moved"]:
        turn["moves_left"] -= 1
    turn["struck"].append(uid)
    turn["stage"] = "attack"
    if mode == "sweep":
        hits = sweep_targets(state, seat, uid)
        for t in hits:
            turn["strikes"].append({"unit": uid, "target": t, "mode": "sweep", "value": 1})
        events.append(Event("strike", f"{unit_name(uid)} sweeps at {', '.join(map(unit_name, hits))}.", data={"unit": uid, "mode": mode, "targets": hits}))
        return
    value = strike_value(state, seat, uid, target, mode)
    spell = MODES[unit["type"]][mode][3]
    if spell:
        state["spells"][unit["seat"]][spell] = False
    turn["strikes"].append({"unit": uid, "target": target, "mode": mode, "value": value})
    if spell:  # a once-a-game spell is named as cast: "Seat 1's Merlin casts Fireball at ..."
        text = f"{unit_name(uid)} casts {MODE_WORDS[mode]} at {unit_name(target)} ({value})."
    else:
        text = f"{unit_name(uid)} strikes {unit_name(target)} ({MODE_WORDS.get(mode, mode)}, {value})."
    events.append(Event("strike", text, data={"unit": uid, "target": target, "mode": mode, "value": value}))


def ally_value(state: dict, uid: str, target: str, ice: set) -> int:
    """What a lent unit adds when the attack resolves: its basic strike if it still reaches."""
    unit = state["units"].get(uid)
    if unit is None or uid in ice or target not in state["units"]:
        return 0
    return strike_value(state, unit["seat"], uid, target, BASIC_MODE[unit["type"]]) or 0


def ally_candidates(state: dict, ally: int, target: str, ice: set | None = None) -> list[str]:
    ice = frozen(state) if ice is None else ice
    near = board_of(state).dist[state["units"][target]["hex"]]
    return [uid for uid, u in state["units"].items()
            if u["seat"] == ally and near[u["hex"]] <= 3 and uid not in ice and ally_value(state, uid, target, ice) > 0]


def resolve(state: dict, seat: int, timed_out: bool, events: list) -> list[dict]:
    """Resolve ``seat``'s declared attacks; returns the deaths [{uid, seat, type, hex}]."""
    turn = state["turns"][str(seat)]
    units = state["units"]
    ice = frozen(state) - set(turn["declared"])  # frozen by the other holder only
    # Editions 1-3 let targets no strike touched lapse when the clock ended the turn.
    lapse = timed_out and not editions.timeout_costs_alike(editions.of(state))
    report, deaths, failed = [], [], []
    for target in turn["declared"]:
        if target not in units:
            report.append({"target": target, "outcome": "gone"})
            continue
        hits = [s for s in turn["strikes"] if s["target"] == target]
        lent = [a for a in turn["allies"] if a["target"] == target]
        total = sum(s["value"] for s in hits) + sum(ally_value(state, a["unit"], target, ice) for a in lent)
        shields = SHIELDS[units[target]["type"]]
        if lapse and not hits:
            report.append({"target": target, "total": total, "shields": shields, "outcome": "lapsed"})
            continue
        if total > shields:
            report.append({"target": target, "total": total, "shields": shields, "outcome": "killed"})
        else:
            report.append({"target": target, "total": total, "shields": shields, "outcome": "held"})
            failed.append(target)
    # Failed targets survive and kills take only enemy units, so the losses are the same
    # reckoned before the kills as after them.
    losses = turn_end_losses(state, seat, failed) if state["options"]["failed_attack_penalty"] else {}
    for entry in report:
        if entry["outcome"] == "killed":
            deaths.append(kill(state, entry["target"], events))
    for entry in report:
        lost = losses.get(entry["target"])
        if lost is None:
            continue
        deaths.append(kill(state, lost, events))
        entry["penalty"] = lost
        events.append(Event("penalty", f"The attack on {unit_name(entry['target'])} failed: {unit_name(lost)} is lost.",
                            data={"target": entry["target"], "unit": lost}))
    state["last_combat"] = report
    return deaths


def kill(state: dict, uid: str, events: list) -> dict:
    """Remove a unit: its item stays on its hex; Arthurs go back to the pool, others are lost."""
    items.drop(state, uid)
    unit = state["units"].pop(uid)
    seat = unit["seat"]
    if seat is not None:
        bucket = state["pool"] if unit["type"] == "arthur" else state["lost"]
        bucket[seat][unit["type"]] += 1
    events.append(Event("death", f"{unit_name(uid)} dies.", data={"unit": uid, "hex": unit["hex"]}))
    return {"uid": uid, "seat": seat, "type": unit["type"], "hex": unit["hex"]}
