"""Things a player may do on their turn that are not plays.

- **Keeper powers** (``{"type": "power", "card": ..., "target": ..., ["to": seat],
  ["discard": card]}``), on your own turn: Excalibur hands one of your Creepers to another
  player (once a turn); The Finger of God smites any Creeper (once a turn), and the printed
  deck's goes back to your hand after it; The Animator does the same only while The Finger
  of God is on no table; the Holy Hand Grenade of Antioch is thrown away with any one
  Creeper (the legacy deck's Holy Hand Grenade with any one card on a table); The Catapult
  (once a turn) flings another of your Keepers to another player (``to``), then one of that
  player's Keepers (``discard``) is thrown away. In games set up since (``ON_LANDING``) the
  Goals are looked at as the Keeper lands: a win then ends the game before anything is
  thrown away.
- **Free-action rules**: ``get_on_with_it`` (before your last play, swap your hand for 3
  new cards; the turn ends) and ``swap_plays`` (draw one card per play still owed; the
  turn ends).
- **Claims for the rules that reward a physical act** (docs/rules/fluxx.md): ``sing`` and
  ``accent`` carry the words typed; every other player judges them at once (a decision
  each, defaulting to "it counts"); a strict majority of "no" refuses the bonus. A quote
  made with a play (``"quote"`` in the play move) is judged the same way in a game whose
  state says ``"quotes": "judged"`` (every game set up since); a game stored before that
  checks the quote mentions the card played instead, with no judges (see ``quote_ok``).

Every move here is checked by building the list of those allowed and looking it up, so
the legal list and the check cannot disagree.
"""
from __future__ import annotations

from .. import decisions
from ..base import Event, IllegalMove
from . import goals
from .cards import EFFECT, NAME, TYPE, keyword_in
from .current_rules import ALL, active_seats, in_play, number, play_target
from .turn import HAND_LIMIT, plays_done
from .zones import draw_to_hand, in_play_anywhere, new_event, own, own_at, owner_on_table, seat_name

CLAIM_HANDLER = "claim"
MAX_WORDS = 200  # characters of a typed song, accent or quote

SING, ACCENT, QUOTE = "sing-bonus", "accent-bonus", "what-is-your-quote"
# How a game's quotes are weighed, from its setup option "quotes" into state["quotes"]:
# JUDGED, by the other players; CHECKED (the state holds no key: games stored before
# quotes were judged replay unchanged), by the engine looking for a word of the card's name.
JUDGED, CHECKED = "judged", "checked"
GET_ON, SWAP = "get-on-with-it", "swap-plays-for-draws"
# When the Goals are looked at during The Catapult's fling, from the setup option "fling"
# into state["fling"] (not "catapult": that is a legacy card's id): ON_LANDING, as the flung
# Keeper lands, before anything is thrown away (the room sets up every new game so);
# AFTER_DISCARD, the default (the state holds no key: games stored before replay
# unchanged), only once the fling and the throwing away are both done.
ON_LANDING, AFTER_DISCARD = "on_landing", "after_discard"


# --- keeper powers -----------------------------------------------------------------

POWERED = frozenset(c for c, e in EFFECT.items() if "power" in e)  # Keepers with a power
# Each powered Keeper's (power, once a turn?, the card whose presence stops it), read once.
_POWERS = {c: (EFFECT[c]["power"], EFFECT[c].get("per_turn"), EFFECT[c].get("unless_in_play")) for c in POWERED}
_CREEPERS = frozenset(c for c, t in TYPE.items() if t == "creeper")
_KEEPERS = frozenset(c for c, t in TYPE.items() if t == "keeper")


