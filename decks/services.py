"""Writes to the card database, collections, antes and decks.

Every change of ownership goes through ``_ledger_apply``: it locks the holdings involved
in a fixed order (user id, then card id), refuses anything that would make a holding
negative, updates the holdings and appends one ledger entry per change, all inside the
caller's transaction. The database constraints are the backstop, ``ledger_check`` the proof.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify

from decks import cardformat, loader
from grailsite import errors as games_errors
from decks.models import AnteStake, Card, CardRevision, Deck, DeckVersion, Holding, ImportJob, LedgerEntry

Reason = LedgerEntry.Reason
WYO_BLANK_TYPE = "write_yer_own"
MAX_DECK_COPIES = 99
MAX_DECK_SIZE = 200


class ServiceError(games_errors.ServiceError):
    """A refusal with a reason a person can read: the shell's one error type (status 400,
    the one JSON error shape), so every endpoint reports a deck refusal like a game's."""


class NotEnoughCards(ServiceError):
    pass


@dataclass(frozen=True)
class Change:
    user_id: int
    card_id: int
    quantity_delta: int = 0
    held_delta: int = 0
    reason: str = ""
    match_id: str = ""
    note: str = ""


# -- the ledger -----------------------------------------------------------------------------

def _lock_holdings(pairs) -> dict[tuple[int, int], Holding]:
    """Create missing holding rows, then lock all of them in (user, card) order."""
    pairs = sorted(set(pairs))
    if not pairs:
        return {}
    Holding.objects.bulk_create([Holding(user_id=u, card_id=c) for u, c in pairs], ignore_conflicts=True)
    condition = Q()
    for user_id, card_id in pairs:
        condition |= Q(user_id=user_id, card_id=card_id)
    rows = Holding.objects.select_for_update().filter(condition).order_by("user_id", "card_id")
    return {(h.user_id, h.card_id): h for h in rows}


def _ledger_apply(changes: list[Change], *, actor=None) -> list[LedgerEntry]:
    """Apply ``changes`` to holdings and append them to the ledger (caller holds the transaction)."""
    changes = [c for c in changes if c.quantity_delta or c.held_delta]
    holdings = _lock_holdings((c.user_id, c.card_id) for c in changes)
    touched = {}
    for change in changes:
        holding = holdings[(change.user_id, change.card_id)]
        holding.quantity += change.quantity_delta
        holding.held += change.held_delta
        if holding.quantity < 0 or holding.held < 0:
            card = Card.objects.get(pk=change.card_id)
            raise NotEnoughCards(f"Not enough copies of {card.title} for that.")
        touched[holding.pk] = holding
    Holding.objects.bulk_update(list(touched.values()), ["quantity", "held"])
    entries = [
        LedgerEntry(user_id=c.user_id, card_id=c.card_id, quantity_delta=c.quantity_delta, held_delta=c.held_delta,
                    reason=c.reason, match_id=c.match_id, note=c.note[:200], actor=actor)
        for c in changes
    ]
    return LedgerEntry.objects.bulk_create(entries)


def _lock_user(user) -> None:
    """Serialise a user's own multi-step writes (the starter grant, writing a card)."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()


def _cards_by_code(codes) -> dict[str, Card]:
    codes = set(codes)
    cards = {c.code: c for c in Card.objects.filter(code__in=codes)}
    missing = codes - set(cards)
    if missing:
        raise ServiceError(f"Unknown card(s): {', '.join(sorted(missing))}.")
    return cards


def collection_grant(*, user, cards: dict[str, int], reason: str, actor=None, note: str = "") -> list[LedgerEntry]:
    """Add (or, with negative counts, take away) copies by card code, through the ledger."""
    by_code = _cards_by_code(cards)
    changes = [Change(user.pk, by_code[code].pk, quantity_delta=n, reason=reason, note=note)
               for code, n in sorted(cards.items()) if n]
    with transaction.atomic():
        return _ledger_apply(changes, actor=actor)


def admin_grant(*, user, card_code: str, quantity: int, actor, note: str = "") -> list[LedgerEntry]:
    if not quantity:
        raise ServiceError("A grant must change the quantity.")
    return collection_grant(user=user, cards={card_code: quantity}, reason=Reason.ADMIN_GRANT, actor=actor, note=note)


def starter_grant(*, user) -> None:
    """A new account's starter collection and its ready-to-play decks, in one transaction."""
    collection = starter_collection_counts()
    with transaction.atomic():
        _lock_user(user)
        if LedgerEntry.objects.filter(user=user, reason=Reason.STARTER_GRANT).exists():
            return  # granted once only, even if called twice
        collection_grant(user=user, cards=collection, reason=Reason.STARTER_GRANT, note="Welcome to the quest")
        for deck in starter_deck_lists():
            deck_save(user=user, name=deck["name"], cards=deck["cards"], note="Starter deck")


