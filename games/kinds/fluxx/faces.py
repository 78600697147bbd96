"""What a card face shows, from the deck data: the public facts of every card, for the
board script to draw its SVG faces from (static/board.js).

Everything here is printed on the card itself, so it is the same for every viewer and
reveals nothing about where any card is. The engine's own notes (``effect`` in full,
``certainty``, ``sources``) stay out: a face needs the words and, for a Goal, what it needs
(``needs``, one line each, and ``summary``, the whole of it in a sentence for the opened
card); for the quote rule, the words a quote may use. ``short`` is the one short line a
small face prints under the name (None when the name says it all, as "Keeper Limit 3" does):
the full text is one tap away, on the opened card. Both decks' cards are served: games
stored on the legacy deck still draw theirs.
"""
from __future__ import annotations

import re
from functools import lru_cache

from games.rules.fluxx.cards import ALL_RECORDS, EFFECT, NAME, TAGS

# A category as a face names it ("a Swallow"), and in the plural ("Knights of the Round Table").
CATEGORY = {"knight": ("a Knight of the Round Table", "Knights of the Round Table"), "swallow": ("a Swallow", "Swallows"),
            "parrot": ("a Parrot", "Parrots"), "cow": ("a Cow", "Cows")}


def _category(tag: str, plural: bool = False) -> str:
    return CATEGORY.get(tag, (f"a {tag}", f"{tag}s"))[plural]


def _members(tags) -> list[str]:
    return [r["id"] for r in ALL_RECORDS if not TAGS[r["id"]].isdisjoint(tags)]


def _stand_ins(card: str) -> list[str]:
    return [c for c, e in EFFECT.items() if e.get("counts_as") == card]


def _needs(effect: dict) -> list[dict]:
    """A Goal's requirements as lines a face can print: cards you must have, cards someone
    else must have, one of several ("either"), "at least N" of a category, or nothing."""
    if effect.get("nothing"):
        return [{"text": "nothing at all: no Keepers, no Creepers, no cards in hand", "nothing": True}]
    lines = []
    have = effect.get("have", ())
    for c in have:
        line = {"card": c, "text": NAME[c]}
        stand_ins = [s for s in _stand_ins(c) if s not in have]  # one card fills one need
        if stand_ins:
            line["or"] = stand_ins  # counts as it while it is on no table
        lines.append(line)
    lines += [{"card": c, "text": f"someone else: {NAME[c]}", "others": True} for c in effect.get("others_have", ())]
    either = effect.get("either")
    if either:
        words = [NAME[c] for c in either.get("cards", ())] + [_category(t) for t in either.get("tags", ())]
        text = words[0] if len(words) == 1 else "either " + " or ".join(words)
        if either.get("tags") == ["knight"] and not either.get("cards"):
            text = "any Knight of the Round Table"
        lines.append({"text": text, "count": 1, "cards": list(either.get("cards", ())) + _members(either.get("tags", ()))})
    tagged = effect.get("tagged")
    if tagged:
        lines.append({"text": f"any {tagged['count']} {_category(tagged['tag'], plural=True)}", "count": tagged["count"],
                      "cards": _members([tagged["tag"]])})
    return lines


