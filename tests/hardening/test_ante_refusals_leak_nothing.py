"""A card staked in another game never makes a cut or an accepted doubling refuse, and
nothing the site says about it names a face-down card (docs/reliability.md, findings 4 and 12).

The secret-game canary approach (tests/hardening/test_hidden_information_canary.py) applied
to the ante: some of a player's cards have every copy staked in other games, and they lie
face down in his deck. The other player cuts that deck at every position (each cut in a
savepoint rolled back afterwards, so each starts from the same table); later a doubled ante
is accepted. For each move: it is made, and no response, log line, frame, page payload or
server log record names a card that its reader cannot see; the ledger stays consistent
(``ledger_check``) and the game replays (``replay_check``). A player who cannot pay a
doubling from the cards he can stake is told so before answering, without a card's name.
"""
import json
import logging
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import transaction

from decks import services as deck_services
from decks.models import AnteStake, Holding
from games.live import frames
from games.table import selectors, services
from grailsite.errors import MoveRejected
from games.models import Match, MoveRecord
from games.rules.base import Event
from tests.platform.ccg_helpers import GAME, drive, ensure_card_database, prepared_player

pytestmark = pytest.mark.django_db

# Cards of bob's prepared deck whose every copy is in other games' antes before the game
# starts: never staked here, so never face up, so no reader may ever see their names.
STAKED_ELSEWHERE = ("gorge-approach", "lake-of-the-lady", "windy-cliffs", "cornwall")
# A card whose copies go elsewhere after the game started (the rules could not know).
STAKED_MID_GAME = "bristol-downs"


class Undo(Exception):
    """Raised to roll a savepoint back after looking at what one cut did."""


@pytest.fixture
def table(make_user):
    ensure_card_database()
    alice, bob, watcher = make_user("alice"), make_user("bob"), make_user("watcher")
    decks = [prepared_player(alice, spare=1), prepared_player(bob)]

    def start(**options):
        match = services.match_create(creator=alice, kind="ccg", num_seats=2, invite=["bob"], seed=5,
                                      creator_choice={"deck": decks[0].pk}, options=options)
        services.match_join(match_id=match.pk, user=bob, choice={"deck": decks[1].pk})
        match.refresh_from_db()
        return match

    return start, [alice, bob], watcher


def stake_elsewhere(user, codes, *, keep=0):
    """Every free copy of ``codes`` but ``keep`` of each goes into another game's ante."""
    for holding in Holding.objects.filter(user=user, card__code__in=codes).select_related("card"):
        for n in range(holding.quantity - keep):
            deck_services.ante_hold(user=user, card_code=holding.card.code, match_id=f"another-game-{n % 3}")


def names_of(state, codes) -> set[str]:
    return set(codes) | {state["cards"][c]["title"] for c in codes if c in state["cards"]}


def shown(state, seat) -> str:
    """Every string the rules show ``seat`` (None: a spectator) in ``state``."""
    return json.dumps(GAME.view_for(state, seat))


def before_move(match) -> dict:
    return {"state": match.state, "version": match.version, "seq": match.move_count}


def leaks(match, users, watcher, before, result, caplog, secrets) -> dict:
    """What of ``secrets`` each reader was told by the move made from ``before``: its
    response, its log lines, each viewer's frame and page payload, the server's log. A name
    counts only if its reader could not see a card of that name anyway (in his own hand, or
    face up before or after the move)."""
    match.refresh_from_db()
    seats = selectors.seats_for(match)
    records = list(MoveRecord.objects.filter(match=match, seq__gt=before["seq"]).order_by("seq"))
    sent = dict(frames.frames_for(match, seats, prev=before["version"], records=records))
    public = shown(match.state, None) + shown(before["state"], None)
    told = {"response": (json.dumps(result), public),
            # Log lines for all (a seat's own lines reach it in its frame and page, below).
            "log lines": (json.dumps([e for r in records for e in r.events if Event.from_dict(e).visible_to(None)]),
                          public),
            "server log": ("\n".join(r.getMessage() for r in caplog.records), public)}
    for seat, user in [(0, users[0]), (1, users[1]), (None, watcher)]:
        own = shown(match.state, seat) + shown(before["state"], seat)
        page = json.dumps(selectors.match_payload(match, user, seats=seats))
        told[f"seat {seat}"] = (page + sent[frames.group_for(match.pk, seat)]["text"], own)
    return {reader: found for reader, (text, known) in told.items()
            if (found := sorted(s for s in secrets if s in text and s not in known))}


def unlimited(state) -> dict:
    """The state as the rules would have it if every card could be staked."""
    return {k: v for k, v in state.items() if k != "stakeable"}


def check_ledger_and_replay(match=None):
    out = StringIO()
    call_command("ledger_check", stdout=out)
    if match is not None:
        call_command("replay_check", match=match.pk, stdout=out)
        assert "0 mismatch" in out.getvalue()
    assert "Ledger check passed" in out.getvalue()


