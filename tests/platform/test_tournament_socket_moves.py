"""A tournament game ended by a move over the websocket's batched path (games/live/live_moves.py):
its end is recorded through the ORM, so that change asks for the synchronous path, and the
tournament still hears of it and moves on; ordinary games' ends stay on the batched path."""
import asyncio

import pytest
from channels.db import database_sync_to_async

from games import registry
from games.live import live_moves
from games.models import Match, Tournament, TournamentGame
from games.tournaments import services
from tests.platform.tournament_helpers import rounds_inline  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.usefixtures("rounds_inline")]


def _next_move(match_id):
    match = Match.objects.get(pk=match_id)
    if match.status != Match.Status.ACTIVE:
        return None
    game = registry.get(match.kind)
    seat = match.seats.select_related("user").get(index=game.pending(match.state)[0].seat)
    return seat.user, game.legal_moves(match.state, seat.index)[0], match.version


def test_a_tournament_game_ended_over_the_socket_reaches_the_tournament(make_user):
    assert live_moves.available(), "the batched path is what this test is about"
    organiser = make_user("merlin")
    t = services.tournament_create(organiser=organiser, kind="duel", format="swiss", rounds=1, max_players=2)
    for name in ("arthur", "bedevere"):
        services.tournament_join(tournament_id=t.pk, user=make_user(name))
    services.tournament_start(tournament_id=t.pk, user=organiser)
    match_id = TournamentGame.objects.get(tournament=t).match_id
    before = dict(live_moves.counts)

    async def scenario():
        while (step := await database_sync_to_async(_next_move)(match_id)) is not None:
            user, move, version = step
            await live_moves.move_submit(match_id=match_id, user=user, move=move, version=version, key=None)

    asyncio.run(scenario())
    assert live_moves.counts["batched"] > before["batched"], "the moves before the last went in batches"
    t.refresh_from_db()
    assert TournamentGame.objects.get(tournament=t).places is not None
    assert t.status == Tournament.Status.FINISHED