def power_moves(state: dict, seat: int) -> list[dict]:
    table = state["tables"][seat]
    if POWERED.isdisjoint(table):
        return []
    out = []
    used = state["turn"]["used"]
    everywhere = None  # every card on a table in play, listed when a power asks
    for keeper in table:
        powered = _POWERS.get(keeper)
        if powered is None:
            continue
        power, per_turn, unless = powered
        if per_turn and keeper in used:
            continue
        if unless and in_play_anywhere(state, unless):
            continue
        if power == "move_creeper":
            others = [s for s in active_seats(state) if s != seat]
            out += [{"type": "power", "card": keeper, "target": c, "to": s}
                    for c in table if c in _CREEPERS for s in others]
            continue
        if power == "catapult":
            out += _catapult_moves(state, seat, keeper)
            continue
        if everywhere is None:
            # every table of a player still in, in seat order (active_seats), without two lists
            everywhere = []
            for cards, on in zip(state["tables"], state["active"]):
                if on:
                    everywhere += cards
        if power == "smite" or power == "grenade":
            out += [{"type": "power", "card": keeper, "target": c} for c in everywhere if c in _CREEPERS]
        elif power == "sacrifice":
            out += [{"type": "power", "card": keeper, "target": c} for c in everywhere if c != keeper]
    return out


def _catapult_moves(state: dict, seat: int, catapult: str) -> list[dict]:
    """Another of your Keepers flung to another player, then one of that player's Keepers
    (the one just flung included: it is theirs now) thrown away: one move each."""
    out = []
    mine = [c for c in state["tables"][seat] if c in _KEEPERS and c != catapult]
    for to in active_seats(state):
        if to == seat:
            continue
        theirs = [c for c in state["tables"][to] if c in _KEEPERS]
        for flung in mine:
            out += [{"type": "power", "card": catapult, "target": flung, "to": to, "discard": hit}
                    for hit in theirs + [flung]]
    return out


def use_power(state: dict, seat: int, move: dict, events: list) -> None:
    keeper = move.get("card")
    if keeper not in state["tables"][seat] or "power" not in EFFECT.get(keeper, {}):
        raise IllegalMove("Use the power of a Keeper that is in front of you and has one.")
    effect = EFFECT[keeper]
    if effect.get("per_turn") and keeper in state["turn"]["used"]:
        raise IllegalMove(f"{NAME[keeper]} has already been used this turn.")
    if effect.get("unless_in_play") and in_play_anywhere(state, effect["unless_in_play"]):
        raise IllegalMove(f"{NAME[keeper]} works only while {NAME[effect['unless_in_play']]} is not in play.")
    if move not in power_moves(state, seat):
        raise IllegalMove(f"{NAME[keeper]} cannot be used on that.")
    if effect.get("per_turn"):
        turn = state["turn"]
        turn["used"] = turn["used"] + [keeper]  # shared with the state copied (state_copy.py)
    target = move["target"]
    owner = owner_on_table(state, target)
    own_at(state, "tables", owner).remove(target)
    power = effect["power"]
    if power == "move_creeper":
        own_at(state, "tables", move["to"]).append(target)
        text = f"{seat_name(seat)} uses {NAME[keeper]} to hand {NAME[target]} to {seat_name(move['to'])}."
    elif power == "smite":
        state["discard"].append(target)
        text = f"{seat_name(seat)} uses {NAME[keeper]}: {NAME[target]} is smitten and discarded."
        if effect.get("returns_to_hand"):
            own_at(state, "tables", seat).remove(keeper)
            own_at(state, "hands", seat).append(keeper)
            text += f" {NAME[keeper]} goes back into {seat_name(seat)}'s hand."
    elif power == "catapult":
        hit, landed = _fling(state, target, move["to"], move["discard"])
        text = f"{seat_name(seat)} flings {NAME[target]} at {seat_name(move['to'])} with {NAME[keeper]}"
        text += f": {NAME[hit]} is thrown away." if hit is not None else "."
    else:  # grenade (with a Creeper) or the legacy sacrifice (with any card): both go
        own_at(state, "tables", seat).remove(keeper)
        state["discard"] += [keeper, target]
        text = f"{seat_name(seat)} throws {NAME[keeper]}, and {NAME[target]} ({seat_name(owner)}) is gone with it."
    data = {"seat": seat, "card": keeper, "target": target, "owner": owner}
    if power == "catapult":
        data.update(to=move["to"], discarded=hit)
    events.append(new_event(Event, ("power", text, None, data, ())))
    if power == "catapult":
        events += landed  # what the Goals said as the Keeper landed, after the fling's own line


