"""The MPHG CCG on the platform: the lifecycle hooks that connect the pure rules engine
(games/rules/ccg) to decks, collections and real antes (decks/services.py).

What each hook does and every choice the rules leave to the web is written down in
docs/rules/ccg-web.md. In short:

* a seat's choice is one of the player's own valid decks (pinned to the deck version chosen)
  and their response-window preset (``forms.DeckChoiceForm``); the table's options are the
  rules switched off (16.1), doubling (16.2) and the clocks of response windows and doubling
  offers (``forms.TableOptionsForm``, stored as the match's options);
* every card that enters the ante is held from its owner's collection by the move that put
  it there; a card whose copies are all staked in the owner's other games is passed over
  and the next one that can be staked goes in (``_stakeable``, ``_stake_owed``); at the end
  the engine's ``ante_result`` says where the held cards go, and the ledger moves them in
  the transaction that ends the game;
* a game drawn with the ante carried over (15.1) starts its rematch at once, same players,
  same decks, with the carried cards held again for the new match;
* a game against a computer player is practice (``Match.practice``): the computer plays a
  starter deck, antes are played on the table as the rules say, but nothing is held, won or
  lost in anyone's collection, and a carried-over ante starts no rematch.
"""
from __future__ import annotations

import logging
from collections import Counter

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from decks import ante_statements
from decks import selectors as deck_selectors
from decks import services as deck_services
from decks.models import AnteStake, DeckVersion, Holding
from games.table import access, persistence, selectors, services, unit_of_work
from grailsite.errors import NotAllowed, NotFound, ServiceError
from games.models import Match
from games.rules.ccg.game import ante_result

from .forms import PRESETS

log = logging.getLogger(__name__)

KIND = "ccg"
# Waits the table may give their own clock; every other wait runs on the match's clock.
TIMED_WAITS = {"response": "window", "offer": "offer"}


# --- set-up ----------------------------------------------------------------------------

def setup_options(match, seats) -> dict:
    table = match.options
    carried = carried_ante_of(match.rematch_of) if match.rematch_of_id else []
    decks = [_computer_deck(seat) if seat.computer else _deck_cards(seat) for seat in seats]
    # 15.1: the carried cards lie in the ante, so they are not in their owners' decks too.
    for entry in carried:
        deck = decks[entry["owner"]]
        index = next((i for i, c in enumerate(deck) if c["code"] == entry["card"]["code"]), None)
        if index is not None:
            deck.pop(index)
    sizes = [len(deck) if seat.computer else _collection_size(seat.user) for seat, deck in zip(seats, decks)]
    options = {"decks": decks, "collection_sizes": sizes,
               "rules_off": list(table.get("rules_off") or []),
               "double_the_ante": bool(table.get("double_the_ante"))}
    if carried:
        options["carried_ante"] = carried
    if not match.practice:
        options["stakeable"] = _stakeable(seats, decks, carried)
    return options


def _stakeable(seats, decks, carried) -> list:
    """Per seat, how many copies of each card of its deck its owner can stake now: the free
    copies (a copy staked in another game is held there). The rules pass over a card with
    none left (games/rules/ccg/ante.py), so a cut or a doubling is never refused for it.
    A rematch's carried cards are held again at the start (``on_start``): not free."""
    out = []
    for index, (seat, deck) in enumerate(zip(seats, decks)):
        if seat.computer or seat.user_id is None:
            out.append(None)
            continue
        codes = {card["code"] for card in deck}
        free = dict(Holding.objects.filter(user_id=seat.user_id, card__code__in=codes)
                    .values_list("card__code", "quantity"))
        for entry in carried:
            if entry["owner"] == index and entry["card"]["code"] in free:
                free[entry["card"]["code"]] -= 1
        out.append({code: max(0, free.get(code, 0)) for code in sorted(codes)})
    return out


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


def _computer_deck(seat) -> list[dict]:
    """A computer player's deck: one of the starter decks (a different one per seat), as data;
    it owns no collection, which is why its games are practice."""
    starters = deck_services.starter_deck_lists()
    if not starters:
        raise ValueError("There is no starter deck for a computer player to play.")
    cards = starters[(seat.index - 1) % len(starters)]["cards"]
    known = deck_selectors.deck_cards(cards)
    return [known[code].to_format() for code, n in sorted(cards.items()) if code in known for _ in range(n)]


