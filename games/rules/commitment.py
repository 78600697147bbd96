"""Committed shuffles: the site's promise of a game's chance, made before anyone plays.

Before a game's players join, the site draws a secret of ``SECRET_BYTES`` random bytes
and publishes only ``commitment(secret, ...)``. Each seat seated when the game is set up
adds a contribution of ``CONTRIBUTION_BYTES`` (a person's from their own browser; a
computer seat's is all zeros, fixed in advance, so the site cannot choose it after seeing
the others'). The game's generator is seeded with ``seed_from(secret, contributions)``,
and the secret is revealed once the game is over: anyone can then check that the site
neither changed its secret nor picked the seed (games/rules/verify.py; docs/verify.md
gives the byte encodings and test vectors for writing a verifier in another language).

The site draws the secret itself (``secrets.token_bytes(SECRET_BYTES)``): the rules hold
no global randomness, so there is no helper for it here.
"""
from __future__ import annotations

import hashlib

SECRET_BYTES = 32
CONTRIBUTION_BYTES = 16
COMPUTER_CONTRIBUTION = bytes(CONTRIBUTION_BYTES)  # a computer seat's: all zeros

# Domain tags: a commitment's bytes can never be read as a seed's, nor either as a later
# version's.
COMMITMENT_TAG = b"grailsite commitment v1"
SEED_TAG = b"grailsite seed v1"

# The site's seeds are 62-bit (it drew them with ``secrets.randbits(62)`` before games were
# committed): non-negative and well inside the database's signed 64-bit column.
SEED_BITS = 62


def _field(data: bytes) -> bytes:
    """One field: its length as 4 bytes big-endian, then its bytes. A run of such fields
    reads back one way only, so no two different lists of fields hash alike."""
    return len(data).to_bytes(4, "big") + data


def edition_text(edition: int | str) -> str:
    """The edition as the commitment writes it: an integer in decimal, a string as it is
    (so edition 3 and edition "3" are the same edition)."""
    if isinstance(edition, bool) or not isinstance(edition, (int, str)):
        raise ValueError("A rules edition is an integer or a string.")
    return str(edition)


def commitment_message(secret: bytes, match_id: int, kind: str, edition: int | str) -> bytes:
    """The bytes the commitment hashes: the tag, the secret, the game's id (8 bytes
    big-endian), its kind and its rules edition (UTF-8), each as a length-prefixed field."""
    _check_length("secret", secret, SECRET_BYTES)
    if not isinstance(kind, str):
        raise ValueError("A game's kind is a string.")
    if isinstance(match_id, bool) or not isinstance(match_id, int) or not 0 <= match_id < 1 << 64:
        raise ValueError("A game's id is a whole number from 0 to 2**64 - 1.")
    return b"".join(_field(part) for part in (
        COMMITMENT_TAG, secret, match_id.to_bytes(8, "big"), kind.encode("utf-8"),
        edition_text(edition).encode("utf-8")))


def commitment(secret: bytes, match_id: int, kind: str, edition: int | str) -> str:
    """The SHA-256 of ``commitment_message``, in lowercase hex: published before play."""
    return hashlib.sha256(commitment_message(secret, match_id, kind, edition)).hexdigest()


def seed_message(secret: bytes, contributions: list[bytes]) -> bytes:
    """The bytes the seed hashes: the tag, the secret, then every contribution in seat
    order (seat 0 first), each as a length-prefixed field."""
    _check_length("secret", secret, SECRET_BYTES)
    for contribution in contributions:
        _check_length("contribution", contribution, CONTRIBUTION_BYTES)
    return b"".join(_field(part) for part in (SEED_TAG, secret, *contributions))


def seed_from(secret: bytes, contributions: list[bytes]) -> int:
    """The generator's seed: the first 8 bytes of the SHA-256 of ``seed_message`` read as
    a big-endian unsigned integer, keeping its top ``SEED_BITS`` bits."""
    digest = hashlib.sha256(seed_message(secret, contributions)).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def _check_length(name: str, value: bytes, size: int) -> None:
    if not isinstance(value, (bytes, bytearray)) or len(value) != size:
        raise ValueError(f"A {name} is {size} bytes.")
