"""Committed shuffles and game records (games/rules/commitment.py, games/rules/verify.py).

- The commitment and seed formulas give the test vectors docs/verify.md publishes.
- A seeded game of every kind, played to its end by random legal moves (some by the clock,
  some by a computer seat, a Fluxx newcomer joining, a Cup Quest player resigning), makes a
  record that checks; tampering with a move, a contribution, the secret or the result is
  caught, each with the message naming that step.
- ``python -m games.rules.verify`` exits 0 for a record that checks and 1 for one that does not.
"""
from __future__ import annotations

import copy
import hashlib
import json
import pathlib
import subprocess
import sys

import pytest

from games.rules import commitment as C
from games.rules import computer, verify
from games.rules.commitment import commitment, seed_from

from .ccg.helpers import starter_decks

ROOT = pathlib.Path(__file__).resolve().parents[2]
KINDS = ("camelot", "ccg", "cupquest", "duel", "fluxx")
SEATS = {"camelot": 3, "ccg": 2, "cupquest": 3, "duel": 2, "fluxx": 2}
EDITION = {"camelot": 3}  # the other kinds have one edition so far, written 1 here

# --- test vectors (docs/verify.md lists the same; test_the_docs_publish_the_vectors) -------

SECRET_A = bytes(range(32))
SECRET_B = bytes.fromhex("ff" * 32)
VECTORS_COMMITMENT = [
    ((SECRET_A, 1, "duel", 1), "dd3dc1538a93a30a9ed53204ecacf1bd5794113ca6a2995d516ec1c1d9e5f6da"),
    ((SECRET_B, 123456, "camelot", 3), "5029efdd95124eae13c9f6ed64e0654cd37600553cfd9c1a127bcdcea0b18474"),
    ((SECRET_A, 42, "fluxx", "deck 2019"), "2b35aef2361ca1e074ce8bbabb24f5a9b6a16dd046cea2ca25a80abd17e3394b"),
]
VECTORS_SEED = [
    ((SECRET_A, []), 1576569859899783705),
    ((SECRET_A, [bytes(16), bytes(range(16))]), 551958083352430173),
    ((SECRET_B, [bytes(range(16, 32)), bytes(16), bytes.fromhex("0f" * 16)]), 2258426845091403737),
]


def test_commitment_vectors():
    for args, expected in VECTORS_COMMITMENT:
        assert commitment(*args) == expected, args


def test_seed_vectors():
    for args, expected in VECTORS_SEED:
        assert seed_from(*args) == expected, args


def test_the_docs_publish_the_vectors():
    text = (ROOT / "docs" / "verify.md").read_text(encoding="utf-8")
    for _, expected in VECTORS_COMMITMENT:
        assert expected in text
    for _, expected in VECTORS_SEED:
        assert str(expected) in text and f"{expected:016x}" in text


def test_the_docs_example_record_checks():
    text = (ROOT / "docs" / "verify.md").read_text(encoding="utf-8")
    example = json.loads(text.split("```json\n", 1)[1].split("```", 1)[0])
    report = verify.check_record(example)
    assert report.ok, report.problem
    assert example == played_record("duel")  # the page shows what the code makes


def test_the_encodings_are_tagged_length_prefixed_fields():
    message = C.commitment_message(SECRET_A, 7, "duel", 2)
    assert message == (b"\x00\x00\x00\x17grailsite commitment v1" + b"\x00\x00\x00\x20" + SECRET_A
                       + b"\x00\x00\x00\x08" + (7).to_bytes(8, "big") + b"\x00\x00\x00\x04duel" + b"\x00\x00\x00\x012")
    assert commitment(SECRET_A, 7, "duel", 2) == hashlib.sha256(message).hexdigest()
    seed_message = C.seed_message(SECRET_A, [bytes(16)])
    assert seed_message == (b"\x00\x00\x00\x11grailsite seed v1" + b"\x00\x00\x00\x20" + SECRET_A
                            + b"\x00\x00\x00\x10" + bytes(16))
    digest = hashlib.sha256(seed_message).digest()
    assert seed_from(SECRET_A, [bytes(16)]) == int.from_bytes(digest[:8], "big") >> 2