def test_a_cut_at_every_position_is_made_and_names_no_face_down_card(table, caplog):
    start, (alice, bob), watcher = table
    stake_elsewhere(bob, STAKED_ELSEWHERE)
    match = start()
    stake_elsewhere(bob, [STAKED_MID_GAME])
    secrets = names_of(match.state, STAKED_ELSEWHERE)
    assert all(code in json.dumps(match.state) for code in STAKED_ELSEWHERE)  # the canary can find them
    caplog.set_level(logging.DEBUG)
    passed_over = waiting = 0
    for at in range(1, len(match.state["p"][1]["deck"])):
        caplog.clear()
        before = before_move(match)
        would, _ = GAME.apply(unlimited(match.state), 0, {"type": "cut", "at": at})
        try:
            with transaction.atomic():
                result = services.move_submit(match_id=match.pk, user=alice, move={"type": "cut", "at": at},
                                              version=match.version)
                leaked = leaks(match, [alice, bob], watcher, before, result, caplog, secrets)
                assert not leaked, f"the cut at {at} names {leaked}"
                drawn = match.state["inst"][match.state["ante"][-1]]
                assert drawn not in STAKED_ELSEWHERE
                held = list(AnteStake.objects.filter(match_id=str(match.pk), status="held"))
                # A card whose copies went elsewhere mid-game waits in the ante unstaked.
                assert [(s.user, s.card.code) for s in held] == ([] if drawn == STAKED_MID_GAME else [(bob, drawn)])
                passed_over += would["inst"][would["ante"][-1]] in STAKED_ELSEWHERE
                waiting += drawn == STAKED_MID_GAME
                check_ledger_and_replay(match)
                raise Undo
        except Undo:
            pass
        match.refresh_from_db()
        assert match.move_count == 0
    # Non-vacuous: the rules alone would have drawn a card staked elsewhere at these cuts.
    assert passed_over >= 3 and waiting >= 3


def test_accepting_a_doubled_ante_with_cards_staked_elsewhere_passes_them_over(table, caplog):
    start, users, watcher = table
    keep = "open-field"
    for user in users:  # every card but one kind is in other games' antes
        stake_elsewhere(user, [c for c in deck_services.starter_collection_counts() if c != keep] +
                        ["bristol-downs", "windy-cliffs", "lake-of-the-lady", "cornwall", "gorge-approach"])
    match = drive(start(double_the_ante=True), users, until=lambda m: m.state["phase"] != "cut")
    offerer = match.state["turn"]
    other = 1 - offerer
    services.move_submit(match_id=match.pk, user=users[offerer], move={"type": "end_turn", "double": True},
                         version=match.version)
    match = drive(match, users, until=lambda m: any(p.kind == "offer" for p in GAME.pending(m.state)))
    state = match.state
    assert {"type": "accept"} in GAME.legal_moves(state, other)
    secrets = names_of(state, {state["inst"][i] for i in state["p"][other]["deck"]})  # face down to all
    would, _ = GAME.apply(unlimited(state), other, {"type": "accept"})
    before = before_move(match)
    caplog.set_level(logging.DEBUG)
    caplog.clear()
    result = services.move_submit(match_id=match.pk, user=users[other], move={"type": "accept"},
                                  version=match.version)
    leaked = leaks(match, users, watcher, before, result, caplog, secrets)
    assert not leaked, f"accepting names {leaked}"
    assert any(s not in shown(match.state, None) for s in secrets)  # there were secrets to look for
    new = match.state["ante"][len(state["ante"]):]
    assert len(new) == 2 and all(match.state["inst"][i] == keep for i in new)
    assert new != would["ante"][len(state["ante"]):]  # the rules alone would have drawn other cards
    assert AnteStake.objects.filter(match_id=str(match.pk), status="held").count() == 4
    assert not match.state["p"][other]["out"] and match.status == Match.Status.ACTIVE
    check_ledger_and_replay(match)


def test_a_player_who_cannot_pay_a_doubling_is_told_before_answering(table, client):
    start, (alice, bob), watcher = table
    # Bob can stake one card in all: the cut takes it, a doubling would need one more.
    stake_elsewhere(bob, [c for c in deck_services.starter_collection_counts() if c != "open-field"] +
                    ["bristol-downs", "windy-cliffs", "lake-of-the-lady", "cornwall", "gorge-approach"])
    stake_elsewhere(bob, ["open-field"], keep=1)
    match = drive(start(double_the_ante=True), [alice, bob], until=lambda m: m.state["phase"] != "cut")
    if match.state["turn"] != 0:  # alice must be the one to double: bob passes his turn
        match = drive(match, [alice, bob], until=lambda m: m.state["turn"] == 0)
    assert {"type": "end_turn", "double": True} not in GAME.legal_moves(match.state, 1)  # he could not pay
    services.move_submit(match_id=match.pk, user=alice, move={"type": "end_turn", "double": True},
                         version=match.version)
    match = drive(match, [alice, bob], until=lambda m: any(p.kind == "offer" for p in GAME.pending(m.state)))
    client.force_login(bob)
    page = client.get(f"/api/matches/{match.pk}/").json()
    assert [m["type"] for m in page["legal_moves"]] == ["concede"]
    deck = names_of(match.state, {match.state["inst"][i] for i in match.state["p"][1]["deck"]})
    with pytest.raises(MoveRejected) as refused:
        services.move_submit(match_id=match.pk, user=bob, move={"type": "accept"}, version=match.version)
    assert "free of your other games' antes" in refused.value.message
    assert not [name for name in deck if name in refused.value.message]
    check_ledger_and_replay(match)
