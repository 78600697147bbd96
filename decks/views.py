"""Pages for cards, collections, decks and Write Yer Own (their JSON endpoints are in
decks/api.py).

Views only translate HTTP into service and selector calls; every write is a service.
"""
from __future__ import annotations

import base64
from pathlib import Path

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_POST

from decks import cardformat, selectors, services, textformat
from decks.forms import FIELD_TYPES, HELP_EXAMPLE, MAX_PICTURE_BYTES, MAX_TABLE_ROWS, DeckImportForm, DeckRenameForm, WriteYerOwnForm
from decks.models import Card, Deck, DeckVersion
from games.rules.ccg import cards as ccg_cards
from games.rules.ccg import vocabulary


def card_json(card: Card, owned: int | None = None) -> dict:
    data = {
        "code": card.code, "title": card.title, "type": card.type, "grail": card.grail,
        "combat": card.combat, "wits": card.wits, "rarity": card.rarity, "unique": card.unique,
        "castle_icon": card.castle_icon, "tags": card.tags, "text": card.text,
        "effects": cardformat.effects_text(card.primary), "quote": card.quote,
        "author": card.author.username if card.author_id else None,
        "url": reverse("card_detail", args=[card.code]),
    }
    if owned is not None:
        data["owned"] = owned
    return data


def _card_refs(user):
    """The cards a deck list may name: those this user can see."""
    return [textformat.CardRef(c["code"], c["title"], c["type"])
            for c in selectors.cards_visible_to(user).values("code", "title", "type")]


# -- card search ----------------------------------------------------------------------------

@require_GET
def card_search(request):
    text = request.GET.get("q", "")
    page = max(1, int(request.GET.get("page", "1")) if request.GET.get("page", "1").isdigit() else 1)
    limit = selectors.SEARCH_LIMIT
    cards, total, errors = selectors.card_search(text=text, user=request.user, limit=limit, offset=(page - 1) * limit)
    return render(request, "decks/card_search.html", {
        "q": text, "cards": cards, "total": total, "errors": errors, "page": page,
        "has_next": page * limit < total, "has_prev": page > 1,
    })


def _visible_card(request, code) -> Card:
    card = get_object_or_404(Card.objects.select_related("author"), code=code)
    if not card.is_official and card.author_id != getattr(request.user, "pk", None) and not request.user.is_staff:
        raise Http404("No such card.")
    return card


@require_GET
def card_detail(request, code):
    card = _visible_card(request, code)
    return render(request, "decks/card_detail.html", {
        "card": card, "rules_text": cardformat.rules_text(card.to_format()),
        "revisions": card.revisions.select_related("changed_by")[:20],
    })


@require_GET
def card_face(request, code):
    """A generated SVG card face for cards without an uploaded picture (autoescaped template)."""
    card = _visible_card(request, code)
    text_lines = _wrap(card.text or cardformat.effects_text(card.primary), 38)[:5]
    quote_lines = _wrap(card.quote, 42)[:3]
    lines = [(230 + 13 * i, line) for i, line in enumerate(text_lines)]
    quote = [(300 + 12 * i, line) for i, line in enumerate(quote_lines)]
    response = render(request, "decks/card_face.svg", {"card": card, "lines": lines, "quote": quote,
                                                       "picture": _picture_data(card)},
                      content_type="image/svg+xml")
    # The picture is inline (an SVG shown as an image may load nothing from elsewhere).
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
    response["Cache-Control"] = "max-age=300"
    return response


_PICTURE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
                  ".webp": "image/webp"}


def _picture_data(card: Card) -> str | None:
    """The card's picture as a data address for its face's picture box (at most 1 MB: the
    Write Yer Own form bounds uploads and drawings), or None."""
    if not card.image:
        return None
    kind = _PICTURE_TYPES.get(Path(card.image.name).suffix.lower())
    if kind is None:
        return None
    try:
        with card.image.open("rb") as fh:
            data = fh.read(MAX_PICTURE_BYTES + 1)
    except OSError:
        return None
    if len(data) > MAX_PICTURE_BYTES:
        return None
    return f"data:{kind};base64,{base64.b64encode(data).decode()}"


