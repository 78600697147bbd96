"""The MPHG CCG on the platform: the lifecycle hooks that connect the pure rules engine
(games/rules/ccg) to decks, collections and real antes (decks/services.py).

What each hook does and every choice the rules leave to the web is written down in
docs/rules/ccg-web.md. In short:

* a seat's choice is one of the player's own valid decks (pinned to the deck version chosen),
  their response-window preset, and — read from the creator's seat only — the table's rules
  options (16.1), doubling (16.2) and the clocks of response windows and doubling offers;
* every card that enters the ante is held from its owner's collection by the move that put
  it there; at the end the engine's ``ante_result`` says where the held cards go, and the
  ledger moves them in the transaction that ends the game;
* a game drawn with the ante carried over (15.1) starts its rematch at once, same players,
  same decks, with the carried cards held again for the new match.
"""
from __future__ import annotations

import logging
import re

from django.db import transaction
from django.db.models import Sum

from decks import selectors as deck_selectors
from decks import services as deck_services
from decks.models import Deck, DeckVersion, Holding
from games import clock, lifecycle
from games.errors import MoveRejected, ServiceError
from games.rules.ccg import state as ccg_state
from games.rules.ccg.game import ante_result

log = logging.getLogger(__name__)

KIND = "ccg"
PRESETS = ("ask", "always_pass")
# Waits the creator may give their own clock; every other wait runs on the match's clock.
TIMED_WAITS = {"response": "window", "offer": "offer"}
_CLOCK_TEXT = re.compile(r"^\s*(\d+)\s*([mhd])\s*$")
_UNITS = {"m": "minutes", "h": "hours", "d": "days"}


# --- the seat's choice -----------------------------------------------------------------

def seat_choice(user, choice: dict) -> dict:
    """Validate what a player chose on joining (or creating). Form posts give strings
    ("on", "12h"), the JSON API may give real types; both normalise to the same dict, and
    a normalised dict validates to itself (a rematch passes the old choice again)."""
    deck, version = _valid_deck(user, choice.get("deck"), choice.get("deck_version"))
    preset = str(choice.get("preset") or "ask")
    if preset not in PRESETS:
        raise ValueError("The response preset must be 'ask' or 'always_pass'.")
    rules_off = choice.get("rules_off")
    if rules_off is None:
        rules_off = [rule for rule in ccg_state.RULE_IDS if _truthy(choice.get(f"off_{rule}"))]
    if not isinstance(rules_off, list) or any(r not in ccg_state.RULE_IDS for r in rules_off):
        raise ValueError("Unknown optional rule; the rules that can be switched off are: "
                         + ", ".join(ccg_state.RULE_IDS) + ".")
    return {
        "deck": deck.pk, "deck_version": version.number, "deck_name": version.name, "preset": preset,
        "rules_off": sorted(set(rules_off)), "double_the_ante": _truthy(choice.get("double_the_ante")),
        "window": _clock_choice(choice.get("window"), "response window"),
        "offer": _clock_choice(choice.get("offer"), "doubling offer"),
    }


def _valid_deck(user, deck_id, version_number=None) -> tuple[Deck, DeckVersion]:
    """The player's deck and the version played: the newest, or the one named (a rematch
    keeps the version of the drawn game, however the deck was edited since)."""
    try:
        deck = Deck.objects.get(pk=int(deck_id), owner=user)
    except (TypeError, ValueError, Deck.DoesNotExist):
        raise ValueError("Choose one of your own decks to play with.") from None
    number = version_number if isinstance(version_number, int) and not isinstance(version_number, bool) \
        else deck.version
    version = DeckVersion.objects.filter(deck=deck, number=number).first()
    if version is None:
        raise ValueError(f"Your deck '{deck.name}' has no version {number}.")
    problems = deck_selectors.deck_analysis(user=user, cards=version.cards)["problems"]
    if problems:
        raise ValueError(f"Your deck '{version.name}' cannot be played: {problems[0]}")
    return deck, version