def test_every_input_changes_the_commitment_and_the_seed():
    base = commitment(SECRET_A, 1, "duel", 1)
    assert len({base, commitment(SECRET_B, 1, "duel", 1), commitment(SECRET_A, 2, "duel", 1),
                commitment(SECRET_A, 1, "fluxx", 1), commitment(SECRET_A, 1, "duel", 2)}) == 5
    # Edition 3 and edition "3" are one edition; the fields cannot run into each other.
    assert commitment(SECRET_A, 1, "duel", 3) == commitment(SECRET_A, 1, "duel", "3")
    assert commitment(SECRET_A, 1, "due", "l1") != commitment(SECRET_A, 1, "duel", 1)
    one, two = bytes(16), bytes(range(16))
    seeds = {seed_from(SECRET_A, [one, two]), seed_from(SECRET_A, [two, one]), seed_from(SECRET_A, [one]),
             seed_from(SECRET_B, [one, two])}
    assert len(seeds) == 4
    assert all(0 <= s < 1 << C.SEED_BITS for s in seeds)


def test_malformed_inputs_are_refused():
    with pytest.raises(ValueError):
        commitment(SECRET_A[:31], 1, "duel", 1)
    with pytest.raises(ValueError):
        commitment(SECRET_A, -1, "duel", 1)
    with pytest.raises(ValueError):
        commitment(SECRET_A, 1, "duel", True)
    with pytest.raises(ValueError):
        seed_from(SECRET_A, [bytes(15)])


# --- playing a game into a record ---------------------------------------------------------

def _options(kind: str) -> dict:
    if kind == "ccg":
        decks = starter_decks()
        return {"decks": [decks[i % 2] for i in range(SEATS[kind])], "collection_sizes": [0] * SEATS[kind]}
    if kind == "cupquest":
        return {"round_limit": 25}  # random players seldom carry the Grail home
    if kind == "camelot":
        return {"turn_cap": 60, "edition": 3}
    return {}


def _bytes(*parts) -> bytes:
    return hashlib.sha256(repr(parts).encode()).digest()


def played_record(kind: str, match_id: int = 7) -> dict:
    """A finished game as the site would record it: persons who now and then let the clock
    run out, the last seat a computer's; every move a random legal one."""
    game = verify.rules_for(kind)
    players = SEATS[kind]
    held = ["person"] * (players - 1) + ["computer"]
    secret = _bytes("secret", kind)[:32]
    contributions = [C.COMPUTER_CONTRIBUTION if h == "computer" else _bytes("mine", kind, s)[:16]
                     for s, h in enumerate(held)]
    seed = seed_from(secret, contributions)
    options = _options(kind)
    state = game.setup(players, options, seed)
    moves = []
    while game.outcome(state) is None:
        assert len(moves) < 5000, f"{kind}: no end"
        n = len(moves) + 1
        seat = game.pending(state)[0].seat
        if kind == "fluxx" and n == 4:
            seat, who, move = len(held), "person", verify.JOIN_MOVE
            state, _ = game.add_seat(state)
            held.append("person")
        elif kind == "cupquest" and n == 10:
            seat, who, move = 1, "person", {"type": "resign"}
        elif held[seat] == "person" and n % 5 == 0 and not game.clocks_paused(state):
            who, move = "clock", game.timeout_move(state, seat)
        else:
            who = held[seat]
            move, _ = computer.choose_move(game, state, seat, "random", computer.seed_for(kind, n))
        if move is not verify.JOIN_MOVE:
            state, _ = game.apply(state, seat, move)
        time = f"2025-05-01T{n // 3600 % 24:02d}:{n // 60 % 60:02d}:{n % 60:02d}Z"
        moves.append({"seq": n, "seat": seat, "time": time, "who": who, "move": move})
    record = {
        "record_format": verify.RECORD_FORMAT, "match": match_id, "kind": kind, "edition": EDITION.get(kind, 1),
        "setup_options": options,
        "players": [{"seat": s, "name": f"player {s + 1}", "held_by": h, "held_by_at_end": h}
                    for s, h in enumerate(held)],
        "commitment": commitment(secret, match_id, kind, EDITION.get(kind, 1)),
        "secret": secret.hex(), "contributions": [c.hex() for c in contributions], "seed": seed,
        "moves": moves, "result": game.outcome(state).as_dict(),
    }
    return json.loads(json.dumps(record))  # as a verifier reads it: JSON, tuples now lists


@pytest.fixture(scope="module")
def records():
    return {kind: played_record(kind) for kind in KINDS}


def _problem(record: dict) -> str:
    report = verify.check_record(record)
    assert not report.ok
    return report.problem


