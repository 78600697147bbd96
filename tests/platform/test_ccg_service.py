"""The CCG on the platform: deck choice, real antes held at the cut and moved through the
ledger when the game ends (Grail found, draw and rematch, resignation, abandon, timeout),
presets and the per-wait clocks."""
import json
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone

from decks import selectors as deck_selectors
from decks import services as deck_services
from decks.models import AnteStake, Holding, LedgerEntry
from games.table import selectors, services
from games.kinds.ccg import hooks as ccg_shell
from grailsite.errors import ServiceError
from games.models import Match, MoveRecord
from games.rules.ccg.game import ante_result
from tests.platform.ccg_helpers import GAME, drive, seed_for
from tests.platform.ccg_helpers import cards, players  # noqa: F401 (fixtures this module uses)
from tests.platform.ccg_helpers import start_two_player as start
from tests.conftest import seated_players_moved

pytestmark = pytest.mark.django_db


def sizes(*users):
    return [ccg_shell._collection_size(u) for u in users]


def copies(user, code):
    h = Holding.objects.filter(user=user, card__code=code).first()
    return (h.quantity, h.held) if h else (0, 0)


def totals(users, codes):
    return {(u.pk, c): sum(copies(u, c)) for u in users for c in codes}


# --- choosing a deck -------------------------------------------------------------------

def test_the_creator_must_choose_one_of_their_own_valid_decks(players, make_user):
    (alice, _), (bob, b_deck) = players
    with pytest.raises(ServiceError, match="Choose one of your own decks"):
        services.match_create(creator=alice, kind="ccg", num_seats=2, creator_choice={"deck": b_deck.pk})
    with pytest.raises(ServiceError, match="Choose one of your own decks"):
        services.match_create(creator=alice, kind="ccg", num_seats=2)
    small = deck_services.deck_save(user=alice, name="Too small", cards={"arthur": 1, "patsy": 1, "open-field": 5})
    with pytest.raises(ServiceError, match="'Too small' cannot be played"):
        services.match_create(creator=alice, kind="ccg", num_seats=2, creator_choice={"deck": small.pk})


def test_joining_needs_a_deck_and_the_table_options_are_the_matchs(players):
    (alice, a_deck), (bob, b_deck) = players
    match = services.match_create(creator=alice, kind="ccg", num_seats=2, seed=1, creator_choice={
        "deck": str(a_deck.pk)}, options={"double_the_ante": "on", "rules_off": ["quotes"], "window": "12h",
                                          "offer": "2d"})
    assert match.options == {"double_the_ante": True, "rules_off": ["quotes"], "window": ["hours", 12],
                             "offer": ["days", 2]}
    assert match.seats.get(index=0).choice == {"deck": a_deck.pk, "deck_version": 1, "deck_name": a_deck.name,
                                               "preset": "ask"}
    with pytest.raises(ServiceError, match="Choose one of your own decks"):
        services.match_join(match_id=match.pk, user=bob, choice={})
    services.match_join(match_id=match.pk, user=bob, choice={"deck": b_deck.pk})
    match.refresh_from_db()
    assert match.status == "active"
    assert match.state["opts"]["rules_off"] == ["quotes"] and match.state["opts"]["double_the_ante"] is True
    assert ccg_shell.allowance(match, "response") == ("hours", 12)
    assert ccg_shell.allowance(match, "offer") == ("days", 2)
    assert ccg_shell.allowance(match, "turn") is None
    assert len(match.setup_options["decks"][1]) == 40
    assert match.setup_options["collection_sizes"] == sizes(alice, bob)


def test_a_deck_edited_after_joining_plays_as_it_was_chosen(players):
    (alice, a_deck), (bob, b_deck) = players
    match = services.match_create(creator=alice, kind="ccg", num_seats=2, creator_choice={"deck": a_deck.pk})
    deck_services.deck_save(user=alice, deck=a_deck, name="Edited", cards=dict(a_deck.cards, **{"open-field": 16}))
    services.match_join(match_id=match.pk, user=bob, choice={"deck": b_deck.pk})
    match.refresh_from_db()
    assert len(match.setup_options["decks"][0]) == 40


def test_a_bad_window_clock_is_refused_with_its_reason(players):
    (alice, a_deck), _ = players
    with pytest.raises(ServiceError, match="written like 12h"):
        services.match_create(creator=alice, kind="ccg", num_seats=2, creator_choice={"deck": a_deck.pk},
                              options={"window": "soon"})
    with pytest.raises(ServiceError, match="hours clock takes 1 to 72"):
        services.match_create(creator=alice, kind="ccg", num_seats=2, creator_choice={"deck": a_deck.pk},
                              options={"window": "100h"})


