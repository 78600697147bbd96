"""Reads: card search, collections, the ledger check, deck analysis."""
from __future__ import annotations

import secrets
from collections import Counter

from django.db.models import Count, Exists, OuterRef, Q, Sum

from decks import cardformat, query as query_syntax
from decks.models import AnteStake, Card, Deck, Holding, LedgerEntry
from decks.services import MAX_DECK_SIZE
from games.rules.ccg import cards_decks
from games.rules.rng import Rng, new_rng_state

SEARCH_LIMIT = 60
OPENING_AREAS = 14   # rule 2.4: fourteen cards form England and Avalon
OPENING_HAND = 7     # rule 2.5


# -- card search ----------------------------------------------------------------------------

def cards_visible_to(user):
    """Official cards, plus the Write Yer Own cards the user wrote."""
    condition = Q(review=Card.Review.OFFICIAL)
    if user is not None and user.is_authenticated:
        condition |= Q(author=user)
    return Card.objects.filter(condition)


_NUMBER_LOOKUPS = {"=": "exact", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}


def _term_condition(term: query_syntax.Term) -> Q:
    if term.field in ("grail", "combat", "wits"):
        if term.op == "!=":
            condition = ~Q(**{term.field: term.value}) & Q(**{f"{term.field}__isnull": False})
        else:
            condition = Q(**{f"{term.field}__{_NUMBER_LOOKUPS[term.op]}": term.value})
    elif term.field == "type":
        condition = Q(type=term.value)
    elif term.field == "rarity":
        condition = Q(rarity=term.value)
    elif term.field == "set":
        condition = Q(set_code=term.value)
    elif term.field == "tag":
        condition = Q(tags__contains=[term.value]) if _json_contains_supported() else Q(tags__icontains=f'"{term.value}"')
    elif term.field == "is":
        condition = {
            "unique": Q(unique=True), "generic": Q(unique=False), "castle": Q(castle_icon=True),
            "written": Q(author__isnull=False),
        }[term.value]
    else:  # text: search_text is stored lower-cased, so a plain contains is enough
        condition = Q(search_text__contains=term.value)
    return ~condition if term.negate else condition


def _json_contains_supported() -> bool:
    from django.db import connection
    return connection.features.supports_json_field_contains


def card_search(*, text: str, user=None, limit: int = SEARCH_LIMIT, offset: int = 0, owned_only: bool = False):
    """(cards, total, errors) for a query string in the search syntax; ``owned_only`` keeps
    the cards the user has a copy of (free or staked), so the total counts only those."""
    parsed = query_syntax.parse(text)
    qs = cards_visible_to(user)
    if owned_only and user is not None and user.is_authenticated:
        qs = qs.filter(Exists(Holding.objects.filter(card=OuterRef("pk"), user=user)
                              .filter(Q(quantity__gt=0) | Q(held__gt=0))))
    for term in parsed.terms:
        qs = qs.filter(_term_condition(term))
    total = qs.count()
    cards = list(qs.order_by("type", "title", "id")[offset:offset + limit])
    return cards, total, parsed.errors


# -- collections ----------------------------------------------------------------------------

def owned_counts(*, user, card_ids=None) -> dict[int, int]:
    """{card id: copies owned (free + staked)} for the user."""
    qs = Holding.objects.filter(user=user)
    if card_ids is not None:
        qs = qs.filter(card_id__in=card_ids)
    return {h.card_id: h.quantity + h.held for h in qs if h.quantity + h.held}


def collection_for(*, user, text: str = ""):
    """The user's holdings (with cards) matching a search, and the search's errors."""
    parsed = query_syntax.parse(text)
    qs = Holding.objects.filter(user=user).filter(Q(quantity__gt=0) | Q(held__gt=0)).select_related("card")
    for term in parsed.terms:
        qs = qs.filter(_prefixed(_term_condition(term)))
    return list(qs.order_by("card__type", "card__title")), parsed.errors


def _prefixed(condition: Q) -> Q:
    """Re-root a Card condition on Holding.card."""
    clone = Q()
    clone.connector, clone.negated = condition.connector, condition.negated
    clone.children = [_prefixed(c) if isinstance(c, Q) else (f"card__{c[0]}", c[1]) for c in condition.children]
    return clone