@pytest.mark.parametrize("kind", KINDS)
def test_a_played_game_checks(kind, records):
    record = records[kind]
    report = verify.check_record(record)
    assert report.ok, report.problem
    assert report.seed == record["seed"] and report.moves == len(record["moves"])
    assert report.outcome == record["result"]
    steps = [line.split(":")[0] for line in report.checked]
    assert steps == ["commitment", *(["edition"] if kind == "camelot" else []), "contributions", "seed", "setup",
                     "moves", "result"]
    whos = {m["who"] for m in record["moves"]}
    assert whos == {"person", "computer", "clock"}
    assert report.summary().endswith("The record checks.")


@pytest.mark.parametrize("kind", KINDS)
def test_a_changed_move_is_caught(kind, records):
    record = copy.deepcopy(records[kind])
    entry = next(m for m in record["moves"][5:] if m["who"] == "person" and m["move"]["type"] != "join")
    entry["move"] = {"type": "conjure_a_shrubbery"}
    assert _problem(record).startswith(f"move {entry['seq']} (seat {entry['seat'] + 1}, person): not legal: ")


@pytest.mark.parametrize("kind", KINDS)
def test_a_changed_contribution_is_caught(kind, records):
    record = copy.deepcopy(records[kind])
    first = bytes.fromhex(record["contributions"][0])
    record["contributions"][0] = (bytes([first[0] ^ 1]) + first[1:]).hex()
    assert _problem(record).startswith("seed: the secret and the contributions give ")


@pytest.mark.parametrize("kind", KINDS)
def test_a_changed_secret_is_caught(kind, records):
    record = copy.deepcopy(records[kind])
    record["secret"] = _bytes("another secret").hex()
    assert _problem(record).startswith("commitment: the revealed secret with game 7, ")


@pytest.mark.parametrize("kind", KINDS)
def test_a_changed_result_is_caught(kind, records):
    record = copy.deepcopy(records[kind])
    winners = record["result"]["winners"]
    record["result"]["winners"] = [0] if winners != [0] else [1]
    assert _problem(record).startswith("result: the moves end the game with ")


def test_the_sites_note_beside_a_result_is_not_compared(records):
    """The site notes beside a result why a game was not rated; the rules' keys are what the
    moves are checked against, and a changed one is still caught."""
    record = copy.deepcopy(records["duel"])
    record["result"]["not_rated"] = "Not rated: Seat 2 made no move of their own."
    assert verify.check_record(record).ok
    record["result"]["winners"] = [0] if record["result"]["winners"] != [0] else [1]
    assert _problem(record).startswith("result: the moves end the game with ")


def test_a_changed_id_kind_or_edition_breaks_the_commitment(records):
    for change in ({"match": 8}, {"edition": 2}, {"kind": "cupquest"}):
        assert _problem(dict(records["duel"], **change)).startswith("commitment: the revealed secret with game ")


def test_setup_options_under_another_edition_than_committed_are_caught(records):
    record = copy.deepcopy(records["camelot"])
    record["setup_options"]["edition"] = 2
    assert _problem(record) == "edition: the game was set up under edition 2, but the commitment names edition 3"


def test_a_changed_seed_with_matching_contribution_is_still_caught_in_the_moves(records):
    # Changing a contribution and the seed together is a game dealt otherwise: a card laid
    # from the recorded hand is then not in the hand dealt.
    record = copy.deepcopy(records["duel"])
    record["contributions"][0] = _bytes("other")[:16].hex()
    record["seed"] = seed_from(bytes.fromhex(record["secret"]), [bytes.fromhex(c) for c in record["contributions"]])
    assert " not legal: " in _problem(record)


def test_a_computer_seat_must_contribute_zeros(records):
    record = copy.deepcopy(records["duel"])
    record["contributions"][1] = "11" * 16
    assert _problem(record) == "contributions: seat 2 is a computer's, so its contribution must be all zeros"


def test_one_contribution_per_seat_at_setup(records):
    record = copy.deepcopy(records["fluxx"])  # three players, one of whom joined late
    assert len(record["players"]) == 3 and len(record["contributions"]) == 2
    assert verify.check_record(record).ok
    record["contributions"].append("22" * 16)
    assert _problem(record) == "contributions: 3 given, but 2 seats were set up (one each, in seat order)"