@require_GET
def card_image(request, code):
    """A card's picture at an address built from its code alone (the game boards use it).
    A written card's drawing belongs on its face, so it gets the generated face with the
    drawing in its picture box; another card's uploaded image (a scan of a printed card) is
    shown as it is; without either, the generated face."""
    card = _visible_card(request, code)
    whole_card_scan = card.image and not card.author_id
    response = redirect(card.image.url if whole_card_scan else reverse("card_face", args=[card.code]))
    response["Cache-Control"] = "max-age=300"
    return response


def _wrap(text: str, width: int) -> list[str]:
    lines, current = [], ""
    for word in (text or "").split():
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}".strip()
    if current:
        lines.append(current)
    return lines


# -- collection -----------------------------------------------------------------------------

@login_required
@require_GET
def collection(request):
    text = request.GET.get("q", "")
    holdings, errors = selectors.collection_for(user=request.user, text=text)
    card_code = request.GET.get("card", "")
    ledger_card = Card.objects.filter(code=card_code).first() if card_code else None
    before = request.GET.get("before", "")
    before = int(before) if before.isdigit() else None
    ledger = selectors.ledger_for(user=request.user, card=ledger_card, limit=LEDGER_PAGE + 1, before=before)
    older = ledger[LEDGER_PAGE - 1].pk if len(ledger) > LEDGER_PAGE else None
    return render(request, "decks/collection.html", {
        "q": text, "holdings": holdings, "errors": errors, "counts": selectors.collection_counts(user=request.user),
        "ledger": ledger[:LEDGER_PAGE], "ledger_card": ledger_card, "older": older, "paged": before is not None,
    })


LEDGER_PAGE = 100


# -- decks ----------------------------------------------------------------------------------

def _own_deck(request, pk) -> Deck:
    return get_object_or_404(Deck, pk=pk, owner=request.user)


@login_required
def deck_list(request):
    return _deck_list_page(request, DeckImportForm())


def _deck_list_page(request, form, import_errors=None, status=200):
    """Every deck marked playable or not, with the first reason, and what a wish list lacks."""
    return render(request, "decks/deck_list.html", {
        "decks": selectors.decks_playability(user=request.user), "import_form": form,
        "import_errors": import_errors, "import_example": HELP_EXAMPLE,
    }, status=status)


def _wish_list_note(request, deck) -> None:
    missing = selectors.deck_analysis(user=request.user, cards=deck.cards)["missing"]
    if missing:
        messages.info(request, "Saved as a wish list: you do not own " + ", ".join(missing)
                      + " yet. It can be played once you do.")


@login_required
@require_POST
def deck_create(request):
    form = DeckImportForm(request.POST)
    if not form.is_valid():
        messages.error(request, "; ".join(e for errs in form.errors.values() for e in errs))
        return redirect("deck_list")
    parsed = textformat.parse(form.cleaned_data["text"], _card_refs(request.user))
    if not parsed.ok:
        return _deck_list_page(request, form, parsed.errors, status=400)
    try:
        deck = services.deck_save(user=request.user, name=form.cleaned_data["name"], cards=parsed.cards,
                                  note="Imported" if parsed.cards else "Created")
    except services.ServiceError as exc:
        messages.error(request, str(exc))
        return redirect("deck_list")
    _wish_list_note(request, deck)
    return redirect("deck_builder", pk=deck.pk)


@login_required
def deck_builder(request, pk):
    deck = _own_deck(request, pk)
    known = selectors.deck_cards(deck.cards)
    owned = selectors.owned_counts(user=request.user, card_ids=[c.pk for c in known.values()])
    initial = {
        "id": deck.pk, "name": deck.name, "version": deck.version, "cards": deck.cards,
        "known": {code: card_json(card, owned.get(card.pk, 0)) for code, card in known.items()},
        "urls": {
            "search": reverse("card_search_api"), "analyse": reverse("deck_analyse_api"),
            "save": reverse("deck_save_api", args=[deck.pk]), "opening": reverse("deck_opening_api"),
            "export": reverse("deck_export", args=[deck.pk]),
        },
    }
    return render(request, "decks/deck_builder.html", {
        "deck": deck, "initial": initial, "import_form": DeckImportForm(initial={"name": deck.name}),
        "rename_form": DeckRenameForm(initial={"name": deck.name}),
    })


