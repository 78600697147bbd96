"""`manage.py ratings_recompute` (games/players/ratings.py): today's rules applied to the stored
history. A history rated under older rules (more games a day for a pair, a game in which
someone never moved, leavers ranked with the losers) is replayed, what changes is said in
names, --write stores it, and a second run changes nothing. It runs on the demo data, and
the deploy runs it after migrating."""
import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games.models import Match, Rating, RatingChange, Seat
from games.players import ratings
from games.table import services
from tests.podium_game import everyone_moves

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def _run(*args) -> str:
    out = io.StringIO()
    call_command("ratings_recompute", *args, stdout=out)
    return out.getvalue()


def _duel(alice, bob, winner=0, move_all=True):
    match = services.match_create(creator=alice, kind="podium", num_seats=2, invite=[bob.username])
    services.match_join(match_id=match.pk, user=bob)
    if move_all:
        everyone_moves(match)
    services.move_submit(match_id=match.pk, user=alice, move={"type": "end", "winners": [winner], "draw": False}, version=None)
    return match


def test_a_history_rated_under_older_rules_is_replayed_reported_written_once(make_user, settings):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    # Played while the site let a pair count five games a day.
    settings.RATED_PAIR_DAILY = 5
    games = [_duel(alice, bob, winner=0) for _ in range(5)]
    assert RatingChange.objects.count() == 10
    # Rated, under older rules, though carol never moved: made so by hand, as the old code would have.
    lazy = _duel(alice, carol, move_all=False)
    assert lazy.pk not in set(RatingChange.objects.values_list("match_id", flat=True))
    Match.objects.filter(pk=lazy.pk).update(outcome={"winners": [0], "draw": False, "reason": "declared"})
    _write_as_if_rated(lazy, alice, carol)

    settings.RATED_PAIR_DAILY = 3  # today's rules
    with pytest.raises(CommandError):
        _run()
    said = _run("--write")
    assert f"game {games[3].pk} no longer counts: these two players already had 3 rated games together" in said
    assert f"game {games[4].pk} no longer counts" in said
    assert f"game {lazy.pk} no longer counts: Seat 2 made no move of their own" in said
    assert "alice (podium): " in said and "bob (podium): " in said and "carol (podium): " in said
    assert set(RatingChange.objects.values_list("match_id", flat=True)) == {g.pk for g in games[:3]}
    assert Rating.objects.get(user=alice, kind="podium").games == 3
    assert Rating.objects.get(user=carol, kind="podium").games == 0
    games[4].refresh_from_db()
    assert games[4].outcome["not_rated"].startswith("Not rated: these two players already had 3")
    # What it wrote is what the games give: a second run finds nothing, writes nothing.
    stored = list(Rating.objects.order_by("pk").values_list("mu", "sigma", "games"))
    again = _run("--write")
    assert "nothing to change" in again and "->" not in again
    assert list(Rating.objects.order_by("pk").values_list("mu", "sigma", "games")) == stored
    _run()  # the check passes

    # Rules loosened again: the games that were capped count again, and say so no more.
    settings.RATED_PAIR_DAILY = 5
    said = _run("--write")
    assert f"game {games[3].pk} counts now" in said
    games[4].refresh_from_db()
    assert "not_rated" not in games[4].outcome
    assert Rating.objects.get(user=alice, kind="podium").games == 5


def _write_as_if_rated(match, *players):
    """A RatingChange pair as an older site would have written for a game it rated."""
    for seat, user in enumerate(players):
        RatingChange.objects.create(match=match, user=user, kind="podium", seat=seat, rank=seat + 1,
                                    mu_before=ratings.MU, sigma_before=ratings.SIGMA, mu_after=ratings.MU + 1 - seat,
                                    sigma_after=ratings.SIGMA - 0.5, display_before=ratings.NEW_DISPLAY,
                                    display_after=ratings.NEW_DISPLAY)
        rating, _ = Rating.objects.get_or_create(user=user, kind="podium", defaults={
            "mu": ratings.MU, "sigma": ratings.SIGMA, "display": ratings.NEW_DISPLAY})
        Rating.objects.filter(pk=rating.pk).update(games=rating.games + 1, mu=rating.mu + 1 - seat)


def test_it_runs_on_the_demo_data(make_user):
    from decks import services as deck_services
    from games.management.commands.load_demo import DEMO_PLAYERS
    from tests.platform.ccg_helpers import ensure_card_database

    # Accounts get their starter decks when the sign-up commits, which a test never does: as
    # a real sign-up would have, before load_demo seats them.
    ensure_card_database()
    for name in DEMO_PLAYERS:
        deck_services.starter_grant(user=make_user(name))
    call_command("load_demo", stdout=io.StringIO())
    call_command("load_demo", stdout=io.StringIO())  # idempotent, as the demo's own promise
    assert "nothing to change" in _run("--write")
    # A demo game played to its end by the demo players: rated, and the replay agrees.
    duel = Match.objects.get(title="Demo duel")
    seats = {s.index: s.user for s in Seat.objects.filter(match=duel).select_related("user")}
    from games import registry
    game = registry.get("duel")
    while True:
        duel.refresh_from_db()
        if duel.status != "active":
            break
        turn = duel.state["turn"]
        services.move_submit(match_id=duel.pk, user=seats[turn], move=game.legal_moves(duel.state, turn)[0],
                             version=None)
    assert RatingChange.objects.filter(match=duel).count() == 2
    _run()
    assert "nothing to change" in _run("--write")


def test_the_deploy_runs_it_after_migrating():
    compose = (ROOT / "docker-compose.yml").read_text()
    assert "manage.py migrate --noinput && python manage.py ratings_recompute --write" in compose
    prod = (ROOT / "grailsite/deploy/prod.py").read_text()
    assert prod.index('"migrate", "--noinput"') < prod.index('"ratings_recompute", "--write"') < prod.index(
        '"collectstatic"')