def _fling(state: dict, flung: str, to: int, hit: str) -> tuple[str | None, list]:
    """The Catapult's two steps: ``flung`` lands before ``to``, then ``hit`` (one of ``to``'s
    Keepers) is thrown away. Where the Goals are looked at on landing (``ON_LANDING``), a
    win there ends the game and nothing is thrown away: a Goal counts however briefly it is
    met, whoever's turn it is. Returns the card thrown away (None if none)
    and the events of that look."""
    landing = own_at(state, "tables", to)
    landing.append(flung)
    landed: list = []
    if state.get("fling") == ON_LANDING:
        goals.check(state, landed)
        if state["result"] is not None:
            return None, landed
    landing.remove(hit)
    state["discard"].append(hit)
    return hit, landed


# --- free-action rules -------------------------------------------------------------

def rule_moves(state: dict, seat: int, done: bool | None = None) -> list[dict]:
    """``done``: whether the plays are done, when the caller has just worked it out."""
    out = []
    if plays_done(state) if done is None else done:
        return out
    if in_play(state, GET_ON) and state["hands"][seat]:
        out.append({"type": "get_on_with_it"})
    if in_play(state, SWAP):
        out.append({"type": "swap_plays"})
    return out


def get_on_with_it(state: dict, seat: int, events: list) -> None:
    if {"type": "get_on_with_it"} not in rule_moves(state, seat):
        raise IllegalMove("Get On With It! needs the rule in play, cards in your hand and a play still to make.")
    hand = state["hands"][seat]
    state["discard"].extend(hand)
    events.append(Event("free", f"{seat_name(seat)} gets on with it: discards {len(hand)} cards.",
                        data={"seat": seat, "count": len(hand)}))
    state["hands"][seat] = []
    draw_to_hand(state, seat, number(state, EFFECT["get-on-with-it"]["draw"]), events, NAME["get-on-with-it"])
    state["turn"]["phase"] = HAND_LIMIT


def swap_plays(state: dict, seat: int, events: list) -> None:
    if {"type": "swap_plays"} not in rule_moves(state, seat):
        raise IllegalMove("Swap Plays for Draws needs the rule in play and a play still to make.")
    # Plays still owed by the rule, not capped by the cards in hand (that is the point).
    target = play_target(state, seat)
    owed = len(state["hands"][seat]) if target == ALL else target - state["turn"]["played"]
    events.append(Event("free", f"{seat_name(seat)} swaps {owed} plays for draws.", data={"seat": seat, "count": owed}))
    draw_to_hand(state, seat, owed, events, NAME["swap-plays-for-draws"])
    state["turn"]["phase"] = HAND_LIMIT


# --- claims ------------------------------------------------------------------------

def claim_moves(state: dict, seat: int) -> list[dict]:
    """The claims open now, with empty words as placeholders (the page asks for the words)."""
    out = []
    turn = state["turn"]
    if in_play(state, SING) and not turn["sang"] and turn["played"] == 0:
        out.append({"type": "sing", "song": "", "words": ""})
    if in_play(state, ACCENT) and not turn["accent"]:
        out.append({"type": "accent", "accent": "", "words": ""})
    return out


def normalize(text: str) -> str:
    return " ".join("".join(ch if ch.isalnum() else " " for ch in text.lower()).split())


def _text(move: dict, key: str) -> str:
    value = move.get(key, "")
    if not isinstance(value, str) or len(value) > MAX_WORDS:
        raise IllegalMove(f"'{key}' must be text of at most {MAX_WORDS} characters.")
    return value


def claim(state: dict, seat: int, move: dict, events: list) -> None:
    """Start a sing or accent claim: every other player is asked to judge it."""
    kind = move["type"]
    open_kinds = {m["type"] for m in claim_moves(state, seat)}
    if kind not in open_kinds:
        rule = NAME[SING if kind == "sing" else ACCENT]
        raise IllegalMove(f"You cannot claim the {rule} now (it must be in play, once a turn"
                          f"{', before your first play' if kind == 'sing' else ''}).")
    label, words = _text(move, "song" if kind == "sing" else "accent"), _text(move, "words")
    state["turn"]["sang" if kind == "sing" else "accent"] = True
    what = f"sings from “{label or 'a Python song'}”" if kind == "sing" else f"speaks in a {label or 'silly'} accent"
    said = f"{seat_name(seat)} {what}: “{words}”"
    events.append(new_event(Event, ("claim", said, None, {"seat": seat, "claim": kind, "label": label, "words": words},
                                    ())))
    judges = [s for s in active_seats(state) if s != seat]
    decisions.push(state, [dict(seat=j, kind="judge", prompt=f"{said}. Does it count?",
                                public=f"{seat_name(j)} is judging {seat_name(seat)}'s {kind}.",
                                options=[{"value": "yes", "label": "It counts"},
                                         {"value": "no", "label": "It does not count"}], default="yes",
                                data={"handler": CLAIM_HANDLER, "claim": kind, "seat": seat,
                                      "label": normalize(label)}) for j in judges])