def _truthy(value) -> bool:
    return value is True or str(value).lower() in ("on", "true", "1", "yes")


def _clock_choice(value, what: str):
    """'' or None: the match's own clock; '12h' / '30m' / '2d' or [kind, amount]: that clock."""
    if value in (None, "", []):
        return None
    if isinstance(value, (list, tuple)) and len(value) == 2:
        kind, amount = value
    else:
        found = _CLOCK_TEXT.match(str(value))
        if not found:
            raise ValueError(f"The {what} clock is written like 12h, 30m or 2d.")
        kind, amount = _UNITS[found.group(2)], int(found.group(1))
    if kind not in _UNITS.values() or not isinstance(amount, int):
        raise ValueError(f"The {what} clock is written like 12h, 30m or 2d.")
    try:
        clock.validate(kind, amount)
    except ValueError as exc:
        raise ValueError(f"The {what} clock: {exc}") from None
    return [kind, amount]


def table_choice(match) -> dict:
    """The creator's choice holds the table's options (rules, doubling, clocks)."""
    seat = match.seats.filter(index=0).only("choice").first()
    return seat.choice if seat is not None else {}


# --- set-up ----------------------------------------------------------------------------

def setup_options(match, seats) -> dict:
    table = seats[0].choice
    carried = carried_ante_of(match.rematch_of) if match.rematch_of_id else []
    decks = [_deck_cards(seat) for seat in seats]
    # 15.1: the carried cards lie in the ante, so they are not in their owners' decks too.
    for entry in carried:
        deck = decks[entry["owner"]]
        index = next((i for i, c in enumerate(deck) if c["code"] == entry["card"]["code"]), None)
        if index is not None:
            deck.pop(index)
    options = {"decks": decks, "collection_sizes": [_collection_size(seat.user) for seat in seats],
               "rules_off": list(table.get("rules_off") or []),
               "double_the_ante": bool(table.get("double_the_ante"))}
    if carried:
        options["carried_ante"] = carried
    return options


def _deck_cards(seat) -> list[dict]:
    """The deck as it was when the player chose it (a later edit does not change the game),
    checked again against what the player owns now."""
    choice = seat.choice
    version = DeckVersion.objects.filter(deck_id=choice.get("deck"), number=choice.get("deck_version")).first()
    if version is None:
        raise ValueError(f"{seat.user.username}'s deck '{choice.get('deck_name')}' no longer exists.")
    problems = deck_selectors.deck_analysis(user=seat.user, cards=version.cards)["problems"]
    if problems:
        raise ValueError(f"{seat.user.username}'s deck '{version.name}' cannot be played: {problems[0]}")
    known = deck_selectors.deck_cards(version.cards)
    return [known[code].to_format() for code, n in sorted(version.cards.items()) for _ in range(n)]


def _collection_size(user) -> int:
    """Copies owned, free and staked (2.6: the largest collection goes first)."""
    totals = Holding.objects.filter(user=user).aggregate(q=Sum("quantity"), h=Sum("held"))
    return (totals["q"] or 0) + (totals["h"] or 0)


def carried_ante_of(previous) -> list[dict]:
    if previous is None or previous.kind != KIND or not previous.state:
        return []
    result = ante_result(previous.state)
    return result.get("carried_ante", []) if result["status"] == "carried_over" else []


def on_start(match) -> None:
    """A rematch starts with the carried cards already in the ante: hold them again, now
    for this match (the drawn game released them in the same transaction)."""
    _hold(match, list(match.state["ante"]))


# --- during play -----------------------------------------------------------------------

