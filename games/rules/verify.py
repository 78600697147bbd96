"""Checking a game's record: that the site kept its promise and every move was a legal one.

A record (docs/verify.md defines it) holds what anyone needs to replay a finished game:
the commitment published before play, the secret revealed after it, every seat's
contribution, the setup options, each move with who made it, and the result. ``check_record``
checks, in this order, and stops at the first thing that does not match:

1. the commitment is the hash of the revealed secret with the game's id, kind and edition
   (and a ``setup_options["edition"]``, where the kind keeps one, is that edition);
2. there is one contribution for each seat at setup, a computer seat's all zeros;
3. the seed the site used is the one the secret and the contributions give;
4. the rules, set up with that seed and the recorded options, accept every move in turn
   from its seat: a person's or computer's move must be one the rules offer that seat
   (``Game.offered``) and ``apply`` must take it (``_check_move`` says what each kind of
   mover must satisfy);
5. the result is what the last move left (or, for a game the site stopped because no
   person was left playing, what the site gives then).

Pure, like the rest of ``games.rules``: reading the file and printing are ``main``'s only,
for ``python -m games.rules.verify RECORD.json`` (exit 0 when the record checks, 1 naming
the first mismatch, 2 for a wrong command line).
"""
from __future__ import annotations

import importlib
import json
import sys
from dataclasses import dataclass, field

from . import commitment as C
from .base import Game, IllegalMove

RECORD_FORMAT = 1
JOIN_MOVE = {"type": "join"}  # a newcomer seated in a game under way (the rules' ``add_seat``)
RESIGN = {"type": "resign"}
MOVERS = ("person", "computer", "clock")

class Mismatch(Exception):
    """The first thing in a record that does not check, in words."""


@dataclass
class Report:
    """What ``check_record`` compared: ``checked`` lists each step that matched, in order;
    ``problem`` names the first that did not (None when the whole record checks)."""

    problem: str | None = None
    checked: list[str] = field(default_factory=list)
    seed: int | None = None
    moves: int = 0
    outcome: dict | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None

    def summary(self) -> str:
        lines = [f"ok: {step}" for step in self.checked]
        lines.append("The record checks." if self.ok else f"MISMATCH: {self.problem}")
        return "\n".join(lines)


def rules_for(kind: str) -> Game:
    """The rules object of ``kind`` without the site's registry: by convention the module
    ``games.rules.<kind>.game`` defines the one ``Game`` subclass whose ``kind`` it is.
    LookupError for anything else (a record names its kind; nothing outside
    ``games.rules`` is imported for it)."""
    if not isinstance(kind, str) or not kind.isidentifier():
        raise LookupError(f"No game kind {kind!r}.")
    name = f"{__package__}.{kind}.game"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name in (f"{__package__}.{kind}", name):
            raise LookupError(f"No game kind {kind!r}.") from None
        raise
    for value in vars(module).values():
        if isinstance(value, type) and issubclass(value, Game) and value.kind == kind:
            return value()
    raise LookupError(f"No game kind {kind!r}.")


def check_record(record: dict) -> Report:
    """Check a record (parsed JSON): see the module's docstring for the steps."""
    report = Report()
    try:
        _check(record, report)
    except Mismatch as mismatch:
        report.problem = str(mismatch)
    return report


def _check(record: dict, report: Report) -> None:
    fmt = _field(record, "record_format", int)
    if fmt != RECORD_FORMAT:
        raise Mismatch(f"record: format {fmt} is not one this verifier reads ({RECORD_FORMAT})")
    _check_published(record)
    kind, match_id = _field(record, "kind", str), _field(record, "match", int)
    edition, options = _field(record, "edition", (int, str)), _field(record, "setup_options", dict)
    secret, published = _hex(record, "secret", C.SECRET_BYTES), _field(record, "commitment", str)
    seed = _field(record, "seed", int)
    players, moves, contributions = _players(record), _moves(record), _contributions(record)
    if "result" not in record:
        raise Mismatch("record: field 'result' is missing")
    at_setup = len(players) - sum(1 for m in moves if m["move"] == JOIN_MOVE)
    if at_setup < 1:
        raise Mismatch(f"record: {len(players) - at_setup} joins, but only {len(players)} players")
    try:
        game = rules_for(kind)
    except LookupError as err:
        raise Mismatch(f"kind: {err}") from None
    _check_commitment(published, secret, match_id, kind, edition, report)
    _check_edition(options, edition, report)
    _check_contributions(contributions, players, at_setup, report)
    report.seed = _check_seed(seed, secret, contributions, report)
    state = _setup(game, at_setup, options, report.seed, report)
    state, lost_on_time = _replay(game, state, moves, at_setup, report)
    report.outcome = _check_result(game, state, record["result"], players, report, lost_on_time=lost_on_time)


