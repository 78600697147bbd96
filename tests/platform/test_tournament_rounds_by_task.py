"""With Celery, the next round is paired by a task in the clocks' lane, sent as the round's
last game commits (a real worker on the Redis broker): the last mover's request does not wait
for the pairing, and no sweep is needed for it."""
import pytest
from celery.signals import task_postrun

from games.models import Tournament, TournamentGame
from games.tournaments import services
from tests.celery_worker import wait_for
from tests.platform.tournament_helpers import play_out

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def test_the_next_round_is_paired_by_the_task_the_last_game_sends(worker, make_user, settings):
    assert settings.TOURNAMENT_ROUNDS_BY_TASK
    organiser = make_user("merlin")
    t = services.tournament_create(organiser=organiser, kind="duel", format="swiss", rounds=2, max_players=4)
    for n in range(4):
        services.tournament_join(tournament_id=t.pk, user=make_user(f"p{n}"))
    services.tournament_start(tournament_id=t.pk, user=organiser)
    advanced = []

    def ran(sender=None, retval=None, **kwargs):
        if sender.name == "games.tasks.tournament_advance":
            advanced.append(retval)

    task_postrun.connect(ran, weak=False)
    try:
        for tg in TournamentGame.objects.filter(tournament=t, round__number=1):
            play_out(tg.match_id, lambda fn, *a, **k: fn(*a, **k), seed=tg.board)
        assert wait_for(lambda: Tournament.objects.get(pk=t.pk).current_round == 2, timeout=20)
        assert wait_for(lambda: len(advanced) == 2), "one task a result"
    finally:
        task_postrun.disconnect(ran)
    assert sorted(advanced) == [False, True], "the first result moved nothing on; the last closed the round"
    assert TournamentGame.objects.filter(tournament=t, round__number=2, kind="game").count() == 2
