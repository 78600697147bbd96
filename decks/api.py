"""The decks' JSON endpoints (card search, deck analysis, sample opening, deck save, the Write
Yer Own checker), declared as typed schemas in the same API as the games'.

Every quantity, list and string is bounded here, at the edge: a deck analysis of a million
copies must be refused before a loop ever sees it. Pages stay in decks/views.py."""
from __future__ import annotations

from typing import Annotated, Any

from django.shortcuts import get_object_or_404
from ninja import Body, Field, Query, Router, Schema

from decks import cardformat, selectors, services
from decks.forms import WriteYerOwnForm
from decks.models import Deck
from decks.views import card_json
from games.api import ERRORS, Id, In, JsonObject
from games.api_auth import MaybeViewer, Viewer
from grailsite.formerrors import labelled_errors

router = Router(auth=Viewer(), tags=["decks"])

CardCode = Annotated[str, Field(min_length=1, max_length=100, pattern=r"^[-a-zA-Z0-9_]+$")]
Quantity = Annotated[int, Field(ge=0, le=services.MAX_DECK_COPIES)]
DeckCards = Annotated[dict[CardCode, Quantity], Field(max_length=services.MAX_DECK_SIZE)]


class CardsIn(In):
    cards: DeckCards = Field(default_factory=dict, description="Card code to number of copies.")


class DeckSaveIn(CardsIn):
    name: str | None = Field(None, min_length=1, max_length=Deck.NAME_MAX)


class SearchQuery(Schema):
    # The search syntax reports an over-long query itself, in words, as one of its errors.
    q: str = Field("", max_length=10_000)
    offset: int = Field(0, ge=0, le=100_000)
    owned: bool = False  # only cards I own (filtered by the server, so the counts are true)


class CardOut(Schema):
    code: str
    title: str
    type: str
    grail: int | None
    combat: int | None
    wits: int | None
    rarity: str
    unique: bool
    castle_icon: bool
    tags: list[Any]
    text: str
    effects: str
    quote: str
    author: str | None
    url: str
    owned: int | None = None


class SearchOut(Schema):
    total: int
    errors: list[str]
    cards: list[CardOut]


class AnalysisOut(Schema):
    valid: bool
    problems: list[str]
    stats: dict[str, Any]
    missing: list[str] = []  # copies a wish list still needs ("2 Brave Sir Robin")


class OpeningOut(Schema):
    aside: list[CardOut]
    areas: list[CardOut]
    hand: list[CardOut]
    short: bool
    warnings: list[str] = []  # every rule the deck breaks: its opening is only a sketch


class SavedOut(Schema):
    version: int
    name: str


class DesignCheckOut(Schema):
    errors: list[str]
    power: Any = None
    budget: Any = None


@router.get("cards/", response={200: SearchOut, **ERRORS}, auth=MaybeViewer(), url_name="card_search_api")
def card_search_api(request, query: Query[SearchQuery]):
    cards, total, errors = selectors.card_search(text=query.q, user=request.user, offset=query.offset,
                                                 owned_only=query.owned)
    owned = selectors.owned_counts(user=request.user) if request.user.is_authenticated else {}
    return {"total": total, "errors": errors, "cards": [card_json(c, owned.get(c.pk, 0)) for c in cards]}


@router.post("analyse/", response={200: AnalysisOut, **ERRORS}, url_name="deck_analyse_api")
def deck_analyse_api(request, body: CardsIn):
    return selectors.deck_analysis(user=request.user, cards=body.cards)


@router.post("opening/", response={200: OpeningOut, **ERRORS}, url_name="deck_opening_api")
def deck_opening_api(request, body: CardsIn):
    opening = selectors.sample_opening(cards=body.cards)
    return {key: [card_json(c) for c in value] if key in OPENING_PILES else value
            for key, value in opening.items()}


OPENING_PILES = ("aside", "areas", "hand")


@router.post("decks/{int:pk}/save/", response={200: SavedOut, **ERRORS}, url_name="deck_save_api")
def deck_save_api(request, pk: Id, body: DeckSaveIn):
    deck = get_object_or_404(Deck, pk=pk, owner=request.user)
    deck = services.deck_save(user=request.user, deck=deck, name=body.name or deck.name, cards=body.cards)
    return {"version": deck.version, "name": deck.name}


@router.post("write/check/", response={200: DesignCheckOut, **ERRORS}, url_name="wyo_check_api")
def wyo_check_api(request, body: JsonObject = Body(...)):
    """Live feedback while designing: every reason a design would be refused, and its power."""
    form = WriteYerOwnForm(body)
    if not form.is_valid():
        return {"errors": labelled_errors(form)}
    design = services.wyo_design(user=request.user, data=form.card_data())
    errors = services.wyo_errors(design)
    power = cardformat.power_score(design) if not cardformat.card_errors(design) else None
    return {"errors": errors, "power": power, "budget": cardformat.power_budget(design["type"])}