# --- antes -----------------------------------------------------------------------------

def test_each_cut_holds_the_ante_card_from_its_owners_collection(players):
    match, (alice, bob) = start(players)
    assert not AnteStake.objects.filter(match_id=str(match.pk)).exists()
    drive(match, [alice, bob], until=lambda m: m.state["phase"] != "cut")
    stakes = list(AnteStake.objects.filter(match_id=str(match.pk)).order_by("id"))
    ante = ante_result(Match.objects.get(pk=match.pk).state)["cards"]
    assert [(s.user_id, s.card.code, s.status) for s in stakes] == [
        ([alice, bob][c["owner"]].pk, c["code"], "held") for c in ante]
    for stake in stakes:
        assert copies(stake.user, stake.card.code)[1] == 1
    assert deck_selectors.ledger_discrepancies() == []


def test_finding_the_grail_moves_the_ante_to_the_finder_in_the_ending_transaction(players):
    (alice, _), (bob, _) = players
    match, users = start(players, seed=seed_for("won", sizes(alice, bob)))
    drive(match, users, until=lambda m: m.state["phase"] != "cut")
    ante = ante_result(Match.objects.get(pk=match.pk).state)["cards"]
    codes = {c["code"] for c in ante}
    before = totals(users, codes)
    match = drive(match, users)
    result = ante_result(match.state)
    assert match.status == "finished" and result["status"] == "won"
    winner, loser = users[result["winner"]], users[1 - result["winner"]]
    after = totals(users, codes)
    lost = [c for c in ante if c["owner"] != result["winner"]]
    for c in {c["code"] for c in lost}:
        n = sum(1 for x in lost if x["code"] == c)
        assert after[(winner.pk, c)] == before[(winner.pk, c)] + n
        assert after[(loser.pk, c)] == before[(loser.pk, c)] - n
    assert set(AnteStake.objects.filter(match_id=str(match.pk)).values_list("status", "winner")) == {
        ("settled", winner.pk)}
    assert not Holding.objects.filter(user__in=users, held__gt=0).exists()
    assert deck_selectors.ledger_discrepancies() == []


def test_a_draw_starts_the_rematch_with_the_ante_carried_over_and_one_more_card_each(players):
    (alice, _), (bob, _) = players
    match, users = start(players, seed=seed_for("carried", sizes(alice, bob)))
    match = drive(match, users)
    assert match.outcome["draw"] is True and ante_result(match.state)["status"] == "carried_over"
    carried = ante_result(match.state)["cards"]
    assert set(AnteStake.objects.filter(match_id=str(match.pk)).values_list("status", flat=True)) == {"released"}
    rematch = Match.objects.get(rematch_of=match)
    assert rematch.status == "active" and [s.user for s in rematch.seats.order_by("index")] == users
    assert [(c["owner"], c["code"]) for c in ante_result(rematch.state)["cards"]] == [
        (c["owner"], c["code"]) for c in carried]
    held = AnteStake.objects.filter(match_id=str(rematch.pk), status="held")
    assert sorted((s.user_id, s.card.code) for s in held) == sorted((users[c["owner"]].pk, c["code"]) for c in carried)
    # The carried card is in the ante, not in its owner's deck as well.
    assert all(len(d) == 40 - sum(1 for c in carried if c["owner"] == i)
               for i, d in enumerate(rematch.setup_options["decks"]))
    drive(rematch, users, until=lambda m: m.state["phase"] != "cut")
    assert AnteStake.objects.filter(match_id=str(rematch.pk), status="held").count() == len(carried) + 2
    assert deck_selectors.ledger_discrepancies() == []


def test_abandoning_a_rematch_before_any_move_sends_the_carried_ante_home(players):
    (alice, _), (bob, _) = players
    match, users = start(players, seed=seed_for("carried", sizes(alice, bob)))
    drive(match, users)
    rematch = Match.objects.get(rematch_of=match)
    services.match_abandon(match_id=rematch.pk, user=alice)
    assert set(AnteStake.objects.filter(match_id=str(rematch.pk)).values_list("status", flat=True)) == {"released"}
    assert not Holding.objects.filter(user__in=users, held__gt=0).exists()
    assert deck_selectors.ledger_discrepancies() == []