def after_move(match, previous_state) -> None:
    """Hold every card the move put into the ante (the cut, a doubled stake)."""
    before = set(previous_state["ante"])
    new = [iid for iid in match.state["ante"] if iid not in before]
    if not new:
        return
    try:
        _hold(match, new)
    except deck_services.NotEnoughCards as exc:
        # The copy is staked in another game started since this one. Nothing was held (the
        # savepoint rolled back); undo the move in memory too so the caller stays consistent.
        match.state = previous_state
        match.move_count -= 1
        raise MoveRejected(f"{exc} The card going into the ante is staked in another game; "
                           "that game must end first.") from None


def _hold(match, iids) -> None:
    users = {s.index: s.user for s in match.seats.select_related("user")}
    state = match.state
    with transaction.atomic():
        for iid in iids:
            deck_services.ante_hold(user=users[state["own"][iid]], card_code=state["inst"][iid], match_id=match.pk)


def allowance(match, pending_kind):
    name = TIMED_WAITS.get(pending_kind)
    if name is None:
        return None
    chosen = table_choice(match).get(name)
    return tuple(chosen) if chosen else None


def auto_move(match, seat, pending_kind):
    if pending_kind == "response" and (seat.choice or {}).get("preset") == "always_pass":
        return {"type": "pass"}
    return None


def preset_set(*, match_id: int, user, preset: str):
    """Change my response-window preset in one game; 'always_pass' answers a window that
    waits for me now, too."""
    from games import services
    from games.models import Match
    if preset not in PRESETS:
        raise ServiceError("The preset is 'ask' or 'always_pass'.")
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id, kind=KIND).first()
        if match is None:
            raise ServiceError("No such CCG game.")
        seat = match.seats.select_for_update().filter(user=user, accepted=True).first()
        if seat is None:
            raise ServiceError("You are not playing in this game.")
        seat.choice = dict(seat.choice, preset=preset)
        seat.save(update_fields=["choice"])
        waiting = match.status == Match.Status.ACTIVE and seat.waiting_for == "response"
    if waiting and preset == "always_pass":
        services.move_submit(match_id=match_id, user=user, move={"type": "pass"}, version=None)
    return seat


# --- the end ---------------------------------------------------------------------------

def on_finish(match, outcome) -> None:
    """Move the held ante as the engine's ante_result says, inside the ending transaction."""
    result = ante_result(match.state)
    if result["status"] == "won":
        winner = match.seats.select_related("user").get(index=result["winner"]).user
        deck_services.ante_settle(match_id=match.pk, winner=winner)
        return
    deck_services.ante_release(match_id=match.pk)
    if result["status"] == "carried_over":
        _start_rematch(match)


def on_abandon(match) -> None:
    deck_services.ante_release(match_id=match.pk)


def _start_rematch(match) -> None:
    """Same players, seats and decks; the carried ante goes in through setup_options. If it
    cannot start (a deck was deleted or no longer owned), the cards stay home — released above —
    and the game's end stands; the players can start a new game themselves."""
    from games import services
    seats = list(match.seats.select_related("user").order_by("index"))
    try:
        with transaction.atomic():
            rematch = services.match_create(
                creator=seats[0].user, kind=KIND, num_seats=match.num_seats, invite=[s.user.username for s in seats[1:]],
                clock_kind=match.clock, clock_amount=match.clock_amount, weekend_pause=match.weekend_pause,
                vacation_days=match.vacation_days, allow_spectators=match.allow_spectators,
                title=(f"Rematch: {match.title}" if match.title else f"Rematch of #{match.pk}")[:80],
                creator_choice=seats[0].choice, rematch_of=match)
            for seat in seats[1:]:
                services.match_join(match_id=rematch.pk, user=seat.user, choice=seat.choice)
    except ServiceError as exc:
        log.warning("rematch of CCG match %s could not start: %s", match.pk, exc.message)


def register() -> None:
    lifecycle.register(KIND, lifecycle.Hooks(
        setup_options=setup_options, on_start=on_start, on_finish=on_finish, on_abandon=on_abandon,
        seat_choice=seat_choice, after_move=after_move, allowance=allowance, auto_move=auto_move))