def _summary(effect: dict) -> str:
    """What the Goal needs, in a sentence: "You need Sir Galahad, while another player has
    The Holy Grail." The table's Goal panel prints it under the face."""
    if effect.get("nothing"):
        return "You need to be the only player with nothing at all: no Keepers, no Creepers and no cards in hand."
    parts = []
    for line in _needs(effect):
        if line.get("others"):
            continue  # said after: "while another player has ..."
        alt = line.get("or")
        parts.append(line["text"] + (f" (or {NAME[alt[0]]} while {line['text']} is on no table)" if alt else ""))
    sentence = "You need " + (", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0])
    others = [NAME[c] for c in effect.get("others_have", ())]
    if others:
        sentence += ", while another player has " + " and ".join(others)
    return sentence + " in front of you" * (not others) + ". A Creeper the Goal does not name stops you."


# What a Keeper's power does, in a few words for its small face.
POWER_LINE = {"smite": "Smites a Creeper", "grenade": "Thrown away with a Creeper", "sacrifice": "Thrown away with a Creeper",
              "move_creeper": "Hands a Creeper on", "catapult": "Flings a Keeper"}
# What a New Rule adds, in a few words, by what it does (the engine's own vocabulary).
RULE_LINE = {("claim", "quote"): "Quote a Python line for a card", ("claim", "song"): "Sing a Python song for a card",
             ("claim", "accent"): "Speak in an accent for a card", ("free", "get_on_with_it"): "Free action: a new hand of 3",
             ("free", "swap_plays"): "Free action: draws for plays", ("bonus", "poor"): "Fewest Keepers: draw 1 more",
             ("bonus", "rich"): "Most Keepers: play 1 more", ("bonus", "no_hand"): "Empty hand: draw 3 more",
             ("slot", "numbers"): "Every 3 counts as 5", ("slot", "goal_limit"): "Two Goals at once"}
SHORT_WORDS = 9  # at most, on a small face (a word more gets an ellipsis)
# New Rules whose name is the whole rule: "Draw 2", "Hand Limit 1", "Keeper Limit 3", "Play 4".
_SAYS_IT_ALL = re.compile(r"^(Draw|Play|Hand Limit|Keeper Limit) \d+$")


def _first_words(text: str) -> str:
    sentence = re.split(r"(?<=[.!?])\s", text.strip(), maxsplit=1)[0]
    words = sentence.split()
    if len(words) <= SHORT_WORDS:
        return sentence.rstrip(".")
    return " ".join(words[:SHORT_WORDS]).rstrip(",;:") + "\u2026"


def _short(record: dict) -> str | None:
    """The small face's one line under the name, never the name again: a Goal's needs, a
    Keeper's power or kind, what a Creeper does, the start of a rule's or an Action's text."""
    kind, effect = record["type"], record["effect"]
    if kind == "goal":
        line = " + ".join(need["text"] for need in _needs(effect))
        # "Knights of the Round Table" needs "any 3 Knights of the Round Table": "any 3 knights".
        return re.sub(re.escape(record["name"]), record["name"].split()[0].lower(), line, flags=re.IGNORECASE)
    if kind == "keeper":
        if effect.get("power") in POWER_LINE:
            return POWER_LINE[effect["power"]]
        if effect.get("counts_as"):
            return f"Counts as {NAME[effect['counts_as']]}"
        tags = record.get("tags") or ()
        if tags:
            return _category(tags[0])[0].upper() + _category(tags[0])[1:]
        return None  # a plain Keeper: its name and its type say it all
    if kind == "creeper":
        return "Stops you winning"
    if kind == "rule":
        if _SAYS_IT_ALL.match(record["name"]):
            return None
        if effect.get("value") == "all":
            return "Play every card in your hand"
        line = next((RULE_LINE[k, effect[k]] for k in ("claim", "free", "bonus", "slot") if (k, effect.get(k)) in RULE_LINE),
                    None)
        if line:
            return line
    return _first_words(record["text"])


def _face(record: dict) -> dict:
    effect = record["effect"]
    face = {"id": record["id"], "type": record["type"], "name": record["name"], "text": record["text"],
            "keywords": list(record["keywords"]), "short": _short(record)}
    if record["type"] == "goal":
        face["needs"] = _needs(effect)
        face["summary"] = _summary(effect)
    if effect.get("power"):
        face["power"] = effect["power"]  # how the page words its uses (board.js, powerControls)
    if record.get("tags"):
        face["tags"] = list(record["tags"])
    return face


@lru_cache(maxsize=1)
def deck_faces() -> dict:
    """``{"cards": {id: face}}``: built once, the decks being fixed data."""
    return {"cards": {r["id"]: _face(r) for r in ALL_RECORDS}}
