"""The vocabulary of effect pieces that CCG cards are made of.

A card's primary and secondary effects are lists of effect dicts ``{"op": NAME, ...}``.
Printed cards, Write Yer Own cards and the admin's effect editor all draw from this one
vocabulary, and the engine (``games/rules/ccg/effects.py``) executes every op named here.
This module is data plus validation only, so the card database can check an effect
without loading the engine.

Parameter kinds:
  "int"            whole number within the spec's min/max
  ("choice", ...)  one of the listed strings
"""
from __future__ import annotations

TARGETS = (
    "self",                 # the player who plays the card (their Round Table as a whole)
    "opponent",             # an opponent (the one whose turn it is not, or a chosen one)
    "lead_knight",          # the lead character of the current dispute, on the player's side
    "own_knight",           # a knight of the player's Round Table, chosen on play
    "opponent_knight",      # a knight of an opponent's Round Table, chosen on play
    "adversary",            # the adversary or peril in the current dispute
    "area",                 # the area of England/Avalon the card is played on
)
DURATIONS = (
    "dispute",              # until the current dispute is resolved
    "turn",                 # until the end of the current turn
    "next_turn",            # during the affected player's next turn
    "permanent",            # while the card stays in play
)
WHO = ("self", "opponent")

_AMOUNT = ("int", -10, 10)
_COUNT = ("int", 1, 7)
_TURNS = ("int", 1, 5)

# op -> {param: kind}; every param listed is required.
EFFECT_OPS: dict[str, dict] = {
    "modify_combat": {"amount": _AMOUNT, "target": ("choice", *TARGETS), "duration": ("choice", *DURATIONS)},
    "modify_wits": {"amount": _AMOUNT, "target": ("choice", *TARGETS), "duration": ("choice", *DURATIONS)},
    "modify_grail_number": {"amount": _AMOUNT, "who": ("choice", *WHO), "duration": ("choice", *DURATIONS)},
    "draw_cards": {"count": _COUNT, "who": ("choice", *WHO)},
    "discard_cards": {"count": _COUNT, "who": ("choice", *WHO), "chooser": ("choice", "owner", "random")},
    "peek_hand": {"who": ("choice", "opponent")},
    "end_turn": {"who": ("choice", "opponent")},
    "skip_turns": {"who": ("choice", *WHO), "turns": _TURNS},
    "disable_member": {"target": ("choice", "own_knight", "opponent_knight"), "turns": _TURNS},
    "slay": {"target": ("choice", "adversary", "opponent_knight", "own_knight")},
    "eliminate": {"target": ("choice", "adversary", "opponent_knight")},
    "force_dispute": {"method": ("choice", "combat", "wits")},
    "block_movement": {"who": ("choice", *WHO), "turns": _TURNS},
    "extra_movement": {"spaces": ("int", 1, 3)},
    "run_away": {"who": ("choice", *WHO)},
    "auto_join": {},
    "prevent_join": {"turns": _TURNS},
    "cancel_last_card": {},
    "return_from_dead_cart": {"count": ("int", 1, 3)},
    "extra_draws_in_area": {"count": ("int", 1, 3)},
    "search_bonus": {"amount": ("int", 1, 3)},
    "end_game": {"result": ("choice", "opponent_loses", "draw")},
}

# Human-readable templates, used to show a card's structured text beside its printed text.
EFFECT_TEMPLATES: dict[str, str] = {
    "modify_combat": "{signed_amount} combat to {target} for {duration}",
    "modify_wits": "{signed_amount} wits to {target} for {duration}",
    "modify_grail_number": "{signed_amount} to {who}'s grail numbers for {duration}",
    "draw_cards": "{who} draws {count} card(s)",
    "discard_cards": "{who} discards {count} card(s), chosen by {chooser}",
    "peek_hand": "look at {who}'s hand",
    "end_turn": "{who}'s turn ends at once",
    "skip_turns": "{who} loses {turns} turn(s)",
    "disable_member": "a {target} may not act for {turns} turn(s)",
    "slay": "slay the {target}",
    "eliminate": "eliminate the {target} from play",
    "force_dispute": "the dispute must be settled by {method}",
    "block_movement": "{who} may not move for {turns} turn(s)",
    "extra_movement": "move up to {spaces} extra area(s) this turn",
    "run_away": "{who} must run away",
    "auto_join": "the next knight invited joins without a draw",
    "prevent_join": "no knight may join any Round Table for {turns} turn(s)",
    "cancel_last_card": "cancel the last card played",
    "return_from_dead_cart": "take {count} card(s) from your dead cart into your hand",
    "extra_draws_in_area": "draw {count} extra card(s) each draw phase while in this area",
    "search_bonus": "{signed_amount} to your next search for the Grail",
    "end_game": "the game ends: {result}",
}

MAX_EFFECTS_PER_SIDE = 4