@login_required
@require_POST
def deck_try(request, pk):
    """"Try this deck": a practice CCG game of the deck's current (saved) version against a
    computer player, no clock, no ante taken from or given to any collection."""
    from games.table import computers
    from games.table import services as game_services

    deck = _own_deck(request, pk)
    level = computers.default_level("ccg")
    if level is None:
        messages.error(request, "There is no computer player for the card game yet.")
        return redirect("deck_builder", pk=deck.pk)
    try:
        match = game_services.match_create(
            creator=request.user, kind="ccg", num_seats=2, computers_at={1: level}, clock_kind="none",
            clock_amount=0, allow_spectators=False, title=f"Practice: {deck.name}"[:80],
            creator_choice={"deck": deck.pk, "deck_version": deck.version, "preset": "ask"},
            contribution=request.POST.get("contribution"), deal_after_contribution=True)
    except game_services.ServiceError as exc:
        messages.error(request, f"This deck cannot be tried yet: {exc.message}")
        return redirect("deck_builder", pk=deck.pk)
    return redirect("match_detail", match_id=match.pk)


@login_required
@require_POST
def deck_rename(request, pk):
    deck = _own_deck(request, pk)
    form = DeckRenameForm(request.POST)
    if form.is_valid():
        try:
            services.deck_rename(user=request.user, deck=deck, name=form.cleaned_data["name"])
            messages.success(request, "Deck renamed.")
        except services.ServiceError as exc:
            messages.error(request, str(exc))
    else:
        messages.error(request, "A deck name is 1 to 80 characters.")
    return redirect("deck_builder", pk=deck.pk)


@login_required
@require_POST
def deck_clone(request, pk):
    deck = _own_deck(request, pk)
    try:
        clone = services.deck_clone(user=request.user, deck=deck)
    except services.ServiceError as exc:
        messages.error(request, str(exc))
        return redirect("deck_list")
    messages.success(request, f"Cloned as “{clone.name}”.")
    return redirect("deck_builder", pk=clone.pk)


@login_required
@require_POST
def deck_delete(request, pk):
    deck = _own_deck(request, pk)
    services.deck_delete(user=request.user, deck=deck)
    messages.success(request, f"Deleted “{deck.name}”.")
    return redirect("deck_list")


@login_required
@require_GET
def deck_versions(request, pk):
    deck = _own_deck(request, pk)
    number = request.GET.get("v")
    shown = None
    if number and number.isdigit():
        shown = get_object_or_404(DeckVersion, deck=deck, number=int(number))
    versions = list(deck.versions.all())
    shown_cards = []
    if shown is not None:
        known = selectors.deck_cards(shown.cards)
        shown_cards = sorted(((known[c], n) for c, n in shown.cards.items() if c in known),
                             key=lambda pair: (pair[0].type, pair[0].title))
    return render(request, "decks/deck_versions.html", {
        "deck": deck, "versions": versions, "shown": shown, "shown_cards": shown_cards,
    })


@login_required
@require_POST
def deck_version_restore(request, pk, number):
    deck = _own_deck(request, pk)
    try:
        services.deck_version_restore(user=request.user, deck=deck, number=number)
        messages.success(request, f"Version {number} restored as the newest version.")
    except DeckVersion.DoesNotExist:
        raise Http404("No such version.")
    except services.ServiceError as exc:
        messages.error(request, str(exc))
    return redirect("deck_builder", pk=deck.pk)


@login_required
@require_GET
def deck_export(request, pk):
    deck = _own_deck(request, pk)
    text = textformat.export(deck.name, deck.cards, _card_refs(request.user))
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    filename = slugify(deck.name) or "deck"
    response["Content-Disposition"] = f'attachment; filename="{filename}.txt"'
    return response


