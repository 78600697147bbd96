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


def describe_effect(effect: dict) -> str:
    params = {k: str(v).replace("_", " ") for k, v in effect.items()}
    if "amount" in effect:
        params["signed_amount"] = f"{effect['amount']:+d}"
    return EFFECT_TEMPLATES[effect["op"]].format(**params)


def describe_effects(effects: list[dict]) -> str:
    text = "; ".join(describe_effect(e) for e in effects)
    return text[:1].upper() + text[1:] + "." if text else ""