def test_resigning_leaves_the_other_alone_and_the_ante_stays_at_stake_until_the_end(players):
    match, (alice, bob) = start(players)
    drive(match, [alice, bob], until=lambda m: m.state["phase"] != "cut")
    services.match_resign(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.status == "active" and AnteStake.objects.filter(match_id=str(match.pk), status="held").count() == 2
    # Alone (15.3), alice gives up: she wins the game, each ante card goes back to its owner.
    services.move_submit(match_id=match.pk, user=alice, move={"type": "give_up"}, version=match.version)
    match.refresh_from_db()
    assert match.status == "finished" and match.outcome["winners"] == [0]
    assert set(AnteStake.objects.filter(match_id=str(match.pk)).values_list("status", flat=True)) == {"released"}
    assert deck_selectors.ledger_discrepancies() == []


def test_resigning_during_the_cut_returns_the_cards_already_staked(players):
    """bob leaves before his first move: the game is aborted (games/table/referee.py), and the
    card alice's cut staked goes home."""
    match, (alice, bob) = start(players)
    services.move_submit(match_id=match.pk, user=alice, move={"type": "cut", "at": 3}, version=match.version)
    assert AnteStake.objects.filter(match_id=str(match.pk), status="held").count() == 1
    services.match_resign(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.status == "aborted" and match.outcome["winners"] == []
    assert set(AnteStake.objects.filter(match_id=str(match.pk)).values_list("status", flat=True)) == {"released"}
    assert deck_selectors.ledger_discrepancies() == []


def test_a_timed_out_cut_is_made_for_the_player_and_its_card_held(players):
    match, (alice, bob) = start(players, clock_kind="minutes", clock_amount=5)
    match.seats.filter(index=0).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.deadline_expire(match_id=match.pk, seat_index=0)
    record = MoveRecord.objects.get(match=match, by_timeout=True)
    assert record.move["type"] == "cut"
    assert AnteStake.objects.filter(match_id=str(match.pk), user=bob, status="held").count() == 1


def test_a_cut_onto_a_card_staked_in_another_game_stakes_the_next_free_card(players):
    """The card the cut turns up has every copy staked in another game. It
    is passed over (it stays on top of the deck, face down) and the next card that can be
    staked goes in; nothing is refused, no card is named, and the game replays."""
    match, (alice, bob) = start(players, seed=5)
    after_cut, _ = GAME.apply(match.state, 0, {"type": "cut", "at": 3})
    top = after_cut["ante"][-1]
    code = after_cut["inst"][top]
    services.match_abandon(match_id=match.pk, user=alice)
    for n in range(copies(bob, code)[0]):
        deck_services.ante_hold(user=bob, card_code=code, match_id=f"other-{n}")
    match, _ = start(players, seed=5)  # the same shuffle, started while those copies are away
    assert match.state["stakeable"][1][code] == 0
    services.move_submit(match_id=match.pk, user=alice, move={"type": "cut", "at": 3}, version=match.version)
    match.refresh_from_db()
    staked = match.state["ante"][-1]
    assert staked == next(i for i in after_cut["p"][1]["deck"][::-1] if after_cut["inst"][i] != code)
    assert match.state["p"][1]["deck"][-1] == top  # where it lay, face down
    held = AnteStake.objects.get(match_id=str(match.pk), status="held")
    assert (held.user, held.card.code) == (bob, match.state["inst"][staked])
    record = MoveRecord.objects.get(match=match, seq=1)
    assert all(name not in json.dumps(record.events) for name in (code, after_cut["cards"][code]["title"]))
    out = StringIO()
    call_command("replay_check", match=match.pk, stdout=out)
    assert "0 mismatch" in out.getvalue()
    assert deck_selectors.ledger_discrepancies() == []


def test_a_card_whose_last_copy_went_elsewhere_mid_game_waits_in_the_ante_for_a_copy(players, caplog):
    """The copies went into another game after this one began: the cut is still made (a
    refusal would say where the card lies), the card goes into the ante unstaked, the log
    names no card, and it is staked once a copy comes home (at the next draw or the end)."""
    match, (alice, bob) = start(players, seed=5)
    after_cut, _ = GAME.apply(match.state, 0, {"type": "cut", "at": 3})
    code = after_cut["inst"][after_cut["ante"][-1]]
    for n in range(copies(bob, code)[0]):
        deck_services.ante_hold(user=bob, card_code=code, match_id=f"other-{n}")
    services.move_submit(match_id=match.pk, user=alice, move={"type": "cut", "at": 3}, version=match.version)
    match.refresh_from_db()
    assert match.state["ante"] == after_cut["ante"] and not AnteStake.objects.filter(match_id=str(match.pk)).exists()
    said = [r.getMessage() for r in caplog.records if r.name.startswith("games.kinds.ccg")]
    assert said and all(code not in line and "wait to be staked" in line for line in said)
    deck_services.ante_release(match_id="other-0")  # a copy comes home
    with transaction.atomic():  # as the next draw or the end of the game does, under the match's lock
        ccg_shell._stake_owed(match, list(match.seats.all()))
    assert AnteStake.objects.get(match_id=str(match.pk), status="held").card.code == code
    assert deck_selectors.ledger_discrepancies() == []


def test_a_game_ended_without_a_grail_finder_says_the_ante_goes_back(players):
    """The ending under the headline comes from the server (the rules' ending_notes), so a
    page opened after the end says it too: only a Grail finder wins the ante (15.3); a
    resignation sends each card home, and the ledger says why."""
    match, (alice, bob) = start(players)
    services.move_submit(match_id=match.pk, user=alice, move={"type": "cut", "at": 3}, version=match.version)
    seated_players_moved(match, bob)  # a resignation, not an abort: as if bob had made a move of his own
    services.match_resign(match_id=match.pk, user=bob)
    match = Match.objects.get(pk=match.pk)
    data = selectors.match_payload(match, alice)
    assert data["view"]["result"]["ante"] == "returned"
    card = match.state["cards"][match.state["inst"][match.state["ante"][0]]]["title"]
    assert data["ending"]["details"] == [f"The ante goes back to its owners: {card} (bob). Only a player who finds "
                                         "the Holy Grail wins the ante (15.3), and this game ended another way."]
    assert not AnteStake.objects.filter(match_id=str(match.pk), status="held").exists()
    notes = set(LedgerEntry.objects.filter(match_id=str(match.pk), reason="ante_released").values_list("note", flat=True))
    assert notes == {f"Game #{match.pk} ended without the Grail found, so no one wins the ante: "
                     "bob resigned before the game began."}


# --- presets and clocks ----------------------------------------------------------------

def test_always_pass_answers_response_windows_by_itself(players):
    (alice, a_deck), (bob, b_deck) = players
    match = services.match_create(creator=alice, kind="ccg", num_seats=2, invite=["bob"], seed=1,
                                  creator_choice={"deck": a_deck.pk, "preset": "always_pass"})
    services.match_join(match_id=match.pk, user=bob, choice={"deck": b_deck.pk, "preset": "always_pass"})
    match.refresh_from_db()
    drive(match, [alice, bob], until=lambda m: m.move_count > 60)
    assert MoveRecord.objects.filter(match=match, move={"type": "pass"}, key__startswith="auto-").exists()
    match.refresh_from_db()
    assert all(p.kind != "response" for p in GAME.pending(match.state))


def test_a_response_window_runs_on_its_own_clock_and_the_preset_can_change_mid_game(players):
    match, users = start(players, seed=seed_for("won", sizes(players[0][0], players[1][0])),
                         clock_kind="days", clock_amount=3, options={"window": "2h"})
    drive(match, users, until=lambda m: any(s.waiting_for == "response" for s in m.seats.all()))
    seat = match.seats.get(waiting_for="response")
    assert timedelta(hours=1, minutes=59) < seat.deadline - timezone.now() <= timedelta(hours=2)
    ccg_shell.preset_set(match_id=match.pk, user=seat.user, preset="always_pass")
    seat.refresh_from_db()
    assert seat.choice["preset"] == "always_pass" and seat.waiting_for != "response"
    with pytest.raises(ServiceError):
        ccg_shell.preset_set(match_id=match.pk, user=seat.user, preset="sometimes")


def test_the_preset_endpoint_reads_and_changes_my_preset(players, client):
    match, (alice, bob) = start(players)
    url = f"/api/matches/{match.pk}/ccg/preset/"
    client.force_login(bob)
    assert client.get(url).json() == {"preset": "ask"}
    answer = client.post(url, {"preset": "always_pass"}, content_type="application/json")
    assert answer.status_code == 200 and answer.json() == {"preset": "always_pass"}
    assert match.seats.get(index=1).choice["preset"] == "always_pass"
    refused = client.post(url, {"preset": "never"}, content_type="application/json")
    assert refused.status_code == 400 and "always_pass" in refused.json()["error"]["message"]


def test_the_create_form_and_the_join_form_offer_my_decks(players, client):
    (alice, a_deck), (bob, b_deck) = players
    client.force_login(alice)
    page = client.get("/games/new/").content.decode()
    assert f'value="{a_deck.pk}"' in page and f'value="{b_deck.pk}"' not in page
    answer = client.post("/games/new/", {"kind": "ccg", "seats": 2, "invite": "bob", "clock_kind": "days",
                                         "clock_amount": 3, "vacation_days": 0, "allow_spectators": "on",
                                         "ccg-seat-deck": a_deck.pk, "ccg-opt-double_the_ante": "on",
                                         "ccg-opt-rules_off": "unique", "ccg-opt-window": "6h", "ccg-opt-offer": ""})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    match = Match.objects.get(kind="ccg")
    assert match.options["rules_off"] == ["unique"]
    client.force_login(bob)
    page = client.get(f"/games/{match.pk}/").content.decode()
    assert f'value="{b_deck.pk}"' in page and 'name="seat-deck"' in page
    client.post(f"/games/{match.pk}/join/", {"seat-deck": b_deck.pk})
    match.refresh_from_db()
    assert match.status == "active" and match.state["opts"]["double_the_ante"] is True
    assert ccg_shell.allowance(match, "response") == ("hours", 6) and ccg_shell.allowance(match, "offer") is None


def test_ledger_check_proves_nothing_was_duplicated_or_lost_after_a_run_of_games(players):
    """A found Grail, a draw with its rematch played to the end, a resignation and a game
    called off: every copy of every card is still accounted for, and nothing stays held."""
    from io import StringIO

    from django.core.management import call_command
    (alice, _), (bob, _) = players
    users = [alice, bob]
    # Spare lands, so the antes lost over the run leave both decks playable: a rematch's seed
    # is fresh, so a drawn game may be drawn again, each time adding a card to the ante.
    for user in users:
        deck_services.collection_grant(user=user, cards={"bristol-downs": 10, "open-field": 10, "cornwall": 4,
                                                         "windy-cliffs": 4, "lake-of-the-lady": 4,
                                                         "gorge-approach": 4}, reason="admin_grant")
    codes = {c for c in Holding.objects.filter(user__in=users).values_list("card__code", flat=True)}
    everyone_before = sum(sum(copies(u, c)) for u in users for c in codes)
    drive(start(players, seed=seed_for("won", sizes(alice, bob)))[0], users)
    drawn, _ = start(players, seed=seed_for("carried", sizes(alice, bob)))
    drive(drawn, users)
    # The rematch has a fresh seed, so it may be drawn again: play every rematch out.
    while Match.objects.filter(kind="ccg", status="active").exists():
        drive(Match.objects.filter(kind="ccg", status="active").get(), users)
    assert Match.objects.filter(rematch_of=drawn).exists()
    resigned, _ = start(players, seed=2)
    drive(resigned, users, until=lambda m: m.move_count >= 6)
    services.match_resign(match_id=resigned.pk, user=bob)
    resigned.refresh_from_db()
    services.move_submit(match_id=resigned.pk, user=alice, move={"type": "give_up"}, version=resigned.version)
    called_off = services.match_create(creator=alice, kind="ccg", num_seats=2, creator_choice={"deck": players[0][1].pk})
    services.match_abandon(match_id=called_off.pk, user=alice)
    out = StringIO()
    call_command("ledger_check", stdout=out)
    assert "passed" in out.getvalue()
    assert sum(sum(copies(u, c)) for u in users for c in codes) == everyone_before
    assert not Holding.objects.filter(user__in=users, held__gt=0).exists()
    assert not AnteStake.objects.filter(status="held").exists()


def test_the_rematch_plays_the_deck_versions_of_the_drawn_game(players):
    (alice, a_deck), (bob, _) = players
    match, users = start(players, seed=seed_for("carried", sizes(alice, bob)))
    deck_services.collection_grant(user=alice, cards={"open-field": 10}, reason="admin_grant")
    deck_services.deck_save(user=alice, deck=a_deck, name="Edited", cards=dict(a_deck.cards, **{"open-field": 24}))
    drive(match, users)
    rematch = Match.objects.get(rematch_of=match)
    assert rematch.seats.get(index=0).choice["deck_version"] == match.seats.get(index=0).choice["deck_version"]
    carried_from_alice = sum(1 for c in ante_result(match.state)["cards"] if c["owner"] == 0)
    assert len(rematch.setup_options["decks"][0]) == 40 - carried_from_alice