@login_required
@require_POST
def deck_import(request, pk):
    """Replace a deck's cards from a text list; any bad line and nothing changes."""
    deck = _own_deck(request, pk)
    form = DeckImportForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest("Bad form.")
    parsed = textformat.parse(form.cleaned_data["text"], _card_refs(request.user))
    error = None
    if parsed.ok:
        try:
            deck = services.deck_save(user=request.user, deck=deck, name=form.cleaned_data["name"] or deck.name,
                                      cards=parsed.cards, note="Imported")
            messages.success(request, "Deck list imported.")
            _wish_list_note(request, deck)
            return redirect("deck_builder", pk=deck.pk)
        except services.ServiceError as exc:
            error = str(exc)
    return render(request, "decks/deck_import_errors.html", {
        "deck": deck, "errors": parsed.errors, "error": error, "form": form,
    }, status=400)


# -- Write Yer Own --------------------------------------------------------------------------

@login_required
def wyo_write(request):
    blanks = selectors.owned_counts(user=request.user, card_ids=list(
        Card.objects.filter(type=services.WYO_BLANK_TYPE, review=Card.Review.OFFICIAL).values_list("pk", flat=True)))
    blank_count = sum(blanks.values())
    form = WriteYerOwnForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            card = services.wyo_card_write(user=request.user, data=form.card_data(), image=form.picture())
        except services.ServiceError as exc:
            form.add_error(None, str(exc))
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, f"“{card.title}” is written. It is yours for good.")
            return redirect("card_detail", code=card.code)
    written = Card.objects.filter(author=request.user).order_by("-created_at")
    return render(request, "decks/wyo_write.html", {
        "form": form, "blank_count": blank_count, "written": written,
        "vocabulary": {"ops": vocabulary.EFFECT_OPS, "templates": vocabulary.EFFECT_TEMPLATES,
                       "max": vocabulary.MAX_EFFECTS_PER_SIDE},
        "check_url": reverse("wyo_check_api"),
        "secondary_types": " ".join(FIELD_TYPES["secondary"]),
        "tables": {"castle_results": ccg_cards.CASTLE_RESULTS, "open": [ccg_cards.TABLE_OPEN_MIN, ccg_cards.TABLE_OPEN_MAX],
                   "grail": [ccg_cards.GRAIL_MIN, ccg_cards.GRAIL_MAX], "max_rows": MAX_TABLE_ROWS,
                   "max_row_text": ccg_cards.MAX_ROW_TEXT},
    })


@login_required
@require_POST
def wyo_submit(request, code):
    card = get_object_or_404(Card, code=code, author=request.user)
    try:
        services.wyo_card_submit(user=request.user, card=card)
        messages.success(request, "Submitted. The keepers of the card database will have a look.")
    except services.ServiceError as exc:
        messages.error(request, str(exc))
    return redirect("card_detail", code=card.code)


# -- public decks (shown on the owner's profile) -------------------------------------------------

@login_required
@require_POST
def deck_share(request, pk):
    """Make one of my decks public (listed on my profile, its list readable by anyone) or private again."""
    deck = _own_deck(request, pk)
    deck.public = request.POST.get("public") == "1"
    deck.save(update_fields=["public"])  # not updated_at's concern: the list did not change
    messages.success(request, f"'{deck.name}' is {'public: it is listed on your profile' if deck.public else 'private'}.")
    return redirect("deck_list")


@require_GET
def deck_public(request, pk):
    """A public deck's list, read only: its owner and anyone may read it; a private deck is no
    one else's business (404). A card only its author can see yet is named as such."""
    deck = get_object_or_404(Deck.objects.select_related("owner"), pk=pk)
    if not deck.public and deck.owner_id != getattr(request.user, "pk", None):
        raise Http404("No such deck.")
    known = selectors.deck_cards(deck.cards)
    viewer = getattr(request.user, "pk", None)
    rows = []
    for code, count in sorted(deck.cards.items(), key=lambda item: (known[item[0]].title if item[0] in known else "~")):
        card = known.get(code)
        shown = card is not None and (card.is_official or card.author_id == viewer or request.user.is_staff)
        rows.append({"count": count, "code": code if shown else None,
                     "title": card.title if shown else "A card of the owner's own, not published"})
    return render(request, "decks/deck_public.html", {"deck": deck, "rows": rows})
