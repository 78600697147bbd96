"""Playing tournament and ladder games quickly in tests: legal moves (or resignations) through
the services, or through the JSON API as a client sends them, each change committed as far as
its after-commit work goes (the next round is paired there), without a transactional test."""
from __future__ import annotations

import random

import pytest

from games import registry
from games.models import Match
from games.table import services


class ThroughServices:
    """Moves and resignations as the table's services take them."""

    @staticmethod
    def move(match_id: int, user, move: dict, version: int) -> None:
        services.move_submit(match_id=match_id, user=user, move=move, version=version)

    @staticmethod
    def resign(match_id: int, user) -> None:
        services.match_resign(match_id=match_id, user=user)


class ThroughApi:
    """Moves and resignations as a client sends them: signed in as the player, POST
    /api/matches/<id>/moves/ with the version the move was chosen on, and .../resign/."""

    def __init__(self, client):
        self.client = client
        self.signed_in = None
        self.posted = 0  # moves the API took

    def _as(self, user) -> None:
        if self.signed_in != user.pk:
            self.client.force_login(user)
            self.signed_in = user.pk

    def move(self, match_id: int, user, move: dict, version: int) -> None:
        self._as(user)
        answer = self.client.post(f"/api/matches/{match_id}/moves/", {"move": move, "version": version},
                                  content_type="application/json")
        assert answer.status_code == 200, answer.content
        assert answer.json()["version"] > version and not answer.json()["repeated"]
        self.posted += 1

    def resign(self, match_id: int, user) -> None:
        self._as(user)
        answer = self.client.post(f"/api/matches/{match_id}/resign/", content_type="application/json")
        assert answer.status_code == 200, answer.content


def play_out(match_id: int, commit, *, seed: int = 0, moves: int = 5000, resign_after: int | None = None,
             send=ThroughServices) -> Match:
    """Play a game to its end by random legal moves of whoever the rules wait for; with
    ``resign_after``, after that many moves the players resign one by one, last seat
    first, until the game is over. ``commit``: runs a call with its after-commit work.
    ``send``: how the moves reach the game (``ThroughServices``, or ``ThroughApi(client)``)."""
    rng = random.Random(seed)
    made = 0
    while made < moves:
        match = Match.objects.get(pk=match_id)
        if match.status != Match.Status.ACTIVE:
            return match
        game = registry.get(match.kind)
        seats = {s.index: s for s in match.seats.select_related("user")}
        if resign_after is not None and made >= resign_after:
            out = game.seats_out(match.state)
            seat = next(s for i, s in sorted(seats.items(), reverse=True) if i not in out and s.user_id)
            commit(send.resign, match_id, seat.user)
            made += 1
            continue
        pending = game.pending(match.state)
        seat = seats[pending[0].seat]
        legal = game.legal_moves(match.state, seat.index)
        commit(send.move, match_id, seat.user, rng.choice(legal), match.version)
        made += 1
    raise AssertionError(f"game {match_id} did not end in {moves} moves")


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """Run a call, then its after-commit work (and the work that work adds), as a commit would."""
    def run(fn, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return fn(*args, **kwargs)
    return run


@pytest.fixture
def rounds_inline(settings):
    """The next round paired in the after-commit work itself, as without Celery (a test of
    the task's path has a worker: test_tournament_rounds_by_task.py)."""
    settings.TOURNAMENT_ROUNDS_BY_TASK = False
