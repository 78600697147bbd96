"""Deck lists as plain text: one card a line, `3 Brave Sir Robin`, comments after `#` or `//`.

A line is `<count> <card>` (also `3x Brave Sir Robin`), or just `<card>` for one copy; the card
is named by its title (any letter case) or by its code. Parsing reports every bad line
with its number and reason (a name that matches no card suggests the nearest titles); a
caller changes nothing unless the list is clean.
Pure: the caller passes the cards to match against as ``CardRef`` values.
"""
from __future__ import annotations

import difflib
import re
from collections import defaultdict
from dataclasses import dataclass, field

MAX_LINES = 500
MAX_LINE_LENGTH = 200
MAX_COPIES = 99

SUGGESTIONS = 3
SUGGEST_FROM = 0.6   # how alike (difflib's ratio) a title must be to be suggested

_LINE_RE = re.compile(r"^(?:(\d+)\s*[xX]?\s+)?(.+?)$")


@dataclass(frozen=True)
class CardRef:
    code: str
    title: str
    type: str = ""


@dataclass
class ParseResult:
    cards: dict[str, int] = field(default_factory=dict)
    errors: list[tuple[int, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def _either(titles: list[str]) -> str:
    return titles[0] if len(titles) == 1 else ", ".join(titles[:-1]) + " or " + titles[-1]


def _strip_comment(line: str) -> str:
    for marker in ("#", "//"):
        index = line.find(marker)
        if index != -1:
            line = line[:index]
    return line.strip()


class _Index:
    def __init__(self, cards):
        self.by_code = {c.code: c for c in cards}
        self.by_title = defaultdict(list)
        for c in cards:
            self.by_title[c.title.casefold()].append(c)

    def find(self, name: str) -> tuple[CardRef | None, str]:
        matches = self.by_title.get(" ".join(name.split()).casefold(), [])
        if len(matches) == 1:
            return matches[0], ""
        if len(matches) > 1:
            codes = ", ".join(sorted(c.code for c in matches))
            return None, f"'{name}' names several cards; write its code instead ({codes})."
        if name in self.by_code:
            return self.by_code[name], ""
        close = self.nearest(name)
        hint = f" Did you mean {_either(close)}?" if close else ""
        return None, f"No card called '{name}'.{hint}"

    def nearest(self, name: str, most: int = SUGGESTIONS) -> list[str]:
        """The titles nearest to a name that matched none: those containing it first (so
        "Sir Robin" finds "Brave Sir Robin"), then those that look alike; closest first."""
        wanted = " ".join(name.split()).casefold()
        if not wanted:
            return []
        scored = []
        for title, cards in self.by_title.items():
            score = difflib.SequenceMatcher(None, wanted, title).ratio()
            if wanted in title or title in wanted:
                score += 1
            if score >= SUGGEST_FROM:
                scored.append((-score, cards[0].title))
        return [title for _, title in sorted(scored)[:most]]


def parse(text: str, cards) -> ParseResult:
    """Parse a deck list against ``cards`` (CardRef values)."""
    result = ParseResult()
    index = _Index(cards)
    lines = (text or "").splitlines()
    if len(lines) > MAX_LINES:
        result.errors.append((MAX_LINES + 1, f"A deck list has at most {MAX_LINES} lines."))
        lines = lines[:MAX_LINES]
    counts: dict[str, int] = defaultdict(int)
    for number, raw in enumerate(lines, start=1):
        if len(raw) > MAX_LINE_LENGTH:
            result.errors.append((number, f"Line is longer than {MAX_LINE_LENGTH} characters."))
            continue
        line = _strip_comment(raw)
        if not line:
            continue
        match = _LINE_RE.match(line)
        count = int(match.group(1)) if match.group(1) else 1
        name = match.group(2).strip()
        if not 1 <= count <= MAX_COPIES:
            result.errors.append((number, f"The count must be from 1 to {MAX_COPIES}."))
            continue
        card, reason = index.find(name)
        if card is None:
            result.errors.append((number, reason))
            continue
        counts[card.code] += count
    too_many = [code for code, n in counts.items() if n > MAX_COPIES]
    for code in too_many:
        result.errors.append((0, f"More than {MAX_COPIES} copies of {index.by_code[code].title} in all."))
    if not result.errors:
        result.cards = dict(sorted(counts.items()))
    return result


def export(name: str, deck: dict[str, int], cards) -> str:
    """A deck list that ``parse`` reads back to the same cards (grouped by type, commented)."""
    index = _Index(cards)
    lines = [f"# {_one_line(name)}", f"# {sum(deck.values())} cards"]
    by_type = defaultdict(list)
    for code, count in deck.items():
        card = index.by_code.get(code)
        if card is not None and count:
            by_type[card.type].append((card, count))
    for card_type in sorted(by_type):
        lines.append("")
        lines.append(f"# {card_type.replace('_', ' ').title()}")
        for card, count in sorted(by_type[card_type], key=lambda pair: pair[0].title.casefold()):
            unambiguous = len(index.by_title[card.title.casefold()]) == 1 and not _needs_code(card.title)
            lines.append(f"{count} {card.title if unambiguous else card.code}")
    return "\n".join(lines) + "\n"


def _needs_code(title: str) -> bool:
    """Titles the line syntax would misread (comment markers, a leading count) go out as codes."""
    return "#" in title or "//" in title or bool(re.match(r"^\d+\s*[xX]?\s", title)) or title != title.strip()


def _one_line(text: str) -> str:
    return " ".join(str(text).split())
