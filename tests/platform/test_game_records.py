"""Every game checkable by its players (docs/verify.md): the site commits to each new game's
chance before anyone plays, takes each player's contribution, reveals its secret only once the
game is over, and gives a record that games/rules/verify.py checks, for a game of every kind
played through the services to its end; tampering with the record is caught. The record and
the check are behind the same door as the game; the replay opens at a move named in its link.
"""
from __future__ import annotations

import copy
import json
import os
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games import registry
from games.models import Match, MoveRecord, Seat
from games.rules import commitment as C
from games.rules import computer as pure
from games.rules import verify
from games.table import records, services
from grailsite.errors import ServiceError
from tests.platform.ccg_helpers import ensure_card_database, prepared_player

pytestmark = pytest.mark.django_db

KINDS = ("camelot", "ccg", "cupquest", "duel", "fluxx")
MINE, THEIRS = "00112233445566778899aabbccddeeff", "f0e1d2c3b4a5968778695a4b3c2d1e0f"
STEPS = 40  # moves by the person and the computers before the person resigns (if the rules have not ended it)


def _post(client, url, body=None):
    return client.post(url, body or {}, content_type="application/json")


def _committed(match) -> tuple[bytes, str]:
    return bytes.fromhex(match.secret), match.commitment


# --- committing, contributing, setting up -----------------------------------------------------