# --- the site's promise ---------------------------------------------------------------

def _check_published(record: dict) -> None:
    """Say why a record the site gives for a game it cannot yet (or ever) check has no
    secret, seed or commitment, rather than only that the field has the wrong type."""
    if "commitment" in record and record["commitment"] is None:
        raise Mismatch("commitment: none was published: the game was set up before the site committed "
                       "to its games' chance, so its seed cannot be checked")
    if "secret" in record and record["secret"] is None:
        raise Mismatch("secret: not revealed yet: a game's record can be checked once the game is over")
    if "seed" in record and record["seed"] is None:
        raise Mismatch("seed: none: the game was never set up, so there is nothing to replay")


def _check_commitment(published: str, secret: bytes, match_id: int, kind: str, edition, report: Report) -> None:
    try:
        expected = C.commitment(secret, match_id, kind, edition)
    except ValueError as err:
        raise Mismatch(f"commitment: {err}") from None
    if published.lower() != expected:
        raise Mismatch(f"commitment: the revealed secret with game {match_id}, {kind}, edition {edition} "
                       f"hashes to {expected}, not to the published {published}")
    report.checked.append(f"commitment: {expected} is the revealed secret's, for game {match_id}, "
                          f"{kind}, edition {edition}")


def _check_edition(options: dict, edition, report: Report) -> None:
    """A kind that keeps its edition in the setup options (Camelot) was set up under the
    edition committed to."""
    if "edition" not in options:
        return
    try:
        same = C.edition_text(options["edition"]) == C.edition_text(edition)
    except ValueError:
        same = False
    if not same:
        raise Mismatch(f"edition: the game was set up under edition {options['edition']}, "
                       f"but the commitment names edition {edition}")
    report.checked.append(f"edition: the setup options name edition {edition}, as committed")


def _check_contributions(contributions: list[bytes], players: list[dict], at_setup: int, report: Report) -> None:
    if len(contributions) != at_setup:
        raise Mismatch(f"contributions: {len(contributions)} given, but {at_setup} seats were set up "
                       "(one each, in seat order)")
    for seat, value in enumerate(contributions):
        if players[seat]["held_by"] == "computer" and value != C.COMPUTER_CONTRIBUTION:
            raise Mismatch(f"contributions: seat {seat + 1} is a computer's, so its contribution must be all zeros")
    report.checked.append(f"contributions: one from each of the {at_setup} seats set up, computer seats' all zeros")


def _check_seed(used: int, secret: bytes, contributions: list[bytes], report: Report) -> int:
    derived = C.seed_from(secret, contributions)
    if used != derived:
        raise Mismatch(f"seed: the secret and the contributions give {derived}, but the site used {used}")
    report.checked.append(f"seed: {derived}, from the secret and the contributions")
    return derived


def _setup(game: Game, players: int, options: dict, seed: int, report: Report) -> dict:
    try:
        state = game.setup(players, options, seed)
    except Exception as err:  # noqa: BLE001 - options the rules cannot read set up no game
        raise Mismatch(f"setup: the rules cannot set up {players} players with these options: {err}") from None
    report.checked.append(f"setup: {players} players with the recorded options and seed")
    return state


# --- the moves ------------------------------------------------------------------------

def _replay(game: Game, state: dict, moves: list[dict], seats: int, report: Report) -> tuple[dict, int | None]:
    """The state after every move, and the seat the last move was a loss on time for (the
    clock resigning a seat on its own turn: the referee's forfeit), or None."""
    counts = dict.fromkeys(MOVERS, 0)
    lost_on_time = None
    for entry in moves:
        seq, seat, who, move = entry["seq"], entry["seat"], entry["who"], entry["move"]
        where = f"move {seq} (seat {seat + 1}, {who})"
        if game.outcome(state) is not None:
            raise Mismatch(f"{where}: the game was already over")
        lost_on_time = seat if who == "clock" and move == RESIGN and _on_own_turn(game, state, seat) else None
        if move == JOIN_MOVE:
            state = _join(game, state, seats, entry, where)
            seats += 1
        elif not 0 <= seat < seats:
            raise Mismatch(f"{where}: there are only {seats} seats at the table")
        else:
            state = _check_move(game, state, seat, who, move, where)
        counts[who] += 1
        report.moves += 1
    made = ", ".join(f"{who} {n}" for who, n in counts.items() if n)
    report.checked.append(f"moves: all {len(moves)} legal for their seats" + (f" (made by: {made})" if made else ""))
    return state, lost_on_time


def _on_own_turn(game: Game, state: dict, seat: int) -> bool:
    return any(p.seat == seat and p.kind in game.own_turn_waits for p in game.pending(state))