def starter_collection_counts() -> dict[str, int]:
    data = cardformat.starter_collection()
    if isinstance(data, dict) and "cards" in data:
        data = data["cards"]
    return _counts_from(data)


def starter_deck_lists() -> list[dict]:
    data = cardformat.starter_decks()
    if isinstance(data, dict):
        data = data.get("decks", [{"name": name, "cards": cards} for name, cards in data.items()])
    return [{"name": d.get("name") or d.get("title") or "Starter deck", "cards": _counts_from(d["cards"])} for d in data]


def _counts_from(data) -> dict[str, int]:
    """{code: n} from either {code: n} or [{"code": c, "quantity"|"count": n}, ...] or [code, ...]."""
    if isinstance(data, dict):
        return {code: int(n) for code, n in data.items()}
    counts: dict[str, int] = {}
    for item in data:
        if isinstance(item, str):
            counts[item] = counts.get(item, 0) + 1
        else:
            n = item.get("quantity", item.get("count", item.get("qty", 1)))
            counts[item["code"]] = counts.get(item["code"], 0) + int(n)
    return counts


# -- antes ----------------------------------------------------------------------------------

def ante_hold(*, user, card_code: str, match_id) -> AnteStake:
    """Stake one free copy of a card for a match. The refusal names no card: the card may be
    face down to whoever caused the stake (a game stakes with ``ante_hold_first_free``)."""
    card = _cards_by_code([card_code])[card_code]
    match_id = str(match_id)
    try:
        with transaction.atomic():
            _ledger_apply([Change(user.pk, card.pk, quantity_delta=-1, held_delta=1, reason=Reason.ANTE_HELD,
                                  match_id=match_id)])
            return AnteStake.objects.create(match_id=match_id, user=user, card=card)
    except NotEnoughCards:
        raise NotEnoughCards("Every copy of that card is staked in another game.") from None


def ante_hold_first_free(*, user, codes: list[str], wanted: int, match_id) -> list[int]:
    """Stake for a match the first ``wanted`` cards of ``codes`` (a deck's cards in drawing
    order) of which ``user`` has a free copy; a card whose copies are all staked in other
    games is passed over. Returns the positions in ``codes`` staked, in order (fewer than
    ``wanted`` if the list runs out). The user's holdings of every code are locked first, in
    the ledger's order, so nothing frees or takes a copy between looking and holding. It
    refuses nothing and names no card: which cards were passed over is hidden information."""
    if wanted <= 0 or not codes:
        return []
    by_code = _cards_by_code(codes)
    match_id = str(match_id)
    with transaction.atomic():
        holdings = _lock_holdings((user.pk, card.pk) for card in by_code.values())
        free = {code: holdings[(user.pk, card.pk)].quantity for code, card in by_code.items()}
        staked: list[int] = []
        for index, code in enumerate(codes):
            if len(staked) == wanted:
                break
            if free[code] > 0:
                free[code] -= 1
                staked.append(index)
        _ledger_apply([Change(user.pk, by_code[codes[i]].pk, quantity_delta=-1, held_delta=1,
                              reason=Reason.ANTE_HELD, match_id=match_id) for i in staked])
        AnteStake.objects.bulk_create([AnteStake(match_id=match_id, user=user, card=by_code[codes[i]])
                                       for i in staked])
    return staked


def _held_stakes(match_id) -> list[AnteStake]:
    return list(AnteStake.objects.select_for_update().filter(match_id=str(match_id), status=AnteStake.Status.HELD)
                .order_by("id"))


def ante_settle(*, match_id, winner, note: str = "") -> list[AnteStake]:
    """Every held card of the match goes to ``winner``; a second call finds nothing left to do.
    ``note``: how the game ended, on every ledger entry."""
    match_id = str(match_id)
    with transaction.atomic():
        stakes = _held_stakes(match_id)
        changes = []
        for stake in stakes:
            if stake.user_id == winner.pk:
                changes.append(Change(winner.pk, stake.card_id, quantity_delta=1, held_delta=-1,
                                      reason=Reason.ANTE_RETURNED, match_id=match_id, note=note))
            else:
                changes.append(Change(stake.user_id, stake.card_id, held_delta=-1, reason=Reason.ANTE_LOST,
                                      match_id=match_id, note=note))
                changes.append(Change(winner.pk, stake.card_id, quantity_delta=1, reason=Reason.ANTE_WON,
                                      match_id=match_id, note=note))
        _ledger_apply(changes)
        _stakes_close(stakes, status=AnteStake.Status.SETTLED, winner=winner)
        return stakes


