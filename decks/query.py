"""The card search syntax: `t:knight c>=5 g<=3 "chicken" -r:rare`.

A query is a list of space-separated terms; every term must hold for a card to match.
  t: / type:     card type (prefix allowed: `t:kn`; aliases q3, wyo)
  g / grail, c / combat, w / wits   numbers with : = != < <= > >=
  r: / rarity:   fixed, common, uncommon, rare (prefix allowed)
  s: / set:      set code
  tag:           a card tag, e.g. tag:arthur
  is:unique, is:generic, is:castle (castle icon), is:written (a Write Yer Own card)
  "a phrase" or word   text in the title, rules text, quote or a page's adversary
  -term          negates any term
Pure Python: parsing yields a ``Query`` (terms plus readable errors); ``decks.selectors``
turns it into a database filter.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

TYPES = (
    "adversary", "castle", "event", "item", "knight", "land", "page", "persona", "peril",
    "questions_three", "song", "taunt", "village", "write_yer_own",
)
TYPE_ALIASES = {"q3": "questions_three", "questions": "questions_three", "wyo": "write_yer_own"}
RARITIES = ("fixed", "common", "uncommon", "rare")
NUMBER_KEYS = {"g": "grail", "grail": "grail", "c": "combat", "combat": "combat", "w": "wits", "wits": "wits"}
WORD_KEYS = {"t": "type", "type": "type", "r": "rarity", "rarity": "rarity", "s": "set", "set": "set",
             "tag": "tag", "is": "is"}
IS_VALUES = ("unique", "generic", "castle", "written")
OPERATORS = ("<=", ">=", "!=", "<", ">", "=", ":")
MAX_QUERY = 300
MAX_TERMS = 20

_TOKEN_RE = re.compile(r'(-?)(?:"([^"]*)"?|(\S+))')
_FILTER_RE = re.compile(r"^([a-zA-Z]+)(<=|>=|!=|<|>|=|:)(.*)$")


@dataclass(frozen=True)
class Term:
    field: str           # grail, combat, wits, type, rarity, set, tag, is, text
    op: str              # "=", "!=", "<", "<=", ">", ">="
    value: object
    negate: bool = False


@dataclass
class Query:
    terms: list[Term] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def text_terms(self) -> list[Term]:
        return [t for t in self.terms if t.field == "text"]


def _one_of(value: str, choices, aliases=None) -> str | None:
    value = value.lower()
    if aliases and value in aliases:
        return aliases[value]
    if value in choices:
        return value
    matches = [c for c in choices if c.startswith(value)]
    return matches[0] if len(matches) == 1 else None


def _number_term(name: str, op: str, raw: str, negate: bool) -> Term | str:
    if not re.fullmatch(r"\d{1,2}", raw):
        return f"'{name}' needs a whole number, not '{raw}'."
    return Term(name, "=" if op == ":" else op, int(raw), negate)


def _word_term(name: str, op: str, raw: str, negate: bool) -> Term | str:
    if op not in (":", "=", "!="):
        return f"'{name}' can only be compared with ':' (e.g. {name}:value)."
    negate = negate ^ (op == "!=")
    if name == "type":
        value = _one_of(raw, TYPES, TYPE_ALIASES)
        if value is None:
            return f"Unknown card type '{raw}'."
    elif name == "rarity":
        value = _one_of(raw, RARITIES)
        if value is None:
            return f"Unknown rarity '{raw}' (fixed, common, uncommon, rare)."
    elif name == "is":
        value = raw.lower()
        if value not in IS_VALUES:
            return f"Unknown 'is:' value '{raw}' ({', '.join(IS_VALUES)})."
    else:
        value = raw.lower()
        if not re.fullmatch(r"[a-z0-9_-]{1,40}", value):
            return f"'{raw}' is not a valid {name}."
    return Term(name, "=", value, negate)


def _parse_token(negate: bool, word: str) -> Term | str | None:
    match = _FILTER_RE.match(word)
    if match:
        key, op, raw = match.group(1).lower(), match.group(2), match.group(3)
        if key in NUMBER_KEYS:
            return _number_term(NUMBER_KEYS[key], op, raw, negate)
        if key in WORD_KEYS:
            return _word_term(WORD_KEYS[key], op, raw, negate)
        if op == ":":
            return f"Unknown filter '{key}:'."
    return Term("text", "contains", word.lower(), negate)


def parse(text: str) -> Query:
    """Parse a search string; bad terms are reported in ``errors`` and left out."""
    query = Query()
    text = (text or "").strip()
    if len(text) > MAX_QUERY:
        query.errors.append(f"A search has at most {MAX_QUERY} characters.")
        text = text[:MAX_QUERY]
    for match in _TOKEN_RE.finditer(text):
        negate = match.group(1) == "-"
        if match.group(2) is not None:        # a quoted phrase is always text
            phrase = match.group(2).strip().lower()
            result = Term("text", "contains", phrase, negate) if phrase else None
        else:
            result = _parse_token(negate, match.group(3))
        if isinstance(result, str):
            query.errors.append(result)
        elif result is not None:
            query.terms.append(result)
    if len(query.terms) > MAX_TERMS:
        query.errors.append(f"A search has at most {MAX_TERMS} terms; the rest were left out.")
        query.terms = query.terms[:MAX_TERMS]
    return query