def _join(game: Game, state: dict, seats: int, entry: dict, where: str) -> dict:
    """A newcomer takes the next seat (the site seats people only, through ``add_seat``)."""
    if entry["who"] != "person" or entry["seat"] != seats:
        raise Mismatch(f"{where}: a join seats a person in the next seat, seat {seats + 1}")
    if not hasattr(game, "add_seat"):
        raise Mismatch(f"{where}: {game.name} seats no one once it has begun")
    try:
        return game.add_seat(state)[0]
    except IllegalMove as err:
        raise Mismatch(f"{where}: not legal: {err.reason}") from None


def _check_move(game: Game, state: dict, seat: int, who: str, move: dict, where: str) -> dict:
    """The state after ``move``, or Mismatch. A person's or computer's move must be one the
    rules offer the seat (``Game.offered``: listed, or a move whose free fields, such as the
    CCG's quote or Cup Quest's aim, pass the checks its kind declares; the rule the site
    applies to a person's move) and be accepted by ``apply``. The computer's choice is not
    re-made: its level and generator are the site's, not the rules', so only that it was
    offered and legal is checked. The clock's move must be the rules' own ``timeout_move``
    for a seat whose clock was running (waited for, clocks not stopped), or resigning the
    seat when the rules refuse their own timeout move (the site's last resort), or the
    rules' ``takeover_move`` for the seat when a computer player took it."""
    if who == "clock":
        return _check_clock(game, state, seat, move, where)
    try:
        why = game.offered(state, seat, move)
    except Exception as err:  # noqa: BLE001 - a move the rules cannot even read was never offered
        raise Mismatch(f"{where}: not legal: the rules cannot read it ({type(err).__name__}: {err})") from None
    if why is not None:
        raise Mismatch(f"{where}: not legal: {why}")
    return _applied(game, state, seat, move, where)


def _check_clock(game: Game, state: dict, seat: int, move: dict, where: str) -> dict:
    takeover = game.takeover_move(state, seat)
    if takeover is not None and move == takeover:
        # The site's record of a computer player taking the seat (``Game.takeover_move``):
        # the rules say when it may be made, whatever the seat was asked.
        return _applied(game, state, seat, move, where)
    if game.clocks_paused(state):
        raise Mismatch(f"{where}: every clock was stopped, so no time could run out")
    if seat not in {p.seat for p in game.pending(state)}:
        raise Mismatch(f"{where}: the rules were not waiting for the seat, so it had no clock running")
    expected = game.timeout_move(state, seat)
    if _plain(move) == _plain(expected):
        return _applied(game, state, seat, move, where)
    if move == RESIGN:
        # The site's referee (docs/rules/time.md): a seat whose own turn ran out loses a game of
        # two, or leaves a larger one at the table's limit, by a resignation the clock makes;
        # and a seat whose timeout move the rules refuse leaves the same way. Only a seat the
        # rules were waiting for on its own turn may lose so, or one whose move was refused.
        if _on_own_turn(game, state, seat):
            return _applied(game, state, seat, move, where)
        try:
            game.apply(state, seat, expected)
        except IllegalMove:
            return _applied(game, state, seat, move, where)
        except Exception as err:  # noqa: BLE001 - the site resigns only on a refusal, never after a crash
            raise Mismatch(f"{where}: the rules cannot make their own timeout move "
                           f"({type(err).__name__}: {err})") from None
        raise Mismatch(f"{where}: the seat was resigned though it was not its own turn and the rules' timeout "
                       f"move {json.dumps(_plain(expected))} was legal")
    raise Mismatch(f"{where}: not the rules' timeout move, which is {json.dumps(_plain(expected))}")


def _applied(game: Game, state: dict, seat: int, move: dict, where: str) -> dict:
    try:
        return game.apply(state, seat, move)[0]
    except IllegalMove as err:
        raise Mismatch(f"{where}: not legal: {err.reason}") from None
    except Exception as err:  # noqa: BLE001 - a move the rules cannot even read was never made
        raise Mismatch(f"{where}: not legal: the rules cannot apply it ({type(err).__name__}: {err})") from None


def _plain(value):
    """JSON's reading of a value (tuples become lists), as a stored move is read."""
    return json.loads(json.dumps(value))


# --- the result -----------------------------------------------------------------------

