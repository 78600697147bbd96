"""Committed shuffles on the site: the shell's half of games/rules/commitment.py.

When a game is created the site draws a secret and publishes at once only its commitment
(the hash of the secret with the game's id, kind and rules edition). Each seat taken before
the game is set up adds a contribution: a person's comes from their browser (16 random bytes,
sent on creating or joining), a computer seat's is all zeros. A game whose every seat is
filled as it is created (its creator against computers) would be dealt from a contribution
sent before its commitment existed, which the site could have ground its secret against: so
that one is never used, and the game waits for its creator's page to send one
(games/table/services.py, ``match_contribute``). When every seat is filled
the seed is derived from the secret and the contributions in seat order, and the secret stays
hidden until the game is over (finished or abandoned): it gives the seed, and the seed every
card still to come. docs/verify.md says it for players and verifier writers.

A game created with a seed of its own (the tests' ``seed=1234``, which keeps their deals) is
not committed, as no game stored before commitments is: its record says "no commitment".
"""
from __future__ import annotations

import re
import secrets

from games import registry
from games.models import Match
from games.rules import commitment as C
from games.rules.verify import RECORD_FORMAT
from grailsite.errors import ServiceError

ZEROS = C.COMPUTER_CONTRIBUTION.hex()
_CONTRIBUTION = re.compile(r"[0-9a-f]{%d}" % (2 * C.CONTRIBUTION_BYTES))
OVER = Match.ENDED


def committed(match: Match) -> bool:
    return match.record_format > 0


def is_over(match: Match) -> bool:
    """The secret may be shown: the game was finished or called off."""
    return match.status in OVER


def edition_of(kind: str) -> int | str:
    """The rules edition a new game of ``kind`` is played under (the room says; 1 for a kind
    whose rules have had one edition)."""
    return getattr(registry.room(kind), "edition", 1)


def edition_value(text: str) -> int | str:
    """The stored edition as the record writes it: a whole number as a number."""
    return int(text) if text.isdigit() else text


def contribution_text(given) -> str:
    """A person's contribution as stored: 32 lowercase hex digits. None or '' (an API client
    or a page without script that sent none) is 16 zero bytes, a value fixed in advance like
    a computer seat's: the site never picks one for a player, since it knows the secret and
    could try values until the seed suited it."""
    if given is None or given == "":
        return ZEROS
    if isinstance(given, (bytes, bytearray)) and len(given) == C.CONTRIBUTION_BYTES:
        return bytes(given).hex()
    if isinstance(given, str) and _CONTRIBUTION.fullmatch(given.lower()):
        return given.lower()
    raise ServiceError(f"A contribution is {C.CONTRIBUTION_BYTES} bytes in hex "
                       f"({2 * C.CONTRIBUTION_BYTES} digits 0-9 and a-f).")


def commit(match: Match, secret: bytes | None = None) -> None:
    """Give a match just created (its id is part of what is committed to) its secret and
    publish the commitment: one hash and one UPDATE. ``secret``: the tests' own, for a
    committed game they can predict; otherwise ``secrets.token_bytes``, never anything drawn
    from the id or the time."""
    secret = secrets.token_bytes(C.SECRET_BYTES) if secret is None else bytes(secret)
    edition = edition_of(match.kind)
    match.secret = secret.hex()
    match.rules_edition = C.edition_text(edition)
    match.commitment = C.commitment(secret, match.pk, match.kind, edition)
    match.record_format = RECORD_FORMAT
    match.save(update_fields=["secret", "rules_edition", "commitment", "record_format"])


def seat_contribution(match: Match, given=None, *, computer: bool = False) -> str:
    """What a seat taken now contributes: nothing in a game not committed, zeros for a
    computer, else the person's own (``contribution_text``)."""
    if not committed(match):
        return ""
    return ZEROS if computer else contribution_text(given)


def at_setup(seats) -> list[str]:
    """The contributions a committed game is set up with, in seat order (``seats``: those
    seated at setup). A seat without one counts as zeros, as a computer's: none is missing
    once every seat is taken, but a missing one must neither fail a game's start nor make
    its record disagree with its seed."""
    return [s.contribution or ZEROS for s in sorted(seats, key=lambda s: s.index)]


def seed_at_setup(match: Match, seats) -> int:
    """The seed of a committed game being set up: from its secret and the contributions of
    the seats it is set up with, in seat order."""
    return C.seed_from(bytes.fromhex(match.secret), [bytes.fromhex(c) for c in at_setup(seats)])


def public(match: Match, seats) -> dict | None:
    """What the game's JSON and page say of its commitment: the commitment, the edition, each
    seat's contribution (None while it has none) from the start, and while the game waits
    for its creator's contribution when it is dealt without it; the secret and the seed only
    once the game is over. None for a game not committed."""
    if not committed(match):
        return None
    over = is_over(match)
    return {"commitment": match.commitment, "edition": edition_value(match.rules_edition),
            "contributions": [s.contribution or None for s in seats],
            "secret": match.secret if over else None, "seed": match.seed if over else None,
            "deal_due": deal_due_text(match)}


def waiting_for_deal(match: Match) -> bool:
    """Every seat is filled and the game waits for its creator's contribution (or its time)."""
    return match.deal_due is not None and match.status == Match.Status.OPEN


def deal_due_text(match: Match) -> str | None:
    """When a game waiting for its creator's contribution is dealt without it (ISO 8601);
    None for every other game."""
    return match.deal_due.isoformat() if waiting_for_deal(match) else None