def ante_release(*, match_id, note: str = "") -> list[AnteStake]:
    """Give every held card of the match back to its owner: a game called off, or one that
    ended without anyone winning the ante; ``note`` says which, on every ledger entry."""
    match_id = str(match_id)
    with transaction.atomic():
        stakes = _held_stakes(match_id)
        _ledger_apply([Change(s.user_id, s.card_id, quantity_delta=1, held_delta=-1, reason=Reason.ANTE_RELEASED,
                              match_id=match_id, note=note) for s in stakes])
        _stakes_close(stakes, status=AnteStake.Status.RELEASED, winner=None)
        return stakes


def _stakes_close(stakes, *, status, winner) -> None:
    now = timezone.now()
    for stake in stakes:
        stake.status, stake.winner, stake.resolved_at = status, winner, now
    AnteStake.objects.bulk_update(stakes, ["status", "winner", "resolved_at"])


# -- the card database ----------------------------------------------------------------------

def cards_upsert(*, cards: list[dict], source: str, actor=None, note: str = "") -> dict:
    """Create or update cards by code (validated, with a revision per change); all or nothing."""
    with transaction.atomic():
        return loader.upsert_cards(cards, Card=Card, CardRevision=CardRevision, source=source, actor=actor, note=note)


def card_revision_record(*, card: Card, actor, source: str, previous: dict | None, note: str = "") -> CardRevision | None:
    """Record a revision after an edit made elsewhere (the admin form); None if nothing changed."""
    data = card.to_format()
    data.pop("author", None)
    fields = ["*"] if previous is None else sorted(k for k in data if previous.get(k) != data[k])
    if not fields:
        return None
    number = card.revisions.count() + 1
    return CardRevision.objects.create(card=card, number=number, data=data, changed_fields=fields,
                                       changed_by=actor, source=source, note=note)


def card_import_prepare(*, cards: list[dict], filename: str, actor) -> ImportJob:
    """Dry run: validate every card and work out what would be created or changed; writes no card."""
    errors, normalised = [], []
    for index, raw in enumerate(cards, start=1):
        problems = cardformat.card_errors(raw) if isinstance(raw, dict) else ["Not a card object."]
        label = raw.get("code") if isinstance(raw, dict) and raw.get("code") else f"row {index}"
        if problems:
            errors.append({"row": index, "code": str(label), "reasons": problems})
        else:
            normalised.append(cardformat.normalize(raw))
    codes = [d["code"] for d in normalised]
    if len(codes) != len(set(codes)):
        dupes = sorted({c for c in codes if codes.count(c) > 1})
        errors.append({"row": 0, "code": ", ".join(dupes), "reasons": ["The same code appears more than once."]})
    existing = {c.code: c for c in Card.objects.filter(code__in=codes)}
    create, update, unchanged, values = [], [], 0, {}
    for data in normalised:
        card = existing.get(data["code"])
        if card is None:
            create.append(data["code"])
            continue
        row = loader.row_values(data)
        fields = loader.changed_fields(card, row)
        if fields:
            update.append({"code": data["code"], "fields": fields})
            # What the keeper compares before applying: each changed field's old and new value.
            values[data["code"]] = [[f, _shown(getattr(card, f)), _shown(row[f])] for f in fields]
        else:
            unchanged += 1
    preview = {"create": create, "update": update, "unchanged": unchanged, "errors": errors, "values": values}
    return ImportJob.objects.create(created_by=actor, filename=filename[:200], cards=[] if errors else normalised,
                                    preview=preview)


PREVIEW_VALUE_MAX = 300


