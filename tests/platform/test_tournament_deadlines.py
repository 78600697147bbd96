"""A round's deadline: games still running are settled by the time-out rules (the seat to
move runs out of time: a loss in a game of two, an abort before that person's first move,
the clock's turn and then a loss at a larger table), the round closes and the next is paired;
through the sweep (the guarantee) and through the Celery task (the fast path). Also the
sweep's other duties: a start time, a round whose move-on was lost, and a paused tournament."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import registry, tasks
from games.models import Match, Seat, Tournament, TournamentGame, TournamentRound
from games.table import services as table
from games.tournaments import rounds, services
from tests.platform.tournament_helpers import commit, play_out, rounds_inline  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("rounds_inline")]


def _started(make_user, commit, *, kind="duel", format="swiss", players=4, **options):
    organiser = make_user("merlin")
    t = services.tournament_create(organiser=organiser, kind=kind, format=format, max_players=players, **options)
    for n in range(players):
        commit(services.tournament_join, tournament_id=t.pk, user=make_user(f"p{n}"))
    commit(services.tournament_start, tournament_id=t.pk, user=organiser)
    t.refresh_from_db()
    return t, organiser


def _moves(match_id, commit, count, pick=0):
    """``count`` legal moves by whoever is to move (the ``pick``-th legal one, round the list)."""
    for _ in range(count):
        match = Match.objects.get(pk=match_id)
        game = registry.get(match.kind)
        seat = match.seats.get(index=game.pending(match.state)[0].seat)
        legal = game.legal_moves(match.state, seat.index)
        commit(table.move_submit, match_id=match_id, user=seat.user, move=legal[pick % len(legal)],
               version=match.version)


def _round(t, number):
    return list(TournamentGame.objects.filter(tournament=t, round__number=number).order_by("board"))


def test_games_running_at_the_deadline_are_settled_by_the_time_out_rules(make_user, commit):
    t, _ = _started(make_user, commit, rounds=2, round_days=7)
    first = _round(t, 1)
    play_out(first[0].match_id, commit, seed=1)
    _moves(first[1].match_id, commit, 2)  # both have moved: the first seat is to move again
    deadline = TournamentRound.objects.get(tournament=t, number=1).deadline
    assert commit(services.sweep, now=deadline - timedelta(seconds=1)) == 0, "nothing before the deadline"
    assert commit(services.sweep, now=deadline + timedelta(seconds=1)) >= 1
    late = Match.objects.get(pk=first[1].match_id)
    assert late.status == Match.Status.FINISHED and late.outcome["winners"] == [1]
    assert "ran out of time" in late.outcome["reason"]
    assert Seat.objects.get(match=late, index=0).ran_out
    first[1].refresh_from_db()
    assert first[1].places == [2, 1]
    t.refresh_from_db()
    assert t.current_round == 2, "the round closed and the next was paired"

    # Round 2 by the Celery task at its deadline: a game nobody moved in is aborted (the first
    # seat ran out before their first move, so they lose it here), the other game is lost on time.
    second = _round(t, 2)
    _moves(second[1].match_id, commit, 3)
    TournamentRound.objects.filter(tournament=t, number=2).update(deadline=timezone.now() - timedelta(seconds=1))
    assert commit(tasks.tournament_round_close, t.pk, 2) is True
    aborted = Match.objects.get(pk=second[0].match_id)
    assert aborted.status == Match.Status.ABORTED and not aborted.rating_changes.exists()
    assert [g.places for g in TournamentGame.objects.filter(pk__in=[g.pk for g in second]).order_by("board")] == \
        [[2, 1], [1, 2]], "the seat to move lost each: seat 1 never moved, seat 2 ran out on its turn"
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert commit(tasks.tournament_round_close, t.pk, 2) is False, "a closed round is closed once"


def test_a_table_still_playing_at_the_deadline_ends_with_the_late_seat_losing(make_user, commit):
    t, _ = _started(make_user, commit, kind="fluxx", format="tables", players=3, rounds=1, table_size=3)
    (tg,) = _round(t, 1)
    match = Match.objects.get(pk=tg.match_id)
    game = registry.get("fluxx")
    # Random legal moves until every person has made a move of their own and someone owes a turn.
    for n in range(400):
        seats = list(match.seats.all())
        pending = game.pending(match.state)
        if all(s.own_moves for s in seats) and pending and pending[0].kind == "turn":
            break
        _moves(match.pk, commit, 1, pick=n)
        match.refresh_from_db()
        assert match.status == Match.Status.ACTIVE
    late = game.pending(match.state)[0].seat
    commit(rounds.round_close, t.pk, 1, now=TournamentRound.objects.get(tournament=t).deadline)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert sorted(match.outcome["winners"]) == sorted({0, 1, 2} - {late})
    assert match.outcome["reason"].startswith(f"The time of round 1 of {t.name} is up: Seat {late + 1} ran out")
    assert Seat.objects.get(match=match, index=late).ran_out
    tg.refresh_from_db()
    assert tg.places == [2 if i == late else 1 for i in range(3)]
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED


def test_the_sweep_moves_on_from_a_round_whose_last_result_was_not_followed(make_user, commit):
    t, _ = _started(make_user, commit, rounds=2)
    first = _round(t, 1)
    play_out(first[0].match_id, commit, seed=3)
    # The last game ends, but its after-commit work never runs (a crash just after the commit).
    play_out(first[1].match_id, lambda fn, *a, **k: fn(*a, **k), seed=4)
    t.refresh_from_db()
    assert t.current_round == 1 and all(g.places for g in TournamentGame.objects.filter(round__tournament=t))
    assert commit(services.sweep) == 1
    t.refresh_from_db()
    assert t.current_round == 2


def test_a_paused_tournament_closes_no_round_and_resuming_moves_the_deadline_on(make_user, commit):
    t, organiser = _started(make_user, commit, rounds=2)
    commit(services.tournament_pause, tournament_id=t.pk, user=organiser)
    deadline = TournamentRound.objects.get(tournament=t, number=1).deadline
    assert commit(services.sweep, now=deadline + timedelta(days=1)) == 0
    assert Match.objects.filter(tournament_game__tournament=t, status="active").count() == 2
    TournamentRound.objects.filter(tournament=t).update(deadline=timezone.now() + timedelta(hours=1))
    Tournament.objects.filter(pk=t.pk).update(paused_at=timezone.now() - timedelta(days=2))
    commit(services.tournament_resume, tournament_id=t.pk, user=organiser)
    moved = TournamentRound.objects.get(tournament=t, number=1).deadline
    assert timedelta(days=2) < moved - timezone.now() < timedelta(days=2, hours=2)


def test_the_sweep_starts_a_tournament_at_its_start_time(make_user, commit):
    organiser = make_user("merlin")
    soon = timezone.now() + timedelta(minutes=5)
    ready = services.tournament_create(organiser=organiser, kind="duel", format="swiss", rounds=1, starts_at=soon)
    short = services.tournament_create(organiser=organiser, kind="duel", format="swiss", rounds=3, starts_at=soon)
    for n in range(2):
        commit(services.tournament_join, tournament_id=ready.pk, user=make_user(f"r{n}"))
        commit(services.tournament_join, tournament_id=short.pk, user=make_user(f"s{n}"))
    assert commit(services.sweep) == 0, "not before its time"
    commit(services.sweep, now=soon + timedelta(seconds=1))
    ready.refresh_from_db()
    short.refresh_from_db()
    assert ready.status == Tournament.Status.RUNNING and ready.current_round == 1
    assert short.status == Tournament.Status.OPEN and short.starts_at is None
    assert "at least 4 players" in short.note
