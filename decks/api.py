"""The decks' JSON endpoints (card search, deck analysis, sample opening, deck save, the Write
Yer Own checker), declared as typed schemas in the same API as the games'.

Every quantity, list and string is bounded here, at the edge: a deck analysis of a million
copies must be refused before a loop ever sees it. Pages stay in decks/views.py."""
from __future__ import annotations

import asyncio
import functools
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated, Any

from asgiref.sync import sync_to_async
from django.shortcuts import get_object_or_404
from ninja import Body, Field, Query, Router, Schema

from decks import cardformat, selectors, services
from decks.forms import WriteYerOwnForm
from decks.models import Deck
from decks.views import card_json
from grailsite.api_types import ERRORS, NO_NUL, Id, In, JsonObject
from grailsite.api_auth import MaybeViewer, Viewer
from grailsite import ratelimits
from grailsite.formerrors import labelled_errors

router = Router(auth=Viewer(), tags=["decks"])

CARD_CODE = r"^[-a-zA-Z0-9_]+$"
CardCode = Annotated[str, Field(min_length=1, max_length=100, pattern=CARD_CODE)]
Quantity = Annotated[int, Field(ge=0, le=services.MAX_DECK_COPIES)]


def _codes_as_keys(schema: dict) -> None:
    # pydantic states a key pattern as patternProperties, which leaves other keys allowed;
    # the server refuses them, so the document says every key must be a card code.
    (_, quantity), = schema.pop("patternProperties").items()
    schema["propertyNames"] = {"minLength": 1, "maxLength": 100, "pattern": CARD_CODE}
    schema["additionalProperties"] = quantity


DeckCards = Annotated[dict[CardCode, Quantity], Field(max_length=services.MAX_DECK_SIZE,
                                                      json_schema_extra=_codes_as_keys)]


class CardsIn(In):
    cards: DeckCards = Field(default_factory=dict, description="Card code to number of copies.")


class DeckSaveIn(CardsIn):
    name: str | None = Field(None, min_length=1, max_length=Deck.NAME_MAX, pattern=NO_NUL)


class SearchQuery(Schema):
    # The search syntax reports an over-long query itself, in words, as one of its errors.
    q: str = Field("", max_length=10_000, pattern=NO_NUL)
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


# -- analysis and sample opening: rules work off the shared request thread ---------------------
#
# Under ASGI every synchronous view of a process runs on one thread (asgiref's thread-sensitive
# executor): a slow one there holds up every read and HTTP move queued behind it. These two
# views are async: their queries (and the rate limit) still run on that thread, briefly, and
# the rules work on a thread of its own, so the analyses queue behind one another, not in
# front of everyone else. Neither runs on the event loop that serves socket moves, which
# only shares the interpreter with them. Each is also limited per person ("deck_analysis").
RULES_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="deck-rules")


async def on_rules_thread(function, *args, **kwargs):
    return await asyncio.get_running_loop().run_in_executor(RULES_THREAD, functools.partial(function, *args, **kwargs))


def _analysis_inputs(request, cards: dict[str, int]) -> dict:
    # request.user is read here, on the request thread: a session's user is loaded lazily.
    ratelimits.check(request, "deck_analysis")
    return selectors.analysis_inputs(user=request.user, cards=cards)


def _opening_inputs(request, cards: dict[str, int]) -> dict:
    ratelimits.check(request, "deck_analysis")
    return selectors.deck_cards(cards)


@router.post("analyse/", response={200: AnalysisOut, **ERRORS}, url_name="deck_analyse_api")
async def deck_analyse_api(request, body: CardsIn):
    inputs = await sync_to_async(_analysis_inputs)(request, body.cards)
    return await on_rules_thread(selectors.analyse, inputs)


@router.post("opening/", response={200: OpeningOut, **ERRORS}, url_name="deck_opening_api")
async def deck_opening_api(request, body: CardsIn):
    known = await sync_to_async(_opening_inputs)(request, body.cards)
    return await on_rules_thread(_opening_json, body.cards, known)


def _opening_json(cards: dict[str, int], known: dict) -> dict:
    # deck_cards loaded each card's author, so card_json asks the database nothing here.
    opening = selectors.opening_of(cards, known, selectors.card_formats(known))
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