def _check_result(game: Game, state: dict, recorded, players: list[dict], report: Report, *,
                  lost_on_time: int | None = None) -> dict | None:
    """The recorded result against the rules' outcome. Its reason is compared exactly, but
    for the site's own words in two endings the rules do not know: an aborted game (no
    winner, and the moves must not end it) and a loss on time (the last move the clock's
    resignation of a seat on its own turn: "Seat 2 ran out of time.")."""
    outcome = game.outcome(state)
    if isinstance(recorded, dict) and recorded.get("aborted") is True:
        # The referee ended the game before a person's first move: no result, whatever the moves.
        if outcome is not None or recorded.get("winners") or recorded.get("draw"):
            raise Mismatch(f"result: an aborted game has no winner and the moves must not end it, but the record "
                           f"says {json.dumps(recorded)}")
        report.checked.append("result: aborted before every person had moved; no winner")
        return recorded
    if outcome is not None:
        expected = outcome.as_dict()
        # The rules' keys of the result are compared; the site's notes beside them (why a game
        # was not rated) are not the rules' to give.
        if isinstance(recorded, dict):
            recorded = {key: recorded.get(key) for key in expected}
        if lost_on_time is not None and recorded != expected:
            # The referee's words for a loss on time stand for the rules' (a resignation):
            # the same result, said as the site says it.
            expected = dict(expected, reason=f"Seat {lost_on_time + 1} ran out of time.")
        if recorded != expected:
            raise Mismatch(f"result: the moves end the game with {json.dumps(expected)}, "
                           f"but the record says {json.dumps(recorded)}")
        report.checked.append(f"result: {expected['reason'] or 'as recorded'}")
        return expected
    if recorded is None:
        report.checked.append("result: none, and the moves did not end the game")
        return None
    return _check_no_person_left(game, state, recorded, players, report)


def _check_no_person_left(game, state, recorded, players, report) -> dict:
    """A result the rules did not give: the site stops a game in which every person has
    left and computers play on, won by the seats still in (games/services.py,
    ``_no_person_left``). Its reason is the site's words, so only winners and draw count."""
    if not isinstance(recorded, dict):
        raise Mismatch("result: must be an object or null")
    out = game.seats_out(state)
    people = [p["seat"] for p in players if p["held_by_at_end"] == "person"]
    still_in = [s for s in range(len(players)) if s not in out]
    if not people or any(s not in out for s in people) or not still_in:
        raise Mismatch(f"result: the moves do not end the game, but the record says {json.dumps(recorded)}")
    if recorded.get("winners") != still_in or recorded.get("draw") is not False:
        raise Mismatch(f"result: with no person left playing, the seats still in win ({still_in}), "
                       f"but the record says {json.dumps(recorded)}")
    report.checked.append("result: no person was left playing, and the seats still in won")
    return recorded


# --- reading the record ---------------------------------------------------------------

def _field(record: dict, name: str, kind, label: str | None = None):
    if not isinstance(record, dict) or name not in record:
        raise Mismatch(f"record: field '{label or name}' is missing")
    value = record[name]
    if isinstance(value, bool) or not isinstance(value, kind):
        raise Mismatch(f"record: field '{label or name}' has the wrong type")
    return value


def _hex(record: dict, name: str, size: int) -> bytes:
    return _hex_value(_field(record, name, str), size, name)


def _hex_value(text, size: int, label: str) -> bytes:
    try:
        value = bytes.fromhex(text) if isinstance(text, str) and len(text) == 2 * size else b""
    except ValueError:
        value = b""
    if len(value) != size:
        raise Mismatch(f"record: field '{label}' must be {size} bytes in hex ({2 * size} digits)")
    return value


def _players(record: dict) -> list[dict]:
    players = _field(record, "players", list)
    for i, player in enumerate(players):
        if _field(player, "seat", int, f"players[{i}].seat") != i:
            raise Mismatch(f"record: players[{i}] must be seat {i} (players are listed in seat order)")
        for name in ("held_by", "held_by_at_end"):
            if _field(player, name, str, f"players[{i}].{name}") not in ("person", "computer"):
                raise Mismatch(f"record: players[{i}].{name} must be 'person' or 'computer'")
    return players


def _contributions(record: dict) -> list[bytes]:
    given = _field(record, "contributions", list)
    return [_hex_value(text, C.CONTRIBUTION_BYTES, f"contributions[{i}]") for i, text in enumerate(given)]


def _moves(record: dict) -> list[dict]:
    moves = _field(record, "moves", list)
    for i, entry in enumerate(moves):
        if _field(entry, "seq", int, f"moves[{i}].seq") != i + 1:
            raise Mismatch(f"record: moves[{i}] must have seq {i + 1} (moves are numbered from 1, in order)")
        _field(entry, "seat", int, f"moves[{i}].seat")
        if _field(entry, "who", str, f"moves[{i}].who") not in MOVERS:
            raise Mismatch(f"record: moves[{i}].who must be one of {', '.join(MOVERS)}")
        _field(entry, "move", dict, f"moves[{i}].move")
    return moves


# --- the command line -----------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    """``python -m games.rules.verify RECORD.json``: the only reading and printing here."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m games.rules.verify RECORD.json", file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8") as handle:
            record = json.load(handle)
    except (OSError, ValueError) as err:
        print(f"MISMATCH: record: cannot read {args[0]}: {err}")
        return 1
    report = check_record(record)
    print(report.summary())
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
