"""Prepared decks, a scripted player and seeds for the CCG's platform and browser tests.

The prepared deck holds only lands without effects (and Arthur and Patsy), so a game is a
walk up each player's England into Avalon and a search: short enough to click through in a
browser, yet every step (cut, draw, balance, response window, search, ante) is the real one.
"""
from __future__ import annotations

import pytest

from games.rules.ccg.game import MPHGGame, with_words

GAME = MPHGGame()

# 40 cards: lands without effects (generic and unique), so nothing stops a Round Table.
PREPARED_DECK = {"arthur": 1, "patsy": 1, "open-field": 14, "bristol-downs": 14, "windy-cliffs": 3,
                 "lake-of-the-lady": 3, "cornwall": 3, "gorge-approach": 1}


def _area_rank(ref):
    """Higher is closer to the Grail: Avalon above England's top row."""
    if ref is None:
        return -1
    if ref.startswith("A."):
        return 100
    return int(ref.split(".")[1])


def scripted_move(state, seat, legal):
    """What a player who only wants to find the Grail does next."""
    kinds = {m["type"] for m in legal}
    if "cut" in kinds:
        return {"type": "cut", "at": 5}
    if "search" in kinds:
        return {"type": "search"}
    if "pass" in kinds:
        return {"type": "pass"}
    if "choose" in kinds:
        return next((m for m in legal if m.get("option") == "ignore"), legal[0])
    if "discard" in kinds:
        return legal[0]
    p = state["p"][seat]
    here = _area_rank(p["pos"])
    moves = [m for m in legal if m["type"] == "move"]
    if p["pos"] and p["pos"].startswith("A."):
        unsearched = [m for m in moves if m["to"] and m["to"].startswith("A.")
                      and not state["avalon"][int(m["to"].split(".")[1])]["searched"]]
        if unsearched:
            return unsearched[0]
    else:
        up = [m for m in moves if _area_rank(m["to"]) > here]
        if up:
            return max(up, key=lambda m: _area_rank(m["to"]))
    return {"type": "end_turn"}


def play_out(state, limit=2000):
    """Play the scripted players to the end; returns (final state, [(seat, move)])."""
    played = []
    for _ in range(limit):
        if state["result"] is not None:
            break
        pend = GAME.pending(state)
        seat = pend[0].seat
        move = with_words(state, scripted_move(state, seat, GAME.legal_moves(state, seat)))
        state, _ = GAME.apply(state, seat, move)
        played.append((seat, move))
    return state, played


# --- the database side (users, collections, decks, driving a match) ----------------------

def ensure_card_database():
    """The starter set, loaded again when a transactional test flushed it away."""
    from decks import cardformat, services
    from decks.models import Card
    if not Card.objects.exists():
        services.cards_upsert(cards=cardformat.starter_set(), source="test")


def prepared_player(user, *, spare: int = 0):
    """Give ``user`` the prepared deck's cards (plus ``spare`` open fields, which makes the
    collections differ in size) and save the deck; returns the Deck."""
    from decks import services
    cards = dict(PREPARED_DECK)
    cards["open-field"] += spare
    services.collection_grant(user=user, cards=cards, reason="admin_grant")
    return services.deck_save(user=user, name="Prepared lands", cards=dict(PREPARED_DECK))


# Fixtures a test module takes by importing them: ``cards`` (autouse: the starter set loaded
# for every test of the module) and ``players`` (alice and bob with prepared decks, alice's
# collection two cards larger).
@pytest.fixture(autouse=True)
def cards(db):
    ensure_card_database()


@pytest.fixture
def players(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    return (alice, prepared_player(alice, spare=2)), (bob, prepared_player(bob))


def start_two_player(players, *, seed: int = 1, choice: dict | None = None, **kwargs):
    """A started two-player CCG match: ``players`` is ((user, deck), (user, deck)); the first
    creates it (``kwargs`` go to ``match_create``) and invites the second, who joins with his
    deck. Returns (match, [users])."""
    from games.table import services
    (first, first_deck), (second, second_deck) = players
    match = services.match_create(creator=first, kind="ccg", num_seats=2, invite=[second.username], seed=seed,
                                  creator_choice={"deck": first_deck.pk, **(choice or {})}, **kwargs)
    services.match_join(match_id=match.pk, user=second, choice={"deck": str(second_deck.pk)})
    match.refresh_from_db()
    return match, [first, second]


def prepared_card_dicts():
    from decks.models import Card
    known = {c.code: c.to_format() for c in Card.objects.filter(code__in=list(PREPARED_DECK))}
    return [known[code] for code, n in sorted(PREPARED_DECK.items()) for _ in range(n)]


def seed_for(want: str, sizes, *, players: int = 2, start: int = 0, **options):
    """The first seed from ``start`` whose scripted game ends with ante status ``want``
    ('won' or 'carried'): the engine is pure, so a seed found here replays the same."""
    deck = prepared_card_dicts()
    for seed in range(start, start + 200):
        state = GAME.setup(players, {"decks": [list(deck) for _ in range(players)], "collection_sizes": list(sizes),
                                     **options}, seed)
        state, _ = play_out(state)
        if state["result"] and state["result"].get("ante") == want:
            return seed
    raise AssertionError(f"no seed ends with {want}")


def fix_deal(match, seed: int) -> None:
    """Before a game made through the pages is set up: deal it from ``seed`` (as ``seed_for``
    found) rather than from a committed secret, so a browser test can play a known game. The
    game is then one without a commitment, as a game given a seed at creation is."""
    from games.models import Match
    Match.objects.filter(pk=match.pk).update(seed=seed, record_format=0, secret="", commitment="", rules_edition="")


def drive(match, users, *, until=None, limit=500):
    """Submit the scripted players' moves through the services until ``until(match)`` or the end."""
    from games.table import services
    for _ in range(limit):
        match.refresh_from_db()
        if match.status != "active" or (until and until(match)):
            return match
        pend = GAME.pending(match.state)
        seat = pend[0].seat
        move = with_words(match.state, scripted_move(match.state, seat, GAME.legal_moves(match.state, seat)))
        services.move_submit(match_id=match.pk, user=users[seat], move=move, version=match.version)
    raise AssertionError("the game did not end")