def _collection_size(user) -> int:
    """Copies owned, free and staked (2.6: the largest collection goes first)."""
    totals = Holding.objects.filter(user=user).aggregate(q=Sum("quantity"), h=Sum("held"))
    return (totals["q"] or 0) + (totals["h"] or 0)


def carried_ante_of(previous) -> list[dict]:
    if previous is None or previous.kind != KIND or not previous.state:
        return []
    result = ante_result(previous.state)
    return result.get("carried_ante", []) if result["status"] == "carried_over" else []


def on_start(match, seats) -> None:
    """A rematch starts with the carried cards already in the ante: hold them again, now
    for this match (the drawn game released them in the same transaction)."""
    if match.practice:
        return
    _stake_owed(match, seats)


# --- during play -----------------------------------------------------------------------

def after_move(match, seats, previous_state) -> None:
    """Stake every card the move drew into the ante (the cut, a doubled stake). The rules drew
    only cards their owners could stake when the game began (``_stakeable``); should the last
    free copy have gone into another game since, the card stays in the ante unstaked until a
    copy comes home (``_stake_owed``). The move is never refused for it: a refusal would tell
    the mover where that card lies (a refused cut once let every position be probed), and
    the ledger never holds a copy twice."""
    if match.practice:
        return
    if len(match.state["ante"]) > len(previous_state["ante"]):
        _stake_owed(match, seats)


def _stake_owed(match, seats) -> None:
    """Stake each card in the ante not staked yet (a rematch's carried cards, the cards just
    drawn, a card that could not be staked when drawn), as far as free copies allow. Names
    no card: the log says only how many wait.

    On PostgreSQL one statement (decks/ante_statements.py), run or collected like the move's
    own writes, so a move that stakes stays on the move path; elsewhere the ledger's ORM
    functions, one owner after another in user order, each owner's holdings locked at once
    (the ledger's lock order, decks/services.py)."""
    state = match.state
    owner_of = {seat.index: seat.user_id for seat in seats if seat.user_id is not None}
    owed = Counter((owner_of[state["own"][i]], state["inst"][i]) for i in state["ante"] if state["own"][i] in owner_of)
    if not owed:
        return

    def waiting(count: int) -> None:
        if count:
            log.warning("CCG match %s: %d ante card(s) wait to be staked: their copies are staked in other games",
                        match.pk, count)

    if persistence.fast():
        sql, params = ante_statements.stake(str(match.pk), dict(owed), timezone.now())
        persistence.execute(sql, params, lambda row: waiting(row[0]), ledger=True)
        return
    for user_id, code in AnteStake.objects.filter(match_id=str(match.pk), status=AnteStake.Status.HELD) \
            .values_list("user_id", "card__code"):
        owed[(user_id, code)] -= 1
    unstaked = 0
    for seat in sorted((s for s in seats if s.user_id is not None), key=lambda s: s.user_id):
        codes = [code for (owner, code), n in sorted(owed.items()) if owner == seat.user_id for _ in range(max(n, 0))]
        if codes:
            staked = deck_services.ante_hold_first_free(user=seat.user, codes=codes, wanted=len(codes),
                                                        match_id=match.pk)
            unstaked += len(codes) - len(staked)
    waiting(unstaked)


def allowance(match, pending_kind):
    name = TIMED_WAITS.get(pending_kind)
    if name is None:
        return None
    chosen = match.options.get(name)
    return tuple(chosen) if chosen else None


def auto_move(match, seat, pending_kind):
    if pending_kind == "response" and (seat.choice or {}).get("preset") == "always_pass":
        return {"type": "pass"}
    return None


def _players_seat(match, seats, user):
    """This player's seat in a CCG game; only its players are answered (NotFound: no such
    CCG game; NotAllowed: not a player of it)."""
    if match.kind != KIND:
        raise NotFound("No such CCG game.")
    seat = access.seat_of(user, seats)
    if seat is None or not seat.accepted:
        raise NotAllowed("You are not playing in this CCG game.")
    return seat


def preset_get(*, match_id: int, user) -> str:
    """My response-window preset in one game."""
    match = selectors.match_get(match_id)
    seat = _players_seat(match, selectors.seats_for(match), user)
    return (seat.choice or {}).get("preset", "ask")