def test_a_new_game_publishes_its_commitment_and_each_contribution_at_once(client, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    client.force_login(alice)
    created = _post(client, "/api/matches/", {"kind": "duel", "seats": 2, "invite": ["bob"], "contribution": MINE})
    assert created.status_code == 201
    match = Match.objects.get(pk=created.json()["id"])
    secret = bytes.fromhex(match.secret)
    assert len(secret) == C.SECRET_BYTES and match.seed is None, "no seed before every seat is filled"
    assert created.json()["commitment"] == {"commitment": C.commitment(secret, match.pk, "duel", 1), "edition": 1,
                                            "contributions": [MINE, None], "secret": None, "seed": None,
                                            "deal_due": None}
    client.force_login(bob)
    joined = _post(client, f"/api/matches/{match.pk}/join/", {"contribution": THEIRS}).json()
    match.refresh_from_db()
    assert joined["status"] == "active" and joined["commitment"]["contributions"] == [MINE, THEIRS]
    assert joined["commitment"]["secret"] is None and joined["commitment"]["seed"] is None
    assert match.seed == C.seed_from(secret, [bytes.fromhex(MINE), bytes.fromhex(THEIRS)])
    assert match.state == registry.get("duel").setup(2, {}, match.seed), "the generator runs on that seed"


def test_each_game_draws_a_secret_of_its_own(make_user):
    alice = make_user("alice")
    games = [services.match_create(creator=alice, kind="duel", num_seats=2) for _ in range(3)]
    assert len({g.secret for g in games}) == 3 and len({g.commitment for g in games}) == 3


def test_a_computer_seat_and_a_person_who_sends_nothing_contribute_zeros(make_user):
    alice = make_user("alice")
    match = services.match_create(creator=alice, kind="cupquest", num_seats=3, computers_at={2: "random"})
    assert [s.contribution for s in match.seats.all()] == [records.commitments.ZEROS, "", records.commitments.ZEROS]
    services.match_join(match_id=match.pk, user=make_user("bob"), contribution=bytes(range(16)))
    assert Seat.objects.get(match=match, index=1).contribution == bytes(range(16)).hex()


@pytest.mark.parametrize("bad", ["abc", "g" * 32, "00" * 17, "AB" * 15])
def test_a_contribution_is_sixteen_bytes_in_hex(client, make_user, bad):
    alice = make_user("alice")
    with pytest.raises(ServiceError):
        services.match_create(creator=alice, kind="duel", num_seats=2, contribution=bad)
    client.force_login(alice)
    refused = _post(client, "/api/matches/", {"kind": "duel", "seats": 2, "contribution": bad})
    assert refused.status_code == 400 and not Match.objects.exists()


def test_the_pages_send_a_contribution_from_the_browser(client, make_user):
    """The forms that create or join a game carry the field the page's script fills; what
    they send becomes the seat's contribution (an empty one, no script: zeros)."""
    alice, bob = make_user("alice"), make_user("bob")
    client.force_login(alice)
    assert 'name="contribution"' in client.get("/games/new/").content.decode()
    created = client.post("/games/new/", {"kind": "duel", "seats": 2, "clock_kind": "days", "clock_amount": 3,
                                          "vacation_days": 0, "allow_spectators": "on", "contribution": MINE})
    assert created.status_code == 302
    match = Match.objects.get()
    client.force_login(bob)
    page = client.get(f"/games/{match.pk}/").content.decode()
    assert 'name="contribution"' in page and MINE in page and match.commitment in page
    client.post(f"/games/{match.pk}/join/", {"contribution": ""})
    assert [s.contribution for s in match.seats.order_by("index")] == [MINE, "0" * 32]


# A form that creates a game or takes a seat: the pages post these (the API's JSON is apart).
_SEATING_ACTION = re.compile(r"/(games/new|games/against-the-computer|games/\d+/(join|contribute)|decks/\d+/try)/$")


def _seating_forms(html: str, url: str) -> list[str]:
    """The bodies of the page's forms that create a game or take a seat (a form without an
    action posts to its own page)."""
    forms = re.findall(r"<form\b([^>]*)>(.*?)</form>", html, re.S)
    return [body for attrs, body in forms
            if _SEATING_ACTION.search((re.search(r'action="([^"]*)"', attrs) or [None, url])[1])]


def test_every_form_that_seats_a_player_carries_a_contribution(client, make_user):
    """Home, the lobby (the one-click Join), friends, a profile, the deck builder and a
    game's page: each form that creates a game or takes a seat sends the browser's bytes."""
    from games.players import profiles

    ensure_card_database()
    alice, bob = make_user("alice"), make_user("bob")
    deck = prepared_player(alice)
    services.match_create(creator=bob, kind="duel", num_seats=2)
    services.match_create(creator=bob, kind="cupquest", num_seats=3)
    waiting = services.match_create(creator=alice, kind="duel", num_seats=2, computers_at={1: "knight"},
                                    deal_after_contribution=True)
    profiles.follow(user=alice, name="bob")
    client.force_login(alice)
    found = {}
    for url in ("/", "/lobby/", "/friends/", "/players/bob/", f"/decks/{deck.pk}/", "/games/new/",
                f"/games/{waiting.pk}/"):
        response = client.get(url)
        assert response.status_code == 200, url
        forms = _seating_forms(response.content.decode(), url)
        assert all('name="contribution"' in body for body in forms), url
        found[url] = len(forms)
    assert found["/lobby/"] >= 2 and found["/"] >= 1 and found[f"/decks/{deck.pk}/"] == 1, found
    assert found["/games/new/"] == 1 and found[f"/games/{waiting.pk}/"] == 1, found


def _dealt_against_the_computer(creator, contribution):
    """A Grail Duel against the Knight, dealt with the creator's contribution sent after the
    commitment, as their page sends it."""
    match = services.match_create(creator=creator, kind="duel", num_seats=2, computers_at={1: "knight"},
                                  computer_delay=60, deal_after_contribution=True)
    return services.match_contribute(match_id=match.pk, user=creator, contribution=contribution)


def _waiting(match) -> tuple:
    """What a refused contribution must leave as it was."""
    match = Match.objects.get(pk=match.pk)
    return (match.status, match.version, match.seed, match.deal_due,
            [s.contribution for s in match.seats.order_by("index")])


def test_a_game_against_the_computer_waits_for_a_contribution_sent_after_its_commitment(client, make_user):
    """Created with every other seat a computer, a game is not dealt in that request: the
    creator's contribution sent with it (before any commitment existed) is never used; the
    one sent afterwards (POST .../contribute/) is, and deals the game."""
    alice = make_user("alice")
    client.force_login(alice)
    created = _post(client, "/api/matches/", {"kind": "duel", "seats": 2, "contribution": MINE,
                                              "computers": [{"seat": 1, "level": "knight"}]})
    assert created.status_code == 201 and created.json()["status"] == "open"
    promise = created.json()["commitment"]
    assert promise["deal_due"] and promise["contributions"] == [None, "0" * 32]
    match = Match.objects.get(pk=created.json()["id"])
    assert match.seed is None and match.state is None and match.started_at is None
    dealt = _post(client, f"/api/matches/{match.pk}/contribute/", {"contribution": THEIRS})
    assert dealt.status_code == 200 and dealt.json()["status"] == "active"
    assert dealt.json()["commitment"]["contributions"] == [THEIRS, "0" * 32]
    assert dealt.json()["commitment"]["deal_due"] is None
    match.refresh_from_db()
    assert match.seed == C.seed_from(bytes.fromhex(match.secret), [bytes.fromhex(THEIRS), bytes(16)])
    assert match.deal_due is None and match.state == registry.get("duel").setup(2, {}, match.seed)


def test_the_secret_is_drawn_before_the_contribution_it_is_dealt_with_is_read(client, make_user, monkeypatch):
    """The server's own order, through the pages ("Play against the computer", then the page's
    contribution): every contribution the seed is derived from was read after the commitment."""
    alice = make_user("alice")
    client.force_login(alice)
    steps = []
    commitments = records.commitments
    for name in ("commit", "contribution_text", "seed_at_setup"):
        real = getattr(commitments, name)

        def spy(*args, _real=real, _name=name, **kwargs):
            steps.append((_name, args[0] if _name == "contribution_text" else None))
            return _real(*args, **kwargs)
        monkeypatch.setattr(commitments, name, spy)
    client.post("/games/against-the-computer/", {"kind": "duel", "contribution": THEIRS})
    match = Match.objects.get()
    page = client.get(f"/games/{match.pk}/").content.decode()
    assert "data-send-contribution" in page and match.commitment in page and match.status == "open"
    client.post(f"/games/{match.pk}/contribute/", {"contribution": MINE})
    match.refresh_from_db()
    assert match.status == "active"
    assert steps == [("contribution_text", THEIRS), ("commit", None), ("contribution_text", MINE),
                     ("seed_at_setup", None)]
    assert match.seed == C.seed_from(bytes.fromhex(match.secret), [bytes.fromhex(MINE), bytes(16)])


def test_a_game_whose_creator_sends_no_contribution_is_dealt_with_zeros(client, make_user, settings):
    """A bot through the API, a page without script: after its wait, the clocks' sweep (or
    the first read of the game) deals it, with zeros for the creator."""
    assert "games.tasks.timers_sweep" in settings.CLOCK_TASKS
    from games import tasks

    alice = make_user("alice")
    swept = services.match_create(creator=alice, kind="duel", num_seats=2, computers_at={1: "knight"},
                                  computer_delay=60, deal_after_contribution=True)
    read = services.match_create(creator=alice, kind="cupquest", num_seats=2, computers_at={1: "random"},
                                 computer_delay=60, deal_after_contribution=True)
    assert tasks.timers_sweep() == 0 and Match.objects.get(pk=swept.pk).status == "open", "not before its time"
    Match.objects.filter(pk__in=[swept.pk, read.pk]).update(deal_due=timezone.now() - timedelta(seconds=1))
    client.force_login(alice)
    assert client.get(f"/api/matches/{read.pk}/").json()["status"] == "active"
    assert tasks.timers_sweep() == 1
    for match in (swept, read):
        match.refresh_from_db()
        assert match.status == "active" and match.deal_due is None
        assert [s.contribution for s in match.seats.order_by("index")] == ["", "0" * 32]
        assert match.seed == C.seed_from(bytes.fromhex(match.secret), [bytes(16), bytes(16)])
    assert tasks.timers_sweep() == 0, "dealt once"


@pytest.mark.parametrize("body", [{}, {"contribution": "abc"}, {"contribution": "G" * 32},
                                  {"contribution": "00" * 17}, {"contribution": None}, {"contribution": 7}])
def test_a_bad_contribution_is_refused_and_changes_nothing(client, make_user, body):
    alice = make_user("alice")
    match = services.match_create(creator=alice, kind="duel", num_seats=2, computers_at={1: "knight"},
                                  deal_after_contribution=True)
    before = _waiting(match)
    client.force_login(alice)
    refused = _post(client, f"/api/matches/{match.pk}/contribute/", body)
    assert refused.status_code == 400 and _waiting(match) == before
    client.post(f"/games/{match.pk}/contribute/", {"contribution": body.get("contribution") or "zz"})
    assert _waiting(match) == before


def test_a_contribution_comes_from_the_creator_once_and_only_while_the_game_waits(client, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(creator=alice, kind="duel", num_seats=2, computers_at={1: "knight"},
                                  deal_after_contribution=True)
    open_game = services.match_create(creator=alice, kind="duel", num_seats=2, contribution=MINE,
                                      deal_after_contribution=True)
    before, open_before = _waiting(match), _waiting(open_game)
    client.force_login(bob)
    assert _post(client, f"/api/matches/{match.pk}/contribute/", {"contribution": THEIRS}).status_code == 403
    client.force_login(alice)
    assert _post(client, f"/api/matches/{open_game.pk}/contribute/", {"contribution": THEIRS}).status_code == 409
    assert _waiting(match) == before and _waiting(open_game) == open_before
    assert _post(client, f"/api/matches/{match.pk}/contribute/", {"contribution": MINE}).status_code == 200
    dealt = _waiting(match)
    assert _post(client, f"/api/matches/{match.pk}/contribute/", {"contribution": THEIRS}).status_code == 409
    assert _waiting(match) == dealt and dealt[-1] == [MINE, "0" * 32]


def test_the_secret_comes_from_the_systems_random_source(make_user, monkeypatch):
    """secrets.token_bytes, 32 bytes, and nothing else: the commitment follows what it gives."""
    asked = []

    def token_bytes(n):
        asked.append(n)
        return bytes(range(100, 100 + n))
    monkeypatch.setattr(records.commitments.secrets, "token_bytes", token_bytes)
    match = services.match_create(creator=make_user("alice"), kind="duel", num_seats=2)
    assert asked == [C.SECRET_BYTES] and match.secret == bytes(range(100, 132)).hex()
    assert match.commitment == C.commitment(bytes(range(100, 132)), match.pk, "duel", 1)


def test_a_game_given_its_own_seed_is_not_committed(client, make_match):
    """Games stored before commitments keep their seed and replay as stored; so do the
    tests' games created with a seed of their own: "no commitment", in the JSON and the page."""
    match, users = make_match(kind="duel")
    assert (match.seed, match.secret, match.commitment, match.record_format) == (1234, "", "", 0)
    client.force_login(users[0])
    assert client.get(f"/api/matches/{match.pk}/").json()["commitment"] is None
    assert 'data-testid="no-commitment"' in client.get(f"/games/{match.pk}/").content.decode()
    services.match_resign(match_id=match.pk, user=users[1])
    record = client.get(f"/api/matches/{match.pk}/record/").json()
    assert (record["commitment"], record["secret"], record["contributions"], record["seed"]) == (None, None, [], 1234)
    check = client.get(f"/api/matches/{match.pk}/check/").json()
    assert not check["ok"] and check["problem"].startswith("commitment: none was published")


def test_a_game_keeps_the_edition_it_committed_to(make_user, monkeypatch):
    """A Camelot game is set up under the edition its commitment names, even when a newer
    edition came out between its creation and its last seat being taken."""
    users = [make_user() for _ in range(3)]
    room = registry.room("camelot")
    monkeypatch.setattr(room, "edition", 3)
    match = services.match_create(creator=users[0], kind="camelot", num_seats=3, invite=[u.username for u in users[1:]])
    monkeypatch.setattr(room, "edition", 4)
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user)
    match = Match.objects.get(pk=match.pk)
    assert match.rules_edition == "3" and match.setup_options["edition"] == 3
    assert match.commitment == C.commitment(bytes.fromhex(match.secret), match.pk, "camelot", 3)


# --- the secret: hidden until the end -----------------------------------------------------------

def test_a_game_under_way_gives_a_record_without_its_secret(client, make_user):
    alice = make_user("alice")
    match = _dealt_against_the_computer(alice, MINE)
    client.force_login(alice)
    record = client.get(f"/api/matches/{match.pk}/record/").json()
    assert record["complete"] is False and record["status"] == "active"
    assert record["commitment"] == match.commitment and record["contributions"] == [MINE, "0" * 32]
    for hidden in ("secret", "seed", "setup_options", "moves", "result"):
        assert record[hidden] is None, hidden
    check = client.get(f"/api/matches/{match.pk}/check/").json()
    assert not check["ok"] and check["problem"].startswith("secret: not revealed yet")
    assert match.secret not in json.dumps(record) + json.dumps(check)


def test_a_game_called_off_reveals_its_secret(client, make_user):
    alice = make_user("alice")
    match = services.match_create(creator=alice, kind="duel", num_seats=2)
    services.match_abandon(match_id=match.pk, user=alice)
    client.force_login(alice)
    assert client.get(f"/api/matches/{match.pk}/").json()["commitment"]["secret"] == match.secret
    record = client.get(f"/api/matches/{match.pk}/record/").json()
    assert (record["complete"], record["secret"], record["seed"], record["moves"]) == (True, match.secret, None, [])
    assert client.get(f"/api/matches/{match.pk}/check/").json()["problem"].startswith("seed: none")


def test_the_record_and_the_check_have_the_games_own_door(client, make_user):
    alice, bob, stranger = make_user("alice"), make_user("bob"), make_user("stranger")
    match = services.match_create(creator=alice, kind="duel", num_seats=2, invite=["bob"], allow_spectators=False)
    services.match_join(match_id=match.pk, user=bob)
    services.match_resign(match_id=match.pk, user=bob)
    for url in (f"/api/matches/{match.pk}/record/", f"/api/matches/{match.pk}/check/"):
        client.logout()
        assert client.get(url).status_code == 403
        client.force_login(stranger)
        assert client.get(url).status_code == 403
        client.force_login(bob)
        assert client.get(url).status_code == 200
    assert client.get("/api/matches/999999/record/").status_code == 404


# --- a record of every kind checks; tampering is caught -----------------------------------------

def _played_to_the_end(kind: str, make_user) -> tuple[Match, object]:
    """A person (random legal moves) against computer players, through the services, until
    the rules end the game or STEPS moves were made; then the person resigns."""
    game = registry.get(kind)
    alice = make_user("alice")
    choice = None
    if kind == "ccg":
        ensure_card_database()
        choice = {"deck": prepared_player(alice).pk}
    seats = game.min_players
    match = services.match_create(creator=alice, kind=kind, num_seats=seats, creator_choice=choice,
                                  computers_at={i: "knight" for i in range(1, seats)}, clock_kind="none",
                                  clock_amount=0, deal_after_contribution=True)
    match = services.match_contribute(match_id=match.pk, user=alice, contribution=os.urandom(16).hex())
    for step in range(STEPS):
        match.refresh_from_db()
        if match.status != "active":
            break
        seat = game.pending(match.state)[0].seat
        if seat == 0:
            move, _ = pure.choose_move(game, match.state, 0, "random", pure.seed_for(kind, step))
            services.move_submit(match_id=match.pk, user=alice, move=move, version=match.version)
        else:
            assert services.computer_move_apply(match_id=match.pk, seat_index=seat, version=match.version)
    match.refresh_from_db()
    if match.status == "active":
        services.match_resign(match_id=match.pk, user=alice)
    return Match.objects.get(pk=match.pk), alice


@pytest.fixture
def played(make_user, client):
    def play(kind: str) -> tuple[Match, dict]:
        match, alice = _played_to_the_end(kind, make_user)
        assert match.status == "finished"
        client.force_login(alice)
        response = client.get(f"/api/matches/{match.pk}/record/")
        assert response.status_code == 200
        return match, response.json()
    return play


@pytest.mark.parametrize("kind", KINDS)
def test_a_downloaded_record_of_every_kind_checks_and_tampering_is_caught(kind, played, tmp_path, capsys):
    match, record = played(kind)
    assert record["complete"] and record["secret"] == match.secret and record["seed"] == match.seed
    assert len(record["moves"]) == match.move_count > 1
    assert {m["who"] for m in record["moves"]} >= {"person", "computer"}
    report = verify.check_record(record)
    assert report.ok, report.problem
    assert report.moves == match.move_count and report.seed == match.seed
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert verify.main([str(path)]) == 0 and capsys.readouterr().out.endswith("The record checks.\n")

    def caught(change) -> str:
        spoiled = copy.deepcopy(record)
        change(spoiled)
        problem = verify.check_record(spoiled).problem
        assert problem is not None
        return problem

    def move(r):  # the person's first move, made by the other seat
        entry = next(m for m in r["moves"] if m["who"] == "person")
        entry["seat"] = 1 - entry["seat"] if entry["seat"] < 2 else 0
    assert caught(move).startswith("move ")
    assert caught(lambda r: r["contributions"].__setitem__(0, "ab" * 16)).startswith("seed: ")
    assert caught(lambda r: r.__setitem__("secret", "cd" * 32)).startswith("commitment: ")
    assert caught(lambda r: r.__setitem__("result", {"winners": [0], "draw": True, "reason": "?"})).startswith("result: ")
    if report.checked[-1] != "result: no person was left playing, and the seats still in won":
        # The rules ended it: their reason, word for word (the referee's words stand only for
        # a loss on time). A game the site stopped with no person left has its own words.
        assert caught(lambda r: r["result"].__setitem__("reason", "Seat 1 ran out of time.")).startswith("result: ")


def _duel_between(make_user) -> tuple[Match, dict]:
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(creator=alice, kind="duel", num_seats=2, invite=["bob"], clock_kind="hours",
                                  clock_amount=12, contribution=MINE)
    services.match_join(match_id=match.pk, user=bob, contribution=THEIRS)
    return Match.objects.get(pk=match.pk), {0: alice, 1: bob}


def _run_out(match: Match, seat: int) -> Match:
    Seat.objects.filter(match=match, index=seat).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.deadline_expire(match_id=match.pk, seat_index=seat)
    return Match.objects.get(pk=match.pk)


def _checked(client, user, match) -> tuple[dict, dict]:
    client.force_login(user)
    return (client.get(f"/api/matches/{match.pk}/record/").json(),
            client.get(f"/api/matches/{match.pk}/check/").json())


def test_a_game_lost_on_time_checks_with_the_referees_words_and_only_those(client, make_user):
    """The clock resigns a seat whose own turn ran out in a game of two: the result says
    "Seat N ran out of time." where the rules would say it resigned. That checks; any other
    reason, or a claim that the game was aborted, is caught."""
    match, people = _duel_between(make_user)
    game = registry.get("duel")
    while Seat.objects.filter(match=match, own_moves=0).exists():  # both have moved: no abort
        seat = game.pending(match.state)[0].seat
        services.move_submit(match_id=match.pk, user=people[seat], move=game.legal_moves(match.state, seat)[0],
                             version=match.version)
        match.refresh_from_db()
    late = game.pending(match.state)[0].seat
    match = _run_out(match, late)
    assert match.status == "finished" and match.outcome["reason"] == f"Seat {late + 1} ran out of time."
    record, check = _checked(client, people[0], match)
    assert check["ok"], check["problem"]
    assert record["moves"][-1]["who"] == "clock" and record["moves"][-1]["move"] == {"type": "resign"}
    for result in (dict(record["result"], reason=f"Seat {late + 1} ran out of patience."),
                   dict(record["result"], reason=f"Seat {2 - late} ran out of time."),
                   {"aborted": True, "winners": [], "draw": False, "reason": record["result"]["reason"]}):
        problem = verify.check_record(dict(record, result=result)).problem
        assert problem and problem.startswith("result: "), result


def test_an_aborted_game_checks(client, make_user):
    """A person whose time ran out before their first move aborts the game: no result. Its
    record checks with the site's words; a winner slipped into it is caught."""
    match, people = _duel_between(make_user)
    first = registry.get("duel").pending(match.state)[0].seat
    match = _run_out(match, first)
    assert match.status == "aborted"
    record, check = _checked(client, people[0], match)
    assert record["complete"] and record["result"]["aborted"] is True
    assert check["ok"], check["problem"]
    assert check["checked"][-1] == "result: aborted before every person had moved; no winner"
    won = dict(record["result"], winners=[1 - first])
    assert verify.check_record(dict(record, result=won)).problem.startswith("result: ")


def test_who_made_each_move_person_computer_or_clock(make_user, client):
    """A computer seat whose time ran out (the clock made the rules' timeout move), a person
    whose seat a computer took over when their time ran out (its first move, in their time,
    is the computer's), people's own moves: each move of the record says who made it, and
    the record checks."""
    alice, bob = make_user("alice"), make_user("bob")
    game = registry.get("cupquest")
    match = services.match_create(creator=alice, kind="cupquest", num_seats=3, invite=["bob"],
                                  computers_at={2: "knight"}, computer_takeover=True, takeover_after=1,
                                  clock_kind="hours", clock_amount=12, contribution=MINE)
    services.match_join(match_id=match.pk, user=bob, contribution=THEIRS)
    people = {0: alice, 1: bob}

    def until_seat(wanted: int):
        for _ in range(30):
            match.refresh_from_db()
            seat = game.pending(match.state)[0].seat
            if seat == wanted:
                return
            if Seat.objects.get(match=match, index=seat).computer:
                assert services.computer_move_apply(match_id=match.pk, seat_index=seat, version=match.version)
            else:
                services.move_submit(match_id=match.pk, user=people[seat],
                                     move=game.legal_moves(match.state, seat)[0], version=match.version)
        raise AssertionError(f"seat {wanted} never came to move")

    def expire(seat: int) -> MoveRecord:
        Seat.objects.filter(match=match, index=seat).update(deadline=timezone.now() - timedelta(seconds=1))
        assert services.deadline_expire(match_id=match.pk, seat_index=seat)
        return MoveRecord.objects.filter(match=match, seat=seat).latest("seq")

    until_seat(2)
    clocked = expire(2)  # the computer seat's own time: the site makes the rules' timeout move
    until_seat(2)
    match.refresh_from_db()
    assert services.computer_move_apply(match_id=match.pk, seat_index=2, version=match.version)
    until_seat(1)
    taken_over = expire(1)  # bob's: a computer player takes his seat and moves in his place
    until_seat(0)
    services.match_resign(match_id=match.pk, user=alice)  # no person left: the game stops
    client.force_login(alice)
    record = client.get(f"/api/matches/{match.pk}/record/").json()
    assert record["status"] == "finished"
    assert [(p["held_by"], p["held_by_at_end"]) for p in record["players"]] == [
        ("person", "person"), ("person", "computer"), ("computer", "computer")]
    who = {entry["seq"]: entry["who"] for entry in record["moves"]}
    assert who[clocked.seq] == "clock" and who[taken_over.seq] == "computer"
    by_seat = {}
    for entry in record["moves"]:
        by_seat.setdefault(entry["seat"], set()).add(entry["who"])
    assert by_seat == {0: {"person"}, 1: {"person", "computer"}, 2: {"computer", "clock"}}
    report = verify.check_record(record)
    assert report.ok, report.problem
    assert report.checked[-1] == "result: no person was left playing, and the seats still in won"


# --- the check on the server, and the finished game's page ---------------------------------------

def test_the_finished_games_page_offers_its_record_and_its_check(client, make_user, monkeypatch):
    match, alice = _played_to_the_end("duel", make_user)
    client.force_login(alice)
    page = client.get(f"/games/{match.pk}/").content.decode()
    assert f'href="/api/matches/{match.pk}/record/"' in page and 'data-testid="check-run"' in page
    assert match.secret in page and str(match.seed) in page, "revealed on the page once it is over"
    replays = []
    real = verify.check_record
    monkeypatch.setattr(records.verify, "check_record", lambda record: replays.append(1) or real(record))
    first = client.get(f"/api/matches/{match.pk}/check/").json()
    assert first["ok"] and first["problem"] is None and first["moves"] == match.move_count
    assert [step.split(":")[0] for step in first["checked"]] == ["commitment", "contributions", "seed", "setup",
                                                                 "moves", "result"]
    assert (first["seed"], first["commitment"], first["secret"]) == (match.seed, match.commitment, match.secret)
    assert first["contributions"] == [s.contribution for s in match.seats.order_by("index")]
    assert client.get(f"/api/matches/{match.pk}/check/").json() == first
    assert len(replays) == 1, "a finished game's check is kept, not replayed for every viewer"


def test_a_running_games_page_shows_the_commitment_but_not_the_secret(client, make_user):
    alice = make_user("alice")
    match = _dealt_against_the_computer(alice, MINE)
    client.force_login(alice)
    page = client.get(f"/games/{match.pk}/").content.decode()
    assert match.commitment in page and MINE in page and match.secret not in page
    assert 'data-testid="check-run"' not in page and 'data-testid="record-link"' not in page


# --- replays to share ---------------------------------------------------------------------------

def test_a_replay_link_opens_at_its_move_and_bad_numbers_never_fail(client, make_user):
    match, alice = _played_to_the_end("duel", make_user)
    client.force_login(alice)
    total = match.move_count

    def opened_at(query: str):
        response = client.get(f"/games/{match.pk}/replay/{query}")
        return response.status_code, response.content.decode()

    status, page = opened_at("?at=3")
    assert status == 200 and 'data-at="3"' in page and 'href="?at=3"' in page
    assert 'data-at=""' in opened_at("")[1], "without ?at= the replay opens at the start"
    for beyond in (str(total + 1), "9" * 15, "0" * 12 + "7"):
        status, page = opened_at(f"?at={beyond}")
        assert status == 200 and f'data-at="{min(int(beyond), total)}"' in page, beyond
    status, page = opened_at(f"?at={'9' * 20}")  # refused before any view (grailsite/middleware.py)
    assert status == 400 and "too large a number" in page
    for garbage in ("abc", "-1", "1.5", "", "%EF%BC%91", "1e3"):
        status, page = opened_at(f"?at={garbage}")
        assert status == 400 and "?at= takes a move number" in page, garbage
    assert client.get(f"/api/matches/{match.pk}/replay/?step={'9' * 20}").status_code == 400


def test_the_whole_state_is_shown_in_the_replay_only_once_the_game_is_over(client, make_user):
    alice = make_user("alice")
    match = services.match_create(creator=alice, kind="duel", num_seats=2, computers_at={1: "knight"},
                                  computer_delay=60)
    client.force_login(alice)
    refused = client.get(f"/api/matches/{match.pk}/replay/?step=0&full=true")
    assert refused.status_code == 403 and "over" in refused.json()["error"]["message"]
    assert client.get(f"/api/matches/{match.pk}/replay/?step=0").json()["state"] is None
    services.match_resign(match_id=match.pk, user=alice)
    match.refresh_from_db()
    frame = client.get(f"/api/matches/{match.pk}/replay/?step=0&full=true").json()
    assert frame["state"] == registry.get("duel").setup(2, {}, match.seed)
    assert frame["state"]["hands"][1], "the other seat's hand, every card of it"


def test_a_newcomer_in_a_game_under_way_contributes_nothing_and_the_record_checks(client, make_match, make_user):
    """Fluxx deals a newcomer in while it is under way: their seat has no contribution (the
    seed was fixed before), their arrival is the record's join move, and the record checks."""
    match, users = make_match(kind="fluxx", seats=2, seed=None, contribution=MINE)
    game = registry.get("fluxx")

    def play(moves: int):
        for step in range(moves):
            current = Match.objects.get(pk=match.pk)
            seat = game.pending(current.state)[0].seat
            move, _ = pure.choose_move(game, current.state, seat, "random", pure.seed_for("newcomer", step, seat))
            services.move_submit(match_id=match.pk, user=users[seat], move=move, version=None)

    play(4)
    newcomer = make_user("newcomer")
    services.match_join(match_id=match.pk, user=newcomer, contribution=THEIRS)
    users.append(newcomer)
    play(4)
    for user in users[:2]:
        services.match_resign(match_id=match.pk, user=user)
    match.refresh_from_db()
    assert match.status == "finished"
    client.force_login(newcomer)
    record = client.get(f"/api/matches/{match.pk}/record/").json()
    assert record["contributions"] == [MINE, records.commitments.ZEROS]
    assert [p["held_by"] for p in record["players"]] == ["person"] * 3
    joins = [m for m in record["moves"] if m["move"] == {"type": "join"}]
    assert [(m["seat"], m["who"]) for m in joins] == [(2, "person")]
    assert Seat.objects.get(match=match, index=2).contribution == ""
    report = verify.check_record(record)
    assert report.ok, report.problem
