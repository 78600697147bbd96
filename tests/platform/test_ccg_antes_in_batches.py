"""The CCG's antes on the event loop's move path (games/live/live_moves.py): a cut stakes its card,
and the move that ends a game settles or returns the ante, inside the batch's transaction
(decks/ante_statements.py), instead of leaving the batch for the synchronous path. Only one
move of a batch may write the card ledger (the lock order): a second goes to the ordinary
path, and both are made."""
import asyncio

import pytest

from decks import selectors as deck_selectors
from decks.models import AnteStake, Holding
from games.live import live_moves
from games.kinds.ccg import hooks as ccg_shell
from games.models import Match
from games.rules.ccg.game import ante_result, with_words
from tests.platform.batch_counts import counts, since
from tests.platform.ccg_helpers import GAME, ensure_card_database, prepared_player, scripted_move, seed_for
from tests.platform.ccg_helpers import start_two_player
from tests.conftest import seated_players_moved

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


@pytest.fixture
def tables(make_user):
    """Two tables of two players with prepared decks (the first player's collection larger)."""
    ensure_card_database()

    def table(first, second):
        a, b = make_user(first), make_user(second)
        return (a, prepared_player(a, spare=2)), (b, prepared_player(b))
    return table("alice", "bob"), table("carol", "dave")


def _next_move(match, users):
    """The scripted player's next move: (user, move, version)."""
    seat = GAME.pending(match.state)[0].seat
    move = with_words(match.state, scripted_move(match.state, seat, GAME.legal_moves(match.state, seat)))
    return users[seat], move, match.version


async def _submit(match, users):
    user, move, version = _next_move(match, users)
    return await live_moves.move_submit(match_id=match.pk, user=user, move=move, version=version, key=None)


def _held(match):
    return list(AnteStake.objects.filter(match_id=str(match.pk), status="held").values_list("user_id", "card__code"))


def test_a_cut_stakes_its_card_in_the_batch(tables):
    match, users = start_two_player(tables[0])
    before = counts()
    asyncio.run(_submit(match, users))
    match.refresh_from_db()
    cut = ante_result(match.state)["cards"]
    assert len(cut) == 1 and _held(match) == [(users[cut[0]["owner"]].pk, cut[0]["code"])]
    assert since(before) == {"batched": 1, "batches": 1, "ordinary": 0}
    assert deck_selectors.ledger_discrepancies() == []


def test_two_games_cutting_in_one_batch_stake_once_there_and_once_on_the_ordinary_path(tables):
    one, one_users = start_two_player(tables[0])
    two, two_users = start_two_player(tables[1])
    before = counts()

    async def together():
        return await asyncio.gather(_submit(one, one_users), _submit(two, two_users))

    answers = asyncio.run(together())
    assert [a["seq"] for a in answers] == [1, 1]
    assert since(before) == {"batched": 1, "batches": 1, "ordinary": 1}
    for match in (one, two):
        match.refresh_from_db()
        assert len(_held(match)) == len(ante_result(match.state)["cards"]) == 1
    assert deck_selectors.ledger_discrepancies() == []


def test_a_game_played_to_the_grail_on_the_loop_settles_its_ante_there(tables):
    """Every move of a won game, cuts and the final search included, is made in a batch; the
    finder gets the other's staked cards and nothing stays held."""
    (alice, _), (bob, _) = tables[0]
    sizes = [ccg_shell._collection_size(u) for u in (alice, bob)]
    # Unrated: a rated game's end is made on the ordinary path (games/players/ratings.py locks and
    # writes ratings through the ORM); the ante's own statements stay in the batch.
    match, users = start_two_player(tables[0], seed=seed_for("won", sizes), rated=False)
    before = counts()
    for _ in range(500):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        asyncio.run(_submit(match, users))
    result = ante_result(match.state)
    assert match.status == "finished" and result["status"] == "won"
    assert since(before)["ordinary"] == 0 and since(before)["batched"] == match.move_count
    winner = users[result["winner"]]
    assert set(AnteStake.objects.filter(match_id=str(match.pk)).values_list("status", "winner")) == {
        ("settled", winner.pk)}
    assert not Holding.objects.filter(user__in=users, held__gt=0).exists()
    assert deck_selectors.ledger_discrepancies() == []


def test_resigning_on_the_loop_sends_the_staked_cards_home(tables):
    match, users = start_two_player(tables[0], rated=False)  # a rated end leaves the batch (games/players/ratings.py)
    asyncio.run(_submit(match, users))  # the first cut: one card staked
    match.refresh_from_db()
    before = counts()
    resigner = GAME.pending(match.state)[0].seat
    seated_players_moved(match)  # a resignation before one's first move would abort the game instead
    asyncio.run(live_moves.move_submit(match_id=match.pk, user=users[resigner], move={"type": "resign"},
                                       version=match.version, key=None))
    match.refresh_from_db()
    assert match.status == "finished" and ante_result(match.state)["status"] != "won"
    assert since(before) == {"batched": 1, "batches": 1, "ordinary": 0}
    assert _held(match) == [] and set(AnteStake.objects.filter(match_id=str(match.pk))
                                      .values_list("status", flat=True)) == {"released"}
    assert not Holding.objects.filter(user__in=users, held__gt=0).exists()
    assert deck_selectors.ledger_discrepancies() == []