def on_judged(state: dict, frame: list[dict], events: list) -> None:
    data = frame[0]["data"]
    seat, kind, label = data["seat"], data["claim"], data["label"]
    refusals = sum(1 for d in frame if d["answer"] == "no")
    if refusals * 2 > len(frame):
        events.append(Event("claim", f"The table refuses {seat_name(seat)}'s {kind}: no bonus.",
                            data={"seat": seat, "accepted": False}))
        if kind == "quote":
            _drop_quote_bonus(state, seat)
        return
    if kind == "quote":
        return  # the bonus card waits under the card played (ask_quote_judges)
    if kind == "sing":
        count = number(state, EFFECT[SING]["draw"])
        if label and label not in state["songs"]:
            count += number(state, EFFECT[SING]["new_song_draw"])
            own(state, "songs").append(label)
        why = NAME[SING]
    else:
        count = number(state, EFFECT[ACCENT]["draw"])
        taken = state["turns_taken"][seat]
        previous = state["accents"][seat]
        if previous and previous["turn"] == taken - 1 and previous["accent"] == label:
            count += number(state, EFFECT[ACCENT]["kept_up_draw"])
        own(state, "accents")[seat] = {"turn": taken, "accent": label}
        why = NAME[ACCENT]
    if state["active"][seat]:
        draw_to_hand(state, seat, count, events, why)


def quotes_judged(state: dict) -> bool:
    return state.get("quotes") == JUDGED


def quote_ok(state: dict, card: str, quote: str) -> bool:
    """Whether a quote made with playing ``card`` stands for now: judged games take any
    words (the table judges them next), older games only words naming the card."""
    if not in_play(state, QUOTE) or state["turn"]["quoted"]:
        return False
    return quotes_judged(state) or keyword_in(card, quote)


def ask_quote_judges(state: dict, seat: int, card: str, said: str) -> None:
    """Every other player judges the quote at once, before the card resolves. The bonus
    draw is already on the effect stack under the card; a refusal takes it off."""
    judges = [s for s in active_seats(state) if s != seat]
    decisions.push(state, [dict(seat=j, kind="judge", prompt=f"{said} Does the quote count?",
                                public=f"{seat_name(j)} is judging {seat_name(seat)}'s quote.",
                                options=[{"value": "yes", "label": "It counts"},
                                         {"value": "no", "label": "It does not count"}], default="yes",
                                data={"handler": CLAIM_HANDLER, "claim": "quote", "seat": seat, "label": card})
                           for j in judges])


def _drop_quote_bonus(state: dict, seat: int) -> None:
    # The effect stack is the state's own copy (state_copy clones it), so it may be edited.
    stack = state["effects"]
    for i in range(len(stack) - 1, -1, -1):
        frame = stack[i]
        if frame["op"] == "bonus_draw" and frame.get("quote") and frame["seat"] == seat:
            del stack[i]
            return


# --- what is still optional ----------------------------------------------------------

def optional_moves(state: dict, seat: int) -> list[dict]:
    return power_moves(state, seat) + claim_moves(state, seat)


def has_optional_moves(state: dict, seat: int, rules: frozenset | list | None = None) -> bool:
    """``bool(optional_moves(state, seat))`` without building the moves when no Keeper of
    ``seat`` has a power and no claim is open (the usual case; engine.settle asks this
    whenever the plays are done). ``rules``: the rules in play as a set (the reading's
    ``cards``), when the caller has it."""
    turn = state["turn"]
    if rules is None:
        rules = state["rules"]
    if SING in rules and not turn["sang"] and turn["played"] == 0:
        return True
    if ACCENT in rules and not turn["accent"]:
        return True
    return not POWERED.isdisjoint(state["tables"][seat]) and bool(power_moves(state, seat))