def test_a_clock_move_must_be_the_rules_timeout_move(records):
    record = copy.deepcopy(records["duel"])
    entry = next(m for m in record["moves"] if m["who"] == "clock")
    timeout = entry["move"]
    # On its own turn the seat may lose on time (the site's referee: a resignation the clock
    # makes); the duel then ends there, so the next recorded move is the first thing wrong.
    entry["move"] = {"type": "resign"}
    after = next(m for m in record["moves"] if m["seq"] > entry["seq"])
    assert _problem(record).startswith(f"move {after['seq']} (seat {after['seat'] + 1}, {after['who']}): ")
    entry["move"] = {"type": "pass"}
    assert _problem(record) == (f"move {entry['seq']} (seat {entry['seat'] + 1}, clock): not the rules' "
                                f"timeout move, which is {json.dumps(timeout)}")
    # The same move said to be a person's is legal too: only the clock is held to the timeout move.
    entry["move"], entry["who"] = timeout, "person"
    assert verify.check_record(record).ok


def test_a_clock_move_for_a_seat_not_waited_for_is_caught(records):
    record = copy.deepcopy(records["duel"])
    entry = next(m for m in record["moves"] if m["who"] == "clock")
    entry["seat"] = 1 - entry["seat"]
    assert _problem(record).endswith("the rules were not waiting for the seat, so it had no clock running")


def test_in_the_duel_a_move_must_be_listed(records):
    record = copy.deepcopy(records["duel"])
    entry = next(m for m in record["moves"] if m["who"] == "person")
    entry["move"] = dict(entry["move"], card=99)
    assert _problem(record) == (f"move {entry['seq']} (seat {entry['seat'] + 1}, person): not legal: "
                                "That move is not open to you now.")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("who", ["person", "computer"])
def test_a_move_must_be_offered_in_every_kind(kind, who, records):
    # ``apply`` alone would take these (an unknown field is ignored by every kind's rules):
    # the checker holds person and computer moves to what the rules offer, as the site does.
    record = copy.deepcopy(records[kind])
    entry = next(m for m in record["moves"] if m["who"] == who and m["move"]["type"] != "join")
    entry["move"] = dict(entry["move"], timed_out=True)
    assert _problem(record) == (f"move {entry['seq']} (seat {entry['seat'] + 1}, {who}): not legal: "
                                "That move has a field the rules do not take: timed_out.")


def test_a_person_may_not_send_the_clocks_end_of_a_camelot_turn(records):
    # The clock's move, {"type": "end_turn", "timed_out": true}, is the rules' own: a person
    # who sends it is refused (in editions 1-3 it let declared targets lapse at no cost).
    record = copy.deepcopy(records["camelot"])
    entry = next(m for m in record["moves"] if m["who"] == "person" and m["move"] == {"type": "end_turn"})
    entry["move"] = {"type": "end_turn", "timed_out": True}
    assert _problem(record) == (f"move {entry['seq']} (seat {entry['seat'] + 1}, person): not legal: "
                                "That move has a field the rules do not take: timed_out.")
    entry["who"] = "clock"  # the same move made by the clock, for a seat it ran out on, checks
    assert verify.check_record(record).ok


def test_a_join_must_take_the_next_seat(records):
    record = copy.deepcopy(records["fluxx"])
    entry = next(m for m in record["moves"] if m["move"] == verify.JOIN_MOVE)
    entry["seat"] = 0
    assert _problem(record) == f"move {entry['seq']} (seat 1, person): a join seats a person in the next seat, seat 3"


def test_a_game_the_site_stopped_with_no_person_left():
    # One person among computers resigns: Camelot plays on, the site stops the game.
    game = verify.rules_for("camelot")
    secret, match_id = _bytes("stopped")[:32], 11
    contributions = [_bytes("p")[:16], C.COMPUTER_CONTRIBUTION, C.COMPUTER_CONTRIBUTION]
    seed = seed_from(secret, contributions)
    state = game.setup(3, {"edition": 3}, seed)
    state, _ = game.apply(state, 0, {"type": "resign"})
    assert game.outcome(state) is None
    record = {
        "record_format": 1, "match": match_id, "kind": "camelot", "edition": 3, "setup_options": {"edition": 3},
        "players": [{"seat": s, "name": str(s), "held_by": h, "held_by_at_end": h}
                    for s, h in enumerate(["person", "computer", "computer"])],
        "commitment": commitment(secret, match_id, "camelot", 3), "secret": secret.hex(),
        "contributions": [c.hex() for c in contributions], "seed": seed,
        "moves": [{"seq": 1, "seat": 0, "time": "2025-05-01T00:00:00Z", "who": "person", "move": {"type": "resign"}}],
        "result": {"winners": [1, 2], "draw": False, "reason": "the site's words"},
    }
    assert verify.check_record(record).ok
    record["result"]["winners"] = [1]
    assert _problem(record).startswith("result: with no person left playing, the seats still in win ([1, 2])")
    record["result"]["winners"] = [1, 2]
    record["players"][1]["held_by_at_end"] = "person"  # a person still plays: the game was not over
    assert _problem(record).startswith("result: the moves do not end the game")