def preset_set(*, match_id: int, user, preset: str):
    """Change my response-window preset in one game; 'always_pass' answers a window that
    waits for me now, too."""
    if not isinstance(preset, str) or preset not in dict(PRESETS):
        raise ServiceError("The preset is 'ask' or 'always_pass'.")
    with transaction.atomic():
        match, seats = services.lock_match(match_id)
        seat = _players_seat(match, seats, user)
        seat.choice = dict(seat.choice, preset=preset)
        seat.save(update_fields=["choice"])
        waiting = match.status == "active" and seat.waiting_for == "response"
    if waiting and preset == "always_pass":
        services.move_submit(match_id=match_id, user=user, move={"type": "pass"}, version=None)
    return seat


# --- the end ---------------------------------------------------------------------------

def on_finish(match, seats, outcome) -> None:
    """Move the held ante as the engine's ante_result says, inside the ending transaction."""
    if match.practice:
        return  # nothing was held
    result = ante_result(match.state)
    if result["status"] == "carried_over":
        unit_of_work.require_sync("a rematch is created through the ORM")
    winner = None
    if result["status"] == "won":
        _stake_owed(match, seats)  # a card that could not be staked when drawn, if a copy came home since
        # The rules never let a seat without a person win the ante (it was handed to a computer:
        # games/rules/ccg/turns.py, ``ante_kept_home``); should one ever, the cards go home.
        winner = next((seat.user for seat in seats if seat.index == result["winner"] and seat.user_id), None)
    _close_ante(match, winner, _ledger_note(match, seats, result))
    if result["status"] == "carried_over" and all(seat.user_id for seat in seats):
        _start_rematch(match)


def _ledger_note(match, seats, result) -> str:
    """How the game ended, for the ledger entries it writes (the collection page shows them):
    "Game #12: bob resigned; alice searched on alone (15.3) and gave up the search: ..."."""
    if result["status"] == "carried_over":
        return f"Game #{match.pk} was drawn: the ante is carried over to its rematch (15.1)."
    reason = selectors.with_names((match.outcome or {}).get("reason") or "", seats)
    if result["status"] == "won" or result.get("home"):  # the reason says who won and why the cards go home
        return f"Game #{match.pk}: {reason}"[:200]
    return f"Game #{match.pk} ended without the Grail found, so no one wins the ante: {reason}"[:200]


def _close_ante(match, winner, note: str) -> None:
    """Every held card of the match to ``winner`` (``ante_settle``), or with no winner home
    to its owner (``ante_release``): on PostgreSQL as statements of the move path
    (decks/ante_statements.py), elsewhere through the ledger's ORM functions."""
    if not persistence.fast():
        if winner is None:
            deck_services.ante_release(match_id=match.pk, note=note)
        else:
            deck_services.ante_settle(match_id=match.pk, winner=winner, note=note)
        return
    match_id = str(match.pk)
    if winner is not None:
        persistence.execute(*ante_statements.winner_holdings(match_id, winner.pk), ledger=True)
    persistence.execute(*ante_statements.close(match_id, winner.pk if winner else None, timezone.now(), note),
                        ledger=True)


def on_abandon(match) -> None:
    deck_services.ante_release(match_id=match.pk, note=f"Game #{match.pk} was called off before any move.")


def _start_rematch(match) -> None:
    """Same players, seats and decks; the carried ante goes in through setup_options. If it
    cannot start (a deck was deleted or no longer owned), the cards stay home — released above —
    and the game's end stands; the players can start a new game themselves."""
    seats = list(match.seats.select_related("user").order_by("index"))
    try:
        with transaction.atomic():
            rematch = services.match_create(
                creator=seats[0].user, kind=KIND, num_seats=match.num_seats, invite=[s.user.username for s in seats[1:]],
                clock_kind=match.clock, clock_amount=match.clock_amount, weekend_pause=match.weekend_pause,
                vacation_days=match.vacation_days, allow_spectators=match.allow_spectators, options=match.options,
                title=(f"Rematch: {match.title}" if match.title else f"Rematch of #{match.pk}")[:80],
                creator_choice=seats[0].choice, rematch_of=match)
            for seat in seats[1:]:
                services.match_join(match_id=rematch.pk, user=seat.user, choice=seat.choice)
        # The drawn game's pages learn of it with the frame of its end (selectors.change_shared).
        match.__dict__["_rematch"] = {"id": rematch.pk, "status": Match.Status.ACTIVE}
    except ServiceError as exc:
        log.warning("rematch of CCG match %s could not start: %s", match.pk, exc.message)