def _shown(value) -> str:
    """A field value as the import preview prints it (bounded: a table can be long)."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= PREVIEW_VALUE_MAX else text[:PREVIEW_VALUE_MAX - 1] + "…"


def card_import_step(*, job: ImportJob, batch: int = 200, actor=None) -> ImportJob:
    """Apply the next ``batch`` cards of a clean import job (so a large import shows progress)."""
    with transaction.atomic():
        job = ImportJob.objects.select_for_update().get(pk=job.pk)
        if job.preview.get("errors"):
            raise ServiceError("This import has errors; fix the file and upload it again.")
        chunk = job.cards[job.applied:job.applied + batch]
        if chunk:
            loader.upsert_cards(chunk, Card=Card, CardRevision=CardRevision, source="import", actor=actor,
                                note=f"import {job.filename}")
            job.applied += len(chunk)
            job.save(update_fields=["applied"])
        return job


# -- decks ----------------------------------------------------------------------------------

def _clean_deck_cards(cards: dict[str, int]) -> dict[str, int]:
    clean = {}
    for code, n in cards.items():
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= MAX_DECK_COPIES:
            raise ServiceError(f"Quantity for {code} must be a whole number from 0 to {MAX_DECK_COPIES}.")
        if n:
            clean[str(code)] = n
    if sum(clean.values()) > MAX_DECK_SIZE:
        raise ServiceError(f"A deck holds at most {MAX_DECK_SIZE} cards.")
    return dict(sorted(clean.items()))


def _check_visible(*, user, cards: dict[str, int]) -> None:
    """A deck may list any card its owner can see, owned or not: cards not owned yet make it a
    wish list, refused only when it is chosen for a game (games/ccg_shell.py checks then).
    Another player's unpublished Write Yer Own card is as unknown as a card that does not exist."""
    by_code = _cards_by_code(cards)
    hidden = sorted(code for code, card in by_code.items()
                    if card.review != Card.Review.OFFICIAL and card.author_id != user.pk)
    if hidden:
        raise ServiceError(f"Unknown card(s): {', '.join(hidden)}.")