def test_a_malformed_record_names_its_field(records):
    assert _problem({}) == "record: field 'record_format' is missing"
    assert _problem(dict(records["duel"], record_format=2)).startswith("record: format 2 is not one")
    assert _problem(dict(records["duel"], kind="chess")) == "kind: No game kind 'chess'."
    assert _problem(dict(records["duel"], secret="abc")) == "record: field 'secret' must be 32 bytes in hex (64 digits)"
    moves = copy.deepcopy(records["duel"]["moves"])
    moves[2]["seq"] = 7
    assert _problem(dict(records["duel"], moves=moves)) == ("record: moves[2] must have seq 3 "
                                                            "(moves are numbered from 1, in order)")


def test_a_record_the_site_cannot_check_says_why(records):
    """The site's record of a game not committed, of one under way, and of one called off
    before it was set up: each names what is missing, not only a field's wrong type."""
    assert _problem(dict(records["duel"], commitment=None, secret=None)).startswith(
        "commitment: none was published: the game was set up before the site committed")
    assert _problem(dict(records["duel"], secret=None, seed=None, moves=None)) == (
        "secret: not revealed yet: a game's record can be checked once the game is over")
    assert _problem(dict(records["duel"], seed=None)) == (
        "seed: none: the game was never set up, so there is nothing to replay")


def test_rules_are_found_by_kind_without_the_site():
    for kind in KINDS:
        assert verify.rules_for(kind).kind == kind
    for bad in ("", "rng", "../duel", "base", 3):
        with pytest.raises(LookupError):
            verify.rules_for(bad)


# --- the command line ---------------------------------------------------------------------

def _run(path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "games.rules.verify", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_the_command_line_exit_codes(records, tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(records["duel"]))
    out = _run(good)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.strip().endswith("The record checks.") and "ok: commitment:" in out.stdout
    bad = tmp_path / "bad.json"
    tampered = copy.deepcopy(records["duel"])
    tampered["secret"] = "00" * 32
    bad.write_text(json.dumps(tampered))
    out = _run(bad)
    assert out.returncode == 1
    assert out.stdout.strip().splitlines()[-1].startswith("MISMATCH: commitment: ")
    out = _run(tmp_path / "missing.json")
    assert out.returncode == 1 and "cannot read" in out.stdout


def _with_hand_over(record: dict, seat: int, before_seq: int) -> dict:
    """``record`` with the clock's CCG hand-over of ``seat`` inserted before move
    ``before_seq``, the seqs after it and the result as the rules then give them."""
    game = verify.rules_for("ccg")
    moves = [dict(m) for m in record["moves"]]
    at = next(i for i, m in enumerate(moves) if m["seq"] == before_seq)
    moves.insert(at, {"seq": before_seq, "seat": seat, "time": moves[at]["time"], "who": "clock",
                      "move": game.takeover_move(game.setup(2, record["setup_options"], record["seed"]), seat)})
    for n, m in enumerate(moves, start=1):
        m["seq"] = n
    state = game.setup(2, record["setup_options"], record["seed"])
    for m in moves:
        state, _ = game.apply(state, m["seat"], m["move"])
    return dict(record, moves=moves, result=json.loads(json.dumps(game.outcome(state).as_dict())))


def test_the_clocks_hand_over_of_a_ccg_seat_checks_and_only_the_clock_makes_it(records):
    record = records["ccg"]
    entry = next(m for m in record["moves"] if m["seq"] > 10 and m["who"] == "person")
    handed = _with_hand_over(record, entry["seat"], entry["seq"])
    assert verify.check_record(handed).ok, verify.check_record(handed).problem
    inserted = next(m for m in handed["moves"] if m["move"] == {"type": "hand_over"})
    inserted["who"] = "person"
    assert _problem(handed) == (f"move {inserted['seq']} (seat {entry['seat'] + 1}, person): not legal: "
                                "That move is not open to you now.")