def collection_counts(*, user) -> dict:
    """Copies owned by type and by rarity, and the total."""
    qs = Holding.objects.filter(user=user)
    by_type = {r["card__type"]: r["n"] for r in qs.values("card__type").annotate(n=Sum("quantity") + Sum("held")) if r["n"]}
    by_rarity = {r["card__rarity"]: r["n"] for r in qs.values("card__rarity").annotate(n=Sum("quantity") + Sum("held")) if r["n"]}
    labels = dict(Card._meta.get_field("type").choices)
    return {"by_type": [(t, labels.get(t, t), n) for t, n in sorted(by_type.items())],
            "by_rarity": by_rarity, "total": sum(by_type.values())}


def ledger_for(*, user, card=None, limit: int = 200, before: int | None = None):
    """The user's ledger entries, newest first; ``before`` (an entry id) pages back in time
    by the id index, so an old page costs what the first one does."""
    qs = LedgerEntry.objects.filter(user=user).select_related("card", "actor")
    if card is not None:
        qs = qs.filter(card=card)
    if before is not None:
        qs = qs.filter(id__lt=before)
    return list(qs.order_by("-id")[:limit])


def ledger_discrepancies() -> list[str]:
    """Every way the holdings disagree with the ledger or with open ante stakes (empty = sound)."""
    problems = []
    sums = {
        (r["user_id"], r["card_id"]): (r["q"], r["h"])
        for r in LedgerEntry.objects.values("user_id", "card_id").annotate(q=Sum("quantity_delta"), h=Sum("held_delta"))
    }
    stakes = Counter(
        {(r["user_id"], r["card_id"]): r["n"]
         for r in AnteStake.objects.filter(status=AnteStake.Status.HELD).values("user_id", "card_id").annotate(n=Count("id"))}
    )
    seen = set()
    for h in Holding.objects.values("user_id", "card_id", "quantity", "held"):
        key = (h["user_id"], h["card_id"])
        seen.add(key)
        q, held = sums.get(key, (0, 0))
        if (h["quantity"], h["held"]) != (q, held):
            problems.append(f"user {key[0]} card {key[1]}: holding {h['quantity']} free/{h['held']} held, "
                            f"ledger says {q}/{held}.")
        if h["held"] != stakes.get(key, 0):
            problems.append(f"user {key[0]} card {key[1]}: {h['held']} held but {stakes.get(key, 0)} open stake(s).")
    for key, (q, held) in sums.items():
        if key not in seen and (q or held):
            problems.append(f"user {key[0]} card {key[1]}: no holding, ledger says {q}/{held}.")
    for key, n in stakes.items():
        if key not in seen:
            problems.append(f"user {key[0]} card {key[1]}: {n} open stake(s) without a holding.")
    return problems


# -- decks ----------------------------------------------------------------------------------

def decks_for(*, user):
    return list(Deck.objects.filter(owner=user).order_by("-updated_at", "id"))


def deck_cards(cards: dict[str, int]) -> dict[str, Card]:
    # The author rides along: a written card's format names it (Card.to_format).
    return {c.code: c for c in Card.objects.filter(code__in=list(cards)).select_related("author")}


def deck_analysis(*, user, cards: dict[str, int]) -> dict:
    """Validation reasons and statistics for a deck list {code: quantity}."""
    return analyse(analysis_inputs(user=user, cards=cards))


def analysis_inputs(*, user, cards: dict[str, int]) -> dict:
    """The database's part of an analysis: the cards named, their formats, what the user owns."""
    known = deck_cards(cards)
    return {"cards": cards, "known": known, "owned": owned_counts(user=user, card_ids=[c.pk for c in known.values()])}


def analyse(inputs: dict) -> dict:
    """The CPU part of an analysis, on ``analysis_inputs``: no database, so any thread may run
    it (decks/api.py runs it on a thread of its own)."""
    cards, known = inputs["cards"], inputs["known"]
    # deck_cards loaded each card's author, so the formats ask the database nothing.
    problems, missing = _deck_problems(cards, known, inputs["owned"], card_formats(known))
    return {"valid": not problems, "problems": problems, "missing": missing,
            "stats": deck_stats(cards=cards, known=known)}


def card_formats(known: dict[str, Card]) -> dict[str, dict]:
    """Each card's plain format, made once however many copies a list holds."""
    return {code: card.to_format() for code, card in known.items()}


def _deck_problems(cards: dict[str, int], known: dict[str, Card], owned: dict[int, int],
                   formats: dict[str, dict]) -> tuple[list[str], list[str]]:
    """(every reason the deck cannot be played now, the cards still to get): a deck may list
    cards its owner does not have yet (a wish list); it is refused only when chosen for a game."""
    problems = [f"Unknown card '{code}'." for code in cards if code not in known]
    missing = []
    for code, n in cards.items():
        card = known.get(code)
        if card is not None and n > owned.get(card.pk, 0):
            problems.append(f"You own {owned.get(card.pk, 0)} of {card.title} but the deck has {n}.")
            missing.append(f"{n - owned.get(card.pk, 0)} {card.title}")
    return problems + rules_problems(cards, formats), missing


