"""Every deadline a game sets follows the game's own clock: turns, response windows,
doubling offers, out-of-turn decisions, Camelot's asks. A wait may have a clock of its own (the CCG table's response-window and offer clocks)
only when it is shorter than the game's.

The service tests play each game through ``services.move_submit`` on a 15-minute clock
until the wanted kind of wait opens, and read the deadline the shell gave it. The path is
found first on the pure rules (random legal moves from the match's own start, several
tries, the shortest kept), so the database replays a short, known game."""
from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games.table import clock, services
from games import registry
from games.models import Match
from tests.platform.ccg_helpers import cards, prepared_player  # noqa: F401 (autouse fixture)

pytestmark = pytest.mark.django_db

FIFTEEN_MINUTES = timedelta(minutes=15)

# (game, seats, table options, kind of wait) for every kind of wait random play reaches.
WAITS = [
    ("duel", 2, {}, "turn"),
    ("cupquest", 3, {}, "turn"), ("cupquest", 3, {}, "battle"), ("cupquest", 3, {}, "attack"),
    ("camelot", 4, {}, "entry"), ("camelot", 4, {}, "turn"), ("camelot", 4, {}, "ally"),
    ("camelot", 4, {}, "disengage"), ("camelot", 4, {}, "revive"),
    ("ccg", 2, {"double_the_ante": True}, "cut"), ("ccg", 2, {"double_the_ante": True}, "turn"),
    ("ccg", 2, {"double_the_ante": True}, "response"), ("ccg", 2, {"double_the_ante": True}, "offer"),
    # The table's own clocks, longer than the game's, give way to it.
    ("ccg", 2, {"double_the_ante": True, "window": "12h", "offer": "1d"}, "response"),
    ("ccg", 2, {"double_the_ante": True, "window": "12h", "offer": "1d"}, "offer"),
] + [("fluxx", 3, {}, kind) for kind in (  # the waits of the printed deck, which new games are dealt
    "turn", "discard", "discard_keepers", "judge", "choose_card", "choose_player", "choose_rules", "discard_any",
    "use_card", "replace_goal", "keep_goal")]


def _owed_first(pending) -> set[str]:
    """The kinds of wait some seat owes first (a seat listed twice owes its first entry
    first, and its clock is that entry's)."""
    first = {}
    for p in pending:
        first.setdefault(p.seat, p.kind)
    return set(first.values())


def _path_to(game, state, kind, *, tries=40, limit=700):
    """The shortest list of (seat, move) found by random play that opens a wait of ``kind``."""
    best = None
    for attempt in range(tries):
        rng, now, path = random.Random(attempt), state, []
        for _ in range(limit if best is None else len(best)):
            pending = game.pending(now)
            if kind in _owed_first(pending) and path:
                best = path
                break
            if game.outcome(now) is not None or not pending:
                break
            seat = rng.choice(pending).seat
            move = rng.choice(game.legal_moves(now, seat))
            now, _ = game.apply(now, seat, move)
            path.append((seat, move))
    assert best is not None, f"random play never reached a {kind} wait"
    return best


def _start(kind, seats, options, make_user, **clock_args):
    users = [make_user(f"p{i}") for i in range(seats)]
    choices = [{}] * seats
    if kind == "ccg":
        choices = [{"deck": prepared_player(user, spare=seats - i).pk} for i, user in enumerate(users)]
    match = services.match_create(creator=users[0], kind=kind, num_seats=seats, options=options, seed=7,
                                  invite=[u.username for u in users[1:]], creator_choice=choices[0], **clock_args)
    for user, choice in zip(users[1:], choices[1:]):
        services.match_join(match_id=match.pk, user=user, choice=choice)
    match.refresh_from_db()
    assert match.status == "active"
    return match, users


@pytest.mark.parametrize("kind,seats,options,wait", WAITS,
                         ids=[f"{k}-{w}{'-own-clocks' if 'window' in o else ''}" for k, _, o, w in WAITS])
def test_every_kind_of_wait_runs_on_a_15_minute_clock(kind, seats, options, wait, make_user):
    match, users = _start(kind, seats, options, make_user, clock_kind="minutes", clock_amount=15)
    game = registry.get(kind)
    for seat, move in _path_to(game, match.state, wait):
        services.move_submit(match_id=match.pk, user=users[seat], move=move, version=None)
    match.refresh_from_db()
    waiting = [s for s in match.seats.all() if s.waiting_for == wait]
    assert waiting, f"no seat waits for {wait}"
    for seat in waiting:
        left = seat.deadline - timezone.now()
        assert timedelta(0) < left <= FIFTEEN_MINUTES, (wait, left)


def _match(kind, clock_kind, amount, **options):
    return Match(kind=kind, clock=clock_kind, clock_amount=amount, options=options)


@pytest.mark.parametrize("kind,seats,options,wait", WAITS,
                         ids=[f"{k}-{w}{'-own-clocks' if 'window' in o else ''}" for k, _, o, w in WAITS])
def test_every_kind_of_wait_runs_on_a_days_clock(kind, seats, options, wait):
    room = registry.room(kind)
    match = _match(kind, "days", 3, **room.options_clean(options))
    expected = ("hours", 12) if (wait, options.get("window")) == ("response", "12h") else \
        ("days", 1) if (wait, options.get("offer")) == ("offer", "1d") else ("days", 3)
    assert services._allowance(match, wait) == expected


def test_a_wait_runs_on_its_own_clock_only_when_it_is_the_shorter():
    assert clock.within(("minutes", 15), ("hours", 12)) == ("minutes", 15)
    assert clock.within(("days", 3), ("hours", 12)) == ("hours", 12)
    assert clock.within(("days", 3), None) == ("days", 3)
    assert clock.within(("hours", 12), ("days", 1)) == ("hours", 12)
    assert clock.within(("none", 0), ("hours", 12)) == ("none", 0)  # an untimed game times no wait


def test_the_ccg_table_clocks_default_to_the_games_own(make_user):
    options = registry.room("ccg").options_clean({})
    assert options["window"] is None and options["offer"] is None
    for clock_kind, amount in (("minutes", 15), ("days", 3), ("hours", 2)):
        match = _match("ccg", clock_kind, amount, **options)
        assert services._allowance(match, "response") == services._allowance(match, "offer") == (clock_kind, amount)