def _deck_name(name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise ServiceError("A deck needs a name.")
    if len(name) > Deck.NAME_MAX:
        raise ServiceError(f"A deck name has at most {Deck.NAME_MAX} characters.")
    return name


def deck_save(*, user, cards: dict[str, int], name: str, deck: Deck | None = None, note: str = "") -> Deck:
    """Create a deck or save a new version of it. It may list cards the user does not own yet
    (a wish list); ``decks.selectors.decks_playability`` says what it still needs."""
    name = _deck_name(name)
    cards = _clean_deck_cards(cards)
    with transaction.atomic():
        _check_visible(user=user, cards=cards)
        if deck is None:
            deck = Deck.objects.create(owner=user, name=name, cards=cards)
        else:
            deck = Deck.objects.select_for_update().get(pk=deck.pk, owner=user)
            deck.name, deck.cards = name, cards
        deck.version += 1
        deck.save()
        DeckVersion.objects.create(deck=deck, number=deck.version, name=name, cards=cards, note=note[:120])
        return deck


def deck_rename(*, user, deck: Deck, name: str) -> Deck:
    """Renaming is a save too: it keeps a version with the same cards."""
    return deck_save(user=user, deck=deck, name=name, cards=dict(deck.cards), note="Renamed")


def deck_clone(*, user, deck: Deck, name: str | None = None) -> Deck:
    if deck.owner_id != user.pk:
        raise ServiceError("You can only clone your own decks.")
    name = name or f"Copy of {deck.name}"[:Deck.NAME_MAX]
    return deck_save(user=user, name=name, cards=dict(deck.cards), note=f"Cloned from {deck.name}"[:120])


def deck_delete(*, user, deck: Deck) -> None:
    Deck.objects.filter(pk=deck.pk, owner=user).delete()


def deck_version_restore(*, user, deck: Deck, number: int) -> Deck:
    version = DeckVersion.objects.get(deck=deck, deck__owner=user, number=number)
    return deck_save(user=user, deck=deck, name=version.name, cards=dict(version.cards),
                     note=f"Restored version {number}")


# -- Write Yer Own --------------------------------------------------------------------------

def wyo_blank_code() -> str:
    blank = Card.objects.filter(type=WYO_BLANK_TYPE, review=Card.Review.OFFICIAL).order_by("id").first()
    if blank is None:
        raise ServiceError("The card database has no blank Write Yer Own card.")
    return blank.code


WYO_FIELDS = ("type", "title", "grail", "combat", "wits", "castle_icon", "unique", "castle_defense",
              "quote", "primary", "secondary", "page", "secondary_adversary", "draw_bonus",
              "round_table_bonus", "castle_table", "castle_occupant", "village_table")


def wyo_design(*, user, data: dict) -> dict:
    """The card dict a Write Yer Own design becomes (before validation)."""
    card = {k: data[k] for k in WYO_FIELDS if k in data}
    card["title"] = str(card.get("title") or "").strip()
    card["quote"] = str(card.get("quote") or "").strip()
    card["code"] = f"wyo-{_code_part(user.username, 30) or 'player'}-{_code_part(card['title'], 40) or 'card'}"
    card["tags"] = ["write_yer_own"]
    card["author"] = user.username
    card["rarity"] = "rare"
    card["set"] = "wyo"
    return card


def _code_part(text: str, limit: int) -> str:
    """A piece of a card code made from a name or title. Card codes allow lowercase letters,
    digits and single hyphens only: slugify keeps underscores (``lancelot_n``), so every run
    of anything else becomes one hyphen."""
    return _NOT_CODE.sub("-", slugify(text)).strip("-")[:limit].strip("-")


_NOT_CODE = re.compile(r"[^a-z0-9]+")
# Fields the designer fills in itself: the author never sees them, so no reason given to the
# author may name them (the username lancelot_n was once told "'code' must be a lowercase slug").
_UNSEEN_FIELDS = re.compile(r"'(code|tags|author|rarity|set)'")
_UNSEEN_REASON = "The site could not file this card under your name and its title; try another title."


def wyo_errors(card: dict) -> list[str]:
    """Every reason a design is refused: the card format, then the power budget of its type."""
    if card.get("type") == WYO_BLANK_TYPE:
        return ["Choose what kind of card the blank becomes."]
    if isinstance(card.get("grail"), int) and card["grail"] > 7:
        return ["A grail number may be at most seven."]
    errors = cardformat.card_errors(card)
    if not errors:
        errors = cardformat.budget_errors(card)
    return list(dict.fromkeys(_UNSEEN_REASON if _UNSEEN_FIELDS.search(e) else e for e in errors))


def wyo_card_write(*, user, data: dict, image=None) -> Card:
    """Turn one blank Write Yer Own card of ``user`` into a card of their own, permanently."""
    card = wyo_design(user=user, data=data)
    errors = wyo_errors(card)
    if errors:
        raise ServiceError(" ".join(errors))
    blank = _cards_by_code([wyo_blank_code()])[wyo_blank_code()]
    with transaction.atomic():
        _lock_user(user)  # one design at a time per user: the code chosen below stays free
        base, n = card["code"], 1
        while Card.objects.filter(code=card["code"]).exists():
            n += 1
            card["code"] = f"{base}-{n}"
        normal = cardformat.normalize(card)
        row = Card(author=user, review=Card.Review.PRIVATE)
        row.apply_format(normal)
        # The words under the picture, as the admin writes them: the face shows the numbers.
        row.text = row.text or cardformat.printed_text(normal)
        if image is not None:
            row.image = image
        row.save()
        CardRevision.objects.create(card=row, number=1, data=normal, changed_fields=["*"], changed_by=user,
                                    source="write_yer_own")
        # The blank is spent and the new card arrives: two ledger entries, one transaction.
        _ledger_apply([
            Change(user.pk, blank.pk, quantity_delta=-1, reason=Reason.WYO_WRITTEN, note=f"Became {row.code}"),
            Change(user.pk, row.pk, quantity_delta=1, reason=Reason.WYO_WRITTEN, note="Written"),
        ], actor=user)
        return row


def wyo_card_submit(*, user, card: Card) -> Card:
    if card.author_id != user.pk:
        raise ServiceError("Only the author can submit a card.")
    if card.review not in (Card.Review.PRIVATE, Card.Review.REJECTED):
        raise ServiceError("This card is already submitted or official.")
    card.review = Card.Review.SUBMITTED
    card.save(update_fields=["review", "updated_at"])
    return card


def wyo_card_promote(*, card: Card, actor) -> Card:
    """An admin takes a submitted card into the official set (the author keeps the credit)."""
    if card.review != Card.Review.SUBMITTED:
        raise ServiceError("Only submitted cards can be promoted.")
    with transaction.atomic():
        previous = card.to_format()
        previous.pop("author", None)
        card.review = Card.Review.OFFICIAL
        card.set_code = "base"
        card.save()
        card_revision_record(card=card, actor=actor, source="promotion", previous=previous, note="Promoted")
    return card


def wyo_card_reject(*, card: Card, actor) -> Card:
    if card.review != Card.Review.SUBMITTED:
        raise ServiceError("Only submitted cards can be turned down.")
    card.review = Card.Review.REJECTED
    card.save(update_fields=["review", "updated_at"])
    return card


def user_by_name(username: str):
    return get_user_model().objects.get(username=username)

