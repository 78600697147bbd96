"""The hidden-information canary over random games of every registered kind (the registry
is iterated, so a kind registered later is covered without a change here).

For each step of a random game and each viewer, what the rules show the other seats but not
a spectator (their hands, their face-down cards: string values of ``view_for``) is that
seat's secret. No other viewer's payload (the JSON the API, the page and the websocket send)
may carry another seat's secret, or a log line only another seat was shown: that covers all
the shell adds around a view (legal moves, log, seats, outcome) for every kind. Whether a
kind's own ``view_for`` hides what it must is that kind's test (tests/rules/, and
tests/platform/test_ccg_hidden_information.py); here it is checked exactly for the test game
"secret" (tests/secret_game.py), whose hands and deck are unmistakable strings, which also
makes the check above provably non-vacuous. Each game is committed, and its secret (and the
seed it gives) are in no viewer's payload while it is under way."""
import json
import random
import re

import pytest

from decks import services as deck_services
from decks.models import Deck
from games.table import selectors, services
from games import registry
from grailsite.errors import ServiceError
from games.models import Match, MoveRecord
from games.rules.base import Event
from tests.secret_game import secrets_of

pytestmark = pytest.mark.django_db

STEPS = 40          # per kind; enough to deal, draw and play in every kind registered today
MIN_LENGTH = 4      # shorter strings ("up", "yes") are words, not secrets
IDENTIFIER = re.compile(r"[a-z_]+")
# Each game is committed to a known secret (games/table/commitments.py), which no viewer may
# be shown before the game is over: it gives the seed, and every card still to come.
SECRET = bytes.fromhex("5ec0e7" * 10 + "5ec0")


def keys_in(data) -> set[str]:
    """Every dict key in ``data``: the names of fields ("combat", "method"), never secrets."""
    found, stack = set(), [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            found.update(k for k in value if isinstance(k, str))
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return found


def strings_in(data) -> set[str]:
    found, stack = set(), [data]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if len(value) >= MIN_LENGTH:
                found.add(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return found


def start(kind: str, users) -> Match:
    """A started match of ``kind``; a kind that asks each seat for a choice (the CCG's deck)
    gets each player's starter deck."""
    game = registry.get(kind)
    players = users[:game.min_players]
    choices = [None] * len(players)
    try:
        match = services.match_create(creator=players[0], kind=kind, num_seats=len(players),
                                      invite=[u.username for u in players[1:]], secret=SECRET)
    except ServiceError:
        for user in players:
            deck_services.starter_grant(user=user)
        choices = [{"deck": Deck.objects.filter(owner=u).order_by("id").first().pk} for u in players]
        match = services.match_create(creator=players[0], kind=kind, num_seats=len(players), secret=SECRET,
                                      invite=[u.username for u in players[1:]], creator_choice=choices[0])
    for user, choice in zip(players[1:], choices[1:]):
        services.match_join(match_id=match.pk, user=user, choice=choice)
    match.refresh_from_db()
    return match


def play_one(match: Match, users, rng) -> bool:
    """One random legal move by a pending seat, as listed; False when none can be made."""
    game = registry.get(match.kind)
    for pending in game.pending(match.state):
        moves = game.legal_moves(match.state, pending.seat)
        rng.shuffle(moves)
        for move in moves[:5]:
            try:
                services.move_submit(match_id=match.pk, user=users[pending.seat], move=move, version=None)
                return True
            except ServiceError:
                continue  # a listed move refused is test_random_playout.py's finding
    return False


def private_log_lines(match, seat) -> set[str]:
    mine, theirs = set(), set()
    for record in MoveRecord.objects.filter(match=match):
        for raw in record.events:
            event = Event.from_dict(raw)
            (mine if event.visible_to(seat) else theirs).add(event.text)
    return theirs - mine


def check_step(match: Match, users, watcher) -> int:
    """Assert no viewer's payload carries another seat's secret; returns how many secrets
    there were to find (so a test can show it looked at something)."""
    game = registry.get(match.kind)
    seats = selectors.seats_for(match)
    viewers = [(seat.index, seat.user) for seat in seats] + [(None, watcher)]
    # The shell's own vocabulary (a log entry's kind, what a seat waits for: "turn", "play")
    # is public; a seat's card may hold the same word as a value ("duration": "turn") without
    # that word being its secret. Card titles, codes and texts never look like identifiers.
    watcher_shell = dict(selectors.match_payload(match, watcher, seats=seats), view=None)
    vocabulary = {s for s in strings_in(watcher_shell) if IDENTIFIER.fullmatch(s)}
    views = [game.view_for(match.state, s.index) for s in seats]
    field_names = set().union(*(keys_in(v) for v in views), keys_in(watcher_shell))
    public = strings_in(game.view_for(match.state, None)) | vocabulary | field_names
    own = {s.index: strings_in(view) for s, view in zip(seats, views)}
    secrets = {i: strings - public for i, strings in own.items()}
    for index, user in viewers:
        text = json.dumps(selectors.match_payload(match, user, seats=seats))
        if match.status == Match.Status.ACTIVE:
            assert SECRET.hex() not in text and str(match.seed) not in text, f"{match.kind}: the game's secret or seed"
        for other, theirs in secrets.items():
            if other == index:
                continue
            leaked = {s for s in theirs - own.get(index, set()) if json.dumps(s) in text}
            assert not leaked, f"{match.kind}: seat {index} is shown seat {other}'s {sorted(leaked)[:3]}"
        if match.kind == "secret":
            exact = [card for card in secrets_of(match.state, index) if card in text]
            assert not exact, f"seat {index} is shown {exact[:3]}"
        said = [line for line in private_log_lines(match, index) if json.dumps(line)[1:-1] in text]
        assert not said, f"{match.kind}: seat {index} reads another seat's log lines {said[:2]}"
    return sum(len(s) for s in secrets.values())


@pytest.mark.parametrize("kind", [g.kind for g in registry.kinds()])
def test_no_viewer_sees_another_seats_secrets_in_a_random_game(kind, make_user, cards):
    users = [make_user() for _ in range(registry.get(kind).min_players)]
    watcher = make_user()
    match = start(kind, users)
    rng = random.Random(kind)
    found = check_step(match, users, watcher)
    for _ in range(STEPS):
        if match.status != Match.Status.ACTIVE or not play_one(match, users, rng):
            break
        match.refresh_from_db()
        found += check_step(match, users, watcher)
    if kind == "secret":
        assert found > 0  # the canary: hands are secrets, and they were looked for