def rules_problems(cards: dict[str, int], formats: dict[str, dict]) -> list[str]:
    """The CCG rules' reasons against a list {code: copies} (unknown codes left out).

    The rules look at every copy, and a list may name 200 codes at 99 copies each: 19,800
    copies, most of a second of CPU for one request. A list longer than any deck can be
    saved as (MAX_DECK_SIZE) is far past the rules' own size limit, so that is its reason,
    and the other rules are checked once it is back within bounds: one analysis lays out at
    most MAX_DECK_SIZE copies."""
    total = sum(n for code, n in cards.items() if code in formats)
    if total > MAX_DECK_SIZE:
        return [f"A deck holds at most {cards_decks.DECK_MAX_SIZE} cards; this one has {total}."]
    copies = [formats[code] for code, n in cards.items() if code in formats for _ in range(n)]
    return [reason[:1].upper() + reason[1:] for reason in cardformat.deck_errors(copies)]


def decks_playability(*, user, decks=None) -> list[dict]:
    """Each of the user's decks with whether it can be played and, if not, why (first reason
    first), and the cards a wish-list deck still needs. Three queries however many decks."""
    decks = decks_for(user=user) if decks is None else decks
    known = deck_cards({code: 1 for deck in decks for code in deck.cards})
    owned = owned_counts(user=user, card_ids=[c.pk for c in known.values()])
    formats = card_formats(known)
    rows = []
    for deck in decks:
        problems, missing = _deck_problems(deck.cards, known, owned, formats)
        rows.append({"deck": deck, "playable": not problems, "problems": problems, "missing": missing})
    return rows


def deck_stats(*, cards: dict[str, int], known: dict[str, Card]) -> dict:
    by_type, grail, combat, wits = Counter(), Counter(), Counter(), Counter()
    for code, n in cards.items():
        card = known.get(code)
        if card is None:
            continue
        by_type[card.type] += n
        grail[card.grail] += n
        if card.combat is not None:
            combat[card.combat] += n
        if card.wits is not None:
            wits[card.wits] += n
    return {
        "size": sum(n for code, n in cards.items() if code in known),
        "by_type": dict(sorted(by_type.items())),
        "grail": {str(g): grail.get(g, 0) for g in range(8)},
        "combat": {str(k): v for k, v in sorted(combat.items())},
        "wits": {str(k): v for k, v in sorted(wits.items())},
    }


def sample_opening(*, cards: dict[str, int], seed: int | None = None) -> dict:
    """Set Arthur and Patsy aside, shuffle with the engine's own seeded generator (the one a
    game's set-up uses), lay 14 cards out as England/Avalon, draw 7. ``warnings`` says every
    rule the deck breaks: the opening of a deck that cannot be played is only a sketch."""
    known = deck_cards(cards)
    return opening_of(cards, known, card_formats(known), seed=seed)


def opening_of(cards: dict[str, int], known: dict[str, Card], formats: dict[str, dict], *,
               seed: int | None = None) -> dict:
    """sample_opening's CPU part (no database: any thread may run it)."""
    pile = [known[code] for code, n in sorted(cards.items()) if code in known for _ in range(n)]
    aside = []
    for tag in ("arthur", "patsy"):
        for card in pile:
            if tag in (card.tags or []):
                aside.append(card)
                pile.remove(card)
                break
    Rng(new_rng_state(secrets.randbits(62) if seed is None else seed)).shuffle(pile)
    warnings = [f"Unknown card '{code}'." for code in cards if code not in known]
    warnings += rules_problems(cards, formats)
    return {"aside": aside, "areas": pile[:OPENING_AREAS], "hand": pile[OPENING_AREAS:OPENING_AREAS + OPENING_HAND],
            "short": len(pile) < OPENING_AREAS + OPENING_HAND, "warnings": warnings}


def review_queue():
    return Card.objects.filter(review=Card.Review.SUBMITTED).select_related("author").order_by("updated_at")


def deck_card_dicts(*, deck: Deck) -> list[dict]:
    """The deck as the CCG engine takes it: one card dict (the plain card format) per copy."""
    known = deck_cards(deck.cards)
    return [known[code].to_format() for code, n in sorted(deck.cards.items()) if code in known for _ in range(n)]