def validate_effect(effect: object) -> list[str]:
    """Reasons ``effect`` is not a valid effect piece; empty when it is."""
    if not isinstance(effect, dict):
        return ["An effect must be an object."]
    op = effect.get("op")
    if op not in EFFECT_OPS:
        return [f"Unknown effect '{op}'."]
    spec = EFFECT_OPS[op]
    errors = []
    extra = set(effect) - set(spec) - {"op"}
    if extra:
        errors.append(f"{op}: unexpected parameter(s) {', '.join(sorted(extra))}.")
    for name, kind in spec.items():
        if name not in effect:
            errors.append(f"{op}: missing '{name}'.")
            continue
        value = effect[name]
        if kind[0] == "int":
            if not isinstance(value, int) or isinstance(value, bool) or not kind[1] <= value <= kind[2]:
                errors.append(f"{op}: '{name}' must be a whole number from {kind[1]} to {kind[2]}.")
        elif value not in kind[1:]:
            errors.append(f"{op}: '{name}' must be one of {', '.join(kind[1:])}.")
    return errors


def validate_effects(effects: object) -> list[str]:
    if not isinstance(effects, list):
        return ["Effects must be a list."]
    if len(effects) > MAX_EFFECTS_PER_SIDE:
        return [f"At most {MAX_EFFECTS_PER_SIDE} effects on one side of a card."]
    return [e for effect in effects for e in validate_effect(effect)]


_TARGET_WORDS = {
    "self": "your Round Table", "opponent": "your opponent's Round Table", "lead_knight": "your lead knight",
    "own_knight": "one of your knights", "opponent_knight": "an opposing knight", "adversary": "the adversary",
    "area": "everyone in this area",
}
_DURATION_WORDS = {
    "dispute": "until the dispute ends", "turn": "until the end of the turn",
    "next_turn": "during the next turn", "permanent": "while this stays in play",
}
_WHOSE = {"self": "your", "opponent": "your opponent's"}


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _by_who(effect: dict, mine: str, theirs: str) -> str:
    """``mine`` when the effect falls on the card's player, ``theirs`` for the opponent."""
    return (mine if effect["who"] == "self" else theirs).format(**effect)


def _phrase(e: dict) -> str:
    op = e["op"]
    if op in ("modify_combat", "modify_wits"):
        stat = "combat" if op == "modify_combat" else "wits"
        return f"{e['amount']:+d} {stat} to {_TARGET_WORDS[e['target']]} {_DURATION_WORDS[e['duration']]}"
    if op == "modify_grail_number":
        return f"{e['amount']:+d} to {_WHOSE[e['who']]} grail numbers {_DURATION_WORDS[e['duration']]}"
    if op == "draw_cards":
        return _by_who(e, "draw ", "your opponent draws ") + _count(e["count"], "card")
    if op == "discard_cards":
        how = " at random" if e["chooser"] == "random" else (
            " of your choice" if e["who"] == "self" else " of their choice")
        return _by_who(e, "discard ", "your opponent discards ") + _count(e["count"], "card") + how
    if op == "peek_hand":
        return "look at your opponent's hand"
    if op == "end_turn":
        return "your opponent's turn ends at once"
    if op == "skip_turns":
        return _by_who(e, "you lose ", "your opponent loses ") + _count(e["turns"], "turn")
    if op == "disable_member":
        return f"{_TARGET_WORDS[e['target']]} may not act for {_count(e['turns'], 'turn')}"
    if op == "slay":
        return f"slay {_TARGET_WORDS[e['target']]}"
    if op == "eliminate":
        return f"eliminate {_TARGET_WORDS[e['target']]} from play"
    if op == "force_dispute":
        return f"the dispute must be settled by {e['method']}"
    if op == "block_movement":
        return _by_who(e, "you may not move", "your opponent may not move") + f" for {_count(e['turns'], 'turn')}"
    if op == "extra_movement":
        return f"move up to {_count(e['spaces'], 'extra area')} this turn"
    if op == "run_away":
        return _by_who(e, "you must run away", "your opponent must run away")
    if op == "prevent_join":
        return f"no knight may join any Round Table for {_count(e['turns'], 'turn')}"
    if op == "return_from_dead_cart":
        return f"take {_count(e['count'], 'card')} from your dead cart into your hand"
    if op == "extra_draws_in_area":
        return f"draw {_count(e['count'], 'extra card')} each draw phase while in this area"
    if op == "search_bonus":
        return f"{e['amount']:+d} to your next search for the Grail"
    if op == "end_game":
        return "the game ends and your opponent loses" if e["result"] == "opponent_loses" else "the game ends in a draw"
    # Ops without parameters read as their template.
    return EFFECT_TEMPLATES[op]


def describe_effect(effect: dict) -> str:
    """One effect in plain English, addressed to the card's player ("you")."""
    return _phrase(effect)


def describe_effects(effects: list[dict]) -> str:
    text = "; ".join(describe_effect(e) for e in effects)
    return text[:1].upper() + text[1:] + "." if text else ""
